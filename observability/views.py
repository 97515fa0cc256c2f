"""The staff dashboard page (served inside the admin, staff only)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.safestring import mark_safe

from observability.dashboard import DEFAULT_WINDOW, WINDOWS, dashboard_build


def dashboard_view(request: HttpRequest) -> HttpResponse:
    dashboard = dashboard_build(
        window=request.GET.get("window", DEFAULT_WINDOW),
        profile=request.GET.get("profile", "answer")[:64],
    )
    return TemplateResponse(
        request,
        "observability/dashboard.html",
        {
            **admin.site.each_context(request),
            "title": "Ask Claire: operations",
            "dashboard": dashboard,
            # The charts are built from numbers and escaped labels (observability.charts).
            "charts": [mark_safe(chart) for chart in dashboard.charts],  # noqa: S308
            "windows": list(WINDOWS),
        },
    )
