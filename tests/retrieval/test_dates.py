"""The date rules of docs/RETRIEVAL.md, one behaviour per test: DST-aware day windows, weekday
modifiers, calendar units, vague phrases, compounds, numeric dates, directions, labels."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from retrieval.dates import message_relative_date, resolve_time_expression
from retrieval.types import TimeRange

LISBON = ZoneInfo("Europe/Lisbon")
NEW_YORK = ZoneInfo("America/New_York")
SANTIAGO = ZoneInfo("America/Santiago")
SYDNEY = ZoneInfo("Australia/Sydney")

# Saturday 14 March 2026, 10:00 in Lisbon (UTC+0 until the 29th).
SATURDAY = datetime(2026, 3, 14, 10, 0, tzinfo=LISBON)


def window(text, now=SATURDAY, tz=LISBON, direction="past"):
    time_range, _span = resolve_time_expression(text, now=now, tz=tz, direction=direction)
    assert time_range is not None, text
    return time_range.start.isoformat(), time_range.end.isoformat()


def resolved(text, now=SATURDAY, tz=LISBON, direction="past") -> TimeRange:
    time_range, _span = resolve_time_expression(text, now=now, tz=tz, direction=direction)
    assert time_range is not None, text
    return time_range


# --- day windows and DST --------------------------------------------------------------------


def test_yesterday_is_the_previous_local_calendar_day():
    assert window("what did Ana say yesterday?") == (
        "2026-03-13T00:00:00+00:00",
        "2026-03-14T00:00:00+00:00",
    )


def test_yesterday_after_spring_forward_in_lisbon_lasts_23_hours():
    now = datetime(2026, 3, 30, 9, 0, tzinfo=LISBON)
    time_range = resolved("yesterday", now=now)
    assert (time_range.start.isoformat(), time_range.end.isoformat()) == (
        "2026-03-29T00:00:00+00:00",
        "2026-03-30T00:00:00+01:00",
    )
    assert time_range.duration == timedelta(hours=23)


def test_yesterday_after_fall_back_in_lisbon_lasts_25_hours():
    now = datetime(2026, 10, 26, 9, 0, tzinfo=LISBON)
    time_range = resolved("yesterday", now=now)
    assert (time_range.start.isoformat(), time_range.end.isoformat()) == (
        "2026-10-25T00:00:00+01:00",
        "2026-10-26T00:00:00+00:00",
    )
    assert time_range.duration == timedelta(hours=25)


def test_yesterday_after_spring_forward_in_new_york_lasts_23_hours():
    now = datetime(2026, 3, 9, 8, 0, tzinfo=NEW_YORK)
    time_range = resolved("yesterday", now=now, tz=NEW_YORK)
    assert (time_range.start.isoformat(), time_range.end.isoformat()) == (
        "2026-03-08T00:00:00-05:00",
        "2026-03-09T00:00:00-04:00",
    )
    assert time_range.duration == timedelta(hours=23)


def test_yesterday_after_fall_back_in_new_york_lasts_25_hours():
    now = datetime(2026, 11, 2, 8, 0, tzinfo=NEW_YORK)
    time_range = resolved("yesterday", now=now, tz=NEW_YORK)
    assert time_range.start.isoformat() == "2026-11-01T00:00:00-04:00"
    assert time_range.end.isoformat() == "2026-11-02T00:00:00-05:00"
    assert time_range.duration == timedelta(hours=25)


def test_a_day_whose_midnight_is_skipped_starts_at_the_first_instant_that_exists():
    # Santiago moves from 00:00 to 01:00 on 6 September 2026: that day has no midnight.
    now = datetime(2026, 9, 7, 12, 0, tzinfo=SANTIAGO)
    time_range = resolved("yesterday", now=now, tz=SANTIAGO)
    assert time_range.start.isoformat() == "2026-09-06T01:00:00-03:00"
    assert time_range.end.isoformat() == "2026-09-07T00:00:00-03:00"
    assert time_range.duration == timedelta(hours=23)


def test_a_day_whose_last_hour_repeats_lasts_25_hours():
    now = datetime(2026, 4, 5, 12, 0, tzinfo=SANTIAGO)
    time_range = resolved("yesterday", now=now, tz=SANTIAGO)
    assert time_range.start.isoformat() == "2026-04-04T00:00:00-03:00"
    assert time_range.end.isoformat() == "2026-04-05T00:00:00-04:00"
    assert time_range.duration == timedelta(hours=25)


def test_last_night_across_spring_forward_is_ten_hours_long():
    now = datetime(2026, 3, 8, 10, 0, tzinfo=NEW_YORK)
    time_range = resolved("last night", now=now, tz=NEW_YORK)
    assert time_range.start.isoformat() == "2026-03-07T18:00:00-05:00"
    assert time_range.end.isoformat() == "2026-03-08T05:00:00-04:00"
    assert time_range.duration == timedelta(hours=10)


def test_last_week_across_a_dst_change_is_one_hour_short():
    now = datetime(2026, 4, 1, 9, 0, tzinfo=LISBON)
    time_range = resolved("last week", now=now)
    assert time_range.start.isoformat() == "2026-03-23T00:00:00+00:00"
    assert time_range.end.isoformat() == "2026-03-30T00:00:00+01:00"
    assert time_range.duration == timedelta(days=7) - timedelta(hours=1)


def test_the_local_day_decides_not_the_utc_day():
    # 00:30 on 8 May in Lisbon is still 7 May in UTC; "yesterday" is 7 May local.
    now = datetime(2026, 5, 8, 0, 30, tzinfo=LISBON)
    assert now.astimezone(UTC).day == 7
    assert window("yesterday", now=now) == (
        "2026-05-07T00:00:00+01:00",
        "2026-05-08T00:00:00+01:00",
    )


def test_now_in_another_timezone_is_read_in_the_users_timezone():
    now_utc = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)  # 23:00 on Friday 13 in New York
    assert window("today", now=now_utc, tz=NEW_YORK) == (
        "2026-03-13T00:00:00-04:00",
        "2026-03-14T00:00:00-04:00",
    )


def test_naive_now_is_refused():
    with pytest.raises(ValueError, match="aware"):
        resolve_time_expression("today", now=datetime(2026, 3, 14, 10, 0), tz=LISBON)


# --- parts of the day ------------------------------------------------------------------------


def test_this_morning_is_five_to_noon_today():
    assert window("anything this morning?") == (
        "2026-03-14T05:00:00+00:00",
        "2026-03-14T12:00:00+00:00",
    )


def test_last_night_runs_from_six_yesterday_to_five_today():
    assert window("last night") == ("2026-03-13T18:00:00+00:00", "2026-03-14T05:00:00+00:00")


def test_tonight_runs_from_six_today_to_five_tomorrow():
    assert window("tonight") == ("2026-03-14T18:00:00+00:00", "2026-03-15T05:00:00+00:00")


def test_a_part_of_day_applies_to_any_day_expression():
    assert window("yesterday afternoon") == (
        "2026-03-13T12:00:00+00:00",
        "2026-03-13T18:00:00+00:00",
    )
    assert window("last Friday evening") == (
        "2026-03-13T18:00:00+00:00",
        "2026-03-14T00:00:00+00:00",
    )
    assert window("friday night") == ("2026-03-13T18:00:00+00:00", "2026-03-14T05:00:00+00:00")


# --- weekdays ---------------------------------------------------------------------------------


def test_last_friday_is_the_most_recent_friday_strictly_before_today():
    assert window("last Friday") == ("2026-03-13T00:00:00+00:00", "2026-03-14T00:00:00+00:00")
    friday = datetime(2026, 3, 13, 10, 0, tzinfo=LISBON)
    assert window("last Friday", now=friday) == (
        "2026-03-06T00:00:00+00:00",
        "2026-03-07T00:00:00+00:00",
    )


def test_next_friday_is_the_friday_of_next_week():
    assert window("next Friday") == ("2026-03-20T00:00:00+00:00", "2026-03-21T00:00:00+00:00")
    wednesday = datetime(2026, 3, 11, 10, 0, tzinfo=LISBON)
    assert window("next Friday", now=wednesday) == (
        "2026-03-20T00:00:00+00:00",
        "2026-03-21T00:00:00+00:00",
    )
    assert window("this Friday", now=wednesday)[0] == "2026-03-13T00:00:00+00:00"
    assert window("next Thu", now=wednesday)[0] == "2026-03-19T00:00:00+00:00"
    saturday = datetime(2026, 3, 14, 10, 0, tzinfo=LISBON)
    assert window("next Friday", now=saturday)[0] == "2026-03-20T00:00:00+00:00"


def test_this_friday_is_the_friday_of_the_current_monday_week():
    assert window("this Friday") == ("2026-03-13T00:00:00+00:00", "2026-03-14T00:00:00+00:00")
    monday = datetime(2026, 3, 16, 10, 0, tzinfo=LISBON)
    assert window("this Friday", now=monday) == (
        "2026-03-20T00:00:00+00:00",
        "2026-03-21T00:00:00+00:00",
    )


def test_on_a_monday_this_monday_is_today_and_last_monday_a_week_ago():
    monday = datetime(2026, 3, 16, 10, 0, tzinfo=LISBON)
    assert window("this Monday", now=monday)[0] == "2026-03-16T00:00:00+00:00"
    assert window("last Monday", now=monday)[0] == "2026-03-09T00:00:00+00:00"
    assert window("next Monday", now=monday)[0] == "2026-03-23T00:00:00+00:00"
    assert window("Monday", now=monday)[0] == "2026-03-16T00:00:00+00:00"
    assert window("last Sunday", now=monday)[0] == "2026-03-15T00:00:00+00:00"


def test_on_a_sunday_this_sunday_is_today_and_this_monday_six_days_ago():
    sunday = datetime(2026, 3, 15, 10, 0, tzinfo=LISBON)
    assert window("this Sunday", now=sunday)[0] == "2026-03-15T00:00:00+00:00"
    assert window("this Monday", now=sunday)[0] == "2026-03-09T00:00:00+00:00"
    assert window("next Sunday", now=sunday)[0] == "2026-03-22T00:00:00+00:00"


def test_a_bare_weekday_follows_the_direction_and_today_counts_in_every_direction():
    assert window("Friday", direction="past")[0] == "2026-03-13T00:00:00+00:00"
    assert window("Friday", direction="future")[0] == "2026-03-20T00:00:00+00:00"
    # Saturday: yesterday is closer than next week's Friday.
    assert window("Friday", direction="nearest")[0] == "2026-03-13T00:00:00+00:00"
    wednesday = datetime(2026, 3, 11, 10, 0, tzinfo=LISBON)
    assert window("Friday", now=wednesday, direction="nearest")[0] == "2026-03-13T00:00:00+00:00"
    assert window("Friday", now=wednesday, direction="past")[0] == "2026-03-06T00:00:00+00:00"
    for direction in ("past", "future", "nearest"):
        assert window("Saturday", direction=direction)[0] == "2026-03-14T00:00:00+00:00"


def test_weekday_abbreviations_need_a_modifier_or_on():
    assert window("last fri")[0] == "2026-03-13T00:00:00+00:00"
    assert window("on sat", direction="future")[0] == "2026-03-14T00:00:00+00:00"
    assert resolve_time_expression("I sat with him", now=SATURDAY, tz=LISBON) == (None, None)


def test_a_plural_weekday_is_not_a_date():
    assert resolve_time_expression("dinner on fridays", now=SATURDAY, tz=LISBON) == (None, None)


# --- weeks, weekends, months, years -----------------------------------------------------------


def test_last_week_is_the_previous_monday_to_sunday_week():
    assert window("last week") == ("2026-03-02T00:00:00+00:00", "2026-03-09T00:00:00+00:00")


def test_this_week_and_next_week_are_calendar_weeks():
    assert window("this week") == ("2026-03-09T00:00:00+00:00", "2026-03-16T00:00:00+00:00")
    assert window("next week") == ("2026-03-16T00:00:00+00:00", "2026-03-23T00:00:00+00:00")


def test_last_weekend_is_the_most_recent_complete_weekend():
    # On Saturday the current weekend is not complete, so it is the one before.
    assert window("last weekend") == ("2026-03-07T00:00:00+00:00", "2026-03-09T00:00:00+00:00")
    sunday = datetime(2026, 3, 15, 22, 0, tzinfo=LISBON)
    assert window("last weekend", now=sunday)[0] == "2026-03-07T00:00:00+00:00"
    monday = datetime(2026, 3, 16, 8, 0, tzinfo=LISBON)
    assert window("last weekend", now=monday) == (
        "2026-03-14T00:00:00+00:00",
        "2026-03-16T00:00:00+00:00",
    )


def test_this_weekend_next_weekend_and_the_weekend():
    assert window("this weekend") == ("2026-03-14T00:00:00+00:00", "2026-03-16T00:00:00+00:00")
    assert window("next weekend")[0] == "2026-03-21T00:00:00+00:00"
    wednesday = datetime(2026, 3, 11, 10, 0, tzinfo=LISBON)
    assert window("next weekend", now=wednesday)[0] == "2026-03-14T00:00:00+00:00"
    assert window("over the weekend", now=wednesday)[0] == "2026-03-07T00:00:00+00:00"
    assert window("over the weekend")[0] == "2026-03-14T00:00:00+00:00"


def test_n_days_ago_is_that_calendar_day():
    assert window("3 days ago") == ("2026-03-11T00:00:00+00:00", "2026-03-12T00:00:00+00:00")
    assert window("two days ago")[0] == "2026-03-12T00:00:00+00:00"
    assert window("a day ago")[0] == "2026-03-13T00:00:00+00:00"


def test_n_weeks_ago_is_that_monday_to_sunday_week():
    assert window("2 weeks ago") == ("2026-02-23T00:00:00+00:00", "2026-03-02T00:00:00+00:00")
    assert window("a week ago") == window("last week")
    assert window("the week before last") == window("2 weeks ago")


def test_n_months_and_years_ago_are_calendar_units():
    assert window("3 months ago") == ("2025-12-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    assert window("two years ago") == ("2024-01-01T00:00:00+00:00", "2025-01-01T00:00:00+00:00")


def test_last_month_and_last_year_across_the_year_boundary():
    new_year = datetime(2026, 1, 1, 9, 0, tzinfo=LISBON)
    assert window("last month", now=new_year) == (
        "2025-12-01T00:00:00+00:00",
        "2026-01-01T00:00:00+00:00",
    )
    assert window("last year", now=new_year) == (
        "2025-01-01T00:00:00+00:00",
        "2026-01-01T00:00:00+00:00",
    )
    assert window("yesterday", now=new_year)[0] == "2025-12-31T00:00:00+00:00"
    assert window("last week", now=new_year) == (
        "2025-12-22T00:00:00+00:00",
        "2025-12-29T00:00:00+00:00",
    )


def test_last_month_on_the_first_of_march_is_february():
    first = datetime(2026, 3, 1, 9, 0, tzinfo=LISBON)
    assert window("last month", now=first) == (
        "2026-02-01T00:00:00+00:00",
        "2026-03-01T00:00:00+00:00",
    )
    assert window("yesterday", now=first)[0] == "2026-02-28T00:00:00+00:00"


def test_in_march_is_the_most_recent_march_that_has_started():
    assert window("in March") == ("2026-03-01T00:00:00+00:00", "2026-04-01T00:00:00+01:00")
    february = datetime(2026, 2, 10, 9, 0, tzinfo=LISBON)
    assert window("in March", now=february)[0] == "2025-03-01T00:00:00+00:00"


def test_in_march_for_a_plan_is_the_nearest_march():
    february = datetime(2026, 2, 10, 9, 0, tzinfo=LISBON)
    assert window("in March", now=february, direction="nearest")[0] == "2026-03-01T00:00:00+00:00"
    assert window("in December", direction="nearest")[0] == "2025-12-01T00:00:00+00:00"
    assert window("in June", direction="nearest")[0] == "2026-06-01T00:00:00+01:00"


def test_in_march_2025_and_modified_months():
    assert window("in March 2025") == ("2025-03-01T00:00:00+00:00", "2025-04-01T00:00:00+01:00")
    assert window("March 2025") == window("in March 2025")
    assert window("last March")[0] == "2025-03-01T00:00:00+00:00"
    assert window("next March")[0] == "2027-03-01T00:00:00+00:00"
    assert window("this March")[0] == "2026-03-01T00:00:00+00:00"


def test_a_month_name_that_is_also_a_word_needs_a_preposition():
    assert resolve_time_expression("may I ask Ana", now=SATURDAY, tz=LISBON) == (None, None)
    assert resolve_time_expression("did they march", now=SATURDAY, tz=LISBON) == (None, None)
    assert window("in May")[0] == "2025-05-01T00:00:00+01:00"


def test_in_a_year():
    assert window("in 2025") == ("2025-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00")


# --- rolling and vague windows ----------------------------------------------------------------


def test_the_past_n_days_is_n_whole_days_plus_today_so_far():
    assert window("the past 3 days") == ("2026-03-11T00:00:00+00:00", "2026-03-14T10:00:00+00:00")
    assert window("last 3 days") == window("the past 3 days")


def test_the_last_week_with_an_article_is_rolling_not_the_calendar_week():
    assert window("the last week") == ("2026-03-07T00:00:00+00:00", "2026-03-14T10:00:00+00:00")
    assert window("the past month") == ("2026-02-14T00:00:00+00:00", "2026-03-14T10:00:00+00:00")


def test_the_last_n_hours_ends_now_to_the_minute():
    assert window("the last 24 hours") == (
        "2026-03-13T10:00:00+00:00",
        "2026-03-14T10:00:00+00:00",
    )


def test_recently_is_the_last_fourteen_days():
    assert window("recently") == ("2026-02-28T00:00:00+00:00", "2026-03-14T10:00:00+00:00")
    assert window("lately") == window("recently")


def test_vague_counts():
    assert window("the last few days") == window("the past 3 days")
    assert window("a couple of days ago") == (
        "2026-03-11T00:00:00+00:00",
        "2026-03-14T00:00:00+00:00",
    )
    assert window("a few days ago") == ("2026-03-09T00:00:00+00:00", "2026-03-13T00:00:00+00:00")
    assert window("a few weeks ago") == ("2026-02-02T00:00:00+00:00", "2026-03-02T00:00:00+00:00")
    assert window("the other day") == ("2026-03-07T00:00:00+00:00", "2026-03-14T00:00:00+00:00")


def test_earlier_this_week_runs_from_monday_to_now():
    assert window("earlier this week") == (
        "2026-03-09T00:00:00+00:00",
        "2026-03-14T10:00:00+00:00",
    )


# --- holidays and seasons ---------------------------------------------------------------------


def test_over_the_holidays_is_december_20_to_january_6_of_the_latest_season():
    assert window("over the holidays") == (
        "2025-12-20T00:00:00+00:00",
        "2026-01-07T00:00:00+00:00",
    )
    christmas_eve = datetime(2026, 12, 24, 9, 0, tzinfo=LISBON)
    assert window("over the holidays", now=christmas_eve)[0] == "2026-12-20T00:00:00+00:00"
    early_december = datetime(2026, 12, 10, 9, 0, tzinfo=LISBON)
    assert window("over the holidays", now=early_december)[0] == "2025-12-20T00:00:00+00:00"


def test_christmas_new_year_and_easter():
    assert window("at Christmas") == ("2025-12-25T00:00:00+00:00", "2025-12-26T00:00:00+00:00")
    assert window("new year's eve")[0] == "2025-12-31T00:00:00+00:00"
    # Easter Sunday 2025 was 20 April: Good Friday to Easter Monday.
    assert window("over Easter") == ("2025-04-18T00:00:00+01:00", "2025-04-22T00:00:00+01:00")
    assert window("next Easter") == ("2026-04-03T00:00:00+01:00", "2026-04-07T00:00:00+01:00")


def test_seasons_flip_in_the_southern_hemisphere():
    assert window("last summer") == ("2025-06-01T00:00:00+01:00", "2025-09-01T00:00:00+01:00")
    sydney_now = datetime(2026, 3, 14, 10, 0, tzinfo=SYDNEY)
    assert window("last summer", now=sydney_now, tz=SYDNEY) == (
        "2025-12-01T00:00:00+11:00",
        "2026-03-01T00:00:00+11:00",
    )


def test_a_season_that_qualifies_a_noun_is_no_time():
    for text in (
        "did Ines enjoy the spring salad",
        "where did I leave the winter jacket",
        "who packed the summer tent for Bea",
        "is the autumn menu out at Rolo's",
    ):
        time_range, _span = resolve_time_expression(text, now=SATURDAY, tz=LISBON)
        assert time_range is None, text


def test_a_season_named_as_a_time_still_reads_with_what_follows():
    assert window("what did Ines cook in the spring") == window("in the spring")
    assert window("the summer holidays with Bea")[0] == window("the summer")[0]
    assert window("last winter when we moved") == window("last winter")
    assert window("over the summer of 2025")[0] == "2025-06-01T00:00:00+01:00"


# --- compounds --------------------------------------------------------------------------------


def test_since_monday_runs_from_the_most_recent_monday_to_now():
    assert window("since Monday") == ("2026-03-09T00:00:00+00:00", "2026-03-14T10:00:00+00:00")
    monday = datetime(2026, 3, 16, 10, 0, tzinfo=LISBON)
    assert window("since Monday", now=monday) == (
        "2026-03-16T00:00:00+00:00",
        "2026-03-16T10:00:00+00:00",
    )


def test_since_a_month_name_and_a_year():
    assert window("since May")[0] == "2025-05-01T00:00:00+01:00"
    assert window("since 2024")[0] == "2024-01-01T00:00:00+00:00"


def test_between_x_and_y_covers_both_whole_days_in_either_order():
    expected = ("2026-03-01T00:00:00+00:00", "2026-03-06T00:00:00+00:00")
    assert window("between March 1 and March 5") == expected
    assert window("between March 5 and March 1") == expected


def test_from_x_to_y():
    assert window("from Monday to Wednesday") == (
        "2026-03-09T00:00:00+00:00",
        "2026-03-12T00:00:00+00:00",
    )
    assert window("from January to March 2025")[0] == "2025-01-01T00:00:00+00:00"


def test_before_and_after_are_the_fourteen_days_around():
    assert window("before Christmas") == (
        "2025-12-11T00:00:00+00:00",
        "2025-12-25T00:00:00+00:00",
    )
    assert window("after Christmas") == (
        "2025-12-26T00:00:00+00:00",
        "2026-01-09T00:00:00+00:00",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Friday 6 February 2026 is the anchor in each.
        ("what did Rui fix the week before 6 February 2026?", ("2026-01-30", "2026-02-06")),
        ("what did Rui fix two weeks before 6 February 2026?", ("2026-01-23", "2026-01-30")),
        ("what did Rui buy the day before 6 February 2026?", ("2026-02-05", "2026-02-06")),
        ("what did Rui buy two days before 6 February 2026?", ("2026-02-04", "2026-02-05")),
        ("what did Rui buy a few days before 6 February 2026?", ("2026-02-03", "2026-02-06")),
        ("where was Rui the month before February 2026?", ("2026-01-01", "2026-02-01")),
        ("where did Rui go the weekend before 6 February 2026?", ("2026-01-31", "2026-02-02")),
        ("who visited the Friday before 6 February 2026?", ("2026-01-30", "2026-01-31")),
        ("what did Rui do the day after 6 February 2026?", ("2026-02-07", "2026-02-08")),
        ("what did Rui do the week after 6 February 2026?", ("2026-02-07", "2026-02-14")),
    ],
)
def test_a_measured_step_before_or_after_a_date_counts_from_that_date(text, expected):
    start, end = window(text)
    assert (start[:10], end[:10]) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("where did Ana travel in the summer of 2024?", ("2024-06-01", "2024-09-01")),
        ("where did Ana travel in summer 2024?", ("2024-06-01", "2024-09-01")),
        ("what did Ana start in early 2024?", ("2024-01-01", "2024-05-01")),
        ("what did Ana start in mid-2024?", ("2024-05-01", "2024-09-01")),
        ("what did Ana start in late 2024?", ("2024-09-01", "2025-01-01")),
    ],
)
def test_a_season_or_part_of_a_named_year_is_in_that_year(text, expected):
    start, end = window(text)
    assert (start[:10], end[:10]) == expected


# --- date-like strings ------------------------------------------------------------------------


def test_iso_and_written_dates():
    expected = ("2025-03-14T00:00:00+00:00", "2025-03-15T00:00:00+00:00")
    assert window("2025-03-14") == expected
    assert window("14 March 2025") == expected
    assert window("March 14th, 2025") == expected
    assert window("the 14th of March 2025") == expected
    assert window("14.03.2025") == expected


def test_a_year_less_date_follows_the_direction():
    assert window("March 14th")[0] == "2026-03-14T00:00:00+00:00"  # today
    assert window("20 March")[0] == "2025-03-20T00:00:00+00:00"
    assert window("20 March", direction="future")[0] == "2026-03-20T00:00:00+00:00"
    assert window("the 20th")[0] == "2026-02-20T00:00:00+00:00"


def test_numeric_dates_use_day_first_outside_the_united_states():
    assert window("3/4")[0] == "2025-04-03T00:00:00+01:00"
    new_york_now = datetime(2026, 3, 14, 10, 0, tzinfo=NEW_YORK)
    assert window("3/4", now=new_york_now, tz=NEW_YORK)[0] == "2026-03-04T00:00:00-05:00"


def test_a_number_above_twelve_is_the_day_whatever_the_timezone():
    assert window("3/14")[0] == "2026-03-14T00:00:00+00:00"
    assert window("14/3")[0] == "2026-03-14T00:00:00+00:00"
    new_york_now = datetime(2026, 3, 14, 10, 0, tzinfo=NEW_YORK)
    assert window("14/3", now=new_york_now, tz=NEW_YORK)[0] == "2026-03-14T00:00:00-04:00"
    assert window("3/14/25")[0] == "2025-03-14T00:00:00+00:00"


def test_impossible_dates_and_figures_of_speech_are_not_dates():
    for text in ("31/2", "on 30 February", "open 24/7", "2.5 km", "2025-13-01", "room 12"):
        assert resolve_time_expression(text, now=SATURDAY, tz=LISBON) == (None, None), text


# --- spans, choice and labels -----------------------------------------------------------------


def test_the_span_covers_the_expression_in_the_original_text():
    text = "What did Ana say last Friday about the flat?"
    _range, span = resolve_time_expression(text, now=SATURDAY, tz=LISBON)
    assert span is not None
    assert text[span[0] : span[1]] == "last Friday"


def test_the_first_expression_wins_and_the_longest_at_a_position():
    time_range, span = resolve_time_expression("yesterday she said Friday", now=SATURDAY, tz=LISBON)
    assert time_range is not None
    assert span == (0, 9)
    _range, span = resolve_time_expression("last Friday night", now=SATURDAY, tz=LISBON)
    assert span == (0, 17)


def test_no_expression_gives_nothing():
    assert resolve_time_expression("what about the flat?", now=SATURDAY, tz=LISBON) == (
        None,
        None,
    )


def test_labels_name_the_window_and_the_timezone():
    assert resolved("yesterday").label == "yesterday (Fri 13 Mar 2026, Europe/Lisbon)"
    assert (
        resolved("last week").label == "last week (Mon 2 Mar \u2013 Sun 8 Mar 2026, Europe/Lisbon)"
    )
    assert resolved("since Monday").label == (
        "since monday (Mon 9 Mar 2026 \u2013 now, Europe/Lisbon)"
    )
    assert resolved("this morning").label == (
        "this morning (Sat 14 Mar 2026 05:00\u201312:00, Europe/Lisbon)"
    )
    assert resolved("over the holidays").label == (
        "the holidays (Sat 20 Dec 2025 \u2013 Tue 6 Jan 2026, Europe/Lisbon)"
    )


# --- a message's own dates --------------------------------------------------------------------


def test_a_message_that_says_yesterday_means_the_day_before_it_was_sent():
    sent_at = datetime(2026, 5, 8, 15, 0, tzinfo=LISBON)
    time_range = message_relative_date("I went there yesterday", sent_at, LISBON)
    assert time_range is not None
    assert (time_range.start.isoformat(), time_range.end.isoformat()) == (
        "2026-05-07T00:00:00+01:00",
        "2026-05-08T00:00:00+01:00",
    )


def test_a_message_weekday_is_the_nearest_one_to_its_send_time():
    wednesday = datetime(2026, 5, 6, 12, 0, tzinfo=LISBON)
    proposal = message_relative_date("Dinner Friday at 8?", wednesday, LISBON)
    assert proposal is not None
    assert proposal.start.isoformat() == "2026-05-08T00:00:00+01:00"
    saturday = datetime(2026, 5, 9, 12, 0, tzinfo=LISBON)
    report = message_relative_date("saw him Friday", saturday, LISBON)
    assert report is not None
    assert report.start.isoformat() == "2026-05-08T00:00:00+01:00"


def test_a_message_is_read_in_the_given_timezone():
    sent_at = datetime(2026, 5, 8, 3, 0, tzinfo=UTC)  # 23:00 on 7 May in New York
    time_range = message_relative_date("see you tomorrow", sent_at, NEW_YORK)
    assert time_range is not None
    assert time_range.start.isoformat() == "2026-05-08T00:00:00-04:00"


def test_a_message_without_dates_has_no_window():
    sent_at = datetime(2026, 5, 8, 15, 0, tzinfo=LISBON)
    assert message_relative_date("ok see you there", sent_at, LISBON) is None


# --- a relative phrase read against a dated one -----------------------------------------------


def test_last_weekday_followed_by_a_dated_day_is_the_weekday_before_that_date():
    # Friday 2 January 2026 is the Friday before Monday 5 January 2026.
    assert window("what did Ana finish last Friday, on 5 January 2026?") == (
        "2026-01-02T00:00:00+00:00",
        "2026-01-03T00:00:00+00:00",
    )


def test_bare_weekday_before_a_dated_day_is_the_one_before_it():
    assert window("who came over on the Sunday before 10 February 2026?") == (
        "2026-02-08T00:00:00+00:00",
        "2026-02-09T00:00:00+00:00",
    )


def test_last_weekend_before_a_date_is_the_weekend_before_that_date():
    assert window("where did Rui go last weekend before March 2, 2026?") == (
        "2026-02-28T00:00:00+00:00",
        "2026-03-02T00:00:00+00:00",
    )


@pytest.mark.parametrize(
    "text",
    [
        "what cake did Ana bake recently, in November 2025?",
        "which film did Rui see lately in November 2025",
    ],
)
def test_recently_with_a_dated_month_is_that_month(text):
    assert window(text) == ("2025-11-01T00:00:00+00:00", "2025-12-01T00:00:00+00:00")


def test_relative_phrase_without_a_dated_one_still_reads_against_now():
    assert window("what did Ana say last Friday?") == (
        "2026-03-13T00:00:00+00:00",
        "2026-03-14T00:00:00+00:00",
    )


def test_a_date_before_the_relative_phrase_is_no_anchor():
    # The first expression wins as before: the dated one.
    assert window("in November 2025, and recently?") == (
        "2025-11-01T00:00:00+00:00",
        "2025-12-01T00:00:00+00:00",
    )


def test_thanksgiving_in_a_canadian_zone_is_the_october_long_weekend():
    toronto = ZoneInfo("America/Toronto")
    asked = datetime(2030, 10, 1, 9, 0, tzinfo=toronto)
    window = resolved("thanksgiving", now=asked, tz=toronto, direction="nearest")
    # The second Monday of October 2030 is the 14th: Saturday 12th to Monday 14th.
    assert window.start == datetime(2030, 10, 12, tzinfo=toronto)
    assert window.end == datetime(2030, 10, 15, tzinfo=toronto)


def test_thanksgiving_elsewhere_is_the_fourth_thursday_of_november():
    chicago = ZoneInfo("America/Chicago")
    asked = datetime(2030, 10, 1, 9, 0, tzinfo=chicago)
    window = resolved("thanksgiving", now=asked, tz=chicago, direction="nearest")
    assert window.start == datetime(2030, 11, 28, tzinfo=chicago)


def test_earlier_alone_is_today_so_far_and_at_least_the_last_twelve_hours():
    evening = datetime(2026, 3, 14, 21, 0, tzinfo=LISBON)
    assert window("what did Ana say earlier?", now=evening) == (
        "2026-03-14T00:00:00+00:00",
        "2026-03-14T21:00:00+00:00",
    )
    assert window("anything from Ana earlier on") == (
        "2026-03-13T22:00:00+00:00",
        "2026-03-14T10:00:00+00:00",
    )
    # A comparison is no time window.
    assert (
        resolve_time_expression("is the train earlier than the bus?", now=SATURDAY, tz=LISBON)[0]
        is None
    )
