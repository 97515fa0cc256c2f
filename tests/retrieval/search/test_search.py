"""search(): scope, time range, deletion, isolation, routes and the relevance floor, with both
legs (the vector leg on the deterministic hashed-word embedder)."""

import datetime as dt
from dataclasses import replace

import pytest
from django.utils import timezone

from conversations.models import ChatKind
from indexing.selectors import index_status_for_user
from retrieval.fusion import FusionWeights
from retrieval.search import SearchLimits, VectorStatus, search
from retrieval.types import (
    CompiledQuery,
    Intent,
    PersonRef,
    Route,
    Scope,
    ScopeMode,
    TimeRange,
    TimeTarget,
)
from tests.factories import ChatFactory, ChatParticipantFactory, MessageFactory, PersonFactory
from tests.retrieval.search.helpers import index_user

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
T0 = dt.datetime(2026, 3, 1, 0, 0, tzinfo=dt.UTC)
LIMITS = SearchLimits()


def _compiled(question, keywords, scope=None, route=Route.HYBRID, **kwargs):
    return CompiledQuery(
        question=question,
        intent=Intent.CONVERSATION_QA,
        scope=scope or Scope.everywhere(),
        route=route,
        keywords=tuple(keywords),
        **kwargs,
    )


def _ids(result):
    return result.message_ids


def test_lexical_only_when_there_is_no_index(user):
    chat = ChatFactory(user=user)
    hit = MessageFactory(chat=chat, text="the sushi place on Friday")
    reply = MessageFactory(chat=chat, text="yes please")
    MessageFactory(chat=ChatFactory(user=user), text="nothing to see")

    result = search(user=user, compiled=_compiled("sushi?", ["sushi"]), now=NOW, limits=LIMITS)

    assert result.route == Route.HYBRID
    assert result.vector_status == VectorStatus.NO_ACTIVE_INDEX
    # The reply comes in through its context, after the hit.
    assert _ids(result) == [hit.pk, reply.pk]
    assert result.candidates[0].lexical_rank == 1
    assert result.candidates[0].vector_rank is None
    assert result.candidates[1].lexical_rank is None
    assert result.candidates[1].context_score > 0


def test_both_legs_are_fused(user, hash_index):
    # Separate chats, so that no message is another's neighbour.
    both = MessageFactory(
        chat=ChatFactory(user=user), text="pottery class with grandma on saturday"
    )
    lexical_only = MessageFactory(chat=ChatFactory(user=user), text="pottery")
    MessageFactory(chat=ChatFactory(user=user), text="completely unrelated words here")
    index_user(user)

    result = search(
        user=user,
        compiled=_compiled("pottery class with grandma", ["pottery", "class", "grandma"]),
        now=NOW,
        limits=LIMITS,
    )

    assert result.vector_status == VectorStatus.OK
    assert result.index_version == hash_index.version
    assert _ids(result)[:2] == [both.pk, lexical_only.pk]
    top = result.candidates[0]
    assert (top.lexical_rank, top.vector_rank) == (1, 1)
    assert top.vector_similarity > 0.5


def test_a_named_persons_name_weighs_less_in_the_query_vector(user, hash_index):
    # Separate chats, so that no message is another's neighbour; no keywords, so only the
    # vector leg finds anything.
    addressed = MessageFactory(chat=ChatFactory(user=user), text="thanks ana")
    about = MessageFactory(chat=ChatFactory(user=user), text="the lemon cake was great")
    index_user(user)

    def similarities(semantic_text):
        compiled = _compiled("ana lemon cake", [], semantic_text=semantic_text)
        result = search(user=user, compiled=compiled, now=NOW, limits=LIMITS)
        assert _ids(result) == [about.pk, addressed.pk]
        return {c.message_id: c.vector_similarity for c in result.candidates}

    question_only = similarities("")
    with_semantic_text = similarities("someone lemon cake")

    # The greeting shares only the name: it moves away; the message about the topic closer.
    assert with_semantic_text[addressed.pk] < question_only[addressed.pk]
    assert with_semantic_text[about.pk] > question_only[about.pk]


def test_a_question_about_one_person_is_also_searched_in_their_own_voice(
    user, hash_index, monkeypatch
):
    # No keywords, so only the vector leg finds anything; separate chats, no neighbours.
    told = MessageFactory(chat=ChatFactory(user=user), text="i join my rowing club on mondays")
    asked = MessageFactory(chat=ChatFactory(user=user), text="when did she join her club")
    index_user(user)
    compiled = _compiled(
        "when did Ines join her rowing club",
        [],
        semantic_text="when did someone join her rowing club",
        people=(PersonRef(name="Ines", person_ids=(1,)),),
    )

    def similarities(weight):
        monkeypatch.setattr("retrieval.search.OWN_VOICE_WEIGHT", weight)
        result = search(user=user, compiled=compiled, now=NOW, limits=LIMITS)
        return {c.message_id: c.vector_similarity for c in result.candidates}

    without, with_voice = similarities(0.0), similarities(2.0)

    # "i join my rowing club" is what the person says: their own telling moves closer, and
    # further ahead of a question about them in the third person.
    assert with_voice[told.pk] > without[told.pk]
    assert with_voice[told.pk] - with_voice[asked.pk] > without[told.pk] - without[asked.pk]


def test_strict_chat_scope_searches_only_that_chat(user, hash_index):
    inside, outside = ChatFactory(user=user), ChatFactory(user=user)
    hit = MessageFactory(chat=inside, text="concert tickets for june")
    MessageFactory(chat=outside, text="concert tickets for june")
    index_user(user)
    scope = Scope(mode=ScopeMode.STRICT_CHAT, chat_ids=(inside.pk,))

    result = search(
        user=user, compiled=_compiled("concert tickets", ["concert"], scope), now=NOW, limits=LIMITS
    )

    assert _ids(result) == [hit.pk]


def test_preferred_scope_boosts_but_still_searches_other_chats(user, hash_index):
    preferred, other = ChatFactory(user=user), ChatFactory(user=user)
    in_other = MessageFactory(chat=other, text="concert tickets for june")
    in_preferred = MessageFactory(chat=preferred, text="concert tickets for june")
    index_user(user)
    scope = Scope(mode=ScopeMode.PREFERRED, chat_ids=(preferred.pk,))

    result = search(
        user=user, compiled=_compiled("concert tickets", ["concert"], scope), now=NOW, limits=LIMITS
    )

    assert _ids(result) == [in_preferred.pk, in_other.pk]


def test_excluded_deleted_and_foreign_messages_are_never_returned(user, other_user, hash_index):
    own = MessageFactory(chat=ChatFactory(user=user), text="kayak trip planning")
    excluded_chat = ChatFactory(user=user)
    excluded = MessageFactory(chat=excluded_chat, text="kayak trip planning")
    deleted = MessageFactory(chat=ChatFactory(user=user), text="kayak trip planning")
    MessageFactory(chat=ChatFactory(user=other_user), text="kayak trip planning")
    index_user(user)
    index_user(other_user)
    # Changed after indexing, the way the product changes them.
    from conversations.services import chat_set_excluded_from_ai

    chat_set_excluded_from_ai(chat=excluded_chat, is_excluded=True)
    deleted.deleted_at = timezone.now()
    deleted.save(update_fields=["deleted_at"])

    result = search(
        user=user, compiled=_compiled("kayak trip", ["kayak", "trip"]), now=NOW, limits=LIMITS
    )

    assert _ids(result) == [own.pk]
    assert excluded.pk not in _ids(result)


def test_a_message_time_range_ranks_its_messages_first_without_excluding_others(user, hash_index):
    chat = ChatFactory(user=user)
    before = MessageFactory(chat=chat, text="budget review", sent_at=T0 - dt.timedelta(seconds=1))
    first = MessageFactory(chat=chat, text="budget review", sent_at=T0)
    last = MessageFactory(
        chat=chat, text="budget review", sent_at=T0 + dt.timedelta(days=7, seconds=-1)
    )
    after = MessageFactory(chat=chat, text="budget review", sent_at=T0 + dt.timedelta(days=7))
    index_user(user)
    window = TimeRange(start=T0, end=T0 + dt.timedelta(days=7), timezone="UTC", label="that week")

    result = search(
        user=user,
        compiled=_compiled("budget review", ["budget"], time_range=window),
        now=NOW,
        limits=LIMITS,
    )

    # Half-open: the two inside first, then the two outside.
    assert sorted(_ids(result)[:2]) == sorted([first.pk, last.pk])
    assert sorted(_ids(result)[2:]) == sorted([before.pk, after.pk])
    assert result.vector_status == VectorStatus.OK


def test_an_event_told_after_the_range_it_happened_in_is_found(user, hash_index):
    chat = ChatFactory(user=user)
    told_later = MessageFactory(
        chat=chat, text="we moved here from Sweden", sent_at=T0 - dt.timedelta(days=1)
    )
    index_user(user)
    four_years_ago = TimeRange(
        start=T0 - dt.timedelta(days=4 * 365),
        end=T0 - dt.timedelta(days=3 * 365),
        timezone="UTC",
        label="four years ago",
    )

    result = search(
        user=user,
        compiled=_compiled("where did we move from", ["moved"], time_range=four_years_ago),
        now=NOW,
        limits=LIMITS,
    )

    assert _ids(result) == [told_later.pk]


def test_a_message_sent_soon_after_the_range_is_searched_again_inside_it(user, hash_index):
    chat = ChatFactory(user=user)
    for day in range(1, 6):
        MessageFactory(
            chat=chat,
            text="budget review, the budget review again, budget review",
            sent_at=T0 - dt.timedelta(days=30 + day),
        )
    # Another chat: no neighbour of an old hit shares its score with it.
    told = MessageFactory(
        chat=ChatFactory(user=user), text="we did the budget", sent_at=T0 + dt.timedelta(days=10)
    )
    index_user(user)
    window = TimeRange(start=T0, end=T0 + dt.timedelta(days=7), timezone="UTC", label="that week")
    narrow = replace(LIMITS, lexical_candidates=2, vector_candidates=0)
    compiled = _compiled("what happened with the budget", ["budget"], time_range=window)

    with_legs = search(user=user, compiled=compiled, now=NOW, limits=narrow)
    without = search(
        user=user,
        compiled=compiled,
        now=NOW,
        limits=replace(narrow, weights=replace(narrow.weights, range_leg_weight=0.0)),
    )

    assert told.pk in _ids(with_legs)
    assert told.pk not in _ids(without)


def test_a_question_about_what_was_said_reads_its_range_strictly(user, hash_index):
    chat = ChatFactory(user=user)
    before = MessageFactory(chat=chat, text="budget review", sent_at=T0 - dt.timedelta(seconds=1))
    inside = MessageFactory(chat=chat, text="budget review", sent_at=T0)
    after = MessageFactory(chat=chat, text="budget review", sent_at=T0 + dt.timedelta(days=7))
    index_user(user)
    window = TimeRange(start=T0, end=T0 + dt.timedelta(days=7), timezone="UTC", label="that week")

    said = search(
        user=user,
        compiled=_compiled(
            "what did Ana say about the budget review", ["budget"], time_range=window
        ),
        now=NOW,
        limits=LIMITS,
    )
    happened = search(
        user=user,
        compiled=_compiled("what happened with the budget review", ["budget"], time_range=window),
        now=NOW,
        limits=LIMITS,
    )

    assert _ids(said) == [inside.pk]
    assert _ids(happened)[0] == inside.pk
    assert sorted(_ids(happened)[1:]) == sorted([before.pk, after.pk])


def test_event_time_range_keeps_earlier_messages_about_the_event(user):
    chat = ChatFactory(user=user)
    planned_before = MessageFactory(
        chat=chat, text="dinner at Ana's", sent_at=T0 - dt.timedelta(days=3)
    )
    sent_after = MessageFactory(
        chat=chat, text="dinner at Ana's", sent_at=T0 + dt.timedelta(days=2)
    )
    window = TimeRange(
        start=T0,
        end=T0 + dt.timedelta(days=1),
        timezone="UTC",
        label="March 1",
        applies_to=TimeTarget.EVENT,
    )

    result = search(
        user=user,
        compiled=_compiled("dinner on March 1", ["dinner"], time_range=window),
        now=NOW,
        limits=LIMITS,
    )

    assert _ids(result) == [planned_before.pk]
    assert sent_after.pk not in _ids(result)


def test_people_boost_prefers_the_named_persons_messages(user):
    chat = ChatFactory(user=user)
    ana = PersonFactory(user=user, display_name="Ana")
    ChatParticipantFactory(chat=chat, person=ana)
    from_ana = MessageFactory(chat=chat, sender_person=ana, text="the museum trip", sent_at=T0)
    from_other = MessageFactory(
        chat=ChatFactory(user=user), text="the museum trip", sent_at=T0 + dt.timedelta(1)
    )

    plain = search(user=user, compiled=_compiled("museum", ["museum"]), now=NOW, limits=LIMITS)
    with_person = search(
        user=user,
        compiled=_compiled(
            "what did Ana say about the museum",
            ["museum"],
            people=(PersonRef(name="Ana", person_ids=(ana.pk,)),),
        ),
        now=NOW,
        limits=LIMITS,
    )

    assert _ids(plain) == [from_other.pk, from_ana.pk]
    assert _ids(with_person) == [from_ana.pk, from_other.pk]


def test_people_boost_reads_every_identity_merged_into_the_named_person(user):
    from memory.services import person_merge, person_split
    from retrieval.compile import compile_question

    ana = PersonFactory(user=user, display_name="Ana")
    ana_elsewhere = PersonFactory(user=user, display_name="A. Souza")
    from_ana_elsewhere = MessageFactory(
        chat=ChatFactory(user=user), sender_person=ana_elsewhere, text="the museum trip", sent_at=T0
    )
    from_other = MessageFactory(
        chat=ChatFactory(user=user), text="the museum trip", sent_at=T0 + dt.timedelta(1)
    )

    def ranked() -> list[int]:
        compiled = compile_question(
            user=user,
            question="What did Ana say about the museum?",
            now=NOW,
            scope=Scope.everywhere(),
        )
        return _ids(search(user=user, compiled=compiled, now=NOW, limits=LIMITS))

    before = ranked()
    merge = person_merge(user=user, kept_person_id=ana.pk, merged_person_id=ana_elsewhere.pk)
    merged = ranked()
    person_split(user=user, merge_id=merge.pk, now=NOW)
    split = ranked()

    assert before == [from_other.pk, from_ana_elsewhere.pk]
    assert merged == [from_ana_elsewhere.pk, from_other.pk]
    assert split == before


def test_no_candidate_passing_the_floor_routes_to_no_evidence(user, hash_index):
    chat = ChatFactory(user=user)
    MessageFactory(chat=chat, text="lunch tomorrow at noon")
    index_user(user)
    limits = replace(LIMITS, weights=FusionWeights(vector_min_similarity=0.9))

    result = search(
        user=user,
        compiled=_compiled("quantum chromodynamics seminar", ["quantum", "chromodynamics"]),
        now=NOW,
        limits=limits,
    )

    assert result.route == Route.NO_EVIDENCE
    assert result.is_no_evidence
    assert result.candidates == ()
    assert result.vector_status == VectorStatus.OK


def test_compiled_no_evidence_route_runs_no_query(user, django_assert_num_queries):
    with django_assert_num_queries(0):
        result = search(
            user=user,
            compiled=_compiled("x", ["x"], route=Route.NO_EVIDENCE),
            now=NOW,
            limits=LIMITS,
        )

    assert result.route == Route.NO_EVIDENCE


def test_recent_window_route_reads_newest_messages_in_scope(user):
    chat, excluded = ChatFactory(user=user), ChatFactory(user=user, is_excluded_from_ai=True)
    older = MessageFactory(chat=chat, sent_at=T0)
    newer = MessageFactory(chat=chat, sent_at=T0 + dt.timedelta(hours=1))
    MessageFactory(chat=excluded, sent_at=T0 + dt.timedelta(hours=2))
    limits = replace(LIMITS, recent_messages=5)

    result = search(
        user=user,
        compiled=_compiled("catch me up", [], route=Route.RECENT_WINDOW),
        now=NOW,
        limits=limits,
    )

    assert result.route == Route.RECENT_WINDOW
    assert _ids(result) == [newer.pk, older.pk]


def test_recent_window_with_nothing_in_it_is_no_evidence(user):
    result = search(
        user=user,
        compiled=_compiled("catch me up", [], route=Route.RECENT_WINDOW),
        now=NOW,
        limits=LIMITS,
    )

    assert result.route == Route.NO_EVIDENCE


def test_fusion_order_is_deterministic(user, hash_index):
    chat = ChatFactory(user=user)
    for n in range(12):
        MessageFactory(chat=chat, text=f"weekend plans number {n % 3}", sent_at=T0)
    index_user(user)
    compiled = _compiled("weekend plans", ["weekend", "plans"])

    first = search(user=user, compiled=compiled, now=NOW, limits=LIMITS)
    second = search(user=user, compiled=compiled, now=NOW, limits=LIMITS)

    assert _ids(first) == _ids(second)
    assert len(_ids(first)) == 12


def test_index_status_is_ready_for_indexed_user(user, hash_index):
    MessageFactory(chat=ChatFactory(user=user), text="hello there")
    index_user(user)

    status = index_status_for_user(user=user)

    assert (status.embedded, status.pending) == (1, 0)


def test_routes_without_their_own_source_here_report_the_hybrid_read(user):
    hit = MessageFactory(chat=ChatFactory(user=user), text="who do I talk to most")

    result = search(
        user=user,
        compiled=_compiled("who do I talk to most", ["talk"], route=Route.PEOPLE_RANKING),
        now=NOW,
        limits=LIMITS,
    )

    assert result.route == Route.HYBRID
    assert _ids(result) == [hit.pk]


def test_the_answer_two_turns_after_a_hit_comes_in_through_its_context(user):
    chat = ChatFactory(user=user)
    before = MessageFactory(chat=chat, text="morning", sent_at=T0)
    hit = MessageFactory(chat=chat, text="how did the regatta go?", sent_at=T0 + dt.timedelta(1))
    ack = MessageFactory(chat=chat, text="oh!", sent_at=T0 + dt.timedelta(2))
    answer = MessageFactory(chat=chat, text="we came second", sent_at=T0 + dt.timedelta(3))
    MessageFactory(chat=chat, text="unrelated", sent_at=T0 + dt.timedelta(4))

    result = search(user=user, compiled=_compiled("regatta?", ["regatta"]), now=NOW, limits=LIMITS)

    # The reply, the message before the hit, then the message two places after it; nothing
    # three places away.
    assert _ids(result) == [hit.pk, ack.pk, before.pk, answer.pk]
    by_id = {c.message_id: c for c in result.candidates}
    weights = LIMITS.weights
    assert by_id[answer.pk].context_score == pytest.approx(
        weights.second_reply_share * by_id[hit.pk].fused_score
    )


def test_second_neighbours_outside_the_chat_or_the_time_range_are_left_out(user):
    chat = ChatFactory(user=user)
    MessageFactory(chat=chat, text="too early", sent_at=T0)
    first = MessageFactory(chat=chat, text="fine", sent_at=T0 + dt.timedelta(2))
    hit = MessageFactory(chat=chat, text="regatta results", sent_at=T0 + dt.timedelta(3))
    MessageFactory(chat=ChatFactory(user=user), text="other chat", sent_at=T0 + dt.timedelta(4))
    window = TimeRange(
        start=T0 + dt.timedelta(days=1),
        end=T0 + dt.timedelta(days=5),
        timezone="UTC",
        label="that week",
    )

    result = search(
        user=user,
        compiled=_compiled("what did they say about the regatta", ["regatta"], time_range=window),
        now=NOW,
        limits=LIMITS,
    )

    assert _ids(result) == [hit.pk, first.pk]


def test_neighbours_are_loaded_for_the_best_hits_only(user):
    strong_chat, weak_chat = ChatFactory(user=user), ChatFactory(user=user)
    strong = MessageFactory(chat=strong_chat, text="sailing sailing regatta", sent_at=T0)
    strong_reply = MessageFactory(
        chat=strong_chat, text="count me in", sent_at=T0 + dt.timedelta(1)
    )
    weak = MessageFactory(chat=weak_chat, text="regatta", sent_at=T0)
    MessageFactory(chat=weak_chat, text="maybe next time", sent_at=T0 + dt.timedelta(1))
    limits = replace(LIMITS, context_hits=1)

    result = search(
        user=user,
        compiled=_compiled("sailing regatta", ["sailing", "regatta"]),
        now=NOW,
        limits=limits,
    )

    assert _ids(result) == [strong.pk, weak.pk, strong_reply.pk]


def test_a_when_question_prefers_the_message_that_says_when(user):
    chat = ChatFactory(user=user)
    told = MessageFactory(chat=chat, text="we finally repainted the shed last weekend", sent_at=T0)
    # Far enough apart that neither shares a neighbour's score with the other.
    for offset in range(1, 4):
        MessageFactory(chat=chat, text="ok", sent_at=T0 + dt.timedelta(hours=offset))
    later = MessageFactory(
        chat=chat, text="the shed looks great repainted", sent_at=T0 + dt.timedelta(days=2)
    )

    what = search(
        user=user,
        compiled=_compiled("shed repainted?", ["shed", "repainted"]),
        now=NOW,
        limits=LIMITS,
    )
    when = search(
        user=user,
        compiled=_compiled("When was the shed repainted?", ["shed", "repainted"]),
        now=NOW,
        limits=LIMITS,
    )

    assert _ids(what)[:2] == [later.pk, told.pk]
    assert _ids(when)[:2] == [told.pk, later.pk]


@pytest.mark.parametrize(
    ("question", "keywords", "title", "answer", "elsewhere"),
    [
        (
            "What are we reading for book club in March?",
            ["reading", "book", "club", "march"],
            "Riverside Book Club 📖",
            "March pick: The Quiet Shore. Tue 4th at Wen's?",
            "I'll book a table for March 3, booking for six",
        ),
        (
            "how did we do at the chess tournament on saturday",
            ["chess", "tournament", "saturday"],
            "Chess Wednesdays ♟️",
            "Saturday result: quarter-finals, lost 2-1 to the Eastside team",
            "chess tournament at the fair on saturday? chess sets on sale",
        ),
        (
            "any news from the allotment crew about the shed?",
            ["news", "allotment", "crew", "shed"],
            "Allotment Crew 🌱",
            "shed roof is fixed, new felt on",
            "shed sale at the garden centre, shed discounts all week, news!",
        ),
    ],
)
def test_a_group_named_by_its_title_is_searched_again_without_the_title_words(
    user, question, keywords, title, answer, elsewhere
):
    # The group's messages rarely repeat its title; a message elsewhere has more of the words.
    group = ChatFactory(user=user, kind=ChatKind.GROUP, title=title)
    MessageFactory(chat=group, text="see you all then", sent_at=T0)
    found = MessageFactory(chat=group, text=answer, sent_at=T0 + dt.timedelta(hours=1))
    other = ChatFactory(user=user, kind=ChatKind.GROUP, title="Family")
    decoy = MessageFactory(chat=other, text=elsewhere, sent_at=T0 + dt.timedelta(hours=2))
    compiled = _compiled(question, keywords)

    with_leg = search(user=user, compiled=compiled, now=NOW, limits=LIMITS)
    without = search(
        user=user,
        compiled=compiled,
        now=NOW,
        limits=replace(LIMITS, weights=replace(LIMITS.weights, titled_leg_weight=0.0)),
    )

    assert _ids(with_leg)[0] == found.pk
    assert _ids(without)[0] == decoy.pk


def test_a_group_title_leg_needs_the_question_to_name_the_group(user):
    group = ChatFactory(user=user, kind=ChatKind.GROUP, title="Riverside Book Club 📖")
    in_group = MessageFactory(chat=group, text="March pick: a thriller", sent_at=T0)
    decoy = MessageFactory(
        chat=ChatFactory(user=user, kind=ChatKind.GROUP, title="Family"),
        text="booked a table for March, book it twice",
        sent_at=T0,
    )

    result = search(
        user=user,
        compiled=_compiled("did I book anything for March?", ["book", "march"]),
        now=NOW,
        limits=LIMITS,
    )

    assert _ids(result)[:2] == [decoy.pk, in_group.pk]


def test_a_named_group_whose_messages_say_its_title_is_not_searched_again(user):
    # Its messages carry the title's words: the whole-history legs find them by those words.
    group = ChatFactory(user=user, kind=ChatKind.GROUP, title="Launch Room 🚀")
    MessageFactory(chat=group, text="launch room is open, launch at 9", sent_at=T0)
    MessageFactory(chat=group, text="the checklist is up", sent_at=T0 + dt.timedelta(hours=1))
    MessageFactory(
        chat=ChatFactory(user=user, kind=ChatKind.GROUP, title="Family"),
        text="the checklist for grandma's visit is up, checklist done",
        sent_at=T0 + dt.timedelta(hours=2),
    )
    compiled = _compiled("is the checklist up in the launch room?", ["checklist", "launch room"])

    with_leg = search(user=user, compiled=compiled, now=NOW, limits=LIMITS)
    without = search(
        user=user,
        compiled=compiled,
        now=NOW,
        limits=replace(LIMITS, weights=replace(LIMITS.weights, titled_leg_weight=0.0)),
    )

    assert [c.fused_score for c in with_leg.candidates] == [
        c.fused_score for c in without.candidates
    ]
