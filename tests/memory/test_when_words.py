"""The day and clock grammar of plans, one reading at a time: words in, a day or a clock out,
against a send day (Wednesday 4 March 2026 unless said). Phrasings written for these tests."""

from __future__ import annotations

from datetime import date

import pytest

from memory.extract import plan_signal
from memory.findings import clock_text, day_said
from memory.when_words import (
    day_of_month,
    numeric_date,
    relative_day,
    weekday_with_day,
    weekend_day,
)

WEDNESDAY = date(2026, 3, 4)


@pytest.mark.parametrize(
    "words, expected",
    [
        ("tmrw", date(2026, 3, 5)),
        ("2moro night", date(2026, 3, 5)),
        ("amanhã", date(2026, 3, 5)),
        ("pasado mañana", date(2026, 3, 6)),
        ("après-demain", date(2026, 3, 6)),
        ("übermorgen", date(2026, 3, 6)),
        ("dopodomani", date(2026, 3, 6)),
        ("stasera", WEDNESDAY),
        ("esta noche", WEDNESDAY),
        ("nothing relative here", None),
    ],
)
def test_relative_days_in_six_languages(words, expected):
    assert relative_day(words, WEDNESDAY) == expected


def test_tomorrow_said_in_the_small_hours_is_the_day_just_begun():
    assert relative_day("gotta skip tmrw", WEDNESDAY, sent_hour=2) == WEDNESDAY
    assert relative_day("gotta skip tmrw", WEDNESDAY, sent_hour=9) == date(2026, 3, 5)


@pytest.mark.parametrize(
    "words, sent, expected",
    [
        ("this weekend", WEDNESDAY, date(2026, 3, 7)),
        ("the weekend after next", WEDNESDAY, date(2026, 3, 14)),
        ("übernächstes Wochenende", WEDNESDAY, date(2026, 3, 14)),
        ("este finde", WEDNESDAY, date(2026, 3, 7)),
        ("this weekend", date(2026, 3, 8), date(2026, 3, 7)),
    ],
)
def test_weekends(words, sent, expected):
    assert weekend_day(words, sent) == expected


@pytest.mark.parametrize(
    "words, month_first, expected",
    [
        ("6/3", False, date(2026, 3, 6)),
        ("3/6", True, date(2026, 3, 6)),
        ("25/3", True, date(2026, 3, 25)),
        ("am 6.3.", False, date(2026, 3, 6)),
        ("14/12/26", False, date(2026, 12, 14)),
        ("at 8.30", False, None),
        ("2/2", False, date(2027, 2, 2)),
    ],
)
def test_dates_written_with_numbers(words, month_first, expected):
    assert numeric_date(words, WEDNESDAY, month_first=month_first) == expected


@pytest.mark.parametrize(
    "words, expected",
    [
        ("the 14th", date(2026, 3, 14)),
        ("el 14", date(2026, 3, 14)),
        ("le 2", date(2026, 4, 2)),
        ("dia 20", date(2026, 3, 20)),
        ("am 9.", date(2026, 3, 9)),
        ("el 14 a las 9", date(2026, 3, 14)),
        ("le 14 personnes", None),
    ],
)
def test_day_of_the_month_after_a_small_word(words, expected):
    assert day_of_month(words, WEDNESDAY) == expected


def test_a_weekday_number_is_a_date_only_when_they_agree():
    assert weekday_with_day(4, 6, WEDNESDAY) == date(2026, 3, 6)  # Friday the 6th
    assert weekday_with_day(4, 8, WEDNESDAY) is None  # the 8th is a Sunday
    assert day_said("jueves 5", WEDNESDAY) == date(2026, 3, 5)
    assert day_said("giovedì 12", WEDNESDAY) == date(2026, 3, 12)
    # "Friday 8": no Friday the 8th nearby, so the number is no date.
    assert day_said("Friday 8", WEDNESDAY) is None


@pytest.mark.parametrize(
    "label, activity, expected",
    [
        ("venerdì alle 20", "cena", "20:00 (8pm)"),
        ("Freitag um 19 Uhr", "abendessen", "19:00 (7pm)"),
        ("um 8 Uhr", "", "8:00"),
        ("on Friday half 7", "drinks", "19:30 (7:30pm)"),
        ("half seven", "", "7:30"),
        ("a las 9 de la noche", "", "21:00 (9pm)"),
        ("à 8 du soir", "", "20:00 (8pm)"),
        ("le 6 à 20h30", "", "20:30 (8:30pm)"),
        ("am 6.3. um 19 Uhr", "", "19:00 (7pm)"),
        ("6/3 at 8pm", "", "20:00 (8pm)"),
    ],
)
def test_clock_words_in_six_languages(label, activity, expected):
    assert clock_text(label, activity=activity) == expected


@pytest.mark.parametrize(
    "text, activity, label",
    [
        ("Booked the cabin for the weekend after next", "cabin", "the weekend after next"),
        ("got us a table at 8 on Fri", "table", "on Fri at 8"),
        ("the concert tickets are for the 14th", "concert", "the 14th"),
        ("reservei mesa para sexta às 21h", "mesa", "sexta às 21h"),
        ("Hab den Tisch für Samstag um 20 Uhr reserviert", "tisch", "Samstag um 20 Uhr"),
        ("ho prenotato il tavolo per giovedì alle 21", "tavolo", "giovedì alle 21"),
        ("Your reservation is confirmed for Thu 12 March, 19:30", "reservation", "Thu 12"),
        ("We rented the boat for Sunday at 11", "boat", "Sunday at 11"),
        ("Aluguei a bicicleta para sábado às 10", "bicicleta", "sábado às 10"),
        ("abbiamo affittato la barca per domenica alle 11", "barca", "domenica alle 11"),
    ],
)
def test_bookings_start_confirmed_plans(text, activity, label):
    signal = plan_signal(text)
    assert (signal.status, signal.activity, signal.is_booking, signal.is_proposal) == (
        "confirmed",
        activity,
        True,
        True,
    )
    assert signal.event_label.startswith(label)


@pytest.mark.parametrize(
    "text, label",
    [
        ("Rented a van for the move, Saturday 9am", "Saturday 9am"),
        ("Helping with their move on Sunday at 10, booked the truck", "on Sunday at 10"),
        ("booked movers for our move Friday at 8", "Friday at 8"),
    ],
)
def test_the_move_as_the_plan_itself_changes_nothing(text, label):
    signal = plan_signal(text)
    assert (signal.status, signal.event_label) == ("confirmed", label)


def test_moving_a_plan_is_still_a_change():
    assert plan_signal("Can we move dinner to Friday at 8?").status == "changed"
    assert plan_signal("moved the dentist to Tuesday 10am").status == "changed"


def test_a_booking_word_without_a_day_or_time_starts_nothing():
    signal = plan_signal("booked it, thanks!")
    assert (signal.is_booking, signal.is_proposal) == (False, False)
