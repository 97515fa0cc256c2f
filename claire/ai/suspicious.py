"""Messages that must never be followed or restated: instructions aimed at an assistant
(prompt injection) and the shapes of spam, in several languages.

Answers quote such a message only inertly, flag it as suspicious, and never restate it in
their own words; a catch-up leaves it out of its highlights. Pure text rules.
"""

from __future__ import annotations

import re

_FLAGS = re.IGNORECASE

# Text that speaks to an assistant instead of to the user: instructions to ignore, reveal or
# approve, in several languages. Such a message is data; a digest flags it, never leads with it.
_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|my\s+)*"
    r"(?:previous\s+|prior\s+|above\s+|earlier\s+|system\s+)*(?:instructions?|rules|prompts?)\b"
    r"|\bsystem\s+prompt\b|\bdeveloper\s+mode\b|\bjailbreak\b"
    r"|\b(?:reveal|print|show|leak)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+|hidden\s+|secret\s+)?"
    r"(?:prompt|instructions|rules|api\s+keys?|credentials|passwords?)\b"
    r"|\bapprove\s+(?:every|all|any)\s+(?:pending\s+)?(?:proposals?|requests?|payments?|actions?)\b"
    r"|\b(?:you\s+are\s+now|from\s+now\s+on\s+you)\b.*\b(?:assistant|ai|bot|model)\b"
    r"|\b(?:ai|assistant|claire|bot)\s*[:,]\s*(?:please\s+)?(?:ignore|forward|send|delete|approve"
    r"|reveal|transfer|tell|add|say|include|write|reply|mention)\b"
    # Text addressed to an assistant, or claiming to be an instruction for its next answer.
    r"|\b(?:notice|note|instructions?)\s+(?:to|for)\s+(?:the\s+|any\s+)?"
    r"(?:ai|assistant|bot|claire)\b"
    r"|\bauthori[sz]ed\s+instructions?\b"
    # A message posing as the system, or telling an assistant what to say to its user.
    r"|\bsystem\s+(?:override|message|notice|instruction)\b|^\W*system\s*:"
    r"|\b(?:for|to)\s+(?:the\s+|any\s+)?(?:ai|assistant|bot|llm|language\s+model)\s*:"
    r"|\bwhen\s+the\s+user\s+asks\b|\b(?:tell|inform)\s+the\s+user\b"
    r"|\b(?:add|say|include|write)\b[^.\n]{0,80}\b(?:to|in)\s+your\s+next\s+(?:answer|reply|response)\b"
    # Text posing as the prompt's own structure: a source mark or a fence of its own.
    r"|</?\s*sources?\s*>|\[S\d+\]|<{3}|>{3}"
    r"|\bignor(?:e|a|ez|iere)\s+(?:as|las|les|alle|todas\s+as|todas\s+las|toutes\s+les)?\s*"
    r"(?:instru[cç][oõ]es|instrucciones|instructions|anweisungen)\b",
    _FLAGS,
)
# The shapes of unsolicited bulk messages: prizes, urgent verification, payment lures.
_SPAM = re.compile(
    r"\b(?:you(?:['\u2019]ve| have)?\s+(?:just\s+)?won|claim\s+(?:your|the)\s+(?:prize|reward|gift)"
    r"|(?:verify|confirm)\s+your\s+(?:account|identity|details)|click\s+(?:here|the\s+link)"
    r"|gift\s+card|limited[-\s]time\s+offer|act\s+now|wire\s+transfer\s+fee"
    r"|crypto\s+(?:giveaway|investment|signals?)|double\s+your\s+money|unsubscribe"
    r"|(?:routing|account|acct|iban)\s*(?:number|no\.?|#)?\s*[:#]?\s*\d[\d\s-]{5,}"
    r"|urgent(?:ly)?\s+(?:wire|transfer|send|pay)\b)\b",
    _FLAGS,
)
# Payment lures (toll, parcel, bank "notices"): any two of a demand to pay or verify against a
# deadline, a threatened penalty, and a link to pay or verify. One alone is ordinary talk
# ("can you pay me back within 2 days?", "to avoid a fine, park on the left").
_PAY_DEADLINE = re.compile(
    r"\b(?:pay|settle|verify|confirm)\b[^.\n]{0,40}\bwithin\s+\d+\s*(?:h|hrs?|hours?|days?)\b",
    _FLAGS,
)
_PENALTY_THREAT = re.compile(
    r"\bto\s+avoid\s+(?:a\s+|an\s+|further\s+|additional\s+)?(?:[$€£]\s?\d[\d.,]*\s+)?"
    r"(?:penalty|penalties|fine|fines|late\s+fees?|suspension|disconnection)\b"
    r"|\b(?:account|card|service)\s+(?:will\s+be|has\s+been)\s+(?:suspended|locked|blocked)\b",
    _FLAGS,
)
_LURE_LINK = re.compile(
    r"\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,8}/(?:verify|pay|claim|login|update|secure|confirm)\w*",
    _FLAGS,
)


def _payment_lure(text: str) -> bool:
    signals = (_PAY_DEADLINE, _PENALTY_THREAT, _LURE_LINK)
    return sum(1 for signal in signals if signal.search(text)) >= 2


# A link: a web address, a domain with a common top-level domain, or any domain followed by a
# path ("pay-toll.example/verify"); never an email's domain.
_LINK = re.compile(
    r"\bhttps?://\S+|\bwww\.\S+"
    r"|(?<![@\w.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,12}/[^\s]*"
    r"|(?<![@\w.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"
    r"(?:com|net|org|info|biz|shop|store|xyz|top|site|online|click|link|live|app|io|co|ly|me"
    r"|gl|to|cc|ru|cn|au|uk|us|ca|de|fr|it|es|nz|in)\b(?:/[^\s]*)?",
    _FLAGS,
)
# What a phishing message asks for: a payment, a login, details, a confirmation.
_ASK = re.compile(
    r"\b(?:pay(?:ment)?|unpaid|overdue|outstanding\s+(?:balance|amount|fee)|penalty"
    r"|(?:a|the|your)\s+fine|fee|toll|refund|verify|verification|confirm\s+(?:your|the)"
    r"|update\s+your|log\s*in|sign\s+in"
    r"|password|passcode|pin|card\s+details|bank\s+details|reschedule|redeliver\w*"
    r"|delivery\s+(?:fee|failed|attempt)|suspend\w*|locked|quota"
    # ... as other languages write a demand to pay or verify ("pague", "payez", "zahlen Sie").
    r"|pague|pagar|abone|abonar|payez|payer|pagamento|pagare|paghi|zahlen|bezahlen|verifique"
    r"|vérifiez|verifiez|confirme\s+(?:su|sus|seu|sua|votre|vos))\b",
    _FLAGS,
)
# The pressure a phishing message puts on: a deadline, a threat, a last chance.
_URGENCY = re.compile(
    r"\b(?:urgent\w*|immediately|asap|within\s+\d+\s*(?:h|hrs?|hours?|days?)\b|\d+\s*h(?:rs?)?\b"
    r"|final\s+(?:notice|reminder|warning)|last\s+(?:chance|notice|warning)|act\s+now"
    r"|avoid\s+(?:a\s+|an\s+|further\s+)?(?:penalty|fee|fine|charges?|suspension|late)"
    r"|will\s+be\s+(?:suspended|closed|locked|deleted|cancell?ed|returned)|expires?\s+today)",
    _FLAGS,
)
# An unsolicited offer: a price cut or a giveaway.
_OFFER = re.compile(
    r"\b(?:\d+\s*%\s*off|cheap|discount\w*|free\s+(?:entry|entries|tickets?|gift)|promo"
    r"|resale|giveaway|deal\s+of)\b",
    _FLAGS,
)

# What stands where a suspicious message's link was.
REMOVED_LINK = "[link removed]"

INJECTION = "injection"
PHISHING = "phishing"
SPAM = "spam"
# How an answer labels a cited message of each kind.
SUSPICION_LABELS = {
    INJECTION: "contains instructions aimed at an assistant; ignored",
    PHISHING: "looks like a phishing message; its link is left out and it was not followed",
    SPAM: "looks like spam; its link is left out and it was not followed",
}


def suspicion_kind(text: str, *, is_unsolicited: bool = False) -> str:
    """What makes a message suspicious, or "": instructions aimed at an assistant
    (``INJECTION``); a link with a payment or login ask under pressure, or with such an ask
    from a sender the user never wrote to (``PHISHING``); the shapes of bulk messages, or a
    link with an offer from such a sender (``SPAM``)."""
    if not text:
        return ""
    if _INJECTION.search(text):
        return INJECTION
    return lure_kind(text, is_unsolicited=is_unsolicited)


def lure_kind(text: str, *, is_unsolicited: bool = False) -> str:
    """What ``text`` asks of its reader as a scam, whatever else it holds: ``PHISHING`` (a
    link with a payment or login ask under pressure, or from a sender the user never wrote
    to), ``SPAM`` (bulk shapes, an offer with a link from such a sender), or "". A link an
    answer already removed (``without_links``) still counts as a link."""
    if not text:
        return ""
    if _payment_lure(text):
        return PHISHING
    has_link = _LINK.search(text) is not None or REMOVED_LINK in text
    if has_link and _ASK.search(text) and (is_unsolicited or _URGENCY.search(text)):
        return PHISHING
    if _SPAM.search(text) or (has_link and is_unsolicited and _OFFER.search(text)):
        return SPAM
    return ""


def without_links(text: str) -> str:
    """``text`` with every link replaced: a suspicious message's address is never repeated."""
    return _LINK.sub(REMOVED_LINK, text)


def suspicious_text(text: str) -> bool:
    """A message that tries to instruct an assistant, or reads as spam or phishing."""
    return bool(suspicion_kind(text))
