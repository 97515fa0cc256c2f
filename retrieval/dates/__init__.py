"""Relative and absolute date expressions -> half-open windows in the user's timezone.

Our own rules, not a library's: the rules are part of the product (the answer says which window
it read), so they are written down in docs/RETRIEVAL.md and pinned by tests. In short:

- Calendar arithmetic happens on local dates; a window's bounds are local wall-clock times
  (midnight, or a part-of-day hour) converted through the timezone, so a local day across a DST
  change lasts 23 or 25 hours.
- Weeks start on Monday. "last Friday" is the most recent Friday strictly before today, "next
  Friday" the first Friday strictly after today, "this Friday" the Friday of the current week.
- A bare reference without a modifier ("Friday", "in March", "14 March", "at Christmas") picks
  an occurrence by ``direction``: ``past`` (the latest one that has started), ``future`` (the
  earliest one that has not ended) or ``nearest`` (the one containing now, else the closer
  one, the past one on a tie). The occurrence containing now counts in every direction.
- "last week/month/year" is the previous calendar unit; "the last week", "the past 3 days",
  "the last 24 hours" are rolling windows that end now.
- Numeric dates: a number above 12 is the day; otherwise month-first in United States (and
  Philippine) timezones, day-first everywhere else. A year-less date follows ``direction``.
- Compounds: "since X" = [X.start, now); "between X and Y" / "from X to Y" = [X.start, Y.end)
  in either order; "before X" / "after X" = the 14 days before / after X.
"""

from __future__ import annotations

from retrieval.dates.resolve import describe_window, message_relative_date, resolve_time_expression
from retrieval.dates.terms import Direction
from retrieval.dates.windows import HOLIDAY_NAMES

__all__ = [
    "HOLIDAY_NAMES",
    "Direction",
    "describe_window",
    "message_relative_date",
    "resolve_time_expression",
]
