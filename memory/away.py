"""When the user was away: a catch-up asked relative to a trip ("since we got back", "since
the trip", "while I was away") reads the window from the user's own messages about leaving and
coming back, never from the question's exact wording.

Three kinds of the user's messages mark a trip, in the languages the history is written in:

- **leaving**: "off to Oslo tomorrow", "flying to Rome tonight", "heading to the airport",
  "boarding now", "out of office until the 12th", "de férias!", "me voy a Lima";
- **arriving somewhere**: "landed", "arrived in Quito", "made it to Faro" — on the way out or
  on the way back, so they count with whichever of the two they lie closest to;
- **coming back**: "back home", "home at last", "finally home", "we got back Sunday",
  "back from Tallinn", "de volta a casa", "ya en casa", "de retour", "wieder zu Hause".

The return is the earliest message of the latest cluster of coming-back messages (with the
arrivals within ``RETURN_CLUSTER_DAYS`` of it, and a day such a message names when that is
earlier: "we got back Sunday" written on Tuesday). The departure is the earliest leaving or
arriving message after the previous return and within ``TRIP_MAX_DAYS`` before it. A user who
left and has not come back is still away: the trip runs until now.

The marks are read from each of the user's messages at ingest (``travel_kind``, kept as message
claims); a question reads the latest of them, user-scoped, in one indexed query; deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from claire.accounts.models import User
from memory.models import MessageClaim, MessageClaimSource
from retrieval.dates import message_relative_date
from retrieval.lexicon import fold_text

# A question that counts from the end of a trip: "since we got back", "since I got home",
# "since the trip", "after our holiday", "desde que voltei", "desde que volví".
_SINCE_RETURN = re.compile(
    r"\b(?:since|after)\s+(?:we|i)\s+(?:got|came|were|was|are|am|flew|arrived|made\s+it)?\s*"
    r"(?:back|home|returned|landed)\b"
    r"|\b(?:since|after)\s+(?:we|i)\s+(?:returned|landed|arrived)\b"
    r"|\b(?:since|after)\s+(?:the|my|our)\s+(?:\w+\s+)?(?:trip|holiday|holidays|vacation|travels"
    r"|honeymoon|getaway|journey)\b"
    r"|\b(?:since|after)\s+(?:coming|getting|flying)\s+(?:back|home)\b"
    r"|\bdesde\s+que\s+(?:\w+\s+)?(?:voltei|voltamos|cheguei|chegamos|volvi|volvimos|regres\w+"
    r"|llegu[eé]|llegamos)\b"
    r"|\bdepuis\s+(?:mon|notre)\s+retour\b|\bseit\s+(?:ich|wir)\s+zur[uü]ck\b"
)
# A question about the trip itself: "while I was away", "during the trip", "when we were
# travelling", "enquanto estive fora", "mientras estaba fuera".
_WHILE_AWAY = re.compile(
    r"\b(?:while|when)\s+(?:i|we)\s+(?:was|were|am|are|'m|'re)\s+(?:away|gone|out|off"
    r"|travel+ing|abroad|on\s+(?:holiday|vacation|leave|the\s+road|my\s+trip|our\s+trip))\b"
    r"|\b(?:while|when)\s+(?:i|we)\s+(?:was|were)\s+(?:in|at)\s+\w+"
    r"|\bduring\s+(?:the|my|our)\s+(?:\w+\s+)?(?:trip|holiday|holidays|vacation|travels"
    r"|honeymoon|time\s+away)\b"
    r"|\benquanto\s+(?:eu\s+)?(?:estive|estava|estivemos)\s+fora\b"
    r"|\bmientras\s+(?:\w+\s+)?(?:estaba|estuve|estabamos)\s+fuera\b"
    r"|\bpendant\s+(?:mon|notre)\s+(?:absence|voyage)\b|\bw[aä]hrend\s+(?:ich|wir)\s+weg\b"
)
# The user's messages of coming back.
_BACK = (
    r"(?:^|[^a-z])(?:(?:got|are|we're|were|i'm|im|am|just|finally|made\s+it)\s+(?:back|home)"
    r"|back\s+(?:home|in\s+town|from)|home\s+(?:again|safe|at\s+last|sweet\s+home)"
    r"|finally\s+home|safely\s+home|home\s+now)(?:[^a-z]|$)"
    # A message that opens with the news itself: "home!!", "back home."
    r"|^\s*(?:back|home)(?:\s+(?:home|safe|again))?\s*[!.]"
    r"|(?:^|[^a-z])(?:de\s+volta|j[aá]\s+em\s+casa|cheguei\s+a\s+casa|chegamos\s+a\s+casa"
    r"|de\s+vuelta|ya\s+en\s+casa|ya\s+estoy\s+en\s+casa|de\s+retour|rentr[eé]s?\s+[aà]\s+la"
    r"\s+maison|wieder\s+(?:zu\s+)?hause|zur[uü]ck\s+zu\s+hause)(?:[^a-z]|$)"
)
# ... of arriving somewhere (the way out or the way back).
_ARRIVED = (
    r"(?:^|[^a-z])"
    r"(?:landed|touched\s+down|arrived\s+in|made\s+it\s+to|aterr\w+|cheguei)"
    r"(?:[^a-z]|$)"
)
# ... of leaving.
_LEAVING = (
    r"(?:^|[^a-z])(?:off\s+to|flying\s+(?:to|out)|fly\s+out|heading\s+(?:to|off|out)"
    r"|leaving\s+for|on\s+(?:my|our)\s+way\s+to|boarding|at\s+the\s+airport|wheels\s+up"
    r"|out\s+of\s+(?:the\s+)?office|on\s+holiday|on\s+vacation|holiday\s+starts"
    r"|vacation\s+starts|de\s+f[eé]rias|de\s+vacaciones|me\s+voy\s+a|vou\s+para|en\s+vacances"
    r"|im\s+urlaub)(?:[^a-z]|$)"
)
# What a message of the user's must match to mark a trip (read at ingest, as a claim).
TRAVEL_VOCABULARY = f"{_BACK}|{_ARRIVED}|{_LEAVING}"
_BACK_MESSAGE = re.compile(_BACK)
_ARRIVED_MESSAGE = re.compile(_ARRIVED)
_LEAVING_MESSAGE = re.compile(_LEAVING)
# Messages saying the user is back that belong to one return ("home!!" on landing, "I'm
# back" at work the next day, "we got back Sunday" two days later) lie this close together.
RETURN_CLUSTER_DAYS = 3
# A trip is not read further back than this from its return.
TRIP_MAX_DAYS = 45
TRAVEL_MESSAGES_READ = 60


@dataclass(frozen=True)
class Trip:
    """The user's latest trip: ``left`` (``None`` when no leaving was said) and ``back``
    (``None`` while they are still away)."""

    left: datetime | None
    back: datetime | None


def asks_since_return(question: str) -> bool:
    return bool(_SINCE_RETURN.search(fold_text(question)))


def asks_while_away(question: str) -> bool:
    return bool(_WHILE_AWAY.search(fold_text(question)))


def travel_kind(text: str) -> str:
    """``back``, ``leaving`` or ``arrived`` when the user's message marks a trip, else ``""``."""
    folded = fold_text(text)
    if _BACK_MESSAGE.search(folded):
        return "back"
    if _LEAVING_MESSAGE.search(folded):
        return "leaving"
    if _ARRIVED_MESSAGE.search(folded):
        return "arrived"
    return ""


def latest_trip(*, user: User, now: datetime) -> Trip | None:
    """The user's latest trip as their own messages tell it, or ``None`` when they never
    said they left or came back. The messages' trip marks are read at ingest
    (``MessageClaimSource.TRAVEL``); this reads the latest of them through their index."""
    rows = [
        (sent_at, text, kind)
        for sent_at, text, kind in MessageClaim.objects.filter(
            user=user,
            source=MessageClaimSource.TRAVEL,
            message__deleted_at__isnull=True,
            message__sent_at__lt=now,
        )
        .order_by("-message__sent_at", "-message_id")
        .values_list("message__sent_at", "message__text", "value")[:TRAVEL_MESSAGES_READ]
    ]
    rows = [row for row in rows if row[2]]
    if not rows:
        return None
    backs = [row for row in rows if row[2] == "back"]
    leavings = [row for row in rows if row[2] == "leaving"]
    if leavings and (not backs or leavings[0][0] > backs[0][0]):
        # Left after the last return: still away.
        return Trip(
            left=_departure(rows, before=now, after=backs[0][0] if backs else None), back=None
        )
    if not backs:
        # Only arrivals: the newest one is the way back, as far as the messages tell.
        return Trip(left=None, back=rows[0][0])
    back = _return_moment(rows, latest=backs[0][0], zone=user.zoneinfo)
    earlier_backs = [row[0] for row in backs if row[0] < back - timedelta(days=RETURN_CLUSTER_DAYS)]
    return Trip(
        left=_departure(rows, before=back, after=earlier_backs[0] if earlier_backs else None),
        back=back,
    )


def _return_moment(
    rows: list[tuple[datetime, str, str]], *, latest: datetime, zone: ZoneInfo
) -> datetime:
    """The earliest back or arrival message within ``RETURN_CLUSTER_DAYS`` before the latest
    back message (and no later than it), or the day one of them names when earlier."""
    cluster_start = latest - timedelta(days=RETURN_CLUSTER_DAYS)
    moments = [latest]
    for sent_at, text, kind in rows:
        if not cluster_start <= sent_at <= latest or kind == "leaving":
            continue
        moments.append(sent_at)
        said = message_relative_date(text or "", sent_at, zone, direction="past")
        if said is not None and cluster_start <= said.start_utc < sent_at:
            moments.append(said.start_utc)
    return min(moments)


def _departure(
    rows: list[tuple[datetime, str, str]], *, before: datetime, after: datetime | None
) -> datetime | None:
    """The earliest leaving or arrival message before ``before``, after the previous return
    and within ``TRIP_MAX_DAYS``."""
    floor = before - timedelta(days=TRIP_MAX_DAYS)
    if after is not None:
        floor = max(floor, after)
    moments = [
        sent_at
        for sent_at, _text, kind in rows
        if kind in ("leaving", "arrived") and floor < sent_at < before
    ]
    return min(moments) if moments else None
