"""The staff dashboard page: under the admin's URL and login (staff only), a page of its own
(its styles inline with the request's CSP nonce, no static files, no JavaScript)."""

from __future__ import annotations

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
            "title": "Ask Claire: operations",
            "dashboard": dashboard,
            # The charts are built from numbers and escaped labels (observability.charts).
            "charts": [mark_safe(chart) for chart in dashboard.charts],  # noqa: S308
            "windows": list(WINDOWS),
        },
    )
