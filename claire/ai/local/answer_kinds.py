"""What kind of answer a question asks for, and the words of a message that give it.

"When" asks for a day or a time, "how much" for an amount, "why" for a cause, "where" for a
place. The local answerer ranks the messages that carry that kind of answer first, and
``claire.ai.local.spans`` states the clause that gives it before reporting whole messages: a
reader gets the fact asked for, not a quote to search through. Pure text rules.
"""

from __future__ import annotations

import re

# What a question word asks for, and how a message that gives it reads: a question-sentence
# match by answer type ("when" wants a day or a time, "how much" an amount, "why" a reason).
_DAY_OR_TIME = re.compile(
    r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(?:today|tonight|tomorrow|yesterday|"
    r"next\s+week|this\s+weekend|weekend|morning|evening)\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}(?::\d{2})?\s*(?:am|pm|h)\b|\b\d{1,2}:\d{2}\b"
    r"|\b\d{1,2}/\d{1,2}\b|\b(?:at|@)\s*\d{1,2}\b",
    re.IGNORECASE,
)
_PLACE = re.compile(
    # English, Portuguese, Spanish, Italian, French and German place prepositions.
    r"\b(?:at|in|near|to|from|na|no|em|en|nel|nella|alla|al|chez|bei|im)\s+(?:the\s+)?"
    r"[A-ZÀ-Ý][\w'\u2019-]+"
    # ... or before a common place written in lower case ("in the library", "at my place").
    r"|\b(?:at|in|outside|inside|near|by|to)\s+(?:the|my|your|our|his|her|their)\s+"
    r"(?:\w+\s+){0,2}?(?:library|office|cafe|café|bar|pub|park|station|gym|school|restaurant|entrance"
    r"|lobby|reception|hall|canteen|staffroom|museum|hospital|airport|square|beach|market|shop"
    r"|store|house|flat|place|church|club|court|courts|corner|door|gate|car\s+park)\b"
    r"|\b\d{1,5}\s+(?:[A-ZÀ-Ý][\w.]*\s+){0,3}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Ln|Lane|Dr|Way)\b"
)
# A sum of money: a currency sign or a number with a currency or share word ("$48", "16 each").
_MONEY = re.compile(
    r"[$€£¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:usd|eur|gbp|dollars?|euros?|pounds|bucks|each|"
    r"total|k|reais|pesos)\b",
    re.IGNORECASE,
)
# A count: a number (or "a dozen") that is not a clock time, a date or a phone number.
_COUNT = re.compile(
    r"(?<![\d:/.,$€£-])"
    r"(?<!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|ary|rch|ril|une|uly|ust|ept|ber)\s)"
    r"\b\d{1,3}(?:,\d{3})*(?:\.\d+)?\b(?![:/]\d)(?!\s*(?:am|pm|h|st|nd|rd|th)\b)"
    # A day of a month ("11 Oct") is a date.
    r"(?!\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
    r"|\ba\s+dozen\b|\bdozens\b",
    re.IGNORECASE,
)
# A time taken ("1:52", "52 minutes", "three weeks").
_DURATION = re.compile(
    r"\b\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\b|\b(?:\d+(?:[.,]\d+)?|an?|one|two|three|four|five"
    r"|six|few|couple\s+of)\s*(?:secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?"
    r"|months?|years?)\b",
    re.IGNORECASE,
)
_REASON = re.compile(
    # "since" of a cause, not of a time ("since last night", "since Monday").
    r"\bsince\b(?!\s+(?:last|yesterday|this|then|early|the\s+\w+day|\d|(?:mon|tue|wed|thu|fri|"
    r"sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|morning|noon|lunch|"
    r"tonight|forever|ages))"
    r"|\b(?:because|cause|caused|cuz|due\s+to|thanks\s+to|so\s+(?:we|i|he|she|they)|"
    r"the\s+reason|that's\s+why|turned\s+out|it\s+was|it's\s+the|was\s+the|means|"
    r"the\s+problem|the\s+issue|broke|broken|died|failed|leak\w*|doing\s+\w+\s+in)\b",
    re.IGNORECASE,
)
# What someone is or does: a job, a relation to someone, where they are from or live.
_ROLE = re.compile(
    r"\b(?:works?|working|worked)\s+(?:at|for|as|in)\b|\b(?:job|boss|teach\w*|nurse|doctor|"
    r"engineer|lawyer|manager|student|designer|developer|chef|(?:my|his|her|their|your)\s+"
    r"(?:\w+\s+)?(?:sister|brother|mum|mom|mother|dad|father|son|daughter|wife|husband|"
    r"partner|girlfriend|boyfriend|fianc\w*|cousin|aunt|uncle|friend|colleague|roommate|"
    r"neighbou?r|boss)|engaged|married|said\s+yes|lives?\s+in|moved\s+to|(?:is|'m|am|are|"
    r"originally)\s+from)\b",
    re.IGNORECASE,
)
# How often something happens ("every 2 days", "twice a week", "daily").
_FREQUENCY = re.compile(
    r"\bevery\s+(?:\d+|other|two|three|four|few|couple\s+of|single)?\s*(?:days?|weeks?|months?"
    r"|hours?|mornings?|evenings?|nights?|weekends?|mon|tue|wed|thu|fri|sat|sun)\w*\b"
    r"|\b(?:once|twice|\d+\s+times|three\s+times)\s+(?:a|per|every)\s+\w+"
    r"|\b(?:daily|weekly|monthly|nightly|fortnightly|hourly)\b"
    r"|\bcada\s+(?:\d+|dos|tres|dia|semana)\b|\btous\s+les\b|\bogni\b|\balle\s+\d+\b",
    re.IGNORECASE,
)
# How a contest came out: a score ("6-4", "3 - 1"), a win or a loss, a place or a round reached.
_RESULT = re.compile(
    r"(?<![\d:/.])\d{1,2}\s*[-\u2013]\s*\d{1,2}(?![\d:/.])"
    r"|\b(?:won|win|wins|lost|lose|beat|beaten|drew|draw|tied|placed|finished|podium|medal\w*"
    r"|champions?|runners?[- ]up|(?:semi|quarter)[- ]?finals?|semis|finals?|finalists?"
    r"|came\s+(?:first|second|third|fourth|last)|\d+(?:st|nd|rd|th)\s+place|knocked\s+out)\b",
    re.IGNORECASE,
)
# "How did we do in the tournament?", "how did Ana do at the race", "who won", "what was the
# score": how a contest came out.
_ASKS_RESULT = re.compile(
    r"\bhow\s+did\s+(?:[\w'-]+\s+){1,2}?do\b|\bwho\s+won\b|\bdid\s+[\w'-]+\s+win\b"
    r"|\bwhat\s+was\s+the\s+(?:score|result)\b|\bhow\s+far\s+did\s+[\w'-]+\s+get\b",
    re.IGNORECASE,
)
# "Pay" naming a thing rather than asking an amount: "is my pay slip ready?", "when's pay day".
_NOT_PAY_NOUN = (
    r"(?!\s*(?:slips?|stubs?|days?|rises?|raises?|checks?|cheques?|packets?|periods?|runs?"
    r"|reviews?|roll|scales?|grades?|dates?)\b)"
)
_ANSWER_TYPES: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (_ASKS_RESULT, _RESULT),
    # "How often do I water them?": a frequency.
    (re.compile(r"\bhow\s+(?:often|frequently|regularly)\b", re.I), _FREQUENCY),
    # "What was my 10k time?", "how long did the drive take?": a time taken.
    (re.compile(r"\bhow\s+long\b|\b(?:time|pace|pb|pr|split)\s*\W*$", re.I), _DURATION),
    (
        re.compile(r"\b(?:when|what\s+time|what\s+day|which\s+day|what\s+date)\b", re.I),
        _DAY_OR_TIME,
    ),
    (
        re.compile(r"\bwhere\b|\bwhat(?:'s|\s+is)?\s+(?:\w+\s+)?(?:address|adress|place)\b", re.I),
        _PLACE,
    ),
    (
        re.compile(r"\bhow\s+much\b|\b(?:price|cost|costs|paid|pay|owe)\b" + _NOT_PAY_NOUN, re.I),
        _MONEY,
    ),
    (re.compile(r"\bhow\s+many\b|\b(?:numbers?|figures?|stats?|metrics?)\b", re.I), _COUNT),
    (
        re.compile(r"\bwhy\b|\bcaus(?:e|ed|ing)\b|\bwrong\b|\b(?:problem|issue)\s+with\b", re.I),
        _REASON,
    ),
    (
        re.compile(
            r"^\W*(?:who\s+(?:is|was)|who's)\b|\bwhat\s+does\s+\S+\s+do\b|"
            r"\bwhat(?:'s|\s+is|\s+was)\s+\S+\s+(?:job|work|profession|occupation)\b|"
            r"\bwhere\s+does\s+\S+\s+work\b|\bhow\s+(?:is|are)\s+\S+\s+related\b",
            re.I,
        ),
        _ROLE,
    ),
)
# Questions about how something came out ("what did we end up ...", "how did it turn out",
# "what was wrong in the end"): a later message that resolves an earlier one answers them.
_OUTCOME_QUESTION = re.compile(
    r"\b(?:end|ended|ends|wind|wound)\s+up\b|\bturn(?:ed|s)?\s+out\b|\bin\s+the\s+end\b|"
    r"\b(?:finally|eventually|actually|ultimately)\b|\bwrong\b|\bhow\s+did\b.*\bgo\b"
    r"|\bhow\s+did\s+(?:[\w'-]+\s+){1,2}?do\b",
    re.IGNORECASE,
)


def answer_types(question: str) -> tuple[re.Pattern[str], ...]:
    """The shapes of answer ``question`` asks for (a day or time, a place, an amount, a
    reason), from its question words."""
    return tuple(shape for asks, shape in _ANSWER_TYPES if asks.search(question))


# "Where did I say I'd meet them?", "what did I tell Ana?": the user's own words answer.
_OWN_WORDS = re.compile(
    r"\b(?:did|do|have|had)\s+i\s+(?:ever\s+)?(?:say|tell|write|text|promise|agree|mention"
    r"|suggest|offer|reply|answer|propose)\b|\bi\s+(?:said|told|wrote|promised|agreed)\b",
    re.IGNORECASE,
)


def asks_own_words(question: str) -> bool:
    """Whether ``question`` asks what the user themselves said, so their own message answers
    it rather than the one they replied to."""
    return _OWN_WORDS.search(question) is not None


def is_outcome_question(question: str) -> bool:
    """Whether ``question`` asks how something came out, so the latest word on it answers."""
    return _OUTCOME_QUESTION.search(question) is not None


# Where a message's clauses part: a comma, semicolon or colon followed by a space, brackets,
# a dash between spaces, a sentence end ("$30 total, so $10 each" is two clauses).
_CLAUSE_BREAK = re.compile(r"[,;:](?=\s)|[()\[\]]|\s[\u2014\u2013-]\s|(?<=[.!?])\s+|\n+")
# A question after a cause itself; "what was wrong" asks for the fault, which a causal clause
# of the message does not name.
_WHY_QUESTION = re.compile(r"\bwhy\b|\bhow\s+come\b|\bwhat\s+caused\b", re.IGNORECASE)


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _clauses(text: str) -> list[str]:
    """The clauses of ``text``'s statements: a question ("dinner Friday at 8?") proposes a
    value, it does not state one."""
    return [
        clause.strip(" .!?")
        for sentence in _SENTENCE.split(text)
        if not sentence.rstrip().endswith("?")
        for clause in _CLAUSE_BREAK.split(sentence)
        if clause.strip(" .!?")
    ]


# Words that introduce a cause ("because the pressure was low") and words that follow one
# ("the team is shrinking, so I'm looking"; "that's why").
_CAUSE_AHEAD = re.compile(
    r"\b(?:because(?:\s+of)?|cuz|cos|due\s+to|thanks\s+to|owing\s+to|as\s+a\s+result\s+of|"
    r"the\s+reason\s+(?:is|was)|since(?=\s+(?:i|we|you|he|she|they|it|the|there|my|his|her|"
    r"our|their)\b))\b",
    re.IGNORECASE,
)
_CAUSE_BEHIND = re.compile(
    r"\b(?:so\s+(?:we|i|he|she|they|it)|that's\s+why|which\s+is\s+why|that\s+is\s+why)\b",
    re.IGNORECASE,
)


def _cause(text: str) -> list[str]:
    """The words of ``text`` that give a cause: from a word that introduces one to the end of
    its clause, else the words before one that follows a cause, else the first clause with a
    word of trouble ("the pump failed"). Empty when it gives none."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if not s.rstrip().endswith("?")]
    for sentence in sentences:
        ahead = _CAUSE_AHEAD.search(sentence)
        if ahead is not None:
            return _clauses(sentence[ahead.start() :])[:1]
    for sentence in sentences:
        behind = _CAUSE_BEHIND.search(sentence)
        if behind is not None and sentence[: behind.start()].strip(" ,;"):
            return [sentence[: behind.start()].strip(" ,;")]
    return [clause for clause in _clauses(text) if _REASON.search(clause)][:1]


# "Is this link legit?", "saw something in the school group, is it true?": the question
# points at a message the user saw, so that message (even a suspicious one) is what the answer
# names and cites, flagged.
_POINTS_AT_A_MESSAGE = re.compile(
    r"\b(?:legit|legitimate|genuine|trustworthy|a\s+scam|scam(?:my)?|dodgy|sketchy|phish\w*"
    r"|fake|real\s+or\s+(?:not|fake))\b"
    r"|\b(?:saw|seen|see|got|received|noticed|read)\s+(?:something|smth|sth|a\s+(?:message|msg"
    r"|text|post|note|link|dm|email|e-mail|sms|warning)|this|that)\b"
    r"|\b(?:safe\s+to\s+(?:click|open|tap|use)|should\s+i\s+(?:click|open|tap|trust|believe))\b",
    re.IGNORECASE,
)


def points_at_a_message(question: str) -> bool:
    """Whether ``question`` asks about a message the user saw (whether it is legit, what to
    make of "something in the group") rather than about a fact alone."""
    return _POINTS_AT_A_MESSAGE.search(question) is not None


_ASKS_PLACE = re.compile(r"\bwhere\b|\bwhat(?:'s|\s+is)?\s+(?:\w+\s+)?(?:address|place)\b", re.I)


def asks_place(question: str) -> bool:
    """Whether ``question`` asks where something is ("where's the meeting thursday?")."""
    return _ASKS_PLACE.search(question) is not None


def gives_place(text: str) -> bool:
    """Whether ``text`` names a place (a named place after a preposition, a common place, a
    street address)."""
    return _PLACE.search(text) is not None
