"""What kind of value a question asks for, and whether a message gives one of that kind.

Sharing the question's topic words is not enough for evidence to answer it: "When does my
lease end?" is not answered by messages about the lease that never give a day, nor "What's
Ana's street address?" by "Ana moved to Ghent", nor "How much did the plumber charge?" by
"the plumber fixed it". A question asks for a typed slot (``Slot``) when its question words
say so; the answerability check (``retrieval.answerability``) then looks for a value of that
kind in the messages that carry the topic and their neighbours.

Only slots whose value a message must spell out are asked for here. A question about a past
event ("When did Ana move?") is answered by the date of the message that tells of it ("we
moved in yesterday!"), so only a present or future "when" asks for a day or a time written in
a message; "where" has too many forms of answer ("at Ana's", "back home") and asks only when
it wants an address.

The same module reads two other things a question needs from its evidence: the speaker it
asks about ("what did <someone> say ...", ``asked_speaker``) and an opinion ("what did
everyone think of ...", ``asks_opinion``, answered only by messages that judge something).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from retrieval.lexicon import STOP_WORDS, fold_text

_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_PERIOD = r"(?:week|weekend|month|year|fortnight|morning|afternoon|evening|night|arvo)"

# A day, a date or a time of day, written any usual way (broad on purpose: a question is
# refused only when none of its evidence has one).
DAY_OR_TIME = re.compile(
    r"\b" + _WEEKDAY + r"\b"
    r"|\b" + _MONTH + r"\b\.?"
    r"|\b(?:today|tonight|tomorrow|tmrw|tmr|yesterday|weekend|noon|midday|midnight|arvo"
    r"|asap|soon|later|eod|eow|christmas|xmas|easter|new\s+year)\b"
    r"|\b(?:next|this|last|coming|following|every|each|end\s+of(?:\s+the)?|start\s+of"
    r"(?:\s+the)?|mid)[\s-]+" + _PERIOD + r"\b"
    r"|\bin\s+(?:a|an|one|two|three|four|five|six|a\s+few|a\s+couple(?:\s+of)?|\d+)\s+"
    r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\b"
    r"|\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|h)\b"
    r"|\b\d{1,2}:\d{2}\b"
    r"|\b\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\b"
    r"|\b(?:19|20)\d{2}\b"
    r"|\b(?:at|@|by|from|until|till)\s*\d{1,2}\b",
    re.IGNORECASE,
)

# A time of day ("19:30", "7pm", "20h", "at 8", "a las 9", "half 7", "noon"): what "what time
# is …?" asks for; a day alone does not answer it.
CLOCK = re.compile(
    r"\b\d{1,2}[:.h]\d{2}\b"
    r"|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.|h|o'?clock|ish)\b"
    r"|\b(?:at|@|by|from|until|till|around|about|before|after|a\s+las|a\s+la|as|às|alle|um|vers)"
    r"\s*\d{1,2}\b"
    r"|\bhalf\s+(?:past\s+)?\d{1,2}\b|\b(?:noon|midday|midnight)\b",
    re.IGNORECASE,
)

# How long something took or a time of day ("2:41", "52 minutes", "under an hour", "7am").
TIME_TAKEN = re.compile(
    r"\b\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\b"
    r"|\b\d+(?:[.,]\d+)?\s*(?:secs?|seconds?|mins?|minutes?|hrs?|hours?|h)\b"
    r"|\b(?:under|over|about|around|just\s+under|just\s+over)\s+(?:an?|one|two|\d+)\s+"
    r"(?:hours?|minutes?|mins?)\b"
    r"|\b\d{1,2}\s*(?:am|pm)\b|\bsub[\s-]?\d",
    re.IGNORECASE,
)

_STREET_KINDS = (
    r"(?:st|street|rd|road|ave|avenue|av|blvd|boulevard|ln|lane|dr|drive|way|pl|place|ct"
    r"|court|cres|crescent|tce|terrace|pde|parade|hwy|highway|sq|square|close|cl|gr|grove"
    r"|circuit|cct|walk|row|mews|hill)"
)
# A street address: a number before a street name ("14 Rose St", "3/18 Alder Lane"), a
# street word before a name and a number as in much of Europe and Latin America ("Via Roma
# 12", "Rua das Flores, 45"), or a flat or unit number.
STREET_ADDRESS = re.compile(
    r"\b\d{1,5}[a-z]?(?:/\d{1,5}[a-z]?)?,?\s+(?:[A-Za-zÀ-ÿ'\u2019.-]+\s+){1,4}"
    + _STREET_KINDS
    + r"\b"
    r"|\b(?:via|viale|piazza|corso|rua|avenida|calle|carrer|rue|boulevard|strasse|straße"
    r"|ulica)\s+(?:[A-Za-zÀ-ÿ'\u2019.-]+\s+){1,4},?\s*\d{1,5}\b"
    r"|\b[A-Za-zÀ-ÿ]+(?:straße|strasse|str\.|gasse|weg|laan|straat|vej|gatan)\s*\d{1,5}\b"
    r"|\b(?:unit|apt|apartment|flat|suite)\s*#?\d"
    r"|\bp\.?\s?o\.?\s+box\s+\d",
    re.IGNORECASE,
)
EMAIL_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
PHONE_NUMBER = re.compile(r"(?<![\w/])\+?\d[\d ().-]{6,}\d\b")

# A sum of money: a currency sign or code, a number with a money word, or no charge at all.
AMOUNT = re.compile(
    r"[$€£¥₹]\s?\d|\b\d+(?:[.,]\d+)?\s?[$€£]"
    r"|\b\d+(?:[.,]\d+)?\s?(?:k|grand|bucks?|quid|dollars?|euros?|pounds?|cents?|usd|aud|eur"
    r"|gbp|cad|nzd|brl|reais|pesos?|rupees?|yen|each|pp|per\s+person|a\s+head|an?\s+hour"
    r"|/h|/hr|ph)\b"
    r"|\b(?:usd|aud|eur|gbp|cad|nzd|brl|r\$)\s?\d"
    r"|\b(?:free|for\s+nothing|no\s+charge|nothing\s+to\s+pay|on\s+the\s+house|covered"
    r"|(?:a\s+)?(?:few|couple\s+of|hundred|thousand)\s+(?:bucks|dollars|euros|quid))\b",
    re.IGNORECASE,
)

# A score as a result is written: two numbers set against each other ("31-28", "3-1", "2 to
# nil", "4 all"); "we won" says who won, not the score.
SCORE = re.compile(
    r"\b\d{1,3}\s?[-\u2013\u2014]\s?\d{1,3}\b(?!\s*(?:am|pm|[ap]\.m\.)\b)"
    r"|\b\d{1,3}\s+(?:to|all|apiece|nil)\b(?:\s+\d{1,3}\b)?"
    r"|\b(?:nil|zero)[\s-]+(?:all|nil|\d{1,3})\b",
    re.IGNORECASE,
)
# Who won or how a contest ended: a word of winning, losing or drawing.
RESULT = re.compile(
    r"\b(?:won|win|wins|winner|winners|winning|victory|victorious|champions?|beat|beats|beaten"
    r"|thrashed|smashed|lost|lose|loses|losing|drew|draw|tied|tie|runners?[\s-]?up"
    r"|came\s+(?:first|second|third|last)|took\s+(?:it|the\s+win|out)|gg)\b",
    re.IGNORECASE,
)


# A flight as a message names it: an airline code and number ("QF 432", "VA823", "U2 8145",
# written in capitals), "flight 27", "flight no. 118", or by its hour ("the 7am flight", "on
# the 6:15pm", "the plane at 9").
FLIGHT = re.compile(
    r"\b(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{1,4}[A-Z]?\b"
    r"|\b(?i:the)\s+\d{1,2}(?:[:.]\d{2})?\s*(?i:am|pm|h)\b"
    r"|\b\d{1,2}(?:[:.]\d{2})?\s*(?i:am|pm|h)?\s+(?i:flight|plane|departure)\b"
    r"|\b(?i:flight|plane)\s+(?i:leaves|departs|goes|is)?\s*(?i:at)\s+\d{1,2}\b"
    r"|\b(?i:flight|flt|vuelo|voo|vol|volo|flug|chuyen\s+bay|chuyến\s+bay)\s*(?i:number|no\.?"
    r"|n[ºo°]\.?|#)?\s*\d{1,4}\b"
)

# A gift as a message tells of it: a word of giving ("gave her a scarf", "got him a voucher",
# "for her birthday", "as a present") in English, Vietnamese, Spanish, Portuguese, French,
# Italian or German.
GIFT = re.compile(
    r"\b(?:gave|give|gives|given|giving|gift|gifts|gifted|present|presents|got\s+(?:her|him"
    r"|them|me|us|you|mum|mom|dad)|bought\s+(?:her|him|them|me|us|you|mum|mom|dad)"
    r"|for\s+(?:her|his|their|your|my|our)\s+(?:birthday|bday|anniversary)|as\s+a\s+(?:gift"
    r"|present|treat)|tặng|tang\s+(?:me|bo|anh|chi|em)|biếu|quà|qua\s+(?:cho|tang)"
    r"|regal\w*|presente|presentes|prenda|cadeau\w*|offert\w*|dono|geschenk\w*|geschenkt"
    r"|schenkt\w*)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Slot:
    """A kind of value a question asks for (``name``) and how a message gives one."""

    name: str
    shape: re.Pattern[str]

    def is_given_in(self, text: str) -> bool:
        return self.shape.search(text) is not None


DAY_OR_TIME_SLOT = Slot("day_or_time", DAY_OR_TIME)
CLOCK_SLOT = Slot("clock", CLOCK)
TIME_TAKEN_SLOT = Slot("time_taken", TIME_TAKEN)
ADDRESS_SLOT = Slot("address", STREET_ADDRESS)
EMAIL_SLOT = Slot("email", EMAIL_ADDRESS)
PHONE_SLOT = Slot("phone", PHONE_NUMBER)
AMOUNT_SLOT = Slot("amount", AMOUNT)
SCORE_SLOT = Slot("score", SCORE)
RESULT_SLOT = Slot("result", RESULT)
FLIGHT_SLOT = Slot("flight", FLIGHT)
GIFT_SLOT = Slot("gift", GIFT)
# Details a plan never records (a flight's number, what was given): a plan card that matched
# the question's topic does not answer them (``retrieval.pipeline``).
DETAIL_SLOTS = frozenset({"flight", "gift"})

# The questions that ask for each slot, on the folded question. "When" only in the present
# or future (a past event is dated by the message that tells of it).
_ASKS: tuple[tuple[re.Pattern[str], Slot], ...] = (
    (
        re.compile(
            r"\bemail\s+address\b|\bemail\s+(?:is|for)\b|\bwhat(?:'s|\s+is)\s+\S+\s+email\b"
        ),
        EMAIL_SLOT,
    ),
    (
        re.compile(
            r"\b(?:phone|mobile|cell|contact)\s*(?:number|no\b|#)"
            r"|\bwhat(?:'s|\s+is)\s+\S+\s+number\s*\W*$"
        ),
        PHONE_SLOT,
    ),
    (re.compile(r"(?<!email\s)(?<!e-mail\s)(?<!ip\s)(?<!web\s)\baddress\b"), ADDRESS_SLOT),
    (
        re.compile(
            r"\bhow\s+much\b(?!\s+(?:time|longer|later|earlier|sooner|further|farther|more\s+time"
            r"|did\s+\S+\s+(?:like|enjoy|love|hate)))"
            r"|\bwhat\s+(?:did|does|do|will|would)\s+(?:\S+\s+){1,4}(?:charge|cost|costs)\b"
            r"|\bwhat(?:'s|\s+is|\s+was|\s+were)\s+(?:the\s+|my\s+|our\s+|\S+'s\s+)?(?:\S+\s+)?"
            r"(?:price|cost|fee|fees|rent|bill|fare|total|quote)\b"
            r"|\b(?:do|did)\s+(?:i|we)\s+owe\b"
        ),
        AMOUNT_SLOT,
    ),
    (
        re.compile(
            r"\bwhat(?:'s|\s+is|\s+was|\s+were)\s+(?:\S+'s\s+|my\s+|your\s+|his\s+|her\s+"
            r"|their\s+|our\s+|the\s+)(?:[\w-]+\s+){1,3}(?:time|pace|pb|pr)\s*\W*$"
            # "what was Bo's time in the 5k?", "Bo's half marathon time?" (a fragment).
            r"|\bwhat(?:'s|\s+is|\s+was|\s+were)\s+(?:\S+'s|my|your|his|her|their|our)\s+"
            r"(?:finish(?:ing)?\s+|final\s+|race\s+)?(?:time|pace)\s+(?:in|for|at|on)\s+"
            r"(?:the\s+|that\s+|this\s+)?(?:[\w-]+\s*){1,3}\W*$"
            r"|^\W*(?:\S+'s|my|your|his|her|their|our)\s+(?:[\w-]+\s+){1,3}(?:time|pace|pb|pr)"
            r"\s*\?+\s*$"
        ),
        TIME_TAKEN_SLOT,
    ),
    (
        # "what was the final score?", "score of the derby?"
        re.compile(
            r"\bwhat(?:'s|\s+is|\s+was|\s+were)\s+the\s+(?:final\s+|full[\s-]time\s+)?score"
            r"(?:\s*\W*$|\s+(?:in|of|at|for|against|from)\b)"
            r"|\b(?:final\s+)?score\s+(?:of|in|at|for)\s+(?:the|that|our|last)\b"
        ),
        SCORE_SLOT,
    ),
    (
        # "what flight is Ana on?", "which flight did they book?", "Bo's flight number?",
        # "en qué vuelo viene?", "qual é o voo dela?", "quel vol prend-il?"
        re.compile(
            r"\b(?:what|which)\s+flight\b|\bflight\s+(?:number|no\b|num\b|#|code)"
            r"|\b(?:que|qual|cual)\s+(?:e\s+o\s+|es\s+el\s+)?(?:vuelo|voo)\b|\bquel\s+vol\b"
            r"|\bwelche[nmr]?\s+flug\b|\bchuyen\s+bay\s+(?:nao|so\s+may)\b"
        ),
        FLIGHT_SLOT,
    ),
    (
        # "what did Ana give Rui for his birthday?", "what gift did Bo get?", "what present
        # did they bring?", "what did Ana get her mum for christmas?"
        re.compile(
            r"\bwhat\s+(?:did|does|do|will|would|has|had|have)\s+(?:\S+\s+){1,3}?"
            r"(?:give|gift|gifted)\b(?!\s+(?:up|in|out|way|back|notice|it\s+a\s+(?:go|try)))"
            r"|\b(?:what|which)\s+(?:gift|gifts|present|presents)\b"
            r"|\bwhat\s+(?:did|does|will|has)\s+(?:\S+\s+){1,3}?(?:get|got|buy|bought)\s+"
            r"(?:\S+\s+){1,2}?for\s+(?:\S+\s+)?(?:birthday|bday|christmas|xmas|anniversary"
            r"|wedding|graduation|mother'?s\s+day|father'?s\s+day)\b"
            r"|\bque\s+(?:le\s+|lhe\s+)?(?:regalo|regalaron|deu|dio|ofereceu)\b"
            r"|\bqu'?est-ce\s+qu'?(?:il|elle)\s+(?:lui\s+)?a\s+offert\b"
            r"|\bwas\s+hat\s+(?:\S+\s+){1,2}geschenkt\b"
        ),
        GIFT_SLOT,
    ),
    (
        # "who won the quiz?", "who came out on top at chess?"
        re.compile(
            r"^\W*(?:so\s+|and\s+)?who\s+(?:won|wins|win|came\s+(?:out\s+on\s+top|first)"
            r"|took\s+(?:it|the\s+\w+)|beat\s+who)\b"
        ),
        RESULT_SLOT,
    ),
    (
        # "What time is the ferry on Sunday?": the hour, not the day.
        re.compile(
            r"^\W*(?:so\s+|and\s+|but\s+)?(?:at\s+)?what\s+time\s+(?:is|are|does|do|will"
            r"|should|can|s)\b(?!\s+it\b)"
        ),
        CLOCK_SLOT,
    ),
    (
        re.compile(
            r"^\W*(?:so\s+|and\s+|but\s+)?(?:when(?:'s|\s+(?:is|are|does|do|will|would|should"
            r"|can|am|s)\b)|what\s+time\s+(?:is|are|does|do|will|should|can|s)\b|what(?:'s|\s+is)"
            r"\s+the\s+(?:date|time|day)\b|(?:what|which)\s+(?:day|date)\s+(?:is|are|does|do"
            r"|will|s)\b)"
        ),
        DAY_OR_TIME_SLOT,
    ),
)


# A question about the current value ("new address", "current number") is not answered by a
# message that gives a value it calls old ("the old place, 14 Rose St").
_ASKS_CURRENT = re.compile(r"\b(?:new|current|latest|now)\b")
_CALLED_OLD = re.compile(r"\b(?:old|previous|former|used\s+to)\b")


def gives_slot(slot: Slot, text: str, *, question: str) -> bool:
    """Whether ``text`` gives a value of ``slot`` that can answer ``question``: one of its
    kind, and not one called old when the question asks for the current one."""
    if not slot.is_given_in(text):
        return False
    return not (_ASKS_CURRENT.search(fold_text(question)) and _CALLED_OLD.search(fold_text(text)))


def asked_slot(question: str) -> Slot | None:
    """The kind of value ``question`` asks for that a message must spell out (None: any
    message on its topic may answer)."""
    folded = fold_text(question)
    for asks, slot in _ASKS:
        if asks.search(folded):
            return slot
    return None


# Words that judge something: what an answer to "what did they think of it?" quotes.
_OPINION = re.compile(
    r"\b(?:lov(?:e|ed|es|ing)|lik(?:e|ed|es)|enjoy(?:ed|ing|s)?|hat(?:e|ed|es)|great|good"
    r"|amazing|awesome|brilliant|fantastic|excellent|wonderful|incredible|beautiful|gorgeous"
    r"|perfect|fun|funny|hilarious|boring|bored|dull|slow|meh|terrible|awful|bad|worst|best"
    r"|favou?rite|recommend\w*|overrated|underrated|disappoint\w*|gripping|moving|sad|cried"
    r"|couldn'?t\s+put\s+(?:it\s+)?down|hooked|obsessed|stars?|rating|rated|worth|not\s+for\s+me"
    r"|didn'?t\s+(?:like|get|finish)|gave\s+up|struggled|masterpiece|mid|solid|okay|ok|nice"
    r"|cool|lovely|sweet|proud|brave|inspir\w*|impress\w*|admir\w*|happy|glad|excit\w*|wow"
    r"|interesting|weird|strange|annoy\w*|frustrat\w*|wise|smart|support\w*|agree\w*"
    r"|(?:not\s+)?(?:sure|convinced)\s+about)\b",
    re.IGNORECASE,
)
_ASKS_OPINION = re.compile(
    r"\bwhat\s+(?:did|do|does)\s+(?:\S+\s+){1,3}(?:(?:think|thought|reckon)\s+(?:of|about)"
    r"|make\s+of)\b"
    r"|\bhow\s+(?:did|do|does)\s+(?:\S+\s+){1,3}(?:(?:like|find|rate)\s+(?:it|the|that|this)"
    r"|feel\s+about)\b"
    r"|\b(?:opinion|opinions|thoughts|review|reviews|verdict|take|takes)\s+(?:of|on|about)\b"
)


def asks_opinion(question: str) -> bool:
    """Whether ``question`` asks what someone thought of something (only a message that
    judges it answers: "Next one: the sequel" does not say what anyone made of it)."""
    return _ASKS_OPINION.search(fold_text(question)) is not None


def is_opinion(text: str) -> bool:
    """Whether ``text`` judges something (a liking, a verdict, a rating)."""
    return _OPINION.search(text) is not None


# "What did <someone> say/think/reply ...": the speaker the question asks about, one or two
# words, optionally after "the".
_SPEAKER_QUESTION = re.compile(
    r"^\W*(?:so\s+|and\s+)?what\s+(?:did|does|do|has|had|have|would|will)\s+"
    r"(?P<who>(?:the\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\s+"
    r"(?:say|said|think|reply|replied|write|wrote|tell|told|mention|respond|answer|reckon"
    r"|decide|feel|make\s+of|come\s+back\s+with|get\s+back)\b"
)
# Who is not a named speaker: pronouns, everyone, relatives and roles (memory's descriptors
# find those), and a possessive ("my boss").
_NOT_A_NAME = frozenset(
    {
        "i", "you", "we", "they", "he", "she", "it", "everyone", "everybody", "anyone",
        "anybody", "someone", "somebody", "people", "u", "ya", "y'all", "yall", "all", "each",
        "both", "others", "the group", "the others", "the team", "the chat", "the family",
        "my", "your", "his", "her", "their", "our", "that", "this", "those", "these", "one",
        "no", "nobody", "none", "who", "which",
    }
)  # fmt: skip
_POSSESSIVE = re.compile(r"^(?:my|your|his|her|their|our|its|a|an|any|some|each|every)\b")


# The same asked as the speaker's answer: "what was the board's response to the report?",
# "how did the board react to it?".
_SPEAKER_RESPONSE = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:what\s+(?:was|were|is|s)\s+"
    r"(?P<who>(?:the\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?)'s\s+"
    r"(?:response|reaction|reply|answer|feedback|verdict)"
    r"|how\s+(?:did|has|have)\s+(?P<who2>(?:the\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\s+"
    r"(?:respond(?:ed)?|react(?:ed)?|repl(?:y|ied)|answer(?:ed)?))\b"
)


def asked_speaker(question: str) -> str | None:
    """The speaker ``question`` asks about when it names one by a word of its own ("what did
    the board say about the report?", "what was the board's response?" give "board"; "what
    did my boss say" and "what did everyone think" give None), folded and without "the"."""
    folded = fold_text(question)
    match = _SPEAKER_QUESTION.search(folded)
    if match is None:
        response = _SPEAKER_RESPONSE.search(folded)
        if response is None:
            return None
        return _speaker_of(response.group("who") or response.group("who2"))
    return _speaker_of(match.group("who"))


def _speaker_of(who: str) -> str | None:
    who = who.strip()
    if who in _NOT_A_NAME or _POSSESSIVE.match(who):
        return None
    first = who.split()[0]
    if first in _NOT_A_NAME:
        return None
    bare = who.removeprefix("the ").strip()
    return bare or None


# How many words after "<name>'s" name the thing asked about ("Ana's first novel").
_THING_WORDS = 3
# Words that qualify a thing rather than name it ("my first day" is no claim to a first novel).
_QUALIFIERS = frozenset(
    [
        "first",
        "second",
        "third",
        "last",
        "next",
        "new",
        "old",
        "big",
        "little",
        "main",
        "favorite",
        "favourite",
        "best",
        "worst",
        "current",
        "latest",
        "recent",
        "younger",
        "older",
        "eldest",
        "youngest",
    ]
)


def owned_things(question: str, name: str) -> tuple[str, ...]:
    """The words naming the thing ``question`` says belongs to ``name`` ("What does Ana's
    tattoo mean?" gives "tattoo", "Ana's first novel" gives "novel"): the words after the
    possessive up to the first that carries no content, qualifiers left out. Empty when the
    question gives the name no possessive."""
    folded = fold_text(question)
    match = re.search(
        r"(?<!\w)" + re.escape(fold_text(name.strip())) + r"'s?\s+([a-z][a-z -]*)", folded
    )
    if match is None:
        return ()
    words: list[str] = []
    for word in match.group(1).split()[:_THING_WORDS]:
        if word in STOP_WORDS or len(word) < 3:
            break
        if word not in _QUALIFIERS:
            words.append(word)
    return tuple(words)


def _thing_pattern(thing: str) -> str:
    return re.escape(thing) + r"(?:s|es)?\b"


def claims_thing(text: str, thing: str, *, owners: tuple[str, ...] = ("my", "our")) -> bool:
    """Whether ``text`` speaks of ``thing`` as belonging to one of ``owners`` (by default
    the writer: "my new tattoo", "our tattoos"; ``("your", "ana's")``: the reader's or Ana's)."""
    owner = "|".join(re.escape(fold_text(word)) for word in owners)
    pattern = r"(?<!\w)(?:" + owner + r")\s+(?:[\w-]+\s+){0,2}" + _thing_pattern(thing)
    return re.search(pattern, fold_text(text)) is not None


def mentions_thing(text: str, thing: str) -> bool:
    """Whether ``text`` uses the word ``thing`` (or its plural)."""
    return re.search(r"\b" + _thing_pattern(thing), fold_text(text)) is not None


# "What did Ana say about my talk afterwards?", "how did Bo react after the match?", "what did
# they think after the show?": what someone said once the event was over.
_ASKS_AFTER = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:what\s+(?:did|has|have)|how\s+did)\s+(?:\S+\s+){1,3}?"
    r"(?:say|said|think|thought|reckon|write|wrote|reply|replied|tell|told|react|reacted"
    r"|respond|responded|feel|felt|make\s+of)\b.*\b(?:afterwards?|after\s+(?:it|that|the|my"
    r"|our|his|her|their)\b|once\s+it\s+was\s+over|after\s+the\s+fact)"
)


def asks_after_event(question: str) -> bool:
    """Whether ``question`` asks what someone said after an event ("afterwards"): only a
    message sent once the event was over answers it, not the ones that arranged it."""
    return _ASKS_AFTER.search(fold_text(question)) is not None


_MONTH_NUMBER = {
    name: index
    for index, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_NAMED_DAY = re.compile(
    r"\b(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>" + _MONTH + r")\b\.?"
    r"|\b(?P<m2>" + _MONTH + r")\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b",
    re.IGNORECASE,
)


def named_days(text: str, sent: date) -> list[date]:
    """The dates ``text`` (sent on ``sent``) names by day and month ("Thu 15 Oct", "October
    15th"), in the year that puts each nearest ahead of ``sent`` (a few weeks back still the
    same year: said of a day just past)."""
    found: list[date] = []
    for match in _NAMED_DAY.finditer(text):
        day = int(match.group("d1") or match.group("d2"))
        month = _MONTH_NUMBER.get((match.group("m1") or match.group("m2")).lower().rstrip("."))
        if month is None or not 1 <= day <= 31:
            continue
        for year in (sent.year, sent.year + 1):
            try:
                candidate = date(year, month, day)
            except ValueError:
                break
            if candidate >= sent - timedelta(days=60):
                found.append(candidate)
                break
    return found
