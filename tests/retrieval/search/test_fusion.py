"""Reciprocal rank fusion: deterministic order, boosts, and the relevance floor."""

import datetime as dt
from dataclasses import replace

import pytest

from retrieval.fusion import CandidateFacts, FusionWeights, MessageFacts, VectorHit, fuse
from retrieval.lexical import LexicalHit

NOW = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
# Explicit constants, so the arithmetic below does not follow tuning of the defaults.
CLASSIC = FusionWeights(rrf_k=60, people_boost=1.0, reply_share=0.5, prompt_share=0.2)


def _facts(*ids, chat_id=1, sender=None, with_person=False, sent_at=NOW):
    return {
        i: CandidateFacts(
            message_id=i,
            chat_id=chat_id,
            sent_at=sent_at,
            sender_person_id=sender,
            is_from_self=False,
            chat_has_named_person=with_person,
        )
        for i in ids
    }


def _fuse(lexical=(), vector=(), facts=None, weights=None, limit=50, **kwargs):
    return fuse(
        lexical=[LexicalHit(message_id=i, score=1.0) for i in lexical],
        vector=[VectorHit(message_id=i, similarity=s) for i, s in vector],
        facts=facts if facts is not None else _facts(*lexical, *(i for i, _ in vector)),
        weights=weights or CLASSIC,
        now=NOW,
        limit=limit,
        **kwargs,
    )


def test_scores_are_the_sum_of_reciprocal_ranks():
    candidates = _fuse(lexical=[1, 2, 3], vector=[(3, 0.9), (1, 0.8)])

    by_id = {c.message_id: c for c in candidates}
    assert by_id[1].fused_score == pytest.approx(1 / 61 + 1 / 62)
    assert by_id[3].fused_score == pytest.approx(1 / 63 + 1 / 61)
    assert by_id[2].fused_score == pytest.approx(1 / 62)
    assert [c.message_id for c in candidates] == [1, 3, 2]
    assert (by_id[3].lexical_rank, by_id[3].vector_rank, by_id[3].vector_similarity) == (3, 1, 0.9)
    assert (by_id[2].vector_rank, by_id[2].vector_similarity) == (None, None)


def test_ties_break_on_the_newer_message_id_whatever_the_input_order():
    first = _fuse(lexical=[5], vector=[(9, 0.9)])
    second = _fuse(lexical=[9], vector=[(5, 0.9)])

    assert [c.message_id for c in first] == [9, 5]
    assert [c.message_id for c in second] == [9, 5]


def test_vector_only_hits_below_the_floor_are_dropped():
    candidates = _fuse(
        vector=[(1, 0.6), (2, 0.1)], weights=replace(CLASSIC, vector_min_similarity=0.3)
    )

    assert [c.message_id for c in candidates] == [1]


def test_lexical_hits_pass_the_floor_whatever_their_similarity():
    candidates = _fuse(
        lexical=[2], vector=[(2, 0.05)], weights=replace(CLASSIC, vector_min_similarity=0.3)
    )

    assert [c.message_id for c in candidates] == [2]


def test_nothing_passes_gives_no_candidates():
    assert (
        _fuse(vector=[(1, 0.1), (2, 0.2)], weights=replace(CLASSIC, vector_min_similarity=0.3))
        == []
    )


def test_hits_without_facts_are_dropped():
    candidates = _fuse(lexical=[1, 2], facts=_facts(2))

    assert [c.message_id for c in candidates] == [2]


def test_people_boost_prefers_the_named_persons_messages_then_their_chats():
    facts = {
        **_facts(1, sender=None),
        **_facts(2, sender=None, with_person=True),
        **_facts(3, sender=77),
    }

    candidates = _fuse(lexical=[1, 2, 3], facts=facts, person_ids={77})

    assert [c.message_id for c in candidates] == [3, 2, 1]
    assert candidates[0].fused_score == pytest.approx(1 / 63 + 1.0 / 61)
    assert candidates[1].fused_score == pytest.approx(1 / 62 + 0.5 / 61)


def test_preferred_chats_are_boosted_but_others_stay():
    facts = {**_facts(1, chat_id=10), **_facts(2, chat_id=20)}

    candidates = _fuse(lexical=[1, 2], facts=facts, preferred_chat_ids={20})

    assert [c.message_id for c in candidates] == [2, 1]


def test_recency_boost_halves_every_half_life():
    facts = {
        **_facts(1, sent_at=NOW - dt.timedelta(days=30)),
        **_facts(2, sent_at=NOW),
    }
    weights = replace(CLASSIC, recency_boost=1.0, recency_half_life_days=30)

    candidates = _fuse(lexical=[1, 2], facts=facts, weights=weights)

    by_id = {c.message_id: c for c in candidates}
    assert by_id[2].fused_score == pytest.approx(1 / 62 + 1.0 / 61)
    assert by_id[1].fused_score == pytest.approx(1 / 61 + 0.5 / 61)


def test_messages_inside_the_preferred_range_are_boosted_half_open():
    start, end = NOW - dt.timedelta(days=7), NOW
    facts = {
        **_facts(1, sent_at=start - dt.timedelta(seconds=1)),
        **_facts(2, sent_at=start),
        **_facts(3, sent_at=end - dt.timedelta(seconds=1)),
        **_facts(4, sent_at=end),
    }
    weights = replace(CLASSIC, time_range_boost=1.0)

    candidates = _fuse(
        lexical=[1, 4, 2, 3], facts=facts, weights=weights, preferred_range=(start, end)
    )

    by_id = {c.message_id: c for c in candidates}
    assert [c.message_id for c in candidates] == [2, 3, 1, 4]
    assert by_id[2].fused_score == pytest.approx(1 / 63 + 1.0 / 61)
    assert by_id[4].fused_score == pytest.approx(1 / 62)


def test_an_open_ended_preferred_range_boosts_everything_on_its_side():
    facts = {**_facts(1, sent_at=NOW - dt.timedelta(days=2)), **_facts(2, sent_at=NOW)}

    candidates = _fuse(
        lexical=[1, 2], facts=facts, preferred_range=(NOW - dt.timedelta(days=1), None)
    )

    assert [c.message_id for c in candidates] == [2, 1]


def test_limit_keeps_the_best():
    candidates = _fuse(lexical=list(range(1, 11)), limit=3)

    assert [c.message_id for c in candidates] == [1, 2, 3]


def _message(message_id, chat_id=1, sender=None):
    return MessageFacts(
        message_id=message_id,
        chat_id=chat_id,
        sent_at=NOW,
        sender_person_id=sender,
        is_from_self=False,
        chat_has_named_person=False,
    )


def _with_neighbours(message_id, previous=None, next_=None):
    return CandidateFacts(
        message_id=message_id,
        chat_id=1,
        sent_at=NOW,
        sender_person_id=None,
        is_from_self=False,
        chat_has_named_person=False,
        previous=_message(previous) if previous else None,
        next=_message(next_) if next_ else None,
    )


def test_the_reply_to_a_hit_inherits_part_of_its_score():
    facts = {1: _with_neighbours(1, previous=9, next_=2), 5: _with_neighbours(5)}

    candidates = _fuse(lexical=[1, 5], facts=facts)

    by_id = {c.message_id: c for c in candidates}
    assert set(by_id) == {1, 2, 5, 9}
    assert by_id[2].fused_score == pytest.approx(0.5 * (1 / 61))
    assert by_id[2].context_score == pytest.approx(0.5 * (1 / 61))
    assert (by_id[2].lexical_rank, by_id[2].vector_rank) == (None, None)
    assert by_id[9].fused_score == pytest.approx(0.2 * (1 / 61))
    assert by_id[1].context_score == 0.0
    assert [c.message_id for c in candidates] == [1, 5, 2, 9]


def test_context_adds_to_a_neighbour_that_is_also_a_hit():
    facts = {1: _with_neighbours(1, next_=2), 2: _with_neighbours(2, previous=1)}

    candidates = _fuse(lexical=[1, 2], facts=facts)

    by_id = {c.message_id: c for c in candidates}
    assert by_id[2].fused_score == pytest.approx(1 / 62 + 0.5 / 61)
    assert by_id[1].fused_score == pytest.approx(1 / 61 + 0.2 / 62)
    assert len(candidates) == 2


def test_hits_below_the_floor_share_nothing():
    facts = {1: _with_neighbours(1, next_=2)}

    candidates = _fuse(
        vector=[(1, 0.1)], facts=facts, weights=replace(CLASSIC, vector_min_similarity=0.3)
    )

    assert candidates == []


def test_context_sharing_can_be_turned_off():
    facts = {1: _with_neighbours(1, previous=9, next_=2)}

    candidates = _fuse(
        lexical=[1], facts=facts, weights=replace(CLASSIC, reply_share=0.0, prompt_share=0.0)
    )

    assert [c.message_id for c in candidates] == [1]


def test_messages_two_places_from_a_hit_inherit_a_smaller_share():
    facts = {
        1: replace(
            _with_neighbours(1, previous=8, next_=2),
            second_previous=_message(7),
            second_next=_message(3),
        )
    }
    weights = replace(CLASSIC, second_reply_share=0.25, second_prompt_share=0.1)

    candidates = _fuse(lexical=[1], facts=facts, weights=weights)

    by_id = {c.message_id: c for c in candidates}
    assert by_id[3].fused_score == pytest.approx(0.25 * (1 / 61))
    assert by_id[7].fused_score == pytest.approx(0.1 * (1 / 61))
    assert (by_id[3].lexical_rank, by_id[3].vector_rank) == (None, None)
    # The nearer neighbours keep the larger shares.
    assert [c.message_id for c in candidates] == [1, 2, 3, 8, 7]


def test_second_neighbours_share_nothing_when_their_shares_are_zero():
    facts = {1: replace(_with_neighbours(1), second_previous=_message(7), second_next=_message(3))}
    weights = replace(CLASSIC, second_reply_share=0.0, second_prompt_share=0.0)

    candidates = _fuse(lexical=[1], facts=facts, weights=weights)

    assert [c.message_id for c in candidates] == [1]


def test_in_range_legs_add_their_reciprocal_ranks():
    weights = replace(CLASSIC, range_leg_weight=0.5)
    candidates = fuse(
        lexical=[LexicalHit(message_id=1, score=1.0)],
        vector=[VectorHit(message_id=2, similarity=0.9)],
        facts=_facts(1, 2, 3),
        weights=weights,
        now=NOW,
        ranged_lexical=[LexicalHit(message_id=3, score=1.0)],
        ranged_vector=[
            VectorHit(message_id=2, similarity=0.9),
            VectorHit(message_id=3, similarity=0.5),
        ],
        limit=50,
    )

    by_id = {c.message_id: c for c in candidates}
    assert by_id[1].fused_score == pytest.approx(1 / 61)
    assert by_id[2].fused_score == pytest.approx(1 / 61 + 0.5 / 61)
    assert by_id[3].fused_score == pytest.approx(0.5 / 61 + 0.5 / 62)
    assert [c.message_id for c in candidates] == [2, 1, 3]


def test_in_range_vector_hits_below_the_floor_are_dropped():
    candidates = fuse(
        lexical=[],
        vector=[],
        facts=_facts(4),
        weights=replace(CLASSIC, range_leg_weight=0.5, vector_min_similarity=0.3),
        now=NOW,
        ranged_vector=[VectorHit(message_id=4, similarity=0.2)],
        limit=50,
    )

    assert candidates == []


def test_in_range_legs_count_nothing_at_weight_zero():
    weights = replace(CLASSIC, range_leg_weight=0.0)
    with_legs = fuse(
        lexical=[LexicalHit(message_id=1, score=1.0)],
        vector=[],
        facts=_facts(1, 2),
        weights=weights,
        now=NOW,
        ranged_lexical=[LexicalHit(message_id=1, score=1.0)],
        limit=50,
    )

    assert [(c.message_id, c.fused_score) for c in with_legs] == [(1, pytest.approx(1 / 61))]


def _between(message_id, *, previous, next_, sender):
    """A hit sent by ``sender`` with the other speaker's messages (person 2) on both sides."""
    return CandidateFacts(
        message_id=message_id,
        chat_id=1,
        sent_at=NOW,
        sender_person_id=sender,
        is_from_self=False,
        chat_has_named_person=True,
        previous=_message(previous, sender=2),
        next=_message(next_, sender=2),
    )


def test_a_question_for_several_things_shares_context_with_the_named_person_only():
    facts = {1: _between(1, previous=9, next_=2, sender=1)}

    plain = _fuse(lexical=[1], facts=facts, person_ids=[1])
    several = _fuse(lexical=[1], facts=facts, person_ids=[1], named_context_only=True)

    assert {c.message_id for c in plain} == {1, 2, 9}
    assert [c.message_id for c in several] == [1]


def test_the_named_persons_neighbour_still_inherits_when_several_things_are_asked():
    facts = {
        1: replace(
            _between(1, previous=9, next_=2, sender=2),
            next=_message(2, sender=1),
        )
    }

    candidates = _fuse(lexical=[1], facts=facts, person_ids=[1], named_context_only=True)

    by_id = {c.message_id: c for c in candidates}
    assert set(by_id) == {1, 2}
    assert by_id[2].context_score == pytest.approx(0.5 * (1 / 61))


def test_a_question_that_asks_when_prefers_the_message_that_says_when():
    facts = {
        1: CandidateFacts(
            message_id=1,
            chat_id=1,
            sent_at=NOW,
            sender_person_id=None,
            is_from_self=False,
            chat_has_named_person=False,
        ),
        2: CandidateFacts(
            message_id=2,
            chat_id=1,
            sent_at=NOW,
            sender_person_id=None,
            is_from_self=False,
            chat_has_named_person=False,
            states_time=True,
        ),
    }
    weights = replace(CLASSIC, time_answer_boost=0.5)

    asked_when = _fuse(lexical=[1, 2], facts=facts, weights=weights, asks_when=True)
    asked_what = _fuse(lexical=[1, 2], facts=facts, weights=weights)

    assert [c.message_id for c in asked_when] == [2, 1]
    assert asked_when[0].fused_score == pytest.approx(1 / 62 + 0.5 / 61)
    assert [c.message_id for c in asked_what] == [1, 2]
