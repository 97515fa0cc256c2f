"""Server-rendered SVG charts for the staff dashboard (no JavaScript, nothing external).

Every label is escaped; colours are SVG presentation attributes, so the page's
Content-Security-Policy needs no inline styles for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 560, 220
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 26, 34
COLOURS = ("#2b6cb0", "#dd6b20", "#38a169", "#805ad5", "#e53e3e", "#718096")


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float | None]


def _number(value: float) -> str:
    if abs(value) >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    if abs(value) >= 100 or value == int(value):
        return f"{value:.0f}"
    return f"{value:.2f}"


def _frame(title: str, top: float, labels: Sequence[str]) -> list[str]:
    plot_height = HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title)}">',
        f'<text x="{LEFT}" y="16" font-size="13" font-weight="bold" fill="#1a202c">'
        f"{escape(title)}</text>",
    ]
    for step in range(5):
        y = TOP + plot_height * step / 4
        value = top * (4 - step) / 4
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
            'stroke="#e2e8f0" stroke-width="1"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" font-size="10" text-anchor="end" '
            f'fill="#4a5568">{_number(value)}</text>'
        )
    count = len(labels)
    every = max(1, count // 6)
    for index, label in enumerate(labels):
        if index % every == 0:
            x = _x(index, count)
            parts.append(
                f'<text x="{x:.1f}" y="{HEIGHT - 14}" font-size="10" text-anchor="middle" '
                f'fill="#4a5568">{escape(label)}</text>'
            )
    return parts


def _x(index: int, count: int) -> float:
    width = WIDTH - LEFT - RIGHT
    return LEFT + (width * (index + 0.5) / count if count else 0)


def _y(value: float, top: float) -> float:
    plot_height = HEIGHT - TOP - BOTTOM
    return TOP + plot_height * (1 - (value / top if top else 0))


def _legend(names: Sequence[str]) -> list[str]:
    parts = []
    x = WIDTH - RIGHT
    for index, name in reversed(list(enumerate(names))):
        if not name:
            continue
        x -= 8 + 7 * len(name) + 14
        parts.append(
            f'<rect x="{x}" y="7" width="10" height="10" fill="{COLOURS[index % len(COLOURS)]}"/>'
            f'<text x="{x + 14}" y="16" font-size="11" fill="#2d3748">{escape(name)}</text>'
        )
    return parts


def _top(values: Sequence[float]) -> float:
    highest = max(values, default=0.0)
    return highest * 1.1 if highest > 0 else 1.0


def line_chart(title: str, labels: Sequence[str], series: Sequence[Series]) -> str:
    """One polyline per series over the labels (a gap where a value is missing)."""
    top = _top([v for s in series for v in s.values if v is not None])
    parts = _frame(title, top, labels)
    for index, line in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        points: list[str] = []
        segments: list[list[str]] = [points]
        for position, value in enumerate(line.values):
            if value is None:
                points = []
                segments.append(points)
                continue
            x, y = _x(position, len(labels)), _y(value, top)
            points.append(f"{x:.1f},{y:.1f}")
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>')
        for segment in segments:
            if len(segment) > 1:
                parts.append(
                    f'<polyline points="{" ".join(segment)}" fill="none" stroke="{colour}" '
                    'stroke-width="2"/>'
                )
    parts += _legend([s.name for s in series])
    parts.append("</svg>")
    return "".join(parts)


def stacked_bar_chart(title: str, labels: Sequence[str], series: Sequence[Series]) -> str:
    """Bars stacked per label, one colour per series."""
    totals = [sum(s.values[i] or 0 for s in series) for i in range(len(labels))]
    top = _top(totals)
    parts = _frame(title, top, labels)
    width = (WIDTH - LEFT - RIGHT) / max(len(labels), 1) * 0.7
    for position in range(len(labels)):
        base = 0.0
        for index, bar in enumerate(series):
            value = bar.values[position] or 0
            if value <= 0:
                continue
            y_top, y_base = _y(base + value, top), _y(base, top)
            parts.append(
                f'<rect x="{_x(position, len(labels)) - width / 2:.1f}" y="{y_top:.1f}" '
                f'width="{width:.1f}" height="{y_base - y_top:.1f}" '
                f'fill="{COLOURS[index % len(COLOURS)]}"/>'
            )
            base += value
    parts += _legend([s.name for s in series])
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(title: str, labels: Sequence[str], values: Sequence[float]) -> str:
    """One bar per label (a distribution: routes, source counts)."""
    return stacked_bar_chart(title, labels, [Series("", values)])
