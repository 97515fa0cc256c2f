"""Plan and catch-up questions in wordings the first patterns missed: each rule is a form of
question (a day after "still", the time asked at the end, a day's possessive, "what's on for
me", "did I miss anything", "a rundown of <chat>", "anything from <person> this week"), tested
on sentences and names written for the test. A question of another intent that looks alike
stays where it was."""

from __future__ import annotations

import unicodedata

import pytest

from memory.evidence import _plan_asks_yes_no
from retrieval.compile import _mask, _quoted_spans, classify_intent
from retrieval.lexicon import fold_text
from retrieval.question_forms import canonical_question
from retrieval.types import Intent


def _intent(question: str) -> Intent:
    """The intent ``compile_question`` reads (surface form first, quotes masked)."""
    folded = fold_text(canonical_question(unicodedata.normalize("NFC", question)))
    return classify_intent(_mask(folded, _quoted_spans(folded)))[0]


@pytest.mark.parametrize(
    "question",
    [
        # A day or a date right after "still", the verb left out.
        "the recital still the 14th??",
        "Iker's housewarming is still saturday right?",
        "quiz still for friday?",
        # The day said before "is <someone> still <doing>".
        "Now that the party is on Friday, is Oona still bringing the speakers?",
        "since dinner moved to sunday, are the twins still driving?",
        # The time or the day asked at the end.
        "Tobi lands tonight at what time?",
        "the ferry to the island, what time again",
        "kayaking saturday — what time and where",
        "the school fair is on which day?",
        # A day's possessive names an event.
        "where is thursday's choir practice",
        "what time is tomorrow's dentist thing",
        "when's Sunday's run?",
        # Arriving, said with "get here" / "be back".
        "when does Marisol get here?",
        "my cousins, when do they get back from Lyon",
        # What is on for the user.
        "what's on for me this weekend?",
        "anything planned for tomorrow?",
        "what have we got lined up next week",
        "is anything booked for saturday?",
        # Whether a date was agreed.
        "did we pick a date for the reunion yet?",
        "did they decide on a venue for the gala?",
        "Has Priyanka chosen a day for the picnic?",
        # A weekend, a deadline, dates of, which booking.
        "When is the lake weekend with Otto?",
        "what are the dates of the ski trip again?",
        "grant report deadline?",
        "when do the lab reports have to be in?",
        "which flight am I on home for new year now?",
        "what train are we on to Porto?",
        # Whether it goes ahead then.
        "Is squash happening tonight?",
        "five-a-side on tomorrow?",
        "is the market going ahead on saturday?",
        # Status asked with a long subject.
        "Is the date for the next pottery class confirmed?",
    ],
)
def test_plan_questions_in_other_wordings_are_plan_recall(question: str) -> None:
    assert _intent(question) == Intent.PLAN_RECALL


@pytest.mark.parametrize(
    "question",
    [
        # "Did I miss anything", "anything I should take care of".
        "Did I miss anything important over the last couple of days?",
        "have I missed much this week?",
        "anything from Wanjiru I should take care of",
        "is there something I have to reply to?",
        "anything from the landlord I ought to deal with?",
        # What came in a chat, other verbs and "anything" as the subject.
        "What's gone up in the allotment group?",
        "anything posted in the neighbours chat?",
        "has anything come in on the ops channel?",
        # A rundown, a digest, a summary of a chat.
        "Give me a rundown of the cousins group.",
        "quick summary of the book swap chat please",
        "summarise the five-a-side group",
        "resumen del grupo de la familia",
        # One sender in a recent stretch.
        "anything from Dr Nakamura this week?",
        "Has Coach Ruiz said anything lately?",
        "did the nursery send anything today?",
    ],
)
def test_catch_up_questions_in_other_wordings_are_catch_up(question: str) -> None:
    assert _intent(question) == Intent.CATCH_UP


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        # A topic asked of a chat is not what came in it.
        ("give me a rundown of the budget discussion", Intent.CONVERSATION_QA),
        ("what's been posted in the hiking group about the permits?", Intent.CONVERSATION_QA),
        # Without a recent stretch, what someone said of a topic is a question about it.
        ("has Lorna said anything about the boiler?", Intent.CONVERSATION_QA),
        # "still" with no day is not a plan's day.
        ("is Beatriz still at the same firm?", Intent.CONVERSATION_QA),
        # What someone said on a day is not a plan.
        ("what did Ilse say on friday?", Intent.CONVERSATION_QA),
    ],
)
def test_alike_questions_of_other_intents_stay(question: str, intent: Intent) -> None:
    assert _intent(question) == intent


@pytest.mark.parametrize(
    ("question", "yes_no"),
    [
        ("the recital still the 14th??", True),
        ("Iker's housewarming is still saturday right?", True),
        ("it's at the boathouse, yeah?", True),
        ("she lands at six, right?", True),
        ("when does the recital start?", False),
        ("where is thursday's choir practice", False),
    ],
)
def test_a_day_after_still_or_a_tag_asks_yes_or_no(question: str, yes_no: bool) -> None:
    assert _plan_asks_yes_no(fold_text(question)) is yes_no
