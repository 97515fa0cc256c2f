"""The lexical leg: words, names and phrases, and every filter applied inside the query."""

import datetime as dt

import pytest
from django.utils import timezone

from retrieval.lexical import SearchFilters, lexical_search, lexical_terms
from tests.factories import ChatFactory, MessageFactory

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def _ids(hits):
    return [hit.message_id for hit in hits]


def _search(user, keywords, filters=None, limit=50):
    return lexical_search(
        user=user, keywords=keywords, filters=filters or SearchFilters(), term_cap=500, limit=limit
    )


def test_terms_neutralise_websearch_operators():
    assert lexical_terms(["-dinner", "or", "OR", "sushi", '"support group"', "Support Group"]) == [
        "dinner",
        "sushi",
        '"support group"',
    ]


def test_any_content_word_matches_with_stemming(user):
    chat = ChatFactory(user=user)
    hiking = MessageFactory(chat=chat, text="We went hiking in the mountains")
    dinner = MessageFactory(chat=chat, text="Dinner at the new place was great")
    MessageFactory(chat=chat, text="Nothing relevant here at all")

    hits = _search(user, ["hike", "dinners"])

    assert sorted(_ids(hits)) == sorted([hiking.pk, dinner.pk])


def test_message_with_more_and_rarer_terms_ranks_first(user):
    chat = ChatFactory(user=user)
    common = [MessageFactory(chat=chat, text=f"the weekend was long {n}") for n in range(6)]
    both = MessageFactory(chat=chat, text="this weekend we tried the pottery class")
    rare_only = MessageFactory(chat=chat, text="pottery is fun")

    hits = _search(user, ["weekend", "pottery"])

    assert _ids(hits)[:2] == [both.pk, rare_only.pk]
    assert sorted(_ids(hits)[2:]) == sorted(m.pk for m in common)


def test_names_match(user):
    chat = ChatFactory(user=user)
    named = MessageFactory(chat=chat, text="Caroline said she would call back")
    MessageFactory(chat=chat, text="Someone said they would call back")

    assert _ids(_search(user, ["Caroline"])) == [named.pk]


def test_quoted_phrase_needs_adjacent_words(user):
    chat = ChatFactory(user=user)
    phrase = MessageFactory(chat=chat, text="I joined a support group last week")
    MessageFactory(chat=chat, text="The group had no support from anyone")

    assert _ids(_search(user, ["support group"])) == [phrase.pk]


def test_stop_words_alone_match_nothing(user, django_assert_num_queries):
    chat = ChatFactory(user=user)
    MessageFactory(chat=chat, text="what is the plan")

    with django_assert_num_queries(1):
        assert _search(user, ["the", "is"]) == []


def test_no_usable_keyword_runs_no_query(user, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert _search(user, ["-", '""', "or"]) == []


def test_other_users_deleted_and_excluded_messages_never_match(user, other_user):
    own = MessageFactory(chat=ChatFactory(user=user), text="kayak trip planning")
    MessageFactory(chat=ChatFactory(user=other_user), text="kayak trip planning")
    MessageFactory(
        chat=ChatFactory(user=user), text="kayak trip planning", deleted_at=timezone.now()
    )
    MessageFactory(
        chat=ChatFactory(user=user, is_excluded_from_ai=True), text="kayak trip planning"
    )

    assert _ids(_search(user, ["kayak"])) == [own.pk]


def test_scope_chat_ids_filter_inside_the_query(user):
    first = ChatFactory(user=user)
    second = ChatFactory(user=user)
    in_first = MessageFactory(chat=first, text="concert tickets")
    MessageFactory(chat=second, text="concert tickets")

    hits = _search(user, ["concert"], SearchFilters(chat_ids=(first.pk,)))

    assert _ids(hits) == [in_first.pk]


def test_time_range_is_half_open(user):
    chat = ChatFactory(user=user)
    before = MessageFactory(chat=chat, text="budget review", sent_at=T0 - dt.timedelta(seconds=1))
    at_start = MessageFactory(chat=chat, text="budget review", sent_at=T0)
    last_inside = MessageFactory(
        chat=chat, text="budget review", sent_at=T0 + dt.timedelta(days=1, seconds=-1)
    )
    at_end = MessageFactory(chat=chat, text="budget review", sent_at=T0 + dt.timedelta(days=1))

    hits = _search(user, ["budget"], SearchFilters(start=T0, end=T0 + dt.timedelta(days=1)))

    assert sorted(_ids(hits)) == sorted([at_start.pk, last_inside.pk])
    assert before.pk not in _ids(hits) and at_end.pk not in _ids(hits)


def test_term_cap_bounds_candidates_of_a_common_term(user):
    chat = ChatFactory(user=user)
    for n in range(8):
        MessageFactory(chat=chat, text=f"coffee number {n}")
    rare = MessageFactory(chat=chat, text="coffee with grandma")

    hits = lexical_search(
        user=user,
        keywords=["coffee", "grandma"],
        filters=SearchFilters(),
        term_cap=3,
        limit=50,
    )

    # At most 3 candidates per term, and the rare term still brings its message in first.
    assert _ids(hits)[0] == rare.pk
    assert len(hits) <= 4


def test_limit_and_order_are_deterministic(user):
    chat = ChatFactory(user=user)
    same = [
        MessageFactory(chat=chat, text="tennis match", sent_at=T0 + dt.timedelta(minutes=n))
        for n in range(5)
    ]

    hits = _search(user, ["tennis"], limit=3)

    # Equal scores: newest first, then highest id.
    assert _ids(hits) == [same[4].pk, same[3].pk, same[2].pk]


def test_a_word_matches_the_shorthand_and_other_languages_messages_write_it(user):
    chat = ChatFactory(user=user)
    short = MessageFactory(chat=chat, text="quarterly mtg got pushed to thu")
    polish = MessageFactory(chat=chat, text="wracamy w listopadzie, pewnie")
    abbreviated = MessageFactory(chat=chat, text="the lease ends nov 30")
    MessageFactory(chat=chat, text="the novel was long")

    assert _ids(_search(user, ["meeting"])) == [short.pk]
    assert sorted(_ids(_search(user, ["November"]))) == sorted([polish.pk, abbreviated.pk])
    # The other way round: a question written in shorthand finds the whole word.
    spelled = MessageFactory(chat=chat, text="see you thursday then")
    assert sorted(_ids(_search(user, ["thu"]))) == sorted([short.pk, spelled.pk])


def test_an_everyday_word_is_no_form_of_the_day_it_abbreviates(user):
    chat = ChatFactory(user=user)
    sitting = MessageFactory(chat=chat, text="we sat by the lake for hours")
    saturday = MessageFactory(chat=chat, text="saturday works for the lake")

    assert _ids(_search(user, ["saturday"])) == [saturday.pk]
    assert sorted(_ids(_search(user, ["sat"]))) == sorted([sitting.pk, saturday.pk])
