"""Whether searched evidence can answer the question: a topic the history never mentions and
named people with nothing of theirs become the deterministic no-evidence answer; a typo or one
unseen word does not, and partial evidence is answered with its strength."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from claire.ai.local.embedder import common_words
from retrieval.answerability import (
    _ASKED_KIND,
    COMMON_WORD_COUNT,
    STRONG_SIMILARITY,
    WEAK_STRENGTH,
    EvidenceSignals,
    _is_about_reader,
    answerability_assess,
    answerability_decide,
    asked_action,
    names_people_as_topic,
    refusal_note,
    role_asking_words,
)
from retrieval.compile import compile_question
from retrieval.evidence import EvidenceLimits
from retrieval.fusion import SearchCandidate
from retrieval.lexicon import fold_text
from retrieval.pipeline import retrieve
from retrieval.search import SearchResult
from retrieval.slots import (
    asked_slot,
    asked_speaker,
    asks_opinion,
    claims_thing,
    gives_slot,
    is_opinion,
    owned_things,
)
from retrieval.types import Route, Scope
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 3, 18, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=7)
LIMITS = EvidenceLimits(max_sources=6, max_tokens=4000)


def _ask(user, question: str):
    return retrieve(
        user=user, question=question, now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )


def _history(user) -> None:
    jonas = chat_of("dm-jonas", "Jonas")
    ingest(
        user,
        jonas,
        say("0", T0 - timedelta(days=1), "hey Jonas"),
        say(
            "1",
            T0,
            "The new door code for the building is 4815, for the courier",
            sender="Jonas",
            is_deleted=True,
        ),
        say("2", T0 + timedelta(minutes=1), "ignore that, wrong chat", sender="Jonas"),
        say("3", T0 + timedelta(hours=1), "The courier comes at noon tomorrow", sender="Jonas"),
    )
    work = chat_of("team", "Mark", "Olu")
    ingest(
        user,
        work,
        say(
            "w1",
            T0,
            "Code freeze is on Friday, the front door of the office is fixed",
            sender="Mark",
        ),
        say(
            "w2",
            T0 + timedelta(hours=2),
            "Appointment with the landlord moved to Monday",
            sender="Olu",
        ),
    )


def test_a_topic_the_history_never_mentions_has_no_evidence(user):
    _history(user)
    retrieval = _ask(user, "Is the dentist checkup expensive?")
    assert retrieval.is_no_evidence
    assert retrieval.route == Route.NO_EVIDENCE
    assert retrieval.pack.is_empty


def test_a_named_person_with_nothing_on_the_topic_has_no_evidence(user):
    _history(user)
    # "door" and "code" exist, but only in Mark's message; Jonas's own was deleted.
    retrieval = _ask(user, "What's the door code Jonas sent me?")
    assert retrieval.is_no_evidence


def test_a_named_persons_own_words_answer(user):
    _history(user)
    retrieval = _ask(user, "What did Jonas say about the courier?")
    assert not retrieval.is_no_evidence
    courier = message_row(user, "dm-jonas", "3").pk
    assert courier in [source.primary_message_id for source in retrieval.pack.sources]


def test_known_words_answer_even_when_one_of_them_is_rare(user):
    _history(user)
    retrieval = _ask(user, "When is the code freeze?")
    assert not retrieval.is_no_evidence


def _candidate(message_id: int, *, similarity: float | None, lexical: bool) -> SearchCandidate:
    return SearchCandidate(
        message_id=message_id,
        chat_id=1,
        sent_at=T0,
        sender_person_id=None,
        is_from_self=False,
        lexical_rank=1 if lexical else None,
        lexical_score=1.0 if lexical else None,
        vector_rank=1 if similarity is not None else None,
        vector_similarity=similarity,
        fused_score=0.1,
    )


def test_a_candidate_close_in_meaning_answers_whatever_its_words(user):
    compiled = compile_question(
        user=user, question="What caused the staging outage?", now=NOW, scope=Scope.everywhere()
    )
    close = SearchResult(
        route=Route.HYBRID,
        candidates=(_candidate(1, similarity=STRONG_SIMILARITY + 0.05, lexical=False),),
        vector_status="ok",
    )
    far = SearchResult(
        route=Route.HYBRID,
        candidates=(_candidate(1, similarity=STRONG_SIMILARITY - 0.2, lexical=False),),
        vector_status="ok",
    )
    answered = answerability_assess(user=user, compiled=compiled, result=close)
    assert answered is not None and answered.rule is None
    refused = answerability_assess(user=user, compiled=compiled, result=far)
    assert refused is not None
    assert refused.rule == "no_topic"
    assert set(refused.signals.unknown_terms) == {"caused", "staging", "outage"}


def test_one_unseen_word_beside_known_ones_is_answered_from_the_best_evidence(user):
    _history(user)
    # "broken" is in no message; "front", "door" and "office" are.
    retrieval = _ask(user, "Is the front door of the office broken?")
    assert not retrieval.is_no_evidence
    freeze = message_row(user, "team", "w1").pk
    assert retrieval.pack.sources[0].primary_message_id == freeze
    assert retrieval.answerability is not None
    assert retrieval.answerability.signals.unknown_terms == ("broken",)
    assert retrieval.evidence_strength is not None and 0 < retrieval.evidence_strength < 1


@pytest.mark.parametrize(
    "unseen",
    [
        ("problem",),
        ("actual", "problem"),
        ("wanted", "place"),
        ("end",),
    ],
)
def test_unseen_words_of_asking_beside_a_fully_covered_topic_are_no_unknown_topic(unseen):
    # "what was the actual problem with the boiler", "who wanted to stay at my place over
    # the long weekend", "what was wrong with the kettle in the end": the words the history
    # lacks are how the question asks; one candidate holds every other topic word.
    terms = ("boiler", "repair", *unseen)
    assert answerability_decide(_signals(terms=terms, unknown_terms=unseen)).rule is None


@pytest.mark.parametrize(
    ("unseen", "coverage"),
    [
        (("boiler",), 1.0),
        (("problem", "ipo"), 1.0),
        (("problem",), 0.6),
        (("dentist",), 1.0),
    ],
)
def test_a_rarer_unseen_word_or_a_partly_covered_topic_is_still_an_unknown_topic(unseen, coverage):
    signals = _signals(terms=("invoice", *unseen), unknown_terms=unseen, best_coverage=coverage)
    assert answerability_decide(signals).rule == "unknown_topic"


@pytest.mark.parametrize("kind", ["hotel", "gate", "school"])
def test_a_common_word_that_is_the_kind_of_thing_asked_for_is_still_an_unknown_topic(kind):
    # "which hotel did Ilse pick in Lyon?", "what gate did we leave from?", "what school does
    # she go to?": the unseen word is what the question asks for.
    signals = _signals(terms=("lyon", kind), unknown_terms=(kind,), asked_kind=(kind,))
    assert answerability_decide(signals).rule == "unknown_topic"


def test_common_words_are_the_most_frequent_words_of_the_packaged_vocabulary():
    common = common_words(COMMON_WORD_COUNT)
    assert len(common) == COMMON_WORD_COUNT
    assert {"the", "problem", "wanted", "place", "actual"} <= common
    assert not {"boiler", "dentist", "ipo", "thermostat"} & common


def test_a_misspelt_word_is_not_an_unknown_topic(user):
    _history(user)
    retrieval = _ask(user, "Is the code freze on Friday?")
    assert not retrieval.is_no_evidence
    assert retrieval.answerability is not None
    assert retrieval.answerability.signals.misspelled_terms == ("freze",)
    assert retrieval.answerability.signals.unknown_terms == ()


def _signals(**values) -> EvidenceSignals:
    defaults = {
        "terms": ("boiler", "repair"),
        "unknown_terms": (),
        "misspelled_terms": (),
        "best_similarity": 0.5,
        "best_coverage": 1.0,
    }
    return EvidenceSignals(**{**defaults, **values})


def test_only_a_question_whose_every_word_is_unknown_and_far_in_meaning_is_refused():
    assert answerability_decide(_signals(unknown_terms=("boiler", "repair"))).rule == "no_topic"
    close = _signals(unknown_terms=("boiler", "repair"), best_similarity=STRONG_SIMILARITY)
    assert answerability_decide(close).rule is None
    # One unknown word beside known ones is answered when a candidate is close in meaning;
    # with the rest at most half covered and nothing close, it is an unknown topic.
    assert (
        answerability_decide(_signals(unknown_terms=("boiler",), best_similarity=0.6)).rule is None
    )
    assert answerability_decide(_signals(unknown_terms=("boiler",))).rule == "unknown_topic"
    assert (
        answerability_decide(
            _signals(unknown_terms=("boiler",), terms=("boiler", "repair", "van"))
        ).rule
        is None
    )


def test_the_named_people_with_only_someone_elses_match_is_refused():
    theirs_empty = _signals(people_best_similarity=0.2, people_best_coverage=0.0)
    assert answerability_decide(theirs_empty).rule == "nothing_of_people"
    theirs_partial = _signals(people_best_similarity=0.4, people_best_coverage=0.5)
    assert answerability_decide(theirs_partial).rule is None
    # Unknown words count against both sides: with evidence that is not weak, a gap of half
    # the words is enough only when nothing of theirs is even loosely close in meaning.
    half_unknown = _signals(
        unknown_terms=("repair",),
        best_similarity=0.7,
        people_best_similarity=0.5,
        people_best_coverage=0.0,
    )
    assert answerability_decide(half_unknown).rule is None
    half_unknown_far = _signals(
        unknown_terms=("repair",), people_best_similarity=0.2, people_best_coverage=0.0
    )
    assert answerability_decide(half_unknown_far).rule == "nothing_of_people"
    # A question about their relations ("Marco's parents") is not judged by their words.
    relation = _signals(people_best_similarity=0.2, people_best_coverage=0.0, describes_people=True)
    assert answerability_decide(relation).rule is None


def test_weak_evidence_with_the_topic_in_someone_elses_messages_is_refused():
    # Their messages carry half the topic, someone else's all of it, nothing close in meaning.
    weak = _signals(best_similarity=0.35, people_best_similarity=0.3, people_best_coverage=0.5)
    assert answerability_decide(weak).strength < WEAK_STRENGTH
    assert answerability_decide(weak).rule == "someone_elses_topic"
    # The same words with a candidate close in meaning: not weak, answered.
    close = _signals(best_similarity=0.7, people_best_similarity=0.6, people_best_coverage=0.5)
    assert answerability_decide(close).rule is None
    # Weak, but their own messages carry most of the topic: answered with the note.
    theirs_most = _signals(
        best_similarity=0.35, people_best_similarity=0.3, people_best_coverage=0.6
    )
    assert answerability_decide(theirs_most).strength < WEAK_STRENGTH
    assert answerability_decide(theirs_most).rule is None
    # Weak, and the gap is small: answered with the note.
    small_gap = _signals(
        best_similarity=0.35,
        best_coverage=0.7,
        people_best_similarity=0.3,
        people_best_coverage=0.4,
    )
    assert answerability_decide(small_gap).rule is None


def test_evidence_strength_grows_with_coverage_similarity_and_the_named_peoples_own_match():
    weak = answerability_decide(_signals(best_similarity=0.3, best_coverage=0.5)).strength
    covered = answerability_decide(_signals(best_similarity=0.3, best_coverage=1.0)).strength
    close = answerability_decide(_signals(best_similarity=0.7, best_coverage=1.0)).strength
    assert 0 <= weak < covered < close == 1.0
    someone_else = answerability_decide(
        _signals(best_similarity=0.7, people_best_similarity=0.3, people_best_coverage=0.0)
    ).strength
    assert someone_else == 0.5


def test_descriptors_of_people_are_not_topic_words(user):
    _history(user)
    compiled = compile_question(
        user=user,
        question="Did the Brazilians mention the courier?",
        now=NOW,
        scope=Scope.everywhere(),
    )
    result = SearchResult(
        route=Route.HYBRID,
        candidates=(_candidate(1, similarity=None, lexical=True),),
        vector_status="ok",
    )
    answerability = answerability_assess(user=user, compiled=compiled, result=result)
    assert answerability is not None and answerability.rule is None


def _facts_history(user) -> None:
    jonas = chat_of("dm-jonas", "Jonas")
    ingest(
        user,
        jonas,
        say("j1", T0, "The courier comes at noon tomorrow", sender="Jonas"),
        say("j2", T0 + timedelta(minutes=5), "we need to investigate the invoice", sender="Jonas"),
    )
    family = chat_of("family", "Mum", "Olu")
    ingest(
        user,
        family,
        say(
            "f1",
            T0 + timedelta(hours=1),
            "No walnuts in the cake please, Jonas is allergic to nuts",
            sender="Mum",
        ),
        say("f2", T0 + timedelta(hours=2), "Olu's cousin's wedding is in June", sender="Olu"),
    )


def test_what_someone_else_says_about_a_named_person_is_their_evidence(user):
    _facts_history(user)
    # Only Mum's message, which names Jonas, says anything about his allergy.
    retrieval = _ask(user, "What is Jonas allergic to?")
    assert not retrieval.is_no_evidence
    allergy = message_row(user, "family", "f1").pk
    assert allergy in [source.primary_message_id for source in retrieval.pack.sources]


def test_what_a_named_person_said_about_a_relative_needs_their_own_words(user):
    _facts_history(user)
    # Only Olu speaks of a wedding; the question asks what Jonas said about it.
    retrieval = _ask(user, "What did Jonas say about his cousin's wedding?")
    assert retrieval.is_no_evidence
    assert retrieval.unanswerable_rule == "nothing_of_people"


def test_a_short_word_inside_a_longer_one_is_not_a_misspelling(user):
    _facts_history(user)
    compiled = compile_question(
        user=user,
        question="Which gate does the courier come to?",
        now=NOW,
        scope=Scope.everywhere(),
    )
    investigate = message_row(user, "dm-jonas", "j2").pk
    result = SearchResult(
        route=Route.HYBRID,
        candidates=(_candidate(investigate, similarity=0.3, lexical=True),),
        vector_status="ok",
    )
    answerability = answerability_assess(user=user, compiled=compiled, result=result)
    assert answerability is not None
    # "gate" is spelled inside "investigate" but is no word of it.
    assert answerability.signals.unknown_terms == ("gate",)
    assert answerability.signals.misspelled_terms == ()


@pytest.mark.parametrize(
    "question",
    [
        "Did anyone in the group mention Jonas's allergy?",
        "has anybody said where Jonas is staying?",
        "Who told me about Jonas?",
        "what's Jonas's new address?",
        "When is Jonas' birthday?",
    ],
)
def test_people_asked_about_rather_than_quoted_are_the_topic(question):
    assert names_people_as_topic(question, ("Jonas",))


@pytest.mark.parametrize(
    "question",
    [
        "What's the door code Jonas sent me?",
        "What did Jonas say about the courier?",
        "did Jonas tell anyone about the move?",
    ],
)
def test_what_the_named_people_said_keeps_them_the_speakers(question):
    assert not names_people_as_topic(question, ("Jonas",))


def test_people_who_are_the_topic_are_not_judged_by_their_own_words():
    theirs_empty = _signals(people_best_similarity=0.2, people_best_coverage=0.0)
    assert answerability_decide(theirs_empty).rule == "nothing_of_people"
    topic = _signals(people_best_similarity=0.2, people_best_coverage=0.0, is_people_topic=True)
    assert answerability_decide(topic).rule is None


def test_a_group_members_thing_told_by_another_member_answers(user):
    # Jonas is in the group, so his name there would read as an address; asked what anyone
    # said about him, Mum's message answers.
    family = chat_of("family", "Mum", "Jonas")
    ingest(
        user,
        family,
        say("f1", T0, "Sunday lunch at ours, bring a dessert", sender="Mum"),
        say(
            "f2", T0 + timedelta(hours=1), "No walnuts in the cake, Jonas is allergic", sender="Mum"
        ),
        say("f3", T0 + timedelta(hours=2), "family photo from the lake", sender="Jonas"),
    )
    for question in (
        "Did anyone mention Jonas being allergic?",
        "has somebody said what Jonas's allergic to?",
    ):
        retrieval = _ask(user, question)
        assert retrieval.unanswerable_rule is None, question
        allergy = message_row(user, "family", "f2").pk
        assert allergy in [pk for source in retrieval.pack.sources for pk in source.message_ids]


# --- Typed slots, unknown speakers, unexpressed opinions, named chats -----------------------


@pytest.mark.parametrize(
    ("question", "slot"),
    [
        ("When does the gym membership end?", "day_or_time"),
        ("when's the piano tuner coming?", "day_or_time"),
        ("What time is the ferry on Sunday?", "clock"),
        ("What's Priya's new address?", "address"),
        ("what is Tom's email address?", "email"),
        ("What's Lena's phone number?", "phone"),
        ("How much did the electrician charge?", "amount"),
        ("What was the quote for the fence?", "amount"),
        ("What was Lena's marathon time?", "time_taken"),
        ("what was the score in the derby", "score"),
        ("Final score of the cup match?", "score"),
        ("what's the score at the Hawks game?", "score"),
        ("who won the pub quiz", "result"),
        ("so who came out on top at chess night?", "result"),
    ],
)
def test_a_question_asks_for_the_kind_of_value_its_question_words_say(question, slot):
    asked = asked_slot(question)
    assert asked is not None and asked.name == slot


@pytest.mark.parametrize(
    "question",
    [
        # A past event is dated by the message that tells of it.
        "When did Priya move to Leeds?",
        "What time did the ferry leave?",
        "How much time do we have left?",
        "What is Tom's number one goal this season?",
        "Where did we have dinner?",
        "What did Tom bring to the picnic?",
        "Did Tom win the raffle?",
        "What was the score Ola gave the film?",
        "Who is the winner's coach?",
    ],
)
def test_questions_any_message_on_the_topic_may_answer_ask_for_no_slot(question):
    assert asked_slot(question) is None


def test_a_value_of_the_kind_asked_is_recognised_in_its_usual_forms():
    assert asked_slot("When does the lease end?").is_given_in("lease ends on 30 June")
    assert asked_slot("When does the lease end?").is_given_in("it runs out end of next month")
    assert not asked_slot("When does the lease end?").is_given_in("the lease is a pain")
    assert asked_slot("What's Priya's address?").is_given_in("I'm at 3/27 Harbour Street now")
    assert asked_slot("What's Priya's address?").is_given_in("Via Garibaldi 14, secondo piano")
    assert not asked_slot("What's Priya's address?").is_given_in("Priya moved to Leeds")
    assert asked_slot("How much did the vet charge?").is_given_in("vet was $180 in the end")
    assert asked_slot("How much did the vet charge?").is_given_in("it was free, lucky")
    assert not asked_slot("How much did the vet charge?").is_given_in("the vet was lovely")
    assert asked_slot("What was Lena's marathon time?").is_given_in("she ran 3:41, what a legend")
    assert asked_slot("What time is the ferry on Sunday?").is_given_in("ferry Sunday at 9")
    assert asked_slot("What time is the ferry on Sunday?").is_given_in("sale a las 9 el domingo")
    assert not asked_slot("What time is the ferry on Sunday?").is_given_in("ferry on Sunday")
    assert not asked_slot("What was Lena's marathon time?").is_given_in("Lena ran the marathon")


def test_a_value_called_old_does_not_answer_a_question_about_the_current_one():
    slot = asked_slot("What's Priya's new address?")
    assert slot is not None
    assert gives_slot(slot, "new flat is 12 Quay Road!", question="What's Priya's new address?")
    assert not gives_slot(
        slot,
        "pick up the keys at the old place, 4 Mill Lane",
        question="What's Priya's new address?",
    )
    assert gives_slot(
        slot, "pick up the keys at the old place, 4 Mill Lane", question="What's Priya's address?"
    )


@pytest.mark.parametrize(
    ("question", "speaker"),
    [
        ("What did the board say about the permit?", "board"),
        ("what did the landlord say about the boiler?", "landlord"),
        ("What did Ana say about the trip?", "ana"),
        ("What did my boss say about the raise?", None),
        ("What did everyone think of the film?", None),
        ("what did they reply?", None),
        ("Where did Ana go?", None),
    ],
)
def test_the_speaker_a_question_asks_about(question, speaker):
    assert asked_speaker(question) == speaker


def test_only_a_question_about_what_was_thought_of_something_asks_for_an_opinion():
    assert asks_opinion("What did everyone think of the new album?")
    assert asks_opinion("any thoughts on the venue?")
    assert not asks_opinion("What did Ana bring to the party?")
    assert not asks_opinion("How did Ana feel after the race?")
    assert is_opinion("honestly loved it, best one yet")
    assert not is_opinion("Next pick is the album, Thursday?")


@pytest.mark.parametrize(
    "question",
    [
        "What was Lena's time in the marathon?",
        "what was Ravi's finish time in the 5k",
        "Ines's half marathon time?",
        "my 10k time?",
        "what's Ola's pace for the relay?",
    ],
)
def test_a_time_taken_is_asked_in_other_word_orders_and_as_a_fragment(question):
    asked = asked_slot(question)
    assert asked is not None and asked.name == "time_taken"


@pytest.mark.parametrize(
    "question", ["Lena's birthday?", "what was Ravi's favourite part of the race?"]
)
def test_a_fragment_or_a_race_question_that_asks_no_time_asks_no_time_taken(question):
    asked = asked_slot(question)
    assert asked is None or asked.name != "time_taken"


@pytest.mark.parametrize(
    ("question", "speaker"),
    [
        ("what was the board's response to the permit?", "board"),
        ("What was the agency's reaction to our offer?", "agency"),
        ("how did the council react to the petition?", "council"),
        ("How did Ana respond to the invite?", "ana"),
        ("what was my response to the offer?", None),
        ("how did everyone react to the news?", None),
    ],
)
def test_the_speaker_asked_about_by_their_response(question, speaker):
    assert asked_speaker(question) == speaker


@pytest.mark.parametrize(
    "question",
    [
        "what did everyone make of the new album?",
        "What did Rui make of the film",
        "how did people feel about the venue?",
        "what was Ana's take on the menu?",
    ],
)
def test_other_words_for_asking_what_was_thought_ask_for_an_opinion(question):
    assert asks_opinion(question)


def test_make_and_feel_in_other_senses_ask_for_no_opinion():
    assert not asks_opinion("what make is Ana's new car?")
    assert not asks_opinion("what did Ana make for the picnic?")
    assert not asks_opinion("How did Ana feel after the race?")


def test_missing_slots_unknown_speakers_and_unexpressed_opinions_are_refused():
    assert answerability_decide(_signals(slot="amount", is_slot_given=False)).rule == (
        "missing_slot"
    )
    assert answerability_decide(_signals(slot="amount", is_slot_given=True)).rule is None
    assert answerability_decide(_signals(slot="amount", is_slot_given=None)).rule is None
    assert answerability_decide(_signals(unknown_speaker="board")).rule == "unknown_speaker"
    assert answerability_decide(_signals(is_opinion_given=False)).rule == "no_opinion"
    assert answerability_decide(_signals(is_opinion_given=True)).rule is None


def _lease_history(user, *, lease_line: str) -> None:
    flat = chat_of("flat", "Priya", "Tom")
    ingest(
        user,
        flat,
        say("l1", T0, lease_line, sender="Priya"),
        say("l2", T0 + timedelta(hours=1), "ok cool, the lease is with the agency", sender="Tom"),
        say("l3", T0 + timedelta(days=2), "Priya moved her stuff to Leeds", sender="Tom"),
        say("l4", T0 + timedelta(days=3), "anyone seen the blue kettle", sender="Tom"),
        say("l5", T0 + timedelta(days=4), "found it, it was in the shed", sender="Priya"),
        say("l6", T0 + timedelta(days=5), "gas bill came in, I paid it", sender="Priya"),
    )


def test_a_topic_whose_messages_never_give_the_day_asked_for_is_refused(user):
    _lease_history(user, lease_line="Signed the lease renewal with the agency, such a relief")
    retrieval = _ask(user, "When does the lease end?")
    assert retrieval.unanswerable_rule == "missing_slot"
    assert retrieval.is_no_evidence


def test_a_topic_whose_message_gives_the_day_is_answered(user):
    _lease_history(user, lease_line="Signed the lease renewal, it ends on 30 June")
    retrieval = _ask(user, "When does the lease end?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


def test_an_address_nobody_gave_is_refused_and_a_given_one_answers(user):
    _lease_history(user, lease_line="Signed the lease renewal with the agency")
    assert _ask(user, "What's Priya's new street address in Leeds?").unanswerable_rule == (
        "missing_slot"
    )
    chat = chat_of("flat", "Priya", "Tom")
    ingest(
        user,
        chat,
        say("l7", T0 + timedelta(days=6), "new place: 14 Kirk Street, Leeds", sender="Priya"),
    )
    assert _ask(user, "What's Priya's new street address in Leeds?").unanswerable_rule is None


def test_what_a_speaker_nobody_knows_said_is_refused_unless_someone_reports_it(user):
    _lease_history(user, lease_line="Sent the lease renewal to the agency")
    retrieval = _ask(user, "What did the board say about the lease?")
    assert retrieval.unanswerable_rule == "unknown_speaker"
    chat = chat_of("flat", "Priya", "Tom")
    ingest(
        user,
        chat,
        say(
            "l8", T0 + timedelta(days=6), "the board said the lease transfer is fine", sender="Tom"
        ),
    )
    assert _ask(user, "What did the board say about the lease?").unanswerable_rule is None


def test_a_chat_title_and_a_platform_in_the_question_are_no_unknown_topic(user):
    circle = replace(chat_of("group-1", "Priya", "Tom"), title="Reading Circle")
    ingest(
        user,
        circle,
        say("r1", T0, "Next pick: the lighthouse novel, Wed 7 Oct?", sender="Priya"),
        say("r2", T0 + timedelta(hours=1), "yes please", sender="Tom"),
    )
    retrieval = _ask(user, "What's the next pick for the reading circle on WhatsApp?")
    assert retrieval.answerability is not None
    assert retrieval.answerability.signals.unknown_terms == ()
    assert not retrieval.is_no_evidence


def test_a_mention_without_anyone_judging_it_does_not_answer_what_they_thought(user):
    circle = replace(chat_of("group-1", "Priya", "Tom"), title="Reading Circle")
    ingest(
        user,
        circle,
        say("r1", T0, "Next pick: the lighthouse novel, Wed 7 Oct?", sender="Priya"),
        say("r2", T0 + timedelta(hours=1), "👍", sender="Tom"),
    )
    assert _ask(user, "What did everyone think of the lighthouse novel?").unanswerable_rule == (
        "no_opinion"
    )
    ingest(
        user,
        circle,
        say(
            "r3",
            T0 + timedelta(days=9),
            "the lighthouse novel was gripping, loved it",
            sender="Tom",
        ),
    )
    assert _ask(user, "What did everyone think of the lighthouse novel?").unanswerable_rule is None


def test_a_refusal_for_what_the_messages_lack_says_what_they_lack():
    def note(**values) -> str:
        signals = _signals(**values)
        return refusal_note(answerability_decide(signals))

    assert "a street address" in note(slot="address", is_slot_given=False)
    assert '"board"' in note(unknown_speaker="board")
    assert "thought" in note(is_opinion_given=False)
    assert note(unknown_terms=("boiler", "repair")) == ""
    assert note() == ""


def test_the_thing_a_question_gives_a_named_person_and_who_claims_it():
    assert owned_things("What does Lena's new tattoo mean?", "Lena") == ("tattoo",)
    assert owned_things("Where is Lena's design internship?", "Lena") == (
        "design",
        "internship",
    )
    assert owned_things("What did Lena say about the trip?", "Lena") == ()
    assert claims_thing("got my first tattoo yesterday", "tattoo")
    assert not claims_thing("Lena got a tattoo yesterday", "tattoo")
    assert claims_thing("how is your tattoo healing?", "tattoo", owners=("your",))


def _tattoo_history(user, *, lena_line: str) -> None:
    group = chat_of("pals", "Lena", "Omar", kind="group")
    ingest(
        user,
        group,
        say("t1", T0, "My new tattoo is a compass, for my grandfather the sailor", sender="Omar"),
        say("t2", T0 + timedelta(minutes=5), lena_line, sender="Lena"),
        say("t3", T0 + timedelta(hours=1), "ok see you both at the climbing gym", sender="Omar"),
    )


def test_a_named_persons_thing_only_someone_else_calls_theirs_is_refused(user):
    _tattoo_history(user, lena_line="wow, that is a beautiful idea")
    retrieval = _ask(user, "What does Lena's tattoo stand for?")
    assert retrieval.unanswerable_rule == "someone_elses_thing"


def test_a_named_persons_thing_they_speak_of_is_answered(user):
    _tattoo_history(user, lena_line="mine is a swallow, my tattoo is for my mum")
    retrieval = _ask(user, "What does Lena's tattoo stand for?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


def test_someone_elses_thing_is_refused_only_when_the_named_peoples_messages_miss_the_topic():
    # Someone else's messages carry no more of the topic than theirs: rules 2 and 2b are silent.
    shared = {"best_coverage": 0.4, "people_best_similarity": 0.5}
    theirs_far = _signals(is_thing_of_another=True, people_best_coverage=0.2, **shared)
    assert answerability_decide(_signals(people_best_coverage=0.2, **shared)).rule is None
    assert answerability_decide(theirs_far).rule == "someone_elses_thing"
    theirs_on_topic = _signals(is_thing_of_another=True, people_best_coverage=0.9)
    assert answerability_decide(theirs_on_topic).rule is None


def test_a_word_of_a_chat_title_is_a_known_topic(user):
    ingest(
        user,
        chat_of("Knitting circle", "Rosa", "Ines"),
        say("k1", T0, "Next pick: the cable scarf pattern, Wed 7 Oct?", sender="Rosa"),
    )
    retrieval = _ask(user, "What's the next knitting circle pattern?")
    assert retrieval.answerability is not None
    # "knitting" and "circle" name the chat, though no message repeats them.
    assert retrieval.answerability.signals.unknown_terms == ()
    assert not retrieval.is_no_evidence
    unseen = _ask(user, "Which yarn for the knitting circle pattern?")
    assert unseen.answerability is not None
    assert unseen.answerability.signals.unknown_terms == ("yarn",)


def _trip_history(user, *, cost_line: str) -> None:
    trip = chat_of("trip", "Bia", "Caio")
    ingest(
        user,
        trip,
        say("t1", T0, "Quarry Hill this weekend, who is driving?", sender="Bia"),
        say("t2", T0 + timedelta(hours=1), "I can drive, leaving at 7", sender="Caio"),
        say("t3", T0 + timedelta(days=2), "what a climb, my arms are gone", sender="Bia"),
        say("t4", T0 + timedelta(days=3), cost_line, sender="Caio"),
        say("t5", T0 + timedelta(days=4), "the roofer came round about the gutter", sender="Bia"),
    )


def test_an_amount_in_a_message_using_a_kin_word_of_the_topic_answers(user):
    _trip_history(user, cost_line="quarry weekend: a gasolina deu R$120, so R$40 cada")
    retrieval = _ask(user, "how much was gas for Quarry Hill?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


def test_an_amount_nowhere_near_the_topic_still_is_refused(user):
    _trip_history(user, cost_line="quarry weekend: a gasolina deu R$120, so R$40 cada")
    retrieval = _ask(user, "how much did the roofer charge for the gutter?")
    assert retrieval.unanswerable_rule is not None
    assert retrieval.is_no_evidence


def test_a_named_persons_value_given_only_for_someone_else_is_refused(user):
    club = chat_of("club", "Bia", "Theo", "Caio")
    ingest(
        user,
        club,
        say("c1", T0, "10k results are up: Theo ran 47:12, a PB!", sender="Bia"),
        say("c2", T0 + timedelta(days=1), "climbing on Friday?", sender="Caio"),
    )
    refused = _ask(user, "What was Caio's 10k time?")
    assert refused.unanswerable_rule == "missing_slot"
    assert refused.is_no_evidence
    answered = _ask(user, "What was Theo's 10k time?")
    assert answered.unanswerable_rule is None
    assert not answered.is_no_evidence


# --- Who the topic is told of ---------------------------------------------------------------


def _bake_sale_history(user, *, rui_line: str) -> None:
    chat = chat_of("bake-sale", "Ana", "Rui")
    ingest(
        user,
        chat,
        say("b1", T0, "Busy week! What did you bake for the school fair?", sender="Ana"),
        say("b2", T0 + timedelta(minutes=3), rui_line, sender="Rui"),
        say("b3", T0 + timedelta(minutes=9), "so good, save me a slice", sender="Ana"),
        say("b4", T0 + timedelta(days=2), "the violin exam went fine by the way", sender="Ana"),
    )


def test_a_topic_only_the_other_speaker_tells_of_themselves_is_refused(user):
    # Ana's only message on the topic asks Rui about his baking; he answers about his own.
    _bake_sale_history(user, rui_line="I baked a pear crumble for the school fair, it sold out")
    refused = _ask(user, "What did Ana bake for the school fair?")
    assert refused.unanswerable_rule == "told_of_another"
    assert refused.is_no_evidence
    answered = _ask(user, "What did Rui bake for the school fair?")
    assert answered.unanswerable_rule is None
    assert not answered.is_no_evidence


def test_what_another_tells_the_named_person_of_their_own_doing_answers(user):
    # Rui's sentence speaks to Ana: the baking it tells of is hers.
    _bake_sale_history(user, rui_line="Your pear crumble for the school fair sold out in an hour")
    retrieval = _ask(user, "What did Ana bake for the school fair?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


@pytest.mark.parametrize(
    "question",
    [
        "did Noor say anything about my boiler?",
        "what did Noor think was wrong with the boiler?",
    ],
)
def test_what_the_named_person_said_or_thinks_of_the_users_thing_answers(user, question):
    # Noor's message speaks of the user's boiler: what she said or thinks is hers to tell.
    ingest(
        user,
        chat_of("dm-noor", "Noor"),
        say("n1", T0, "ok see you then", sender="Noor"),
        say(
            "n2", T0 + timedelta(minutes=8), "probably your boiler's pressure valve", sender="Noor"
        ),
    )
    ingest(
        user,
        chat_of("dm-ivo", "Ivo"),
        say("i1", T0 + timedelta(days=1), "my boiler got fixed today, new valve", sender="Ivo"),
    )
    retrieval = _ask(user, question)
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


def test_told_coverages_decide_only_with_a_wide_gap():
    told = {"people_best_coverage": 0.9, "people_best_similarity": 0.5}
    other = _signals(people_told_coverage=0.0, others_told_coverage=0.9, **told)
    assert answerability_decide(other).rule == "told_of_another"
    close = _signals(people_told_coverage=0.3, others_told_coverage=0.5, **told)
    assert answerability_decide(close).rule is None
    theirs = _signals(people_told_coverage=0.6, others_told_coverage=1.0, **told)
    assert answerability_decide(theirs).rule is None
    # A question about the named people's relations is not judged by who tells of it.
    relation = _signals(
        people_told_coverage=0.0, others_told_coverage=0.9, describes_people=True, **told
    )
    assert answerability_decide(relation).rule is None


def test_the_users_own_words_in_a_chat_with_the_named_person_set_their_topic(user):
    ingest(
        user,
        chat_of("dm-lina", "Lina"),
        say("l1", T0, "Seville in two weeks!! any tips?"),
        say("l2", T0 + timedelta(minutes=20), "cenar en Casa Morales, y el Alcazar", sender="Lina"),
    )
    ingest(
        user,
        chat_of("dm-teo", "Teo"),
        say("t1", T0 + timedelta(days=1), "I had dinner at the pier, loved it", sender="Teo"),
    )
    retrieval = _ask(user, "where did Lina say to have dinner in Seville?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


@pytest.mark.parametrize(
    ("sentence", "about_reader"),
    [
        ("what did you bake for the fair?", True),
        # A question that addresses nobody proposes or wonders; it is the writer's.
        ("is it a yoga class?", False),
        ("lunch at the pier on sunday?", False),
        ("your crumble sold out in an hour", True),
        ("i loved your crumble", False),
        ("i baked a crumble for the fair", False),
        ("tu tarta se vendio en una hora", True),
        ("eu fiz um bolo de laranja", False),
        ("o teu bolo acabou logo", True),
    ],
)
def test_a_sentence_is_about_its_reader_when_it_speaks_only_of_them(sentence, about_reader):
    assert _is_about_reader(sentence) is about_reader


def test_a_descriptor_as_the_question_writes_it_is_no_topic_word(user):
    from retrieval.answerability import topic_terms

    compiled = compile_question(
        user=user, question="what did my mum say about the quilt", now=NOW, scope=Scope.everywhere()
    )
    assert any("mother" in person.descriptors for person in compiled.people)
    assert topic_terms(compiled) == ["quilt"]


def test_a_question_word_written_without_the_accents_of_a_group_title_names_the_group(user):
    from conversations.models import ChatKind
    from retrieval.answerability import _written_as_name

    for title in ("Pádel martes 🎾", "Café Lectura 📚", "Ñandú runners"):
        ingest(
            user, chat_of(title, "Iker", kind=ChatKind.GROUP), say("1", T0, "hola", sender="Iker")
        )
    ingest(user, chat_of("dm-zoe", "Zoë Brontë"), say("1", T0, "hi", sender="Zoë Brontë"))
    assert _written_as_name(user=user, terms=["padel", "cafe", "nandu", "zoe", "tennis"]) == {
        "padel",
        "cafe",
        "nandu",
        "zoe",
    }


def test_a_tournament_asked_of_the_padel_group_is_not_an_unknown_topic(user):
    from conversations.models import ChatKind

    group = chat_of("Pádel martes 🎾", "Iker", "Ane", kind=ChatKind.GROUP)
    ingest(
        user,
        group,
        say("1", T0, "tournament on saturday at 10, pairs", sender="Iker"),
        say("2", T0 + timedelta(days=4), "Semis!! lost 6-4 7-5 but what a match", sender="Ane"),
    )
    retrieval = _ask(user, "how did we do in the padel tournament?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


def test_a_list_question_is_not_judged_by_who_told_the_best_candidates():
    told = {"people_best_coverage": 0.9, "people_best_similarity": 0.5}
    # One fact: what is told of someone else decides.
    assert (
        answerability_decide(
            _signals(people_told_coverage=0.0, others_told_coverage=0.9, **told)
        ).rule
        == "told_of_another"
    )
    nothing_of_theirs = {"people_best_coverage": 0.0, "people_best_similarity": 0.1}
    assert answerability_decide(_signals(**nothing_of_theirs)).rule == "nothing_of_people"
    # A list of items ("which cities has Ana visited?") is told in many messages: answered.
    assert (
        answerability_decide(
            _signals(
                people_told_coverage=0.0, others_told_coverage=0.9, asks_for_items=True, **told
            )
        ).rule
        is None
    )
    assert answerability_decide(_signals(asks_for_items=True, **nothing_of_theirs)).rule is None


def test_a_list_question_about_the_named_person_is_answered_from_the_best_evidence(user):
    chat = chat_of("walks", "Ana", "Rui")
    ingest(
        user,
        chat,
        say("w1", T0, "Which cities have you visited on the rail trip?", sender="Ana"),
        say("w2", T0 + timedelta(minutes=4), "I visited Lyon, Turin and Genoa", sender="Rui"),
        say("w3", T0 + timedelta(days=3), "Seville was so hot last spring", sender="Ana"),
    )
    # Ana's only message with the question's words asks Rui about his trip; her own cities
    # are told in other words: the best evidence is given, not the no-evidence answer.
    asked = _ask(user, "Which cities has Ana visited?")
    assert asked.answerability is not None
    assert asked.answerability.signals.asks_for_items
    assert asked.unanswerable_rule is None
    assert not asked.is_no_evidence


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("which hotel did Ilse pick in Lyon?", ["hotel"]),
        ("what gate did the flight leave from", ["gate"]),
        ("In what school is she teaching now?", ["school"]),
    ],
)
def test_the_kind_of_thing_asked_for_is_the_word_after_which_or_what(question, kind):
    assert _ASKED_KIND.findall(fold_text(question)) == kind


def test_a_score_or_a_result_is_recognised_and_a_clock_is_no_score():
    score = asked_slot("what was the score in the derby")
    assert score is not None
    assert score.is_given_in("we lost 31-28 in the last minute")
    assert score.is_given_in("2 to nil, easy")
    assert not score.is_given_in("derby is Sat at 8:10pm, pitch 4")
    assert not score.is_given_in("WE WON!! see you at the pub")
    assert not score.is_given_in("kickoff 3-4pm on Sunday")
    result = asked_slot("who won the pub quiz")
    assert result is not None
    assert result.is_given_in("Ola's team won by a mile")
    assert result.is_given_in("we came second again")
    assert not result.is_given_in("pub quiz is on thursday, bring pens")


@pytest.mark.parametrize(
    "question",
    [
        "how much was the parking at Quarry Hill?",
        "how much were the campsite fees for the quarry weekend",
        "how much did the ropes cost for Quarry Hill",
    ],
)
def test_a_sum_for_another_thing_on_the_same_trip_does_not_price_the_thing_asked(user, question):
    _trip_history(user, cost_line="quarry weekend: petrol came to $90, so $30 each")
    retrieval = _ask(user, question)
    assert retrieval.unanswerable_rule == "missing_slot"
    assert retrieval.is_no_evidence


def test_a_sum_for_the_thing_asked_on_the_trip_still_answers(user):
    _trip_history(user, cost_line="quarry weekend: petrol came to $90, so $30 each")
    retrieval = _ask(user, "how much was the petrol for Quarry Hill?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


@pytest.mark.parametrize(
    ("question", "asking"),
    [
        ("who runs the choir sign ups?", {"runs", "sign", "ups"}),
        ("whos the dragon boat captain", {"captain"}),
        ("who is the organiser of the book swap", {"organiser"}),
        ("who's in charge of the raffle signups", {"in", "charge", "of", "signups"}),
    ],
)
def test_the_role_and_running_words_of_a_role_question_ask_rather_than_name(question, asking):
    assert asking <= role_asking_words(question)


@pytest.mark.parametrize(
    "question",
    ["who was at the barbecue?", "who said the bins go out thursday", "did Ana sign the lease?"],
)
def test_other_questions_keep_every_word(question):
    assert role_asking_words(question) == frozenset()


def _choir_history(user) -> None:
    choir = chat_of("choir", "Maren", "Olu")
    ingest(
        user,
        choir,
        say(
            "c1",
            T0,
            "Choir workshop on Saturday 10am at the hall. Reply to me if you want a place",
            sender="Maren",
        ),
        say("c2", T0 + timedelta(hours=1), "count me in", sender="Olu"),
    )


@pytest.mark.parametrize(
    "question",
    [
        "who runs the choir workshop sign ups",
        "who organises the choir workshop registrations?",
        "who's handling the choir workshop rsvps",
    ],
)
def test_a_role_question_is_answered_by_the_messages_about_the_thing(user, question):
    _choir_history(user)
    retrieval = _ask(user, question)
    assert not retrieval.is_no_evidence
    workshop = message_row(user, "choir", "c1").pk
    assert workshop in [source.primary_message_id for source in retrieval.pack.sources]


def test_a_role_question_about_a_thing_never_mentioned_has_no_evidence(user):
    _choir_history(user)
    assert _ask(user, "who runs the pottery class sign ups").is_no_evidence


@pytest.mark.parametrize(
    ("question", "verb"),
    [
        ("What did Ana attend with her team in May?", "attend"),
        ("Where did Rui Costa travel to last summer?", "travel"),
        ("Who will Mia visit next week?", "visit"),
        ("Which band did Tomas see in Lisbon in 2021?", "see"),
    ],
)
def test_the_verb_a_question_asks_a_named_persons_doing_by(question, verb):
    assert asked_action(question) == verb


@pytest.mark.parametrize(
    "question",
    [
        "What is the plan for Friday?",
        "Did Ana attend the workshop?",
        "what did she attend in May?",
        "What did I attend with Ana in May?",
        "When is the boiler repair?",
    ],
)
def test_a_question_not_about_a_named_persons_doing_asks_by_no_verb(question):
    assert asked_action(question) is None


def test_an_unseen_common_verb_of_a_dated_question_about_someone_is_no_missing_topic():
    # "what did Ana attend in May?" against "we went to a conference in Porto": the verb is
    # how the question asks, the range and the person say which messages tell of it.
    assert "attend" in common_words(COMMON_WORD_COUNT)
    dated = _signals(
        terms=("attend",),
        unknown_terms=("attend",),
        best_similarity=0.45,
        best_coverage=0.0,
        people_best_similarity=0.45,
        people_best_coverage=0.0,
        asked_action="attend",
        is_dated=True,
    )
    assert answerability_decide(dated).rule is None
    travelled = replace(dated, terms=("travel",), unknown_terms=("travel",), asked_action="travel")
    assert answerability_decide(travelled).rule is None


def test_an_undated_question_a_rarer_verb_or_another_unseen_word_still_has_no_topic():
    dated = _signals(
        terms=("attend",),
        unknown_terms=("attend",),
        best_similarity=0.45,
        best_coverage=0.0,
        people_best_similarity=0.45,
        people_best_coverage=0.0,
        asked_action="attend",
        is_dated=True,
    )
    assert answerability_decide(replace(dated, is_dated=False)).rule == "no_topic"
    assert answerability_decide(replace(dated, asked_action=None)).rule == "no_topic"
    # "what did Ana attend at the IPO roadshow in May?": a word besides the verb is unseen.
    ipo = replace(dated, terms=("attend", "ipo"), unknown_terms=("attend", "ipo"))
    assert answerability_decide(ipo).rule == "no_topic"
    # "what did Ana underwrite in May?": not one of the language's common words.
    assert "underwrite" not in common_words(COMMON_WORD_COUNT)
    rare = replace(
        dated, terms=("underwrite",), unknown_terms=("underwrite",), asked_action="underwrite"
    )
    assert answerability_decide(rare).rule == "no_topic"


def test_a_dated_question_about_what_someone_did_is_answered_from_their_messages(user):
    chat = chat_of("dm-ilse", "Ilse")
    ingest(
        user,
        chat,
        say("1", T0, "We went to a woodworking fair in Ghent, so many lathes", sender="Ilse"),
        say("2", T0 + timedelta(minutes=3), "Jealous! Bring me a catalogue"),
    )
    fair = message_row(user, "dm-ilse", "1")
    # "attend" is in no message; the fair was told in other words that week, and search found
    # it by meaning alone.
    found = SearchResult(
        route=Route.HYBRID,
        candidates=(
            replace(
                _candidate(fair.pk, similarity=0.45, lexical=False),
                sender_person_id=fair.sender_person_id,
                chat_id=fair.chat_id,
            ),
        ),
        vector_status="ok",
    )

    def judged(question: str):
        compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
        return answerability_assess(user=user, compiled=compiled, result=found)

    answered = judged("What did Ilse attend last week?")
    assert answered is not None and answered.rule is None
    assert answered.signals.unknown_terms == ("attend",)
    # Undated, the same question still has no topic in the history.
    undated = judged("What did Ilse attend?")
    assert undated is not None and undated.rule == "no_topic"
