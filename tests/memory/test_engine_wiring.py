from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind
from fixtures.services import demo_corpus_load
from memory import services
from memory.evidence import MemorySource, loop_kinds_for, memory_message_ids
from memory.models import LoopKind
from memory.selectors import people_ranking
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Route, Scope, ScopeMode
from tests.memory.conftest import DEMO_NOW
from tests.memory.helpers import beat_message_ids, chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 3, 18, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=7)
LIMITS = EvidenceLimits(max_sources=6, max_tokens=4000)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _ask(user, question: str, scope: Scope | None = None) -> Retrieval:
    return retrieve(
        user=user,
        question=question,
        now=NOW,
        scope=scope or Scope.everywhere(),
        evidence_limits=LIMITS,
    )


def _primaries(retrieval: Retrieval) -> list[int]:
    return [source.primary_message_id for source in retrieval.pack.sources]


def _cited(retrieval: Retrieval) -> set[int]:
    return {mid for source in retrieval.pack.sources for mid in source.message_ids}


def _two_open_questions(user) -> tuple[int, int]:
    """Rita and Leo each asked the user something the user never answered."""
    rita = chat_of("dm-rita", "Rita")
    leo = chat_of("dm-leo", "Leo")
    ingest(user, rita, say("r0", T0 - timedelta(days=1), "hi Rita"))
    ingest(user, rita, say("r1", T0, "Could you lend me your drill?", sender="Rita"))
    ingest(user, leo, say("l0", T0 - timedelta(days=1), "hey Leo"))
    ingest(user, leo, say("l1", T0 + timedelta(hours=2), "Can you water my plants?", sender="Leo"))
    _refresh(user)
    return message_row(user, "dm-rita", "r1").pk, message_row(user, "dm-leo", "l1").pk


def test_unresolved_cites_the_open_loops_first_and_reports_the_unresolved_route(user):
    rita_question, leo_question = _two_open_questions(user)
    retrieval = _ask(user, "What haven't I replied to?")
    assert retrieval.compiled.source_route == Route.UNRESOLVED
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.OPEN_LOOPS
    assert retrieval.memory.message_ids == (leo_question, rita_question)
    assert retrieval.route == Route.UNRESOLVED
    assert not retrieval.is_no_evidence
    assert _primaries(retrieval)[:2] == [leo_question, rita_question]


def test_unresolved_without_loops_stays_no_evidence(user):
    chat = chat_of("dm-rita", "Rita")
    ingest(user, chat, say("1", T0, "Could you lend me your drill?", sender="Rita"))
    ingest(user, chat, say("2", T0 + timedelta(minutes=3), "Sure, come by"))
    _refresh(user)
    retrieval = _ask(user, "What haven't I replied to?")
    assert retrieval.memory is None
    assert retrieval.route == Route.NO_EVIDENCE
    assert retrieval.pack.sources == ()


def test_a_strict_chat_scope_reads_only_that_chats_loops(user):
    rita_question, leo_question = _two_open_questions(user)
    rita_chat = Chat.objects.get(user=user, platform_chat_id="dm-rita")
    retrieval = _ask(
        user,
        "What haven't I replied to?",
        Scope(mode=ScopeMode.STRICT_CHAT, chat_ids=(rita_chat.pk,)),
    )
    assert retrieval.memory is not None
    assert retrieval.memory.message_ids == (rita_question,)
    assert _primaries(retrieval)[0] == rita_question
    assert leo_question not in _cited(retrieval)
    assert {source.chat_id for source in retrieval.pack.sources} == {rita_chat.pk}


def test_a_chat_excluded_from_ai_is_never_cited_from_memory(user):
    rita_question, leo_question = _two_open_questions(user)
    Chat.objects.filter(user=user, platform_chat_id="dm-leo").update(is_excluded_from_ai=True)
    retrieval = _ask(user, "What haven't I replied to?")
    assert retrieval.memory is not None
    assert retrieval.memory.message_ids == (rita_question,)
    assert leo_question not in _cited(retrieval)
    Chat.objects.filter(user=user, platform_chat_id="dm-rita").update(is_excluded_from_ai=True)
    retrieval = _ask(user, "What haven't I replied to?")
    assert retrieval.memory is None
    assert retrieval.route == Route.NO_EVIDENCE
    assert retrieval.pack.sources == ()


def test_another_users_memory_is_never_used(user, other_user):
    _two_open_questions(other_user)
    retrieval = _ask(user, "What haven't I replied to?")
    assert retrieval.memory is None
    assert retrieval.route == Route.NO_EVIDENCE
    assert retrieval.pack.sources == ()
    assert memory_message_ids(user=user, compiled=retrieval.compiled, now=NOW) is None


def test_a_deleted_loop_opener_is_not_cited(user):
    rita_question, leo_question = _two_open_questions(user)
    ingest(
        user,
        chat_of("dm-leo", "Leo"),
        say("l1", T0 + timedelta(hours=2), "", sender="Leo", is_deleted=True),
    )
    retrieval = _ask(user, "What haven't I replied to?")
    assert retrieval.memory is not None
    assert retrieval.memory.message_ids == (rita_question,)
    assert leo_question not in _cited(retrieval)


def test_people_ranking_cites_the_top_people_first(user):
    ines = chat_of("dm-ines", "Ines")
    jonas = chat_of("dm-jonas", "Jonas")
    ingest(
        user,
        ines,
        *[
            say(
                f"i{n}",
                T0 + timedelta(hours=n),
                f"note {n}",
                sender="Ines" if n % 2 else None,
            )
            for n in range(8)
        ],
    )
    ingest(
        user,
        jonas,
        say("j0", T0, "hello Jonas"),
        say("j1", T0 + timedelta(minutes=5), "hello back", sender="Jonas"),
    )
    _refresh(user)
    ranked = people_ranking(user=user, now=NOW, limit=5)
    assert [item.display_name for item in ranked] == ["Ines", "Jonas"]
    retrieval = _ask(user, "Who are my closest friends?")
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.PEOPLE_RANKING
    # Round-robin: each person's newest message before anyone's second one.
    first_of_each = [
        ranked[0].representative_message_ids[0],
        ranked[1].representative_message_ids[0],
    ]
    assert list(retrieval.memory.message_ids[:2]) == first_of_each
    assert retrieval.route == Route.PEOPLE_RANKING
    assert _primaries(retrieval)[:2] == first_of_each


def test_plan_recall_cites_every_step_the_proving_ones_first(user):
    group = chat_of("crew", "Rita", "Leo", kind=ChatKind.GROUP)
    direct = chat_of("dm-leo", "Leo", platform="telegram")
    ingest(
        user,
        group,
        say("p1", T0, "Dinner Friday at 8 at Casa Nova?", sender="Leo"),
        say("p2", T0 + timedelta(minutes=5), "Count me in!", sender="Rita", reply_to="p1"),
    )
    ingest(
        user,
        direct,
        say(
            "c1",
            T0 + timedelta(days=1),
            "Can we move Casa Nova to Saturday at 8 instead?",
            sender="Leo",
            platform="telegram",
        ),
    )
    _refresh(user)
    steps = [
        message_row(user, "crew", "p1").pk,
        message_row(user, "crew", "p2").pk,
        message_row(user, "dm-leo", "c1").pk,
    ]
    retrieval = _ask(user, "What happened with the dinner at Casa Nova?")
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.PLANS
    # The move (it set the status and the time) and the proposal lead; the other steps
    # follow, oldest first.
    assert retrieval.memory.message_ids == (steps[2], steps[0], steps[1])
    assert retrieval.route == Route.HYBRID
    assert _primaries(retrieval)[0] == steps[2]
    assert set(steps) <= _cited(retrieval)


def test_identity_questions_cite_the_identity_evidence_first(user, demo_corpus):
    demo_corpus_load(user=user, corpus=demo_corpus)
    _refresh(user)
    brother = beat_message_ids(user, demo_corpus, "fact.ana.brother_bruno")
    retrieval = retrieve(
        user=user,
        question="What's Ana's brother called?",
        now=DEMO_NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.IDENTITY
    assert retrieval.memory.message_ids
    assert set(retrieval.memory.message_ids) <= brother
    assert retrieval.route == Route.HYBRID
    assert _primaries(retrieval)[0] == retrieval.memory.message_ids[0]


def test_conversation_questions_read_no_memory(user):
    _two_open_questions(user)
    retrieval = _ask(user, "What did Rita say about the drill?")
    assert retrieval.memory is None


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("What haven't I replied to?", (LoopKind.QUESTION_TO_USER,)),
        ("Which messages have I not answered?", (LoopKind.QUESTION_TO_USER,)),
        ("Is anyone waiting on me?", (LoopKind.QUESTION_TO_USER, LoopKind.PROMISE_BY_USER)),
        ("What did I promise Ana?", (LoopKind.PROMISE_BY_USER,)),
        ("Who hasn't got back to me?", (LoopKind.REQUEST_BY_USER,)),
        ("Did Rui ever reply about the boiler?", (LoopKind.REQUEST_BY_USER,)),
        ("What is unresolved?", ()),
        ("What do I still owe Priya?", (LoopKind.QUESTION_TO_USER, LoopKind.PROMISE_BY_USER)),
    ],
)
def test_loop_kinds_follow_the_question(question, kinds):
    assert loop_kinds_for(question) == kinds


def test_every_loop_of_one_chat_leads_its_own_source_with_a_note(user):
    chat = chat_of("dm-rita", "Rita")
    ingest(
        user,
        chat,
        say("0", T0 - timedelta(days=1), "hi Rita"),
        say("1", T0, "Could you lend me your drill?", sender="Rita"),
        say("2", T0 + timedelta(minutes=1), "Can you also send the ladder photos?", sender="Rita"),
    )
    _refresh(user)
    first, second = message_row(user, "dm-rita", "1").pk, message_row(user, "dm-rita", "2").pk
    retrieval = _ask(user, "What haven't I replied to?")
    assert retrieval.memory is not None
    assert set(retrieval.memory.message_ids) == {first, second}
    # The two windows overlap; each open loop is still citable on its own.
    assert set(_primaries(retrieval)[:2]) == {first, second}
    assert retrieval.memory.notes[first] == "Rita: asked you, no reply yet"
    assert set(retrieval.memory_sources) == {"S1", "S2"}
    assert retrieval.memory_sources["S1"].endswith("asked you, no reply yet")


def test_promise_questions_also_cite_the_follow_up_and_the_ask_of_the_promise(user):
    chat = chat_of("dm-priya", "Priya")
    ingest(
        user,
        chat,
        say("1", T0, "Could you put together the deck?", sender="Priya"),
        say("2", T0 + timedelta(minutes=3), "Sure, I'll send the deck tomorrow morning."),
        say("3", T0 + timedelta(days=3), "Hi Sam, any news on the deck?", sender="Priya"),
    )
    _refresh(user)
    ask, promise, follow_up = (
        message_row(user, "dm-priya", "1").pk,
        message_row(user, "dm-priya", "2").pk,
        message_row(user, "dm-priya", "3").pk,
    )
    retrieval = _ask(user, "What did I promise and not do?")
    assert retrieval.memory is not None
    assert retrieval.memory.message_ids == (promise, follow_up, ask)
    assert retrieval.memory.notes[promise] == "Priya: you promised, not done yet"


def test_a_requested_action_naming_someone_cites_the_open_loops_with_them(user):
    rita_question, _leo_question = _two_open_questions(user)
    retrieval = _ask(user, "Draft a reply to Rita")
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.OPEN_LOOPS
    assert retrieval.memory.message_ids == (rita_question,)
    assert retrieval.route == Route.HYBRID


def test_catch_up_cites_open_questions_then_the_most_telling_message_of_each_chat(user):
    rita_question, leo_question = _two_open_questions(user)
    crew = chat_of("crew", "Rita", "Nina", kind=ChatKind.GROUP)
    ingest(
        user,
        crew,
        say("c1", NOW - timedelta(hours=30), "ok", sender="Nina"),
        say(
            "c2",
            NOW - timedelta(hours=29),
            "The climbing gym closes for renovation from Monday, two weeks",
            sender="Nina",
        ),
        say("c3", NOW - timedelta(hours=28), "Noted, thanks for telling us all!"),
        say(
            "c4",
            NOW - timedelta(days=10),
            "An old message about something else entirely",
            sender="Rita",
        ),
    )
    ingest(
        user, chat_of("dm-rita", "Rita"), say("r9", NOW - timedelta(hours=5), "👍", sender="Rita")
    )
    _refresh(user)
    retrieval = _ask(user, "Catch me up")
    news = message_row(user, "crew", "c2").pk
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.RECENT_DIGEST
    assert retrieval.route == Route.RECENT_WINDOW
    # Open questions to the user first (none opened in the window here), then one item per
    # chat that spoke in it, the most telling first; the user's own messages lead nothing.
    ids = retrieval.memory.message_ids
    assert ids[0] == news
    assert message_row(user, "dm-rita", "r9").pk in ids
    assert message_row(user, "crew", "c3").pk not in ids
    assert message_row(user, "crew", "c4").pk not in ids
    assert rita_question not in ids and leo_question not in ids


def test_identity_question_naming_someone_cites_their_facts_current_first(user):
    chat = chat_of("dm-tom", "Tom")
    ingest(
        user,
        chat,
        say("0", T0 - timedelta(days=40), "hey Tom"),
        say("1", T0 - timedelta(days=30), "I live in Hamburg, by the harbour", sender="Tom"),
        say("2", T0, "Big news: I finally moved from Hamburg to Berlin", sender="Tom"),
    )
    _refresh(user)
    moved = message_row(user, "dm-tom", "2").pk
    retrieval = _ask(user, "Which office is Tom in now?")
    assert retrieval.compiled.intent == "identity_lookup"
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.IDENTITY
    assert retrieval.memory.message_ids[0] == moved
    assert "Tom lives in Berlin" in retrieval.memory.notes[moved]


def test_my_relative_is_found_by_what_the_user_said_and_then_asked_about(user):
    ingest(
        user,
        chat_of("dm-ines", "Inês"),
        say("1", T0 - timedelta(days=20), "My sister Clara got the job in Berlin!!"),
        say("2", T0 - timedelta(days=20, minutes=-5), "Tell her congrats!", sender="Inês"),
    )
    ingest(
        user,
        chat_of("dm-clara", "Clara"),
        say("1", T0 - timedelta(days=60), "I live in Porto, by the river", sender="Clara"),
        say("2", T0, "Keys collected! Officially moved from Porto to Berlin", sender="Clara"),
    )
    ingest(
        user,
        chat_of("dm-rita", "Rita"),
        say("1", T0, "I moved to Madrid last week, meet my sister Joana", sender="Rita"),
    )
    _refresh(user)
    told = message_row(user, "dm-ines", "1").pk
    moved = message_row(user, "dm-clara", "2").pk
    retrieval = _ask(user, "Where does my sister live now?")
    assert retrieval.memory is not None
    assert retrieval.memory.source == MemorySource.IDENTITY
    ids = retrieval.memory.message_ids
    # Who the sister is, then what memory knows about her, current facts first.
    assert ids[:2] == (told, moved)
    assert "Clara lives in Berlin" in retrieval.memory.notes[moved]
    # Rita's sister is not the user's.
    assert message_row(user, "dm-rita", "1").pk not in ids
    assert {told, moved} <= _cited(retrieval)
    # Nobody is the user's brother: memory has nothing to add.
    brother = _ask(user, "Where does my brother live now?")
    assert brother.memory is None or not brother.memory.message_ids


def test_asking_what_someone_wants_reads_their_own_messages_most_telling_first(user):
    ingest(
        user,
        chat_of("tg-prizes", "Prize Desk"),
        say(
            "1",
            T0,
            "Congratulations! Your number won a travel voucher, reply YES",
            sender="Prize Desk",
        ),
        say("2", T0 + timedelta(hours=1), "🎁", sender="Prize Desk"),
        say("3", T0 + timedelta(hours=2), "who is this?"),
        say("4", T0 + timedelta(hours=3), "Tap to claim", sender="Prize Desk"),
    )
    ingest(
        user,
        chat_of("group", "Prize Desk", "Ana", kind=ChatKind.GROUP),
        say("1", T0, "Win a free cruise today only", sender="Prize Desk"),
        say("2", T0, "I want the blue one", sender="Ana"),
    )
    voucher, emoji, reply, tap = (message_row(user, "tg-prizes", k).pk for k in "1234")
    cruise = message_row(user, "group", "1").pk
    everywhere = _ask(user, "What does Prize Desk want?")
    assert everywhere.memory is not None
    assert everywhere.memory.source == MemorySource.PERSON_DIGEST
    # Their own messages only (not the user's reply, not Ana's "want"), most telling first.
    assert everywhere.memory.message_ids == (voucher, cruise, tap, emoji)
    assert everywhere.memory.notes[voucher] == "Prize Desk"
    assert not everywhere.is_no_evidence
    assert reply not in everywhere.memory.message_ids
    chat = Chat.objects.get(user=user, platform_chat_id="tg-prizes")
    scoped = _ask(
        user, "What does Prize Desk want?", Scope(mode=ScopeMode.STRICT_CHAT, chat_ids=(chat.pk,))
    )
    assert scoped.memory is not None
    assert scoped.memory.message_ids == (voucher, tap, emoji)
    # A topic keeps the question a search: the topic must be found.
    assert _ask(user, "What did Prize Desk say about the IPO?").memory is None
    # An excluded chat is never read.
    chat.is_excluded_from_ai = True
    chat.save(update_fields=["is_excluded_from_ai"])
    assert _ask(user, "What does Prize Desk want?").memory.message_ids == (cruise,)
