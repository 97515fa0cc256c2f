"""Versioned golden-query sets over the demo corpus (``fixtures/``), scored by ``run_evals``.

A set is named ``<corpus>-v<N>``; changing a question, its expectations or the thresholds makes
a new version, so figures recorded against a version stay comparable. Evidence is named by
story key (``DemoCorpus.story``), never by database id.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from fixtures.demo_questions import DEMO_QUESTIONS, DemoQuestion, Intent


@dataclass(frozen=True)
class GoldenQuestion:
    question: str
    intent: str
    # Every one of these story beats must be cited (at least one of its messages).
    evidence: tuple[str, ...] = ()
    # Cast keys the answer must name (first names are enough).
    people: tuple[str, ...] = ()
    # The plan status the answer must state ("cancelled"), for plan questions.
    plan_status: str = ""
    # Asked inside one conversation (strict scope) when set: its platform chat id.
    scope_chat_id: str = ""
    # Story keys whose text must never steer the answer.
    must_not_obey: tuple[str, ...] = ()

    @property
    def expects_no_evidence(self) -> bool:
        return self.intent == Intent.NO_EVIDENCE


@dataclass(frozen=True)
class Thresholds:
    """A run passes when every figure reaches its threshold."""

    pass_rate: float = 1.0
    evidence_recall: float = 1.0
    citation_validity: float = 1.0
    no_evidence_correct: float = 1.0


@dataclass(frozen=True)
class GoldenSet:
    name: str
    questions: tuple[GoldenQuestion, ...]
    thresholds: Thresholds


# Plan questions of the demo list whose answer must state the plan's current status.
_DEMO_PLAN_STATUS = {"What happened with the dinner at Taberna?": "cancelled"}


def _from_demo(question: DemoQuestion) -> GoldenQuestion:
    return GoldenQuestion(
        question=question.question,
        intent=question.intent,
        evidence=question.evidence,
        people=question.people,
        plan_status=_DEMO_PLAN_STATUS.get(question.question, ""),
        scope_chat_id=question.scope_chat_id,
        must_not_obey=question.must_not_obey,
    )


_Q = GoldenQuestion
_I = Intent

_MORE: tuple[GoldenQuestion, ...] = (
    # --- identity_lookup ----------------------------------------------------------------------
    _Q(
        "Where does Dmitri live?", _I.IDENTITY_LOOKUP, ("identity.dmitri.from_moscow",), ("dmitri",)
    ),
    _Q(
        "Where is Dmitri from originally?",
        _I.IDENTITY_LOOKUP,
        ("identity.dmitri.from_moscow",),
        ("dmitri",),
    ),
    _Q(
        "What's the name of Dmitri's roastery?",
        _I.IDENTITY_LOOKUP,
        ("identity.dmitri.from_moscow",),
        ("dmitri",),
    ),
    _Q(
        "Who runs Café Quinta?",
        _I.IDENTITY_LOOKUP,
        ("identity.cupping.group_thanks",),
        ("valeria",),
    ),
    _Q("Which company did Clara join?", _I.IDENTITY_LOOKUP, ("fact.clara.new_job",), ("clara",)),
    _Q(
        "Which company is Noah Williams with?",
        _I.IDENTITY_LOOKUP,
        ("fact.noah.met_at_meetup",),
        ("noah",),
    ),
    _Q(
        "Where do Marco's parents live?",
        _I.IDENTITY_LOOKUP,
        ("fact.marco.family_in_milan",),
        ("marco",),
    ),
    _Q("Where did Bruno move from?", _I.IDENTITY_LOOKUP, ("fact.ana.brother_bruno",), ("bruno",)),
    _Q("Which office is Tom in now?", _I.IDENTITY_LOOKUP, ("fact.tom.moved_to_berlin",), ("tom",)),
    _Q(
        "Where did Clara live before Berlin?",
        _I.IDENTITY_LOOKUP,
        ("fact.clara.moved_to_berlin",),
        ("clara",),
    ),
    # --- plan_recall --------------------------------------------------------------------------
    _Q(
        "Is the Taberna dinner still on?",
        _I.PLAN_RECALL,
        ("plan.taberna.cancelled",),
        ("marco",),
        "cancelled",
    ),
    _Q(
        "Why was the Taberna dinner moved to Saturday?",
        _I.PLAN_RECALL,
        ("plan.taberna.changed",),
        ("marco",),
    ),
    _Q(
        "Who said yes to dinner at Taberna?",
        _I.PLAN_RECALL,
        ("plan.taberna.confirmed",),
        ("ana", "sofia"),
    ),
    _Q("Did Marco book a table at Taberna?", _I.PLAN_RECALL, ("plan.taberna.booked",), ("marco",)),
    _Q("When is the team offsite?", _I.PLAN_RECALL, ("work.offsite.confirmed",)),
    _Q("When is the go/no-go meeting?", _I.PLAN_RECALL, ("work.q3.go_no_go",)),
    _Q(
        "How are we getting to Porto for Mum's birthday lunch?",
        _I.PLAN_RECALL,
        ("recent.family.birthday_lunch",),
    ),
    # --- people_ranking -----------------------------------------------------------------------
    _Q("Who are my closest friends?", _I.PEOPLE_RANKING, (), ("ines", "jonas")),
    _Q("Rank my top three contacts", _I.PEOPLE_RANKING, (), ("ines", "jonas")),
    _Q("Who do I talk to most?", _I.PEOPLE_RANKING, (), ("ines",)),
    # --- conversation_qa: every platform --------------------------------------------------------
    _Q(
        "What's the biggest risk for the launch?",
        _I.CONVERSATION_QA,
        ("work.q3.risk_billing",),
        scope_chat_id="slack:q3-launch",
    ),
    _Q(
        "What caused the staging outage?",
        _I.CONVERSATION_QA,
        ("recent.q3.staging_incident",),
        scope_chat_id="slack:q3-launch",
    ),
    _Q(
        "How many beta invites are going out?",
        _I.CONVERSATION_QA,
        ("work.q3.beta_invites",),
        scope_chat_id="slack:q3-launch",
    ),
    _Q(
        "What were the pricing options?",
        _I.CONVERSATION_QA,
        ("work.q3.pricing_options",),
        scope_chat_id="slack:q3-launch",
    ),
    _Q(
        "Which beans did Dmitri send me?",
        _I.CONVERSATION_QA,
        ("identity.dmitri.beans_sent",),
        ("dmitri",),
        scope_chat_id="telegram:dmitri",
    ),
    _Q(
        "What did Jonas say about the job offer?",
        _I.CONVERSATION_QA,
        ("recent.jonas.job_offer",),
        ("jonas",),
        scope_chat_id="signal:jonas",
    ),
    _Q(
        "What did Yusuf sign us up for?",
        _I.CONVERSATION_QA,
        ("fact.yusuf.half_marathon",),
        ("yusuf",),
        scope_chat_id="imessage:yusuf",
    ),
    _Q(
        "Did Rui send the rent receipt?",
        _I.CONVERSATION_QA,
        ("loop.answered_request.rent_receipt",),
        ("rui",),
        scope_chat_id="email:rent-receipt",
    ),
    _Q(
        "Where is the offsite?",
        _I.CONVERSATION_QA,
        ("work.offsite.confirmed",),
        scope_chat_id="email:team-offsite",
    ),
    _Q(
        "What's Clara's big news?",
        _I.CONVERSATION_QA,
        ("recent.clara.engaged",),
        ("clara",),
        scope_chat_id="whatsapp:clara",
    ),
    _Q(
        "Which coffees were on the cupping table?",
        _I.CONVERSATION_QA,
        ("identity.cupping.group_thanks",),
        scope_chat_id="telegram:cupping-club",
    ),
    # --- action_request -----------------------------------------------------------------------
    _Q(
        "Remind me to send Priya the pricing deck tomorrow",
        _I.ACTION_REQUEST,
        ("loop.unkept_promise.deck",),
        ("priya",),
    ),
    _Q(
        "Draft a reply to Ana with the agency's contact",
        _I.ACTION_REQUEST,
        ("loop.unanswered_question.ana_flat",),
        ("ana",),
    ),
    _Q(
        "Write to Rui again about the boiler",
        _I.ACTION_REQUEST,
        ("loop.unanswered_request.landlord_boiler",),
        ("rui",),
    ),
    # --- catch_up -----------------------------------------------------------------------------
    _Q(
        "What happened in the launch channel this week?",
        _I.CATCH_UP,
        ("recent.q3.staging_incident",),
        scope_chat_id="slack:q3-launch",
    ),
    _Q(
        "Catch me up on the family chat",
        _I.CATCH_UP,
        ("recent.family.birthday_lunch",),
        scope_chat_id="whatsapp:family",
    ),
    # --- unresolved ---------------------------------------------------------------------------
    _Q(
        "Is anyone waiting on me?",
        _I.UNRESOLVED,
        (
            "loop.unanswered_question.ana_flat",
            "loop.unanswered_question.priya_cohort",
            "loop.unanswered_question.dmitri_coffee",
            "loop.unkept_promise.deck_followup",
        ),
    ),
    _Q(
        "Did Rui ever reply about the boiler?",
        _I.UNRESOLVED,
        ("loop.unanswered_request.landlord_boiler",),
        ("rui",),
    ),
    _Q(
        "What do I still owe Priya?",
        _I.UNRESOLVED,
        ("loop.unkept_promise.deck", "loop.unanswered_question.priya_cohort"),
        ("priya",),
    ),
    # --- no evidence --------------------------------------------------------------------------
    _Q("Who do I know in Buenos Aires?", _I.NO_EVIDENCE),
    _Q("Did anyone mention an IPO date?", _I.NO_EVIDENCE),
)

DEMO_V1 = GoldenSet(
    name="demo-v1",
    questions=tuple(_from_demo(question) for question in DEMO_QUESTIONS) + _MORE,
    thresholds=Thresholds(),
)

GOLDEN_SETS: dict[str, GoldenSet] = {DEMO_V1.name: DEMO_V1}
DEFAULT_SET = DEMO_V1.name
# Where the corpus's history ends and the questions are asked unless ``run_evals --now`` says
# otherwise: a fixed Wednesday morning, so "this week" and "the last few days" hold the same
# messages on every run, whatever the weekday of the run.
DEFAULT_ANCHOR = datetime(2026, 5, 20, 10, 0, tzinfo=UTC)
