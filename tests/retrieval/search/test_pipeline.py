"""retrieve(): the whole hot path — compile, both legs, fusion, windows, pack — and its query
budget."""

import datetime as dt

import pytest

from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import retrieve
from retrieval.search import VectorStatus
from retrieval.types import Route, Scope
from tests.factories import ChatFactory, ChatParticipantFactory, MessageFactory, PersonFactory
from tests.retrieval.search.helpers import index_user

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
T0 = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
LIMITS = EvidenceLimits(max_sources=4, max_tokens=2000)


def _conversation(user, texts, chat=None, sender=None):
    chat = chat or ChatFactory(user=user)
    extra = {"sender_person": sender} if sender is not None else {}
    return [
        MessageFactory(chat=chat, text=text, sent_at=T0 + dt.timedelta(minutes=n), **extra)
        for n, text in enumerate(texts)
    ]


def test_question_to_pack_with_windows_and_stable_ids(user, hash_index):
    messages = _conversation(
        user,
        [
            "Are you free this weekend?",
            "Yes! Want to try the pottery class?",
            "Sure, the pottery studio opens at 10",
            "Great, see you there",
            "Unrelated: my plants need water",
        ],
    )
    index_user(user)

    result = retrieve(
        user=user,
        question="Does the pottery studio open early?",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )

    assert result.route == Route.HYBRID
    assert result.search.vector_status == VectorStatus.OK
    first = result.pack.sources[0]
    assert first.source_id == "S1"
    assert first.primary_message_id == messages[2].pk
    # The windows around both pottery hits overlap; each hit with the question's words still
    # leads its own source, and every message is shown once.
    assert {source.primary_message_id for source in result.pack.sources} >= {
        messages[1].pk,
        messages[2].pk,
    }
    shown = [mid for source in result.pack.sources for mid in source.message_ids]
    assert sorted(shown) == sorted(m.pk for m in messages)
    assert result.pack.token_estimate <= LIMITS.max_tokens
    assert [s.source_id for s in result.pack.sources] == [
        f"S{n}" for n in range(1, len(result.pack.sources) + 1)
    ]


def test_no_evidence_builds_an_empty_pack_without_loading_windows(user, hash_index, settings):
    settings.RETRIEVAL_VECTOR_MIN_SIMILARITY = 0.99
    _conversation(user, ["lunch tomorrow at noon", "ok"])
    index_user(user)

    result = retrieve(
        user=user,
        question="quantum chromodynamics seminar notes",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )

    assert result.route == Route.NO_EVIDENCE
    assert result.is_no_evidence
    assert result.windows == ()
    assert result.pack.sources == ()


def test_hot_path_query_count_is_pinned(user, hash_index, django_assert_num_queries):
    ana = PersonFactory(user=user, display_name="Ana")
    for chat_number in range(3):
        _conversation(
            user,
            [f"pottery class number {n} in chat {chat_number}" for n in range(10)],
            chat=ChatParticipantFactory(chat=ChatFactory(user=user), person=ana).chat,
            sender=ana,
        )
    index_user(user)
    retrieve(  # warm the embedder and the compiler's lexicons
        user=user, question="pottery", now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )

    # The compiler's lookup of the people the question names, the active index version (with
    # the user's index progress, which chooses exact or approximate search), the capability
    # records that choose the embedding model (read here so the embedding thread needs no
    # connection of its own), lexical leg, vector leg (its HNSW settings travel with it),
    # candidate facts (with neighbours), windows. A conversation question reads no personal
    # memory; the answerability check reads the question's words' matches in the history and
    # in the candidates, and the named people's chats, in one query (retrieval/answerability.py).
    # The user's chat titles are read once to know whether the question names a group by its
    # title (``retrieval.search._titled_chat_ids``; it names none here).
    with django_assert_num_queries(9):
        result = retrieve(
            user=user,
            question="What did Ana say about the pottery class?",
            now=NOW,
            scope=Scope.everywhere(),
            evidence_limits=LIMITS,
        )

    assert result.compiled.people[0].person_ids == (ana.pk,)
    assert 1 <= len(result.pack.sources) <= LIMITS.max_sources


def test_each_hit_with_the_questions_words_leads_its_own_source(user):
    # Five messages: every window overlaps, so they merge into one; the two messages that
    # contain the question's word are still cited each on its own.
    messages = _conversation(
        user,
        [
            "I run a tiny roastery and buy beans in Mexico",
            "nice",
            "sending you a bag",
            "ok",
            "Your beans arrived!",
        ],
    )
    result = retrieve(
        user=user,
        question="Which beans did I get?",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    primaries = {source.primary_message_id for source in result.pack.sources}
    assert {messages[0].pk, messages[4].pk} <= primaries
    shown = sorted(mid for source in result.pack.sources for mid in source.message_ids)
    assert shown == sorted(m.pk for m in messages)
