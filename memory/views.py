"""Server-rendered memory pages: the plans calendar ("Open calendar" in answers)."""

from __future__ import annotations

from datetime import date

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from claire.api.auth import request_user
from memory.calendar import calendar_week_for_user

MIN_CALENDAR_YEAR = 1900
MAX_CALENDAR_YEAR = 9000


@login_required
def calendar_view(request: HttpRequest) -> HttpResponse:
    """The week holding ``?date=YYYY-MM-DD`` (today, in the user's timezone, by default)."""
    user = request_user(request)
    today = timezone.now().astimezone(user.zoneinfo).date()
    raw = request.GET.get("date", "").strip()
    try:
        day = date.fromisoformat(raw) if raw else today
        # The week around the day must be representable (it is read with a margin before it).
        if not date(MIN_CALENDAR_YEAR, 1, 1) <= day < date(MAX_CALENDAR_YEAR, 1, 1):
            raise ValueError(raw)
    except ValueError:
        return render(
            request,
            "memory/calendar.html",
            {"error": f"“{raw}” is not a date; use YYYY-MM-DD.", "today": today},
            status=400,
        )
    week = calendar_week_for_user(user=user, day=day)
    return render(
        request,
        "memory/calendar.html",
        {"week": week, "selected": day, "today": today, "timezone": user.timezone},
    )
