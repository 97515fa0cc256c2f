"""Plan questions put as a statement with a question mark ("the brunch is sat right?"), with a
day written short ("sat", "thu") or with its date ("sat 7 mar"), and "is it locked in". Each
form is tested on sentences written for the test; questions of another kind that look alike
stay where they were."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from memory.evidence import _plan_asks_yes_no, _plan_topic_terms
from retrieval.compile import _mask, _quoted_spans, classify_intent
from retrieval.dates import resolve_time_expression
from retrieval.lexicon import fold_text
from retrieval.question_forms import canonical_question
from retrieval.types import Intent

ZONE = ZoneInfo("Europe/Lisbon")
# Wednesday 4 March 2026.
NOW = datetime(2026, 3, 4, 12, 0, tzinfo=ZONE)


def _intent(question: str) -> Intent:
    folded = fold_text(canonical_question(unicodedata.normalize("NFC", question)))
    return classify_intent(_mask(folded, _quoted_spans(folded)))[0]


@pytest.mark.parametrize(
    "question",
    [
        "the brunch is sat right?",
        "Noor's recital is on fri 6 mar?",
        "our ferry's at 7am yeah?",
        "pottery class is tomorrow right?",
        "board games are fri right?",
    ],
)
def test_a_statement_of_when_asked_with_a_question_mark_is_a_plan_question(question):
    assert _intent(question) == Intent.PLAN_RECALL


@pytest.mark.parametrize(
    "question",
    ["is that right?", "so we turn right?", "the rent is due?", "I'm right?"],
)
def test_other_statements_and_tags_are_no_plan_question(question):
    assert _intent(question) != Intent.PLAN_RECALL


@pytest.mark.parametrize(
    "question",
    [
        "am I working sat 7 mar?",
        "what's on sat 7 mar",
        "what's on thu",
        "is the spring quiz locked in",
        "was the offsite finalised",
    ],
)
def test_short_days_dates_and_locked_in_are_plan_questions(question):
    assert _intent(question) == Intent.PLAN_RECALL


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("what's on sat 7 mar", "Sat 7 Mar 2026"),
        ("is it still on Fri, the 13th of March?", "Fri 13 Mar 2026"),
        ("where's the quiz thu", "Thu 5 Mar 2026"),
        ("the brunch is sat right?", "Sat 7 Mar 2026"),
    ],
)
def test_a_short_weekday_last_or_with_its_date_is_that_day(question, day):
    time_range, _span = resolve_time_expression(question, now=NOW, tz=ZONE, direction="future")
    assert time_range is not None and day in time_range.label


@pytest.mark.parametrize(
    "question", ["who sat next to you?", "did we enjoy the sun?", "where exactly had they sat?"]
)
def test_a_short_weekday_elsewhere_is_no_day(question):
    time_range, _span = resolve_time_expression(question, now=NOW, tz=ZONE, direction="future")
    assert time_range is None


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("the brunch is saturday?", True),
        ("our ferry's at 7am?", True),
        ("when is the brunch?", False),
    ],
)
def test_a_stated_plan_question_expects_yes_or_no(question, expected):
    assert _plan_asks_yes_no(fold_text(question)) is expected


def test_status_words_are_no_plan_topic():
    class _Compiled:
        keywords = ("spring", "quiz", "locked")
        people = ()
        read_as = "is the spring quiz locked in"
        question = read_as

    terms = _plan_topic_terms(_Compiled())
    assert "locked" not in terms


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("top 2 ppl i whatsapp the most?", "top 2 people i message the most on whatsapp?"),
        ("top 4 people I telegram the most", "top 4 people I message the most on telegram"),
        ("the friends i discord the most", "the friends i message the most on discord"),
    ],
)
def test_a_count_of_people_messaged_most_on_a_platform(question, form):
    assert canonical_question(question) == form


@pytest.mark.parametrize("question", ["i need 2 go", "is it 2 late?"])
def test_a_digit_between_words_is_still_spelled_out(question):
    assert " to " in canonical_question(question)
