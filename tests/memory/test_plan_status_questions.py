"""Questions about one plan's status, asked the short way people ask them: "quiz thursday
still on?", "is squash on tonight", "is the next date confirmed", "what's my flight now?".
The plan was moved or called off earlier (often in a message with no time word of the
question), agreed to only tentatively, or read from a booking and its schedule change. The
cast, places and sentences are written for these tests; the week starts Monday 2 March 2026
(``tests.memory.generalise``)."""

from __future__ import annotations

import pytest

from tests.memory.generalise import Line, Story, dm, group, story_ask, story_failures, story_ingest

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI, SAT = 0, 24, 48, 72, 96, 120
# Padding so a group is busy: its title word is then said by many of its messages.
CHATTER = ("morning all", "haha", "so tired today", "\U0001f602", "anyone watch the match?")


def _chatter(chat: str, sender: str, start: float, count: int) -> tuple[Line, ...]:
    return tuple(
        Line(chat, start + index * 0.5, sender, CHATTER[index % len(CHATTER)])
        for index in range(count)
    )


STORIES = (
    Story(
        name="verbless still-on question of a plan moved a week",
        chats={"quiz": group("Marit", "Ezra")},
        lines=(
            Line("quiz", MON - 60, "Marit", "Quiz night Thursday 5 March at the Anchor? 20:00"),
            Line("quiz", MON - 59.5, None, "count me in"),
            Line(
                "quiz",
                MON + 2,
                "Marit",
                "Sorry all, can we push to Thursday 12 March? The Anchor is closed for a "
                "private party, same time",
            ),
            Line("quiz", MON + 2.3, "Ezra", "12th works"),
        ),
        question="quiz night thursday still on?",
        asked_hours=TUE + 10,
        expect=("No", "moved", "Thursday 12 March"),
        intent="plan_recall",
    ),
    Story(
        name="is it on tonight, called off earlier by its time word alone",
        chats={"squash": group("Tobin", "Ilse"), "tobin": dm("Tobin")},
        lines=(
            *_chatter("squash", "Tobin", MON - 100, 30),
            Line("squash", MON - 20, "Tobin", "Squash Tuesdays 19:00 at the leisure centre?"),
            Line("squash", MON - 19.8, None, "yes!"),
            Line("squash", TUE + 7, "Tobin", "Tonight's off, the court flooded \U0001f327"),
        ),
        question="is squash on tonight",
        asked_hours=TUE + 8,
        expect=("No", "cancelled"),
        intent="plan_recall",
    ),
    Story(
        name="a call-off of tonight leaves a plan for another day as it was",
        chats={"squash": group("Tobin", "Ilse")},
        lines=(
            Line(
                "squash",
                MON + 1,
                "Tobin",
                "Club tournament: Saturday 14 March at 10:00. Shall I sign us up?",
            ),
            Line("squash", MON + 1.2, None, "yes sign us up"),
            Line("squash", TUE + 7, "Tobin", "Tonight's off, the court flooded"),
        ),
        question="when's the squash tournament",
        asked_hours=WED + 1,
        expect=("Saturday 14 March", "10:00"),
        refuse=("cancelled",),
    ),
    Story(
        name="a date agreed to only tentatively is not confirmed",
        chats={"readers": group("Priya", "Noor")},
        lines=(
            Line(
                "readers",
                MON + 2,
                "Priya",
                "Next novel: 'The Salt Road'? Maybe Thursday 26 March for the meetup?",
            ),
            Line(
                "readers",
                MON + 2.5,
                "Noor",
                "Salt Road yes. The 26th maybe, I'll confirm nearer the time",
            ),
        ),
        question="is the next meetup date confirmed",
        asked_hours=THU + 2,
        expect=("No", "proposed but unconfirmed", "Thursday 26 March"),
    ),
    Story(
        name="a change told with the old and the new date, nothing read before it",
        chats={"staff": group("Halvard", "Ines")},
        lines=(
            Line(
                "staff",
                MON + 1,
                "Halvard",
                "Change of plan: the deadline for lab reports moves from 6 March to 13 March "
                "(the review panel sits on the 16th).",
            ),
            Line("staff", MON + 1.1, "Ines", "\U0001f64c thank goodness"),
        ),
        question="when are lab reports due",
        asked_hours=TUE + 2,
        expect=("moved", "Friday 13 March"),
        refuse=("16 March",),
    ),
    Story(
        name="a booking confirmation with the weekday, the date and the month",
        chats={"airline": dm("Skyward Air")},
        lines=(
            Line(
                "airline",
                MON + 1,
                "Skyward Air",
                "Booking confirmation QX12. Lisbon to Oslo, Friday 18 December 2026, flight SK 41 "
                "departing 07:10, arriving 11:55.",
            ),
        ),
        question="when am i flying to oslo again",
        asked_hours=WED + 1,
        # Not Friday 18 September, the nearest Friday the 18th.
        expect=("Friday 18 December", "7:10"),
    ),
    Story(
        name="a recurring plan asked by its weekday",
        chats={"choir": group("Dagny", "Felix")},
        lines=(
            Line(
                "choir",
                MON - 40,
                "Dagny",
                "Back from the break! Choir Wednesdays 19:30 at St Jude's as usual?",
            ),
            Line("choir", MON - 39.5, "Felix", "yes"),
            Line("choir", MON - 39, None, "in!"),
        ),
        question="what time is choir on wednesdays again",
        asked_hours=TUE + 1,
        expect=("19:30",),
    ),
)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_plan_status_questions(user, story):
    problems = story_failures(user, story)
    assert not problems, "; ".join(problems)


def test_a_schedule_change_weeks_after_the_booking_moves_the_stored_plan(user):
    """The booking is stored as a plan; the airline's schedule change comes weeks later in the
    same chat, naming the booked day and the new one: "what's my flight now?" says it moved,
    with the new day and time, citing the change."""
    story = Story(
        name="a rebooked flight",
        chats={"airline": dm("Skyward Air")},
        lines=(
            Line(
                "airline",
                MON - 24 * 30,
                "Skyward Air",
                "Booking confirmation QX12. Lisbon to Oslo, Saturday 18 April 2026, flight SK 41 "
                "departing 07:10, arriving 11:55.",
            ),
            Line(
                "airline",
                MON + 1,
                "Skyward Air",
                "Schedule change for booking QX12: flight SK 41 on 18 April has been cancelled. "
                "You have been rebooked on SK 43, Sunday 19 April 2026, departing 13:25.",
            ),
        ),
        question="whats my flight to oslo now?",
        asked_hours=WED + 1,
        expect=("moved", "Sunday 19 April", "13:25"),
        intent="plan_recall",
    )
    problems = story_failures(user, story)
    assert not problems, "; ".join(problems)


def test_the_hour_of_a_plan_said_only_by_its_day_is_not_answered_from_memory(user):
    """Someone said the day they fly, never the time: "what time" is not answered with the day
    (nor with any other hour)."""
    story = Story(
        name="a flight with no time",
        chats={"club": group("Anselm", "Reka")},
        lines=(
            Line(
                "club",
                MON + 3,
                "Anselm",
                "Last session for me until May, I fly home to Tromsø on the 20th",
            ),
            Line("club", MON + 3.2, "Reka", "safe travels!!"),
        ),
        question="what time is anselm's flight to tromsø",
        asked_hours=WED + 1,
        expect=(),
    )
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    assert retrieval.compiled.intent == "plan_recall"
    assert not retrieval.memory_findings
    # Nor does search: no message gives a time of day for it.
    assert retrieval.unanswerable_rule == "missing_slot"
    assert retrieval.is_no_evidence
