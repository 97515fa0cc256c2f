"""Plans told the ways people tell them on histories nobody tuned for: a clock written without
am/pm in one message and with it in another (one time, so one plan), the person who set a plan
writing another date for it with no change word ("ok, Sunday 8/3 then", in any language), an
event announced weeks ahead with its date and asked about by its day, and a statement asked
with a question mark ("the brunch is saturday?"). The cast, places and sentences are written
for these tests; the week starts Monday 2 March 2026 (``tests.memory.generalise``)."""

from __future__ import annotations

import pytest

from memory.findings import clocks_agree
from tests.memory.generalise import Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI, SAT = 0, 24, 48, 72, 96, 120


@pytest.mark.parametrize(
    ("one", "other"),
    [("3:15", "15:15 (3:15pm)"), ("10:40 (10:40am)", "10:40"), ("7:05", "19:05 (7:05pm)")],
)
def test_a_clock_without_am_pm_agrees_with_the_same_hour_said_with_it(one, other):
    assert clocks_agree(one, other)


@pytest.mark.parametrize(
    ("one", "other"),
    [("3:15", "15:45 (3:45pm)"), ("08:00 (8am)", "20:00 (8pm)"), ("9:00-11:00 (9-11am)", "9:00")],
)
def test_other_clocks_do_not_agree(one, other):
    assert not clocks_agree(one, other)


def _review_story(first: str, second: str, question: str) -> Story:
    return Story(
        name=f"one time said with and without pm: {second!r}",
        chats={"mail": dm("Greta Lindqvist", platform="email"), "desk": group("Greta L", "Olu")},
        lines=(
            Line("mail", MON + 1, "Greta Lindqvist", first),
            Line("desk", MON + 8, "Greta L", second),
        ),
        question=question,
        asked_hours=TUE + 1,
        expect=("No", "moved", "Thursday 12 March"),
    )


REVIEWS = (
    _review_story(
        "The quarterly review moves from Tue 10 Mar to Thu 12 Mar, 3:15pm, room B.",
        "heads up quarterly review is now thu 12 mar 3:15, not the 10th",
        "is the quarterly review still tuesday",
    ),
    _review_story(
        "Quarterly review: we are moving it from Tuesday 10 March to Thursday 12 March at 3:15pm.",
        "quarterly review thu 12 march 3:15 pls bring numbers",
        "quarterly review still on tuesday?",
    ),
    _review_story(
        "Hi all, the quarterly review is postponed from 10 Mar to 12 Mar (Thu), 3:15pm.",
        "see you at the quarterly review 12 mar 3:15",
        "is the quarterly review still on tuesday?",
    ),
)


def _redated_story(name: str, lines: tuple[Line, ...], question: str, expect: tuple[str, ...]):
    return Story(
        name=name,
        chats={"home": group("Odile", "Bram", platform="whatsapp")},
        lines=lines,
        question=question,
        asked_hours=WED + 2,
        expect=expect,
    )


REDATED = (
    _redated_story(
        "the organiser writes another date, French",
        (
            Line("home", MON + 2, "Odile", "brunch chez moi samedi 7/3 à 11h"),
            Line("home", MON + 2.2, None, "je bosse samedi 😩 dimanche possible ?"),
            Line("home", MON + 2.5, "Odile", "bon, dimanche 8/3 alors"),
        ),
        "the brunch is saturday right?",
        ("No", "moved", "Sunday 8 March"),
    ),
    _redated_story(
        "the organiser writes another date, English",
        (
            Line("home", MON + 2, "Bram", "board games at mine Fri 6 Mar, 8pm"),
            Line("home", MON + 2.3, "Odile", "away friday sorry"),
            Line("home", MON + 2.6, "Bram", "fine, Sat 7 Mar it is, same time"),
        ),
        "board games are fri right?",
        ("No", "moved", "Saturday 7 March"),
    ),
    _redated_story(
        "the organiser writes another date with an ordinal",
        (
            Line("home", MON + 2, "Odile", "picnic at the lake on the 7th of March, noon!"),
            Line("home", MON + 2.4, "Bram", "rain all saturday"),
            Line("home", MON + 2.8, "Odile", "ok Sun 8th March then, same spot"),
        ),
        "when is the picnic",
        ("moved", "Sunday 8 March"),
    ),
)

# The organiser writing a date something is due by moves nothing.
DUE_BY = _redated_story(
    "a date to answer by is no move",
    (
        Line("home", MON + 2, "Bram", "board games at mine Sat 7 Mar, 8pm"),
        Line("home", MON + 2.3, "Bram", "let me know by 5 Mar so I get snacks"),
    ),
    "when is board games",
    ("Saturday 7 March",),
)


def _announced_story(said: str, question: str) -> Story:
    return Story(
        name=f"announced weeks ahead: {question!r}",
        chats={"studio": dm("Tamsin Achebe", platform="email")},
        lines=(
            Line("studio", MON - 30 * 24, "Tamsin Achebe", said),
            Line("studio", MON - 30 * 24 + 1, None, "Yes please, put me down."),
        ),
        question=question,
        asked_hours=THU + 2,
        expect=("Saturday 7 March",),
    )


ANNOUNCED = (
    _announced_story(
        "Pottery workshop: Sat 7 Mar, 10am-12pm, Clay Studio. Reply for a spot.",
        "what's on sat 7 mar",
    ),
    _announced_story(
        "Spring pottery course, first class Saturday 7 March at 10am. Reply to join.",
        "anything planned for saturday?",
    ),
    _announced_story(
        "Glazing workshop on 7 Mar from 10:00, studio 2. Places are limited.",
        "what am I doing this saturday",
    ),
)

STORIES = (*REVIEWS, *REDATED, DUE_BY, *ANNOUNCED)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_untuned_plan_stories(user, story):
    problems = story_failures(user, story)
    assert not problems, problems


def test_the_due_by_date_moves_nothing(user):
    problems = story_failures(
        user,
        Story(
            name="due by",
            chats=DUE_BY.chats,
            lines=DUE_BY.lines,
            question=DUE_BY.question,
            asked_hours=DUE_BY.asked_hours,
            expect=DUE_BY.expect,
            refuse=("moved", "Thursday 5 March"),
        ),
    )
    assert not problems, problems


@pytest.mark.parametrize(
    ("label", "first", "last"),
    [
        ("Sat 21 Mar \u2013 Mon 23 3:00 pm", 21, 23),
        ("Fri 20 Mar - Sun 22 Mar", 20, 22),
        ("saturday 21 march to monday 23", 21, 23),
    ],
)
def test_a_span_starts_on_its_first_day(label, first, last):
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    from memory.findings import when_of
    from memory.models import PlanStatus
    from memory.selectors import PlanStepView
    from tests.memory.generalise import MONDAY

    step = PlanStepView(
        message_id=1,
        chat_id=1,
        platform="email",
        status=PlanStatus.CONFIRMED,
        event_label=label,
        sent_at=MONDAY + timedelta(hours=2),
        sender_person_id=None,
        is_from_self=False,
    )
    when = when_of(step, activity="", zone=ZoneInfo("Europe/Lisbon"))
    assert when.day is not None and when.day.day == first
    assert when.last_day is not None and when.last_day.day == last


def test_a_weekday_and_day_alone_is_still_that_day():
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    from memory.findings import when_of
    from memory.models import PlanStatus
    from memory.selectors import PlanStepView
    from tests.memory.generalise import MONDAY

    step = PlanStepView(
        message_id=1,
        chat_id=1,
        platform="sms",
        status=PlanStatus.PROPOSED,
        event_label="Mon 23 3:00 pm",
        sent_at=MONDAY + timedelta(hours=2),
        sender_person_id=None,
        is_from_self=False,
    )
    when = when_of(step, activity="", zone=ZoneInfo("Europe/Lisbon"))
    assert when.day is not None and when.day.day == 23 and when.last_day is None


def _booked_story(booking: str, question: str) -> Story:
    return Story(
        name=f"moved in a chat, booked in another: {question!r}",
        chats={"kofi": dm("Kofi Mensah", platform="imessage"), "stay": dm("Alpstay", "email")},
        lines=(
            Line("kofi", MON - 200, None, "road trip to hallstatt sat 14 mar? found a cabin"),
            Line("kofi", MON - 199.8, "Kofi Mensah", "yes!! book it"),
            Line(
                "kofi",
                MON + 1,
                None,
                "work needs me on the 14th, can we push hallstatt to the 21st?",
            ),
            Line("kofi", MON + 1.3, "Kofi Mensah", "sure, asked the host"),
            Line("stay", MON + 5, "Alpstay", booking),
            Line("kofi", MON + 5.2, "Kofi Mensah", "done, it's the 21st now"),
        ),
        question=question,
        asked_hours=WED + 3,
        expect=("moved", "Saturday 21", "Alpstay"),
    )


BOOKED = (
    _booked_story(
        "Booking change confirmed. Hallstatt lake cabin, Sat 21 Mar \u2013 Mon 23 Mar 2026.",
        "when's the hallstatt trip again",
    ),
    _booked_story(
        "Booking updated: Hallstatt cabin, check-in Sat 21 Mar, check-out Mon 23 Mar.",
        "when is the hallstatt trip",
    ),
    _booked_story(
        "Reservation confirmed for Hallstatt: Sat 21 Mar - Mon 23 Mar (2 nights).",
        "hallstatt trip is when?",
    ),
)


@pytest.mark.parametrize("story", BOOKED, ids=[story.name for story in BOOKED])
def test_a_booking_for_the_day_a_plan_moved_to_is_that_plan(user, story):
    problems = story_failures(user, story)
    assert not problems, problems


def _called_off_story(lines: tuple[Line, ...], question: str, expect, refuse=()) -> Story:
    return Story(
        name=f"called off: {question!r}",
        chats={"crew": group("Ines", "Rui", platform="whatsapp")},
        lines=lines,
        question=question,
        asked_hours=WED + 2,
        expect=expect,
        refuse=refuse,
    )


CALLED_OFF = (
    _called_off_story(
        (
            Line("crew", MON + 1, "Ines", "beach day sat 7 mar?"),
            Line("crew", MON + 1.2, "Rui", "yes!!"),
            Line("crew", TUE + 1, "Ines", "storm warning, I am cancelling the beach"),
            Line(
                "crew",
                TUE + 1.1,
                "Ines",
                "beach is cancelled, bowling sat at 3 instead? Strike Lanes",
            ),
            Line("crew", TUE + 1.3, None, "bowling works 👍"),
        ),
        "is the beach still happening sat?",
        ("No", "cancelled"),
    ),
    _called_off_story(
        (
            Line("crew", MON + 1, "Ines", "beach day sat 7 mar?"),
            Line("crew", MON + 1.2, "Rui", "yes!!"),
            Line("crew", TUE + 1, "Ines", "sorry have to cancel the beach"),
            Line("crew", TUE + 1.2, "Rui", "ok 👍"),
        ),
        "beach still on saturday?",
        ("No", "cancelled"),
    ),
    _called_off_story(
        (
            Line("crew", MON + 1, "Rui", "picnic in the park sat 7 mar, 1pm?"),
            Line("crew", MON + 1.2, "Ines", "count me in"),
            Line("crew", TUE + 1, "Rui", "way too windy, picnic's cancelled"),
            Line(
                "crew", TUE + 1.1, "Rui", "picnic cancelled, museum sat at 2 instead? Design Museum"
            ),
            Line("crew", TUE + 1.4, "Ines", "sounds good"),
        ),
        "is the picnic still on for saturday?",
        ("No", "cancelled"),
    ),
)

# Called off, then moved after all: the move brings it back.
REVIVED = _called_off_story(
    (
        Line("crew", MON + 1, "Ines", "beach day sat 7 mar?"),
        Line("crew", MON + 1.2, "Rui", "yes!!"),
        Line("crew", TUE + 1, "Ines", "have to cancel the beach, sorry"),
        Line("crew", TUE + 3, "Ines", "actually let's move the beach to sun 8 mar instead"),
    ),
    "when is the beach day",
    ("Sunday 8 March",),
    refuse=("cancelled",),
)


@pytest.mark.parametrize(
    "story", (*CALLED_OFF, REVIVED), ids=[s.name for s in (*CALLED_OFF, REVIVED)]
)
def test_a_called_off_plan_stays_off_unless_moved(user, story):
    problems = story_failures(user, story)
    assert not problems, problems
