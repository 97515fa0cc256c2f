"""factory-boy factories for every model of the project, one module per app; everything is
re-exported here so ``from tests.factories import X`` works for all of them.
``tests/test_factories.py`` checks that each model has one and that what it builds is valid."""

from tests.factories.ai import ModelCapabilityRecordFactory
from tests.factories.assistant import AssistantTurnFactory, ThreadFactory, UserTurnFactory
from tests.factories.billing import (
    AiPolicyFactory,
    BudgetPeriodFactory,
    PriceBookEntryFactory,
    PriceBookFactory,
    ReservationFactory,
    UsageEventFactory,
)
from tests.factories.conversations import (
    ChatFactory,
    ChatParticipantFactory,
    MessageFactory,
    PersonFactory,
    PersonIdentityFactory,
    PlatformConnectionFactory,
    UserFactory,
)
from tests.factories.indexing import (
    IndexJobFactory,
    IndexProgressFactory,
    IndexVersionFactory,
    MessageEmbeddingFactory,
)
from tests.factories.memory import (
    FactRefinementFactory,
    LoopFactory,
    MemoryJobFactory,
    MemoryPolicyFactory,
    MessageClaimFactory,
    PersonChatDayFactory,
    PersonFactFactory,
    PersonFactRejectionFactory,
    PersonFactSourceFactory,
    PersonMergeFactory,
    PlanFactory,
    PlanStepFactory,
    RefinedFactClaimFactory,
)
from tests.factories.observability import (
    AlertFiringFactory,
    AlertRuleFactory,
    GateRunFactory,
    ReleaseBaselineFactory,
    RolloutEventFactory,
    RolloutFactory,
)
from tests.factories.proposals import (
    CapabilityFactory,
    CapabilityGrantFactory,
    OutboxMessageFactory,
    PluginFactory,
    ProposalFactory,
    ReceiptFactory,
)
from tests.factories.retrieval import EvidencePackRecordFactory, EvidenceSourceRecordFactory

__all__ = [
    "AiPolicyFactory",
    "AlertFiringFactory",
    "AlertRuleFactory",
    "AssistantTurnFactory",
    "BudgetPeriodFactory",
    "CapabilityFactory",
    "CapabilityGrantFactory",
    "ChatFactory",
    "ChatParticipantFactory",
    "EvidencePackRecordFactory",
    "EvidenceSourceRecordFactory",
    "FactRefinementFactory",
    "GateRunFactory",
    "IndexJobFactory",
    "IndexProgressFactory",
    "IndexVersionFactory",
    "LoopFactory",
    "MemoryJobFactory",
    "MemoryPolicyFactory",
    "MessageClaimFactory",
    "MessageEmbeddingFactory",
    "MessageFactory",
    "ModelCapabilityRecordFactory",
    "OutboxMessageFactory",
    "PersonChatDayFactory",
    "PersonFactFactory",
    "PersonFactRejectionFactory",
    "PersonFactSourceFactory",
    "PersonFactory",
    "PersonIdentityFactory",
    "PersonMergeFactory",
    "PlanFactory",
    "PlanStepFactory",
    "PlatformConnectionFactory",
    "PluginFactory",
    "PriceBookEntryFactory",
    "PriceBookFactory",
    "ProposalFactory",
    "ReceiptFactory",
    "RefinedFactClaimFactory",
    "ReleaseBaselineFactory",
    "ReservationFactory",
    "RolloutEventFactory",
    "RolloutFactory",
    "ThreadFactory",
    "UsageEventFactory",
    "UserFactory",
    "UserTurnFactory",
]
