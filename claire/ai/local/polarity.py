"""Whether a message settles a yes/no question about something being done or still so.

"Has Lena sent the invoice yet?", "did I ever get the photos?", "is Tom still coming?": the
message that answers it either reports the thing done ("attached", "just paid", "sorted") or
not done / no longer so ("still need to", "not yet", "can't make it"). The local answer opens
with "Yes." or "No." only when the message says exactly one of the two; a message that says
both, or neither, settles nothing and the answer quotes it instead.

Questions whose answer a negation in the message would not decide are left alone: one that
asks what someone said ("did Ana say she can't come?"), and one that is itself negative
("didn't Rui pay?").
"""

from __future__ import annotations

import re

# A yes/no question: it opens with an auxiliary, or a clause after a comma or a dash does
# ("that text about my parcel, should I pay that fine?", "the fine — should I pay it?");
# casual forms ("ok so am i …", no question mark) and a few other languages' openings
# ("est-ce que", "hast du") count too.
_CLAUSE_START = r"(?:^|[,;:]\s+|\s(?:\u2014|\u2013|--?)\s+|\u2014)"
_YES_NO = re.compile(
    _CLAUSE_START + r"\W*(?:(?:so|and|ok|okay|hey|wait|btw)\s+)*"
    r"(?:did|has|have|had|is|are|am|was|were|does|do|will|can|could|should"
    r"|est-ce\s+que|est-ce\s+qu'|ai-je|as-tu|hast\s+du|habe\s+ich|hab\s+ich)\b",
    re.IGNORECASE,
)
_SAYING = re.compile(
    r"\b(?:say|said|says|mention\w*|tell|told|ask\w*|write|wrote|text\w*|talk\w*|think|thought"
    r"|want\w*|like\w*)\b",
    re.IGNORECASE,
)
_NEGATIVE_QUESTION = re.compile(r"n't\b|\bnot\b|\bnever\b", re.IGNORECASE)
# "Should I pay it?", "can Ana come?": advice or ability, which a done message does not settle.
_MODAL = re.compile(
    _CLAUSE_START + r"\W*(?:(?:so|and|ok|okay|hey|wait|btw)\s+)*(?:will|can|could|should)\b",
    re.IGNORECASE,
)

# Done: the thing arrived, was sent, paid, fixed, approved.
_DONE = re.compile(
    r"\b(?:done|finished|sent|attached|here(?:'s| is| are| you go)|paid|transferred|fixed"
    r"|sorted(?: out)?|resolved|approved|received|got (?:it|them|the)|arrived|delivered"
    r"|submitted|uploaded|booked|returned|all set|feito|pronto|enviad[oa]|listo|hecho"
    r"|erledigt|fatto|fait|envoy[ée])\b",
    re.IGNORECASE,
)
# Not done, or no longer so.
_NOT_DONE = re.compile(
    r"\b(?:not yet|still (?:need|have|haven't|waiting|working|to|missing|outstanding|due)"
    # "two forms are missing", "todavía faltan tres", "il en manque deux", "fehlen noch".
    r"|(?:is|are) (?:still )?missing|todav[ií]a falta\w*|falta\w* todav[ií]a|ainda falta\w*"
    r"|il (?:en )?manque|fehl(?:t|en) noch|manca\w* ancora|haven't|hasn't|didn't"
    r"|won't|can't|cannot|couldn't|not|no longer|pending|postponed|cancel\w*|pull(?:ing|ed)?"
    r" out|drop(?:ping|ped)? out|ainda não|todavía no|noch nicht|non ancora|pas encore)\b",
    re.IGNORECASE,
)


def is_yes_no_question(question: str) -> bool:
    """Whether ``question`` asks for a yes or a no (an auxiliary opens it or one of its
    clauses)."""
    return bool(_YES_NO.search(question))


def asks_done_or_still(question: str) -> bool:
    """Whether ``question`` is a yes/no question a done / not-done message can settle."""
    return bool(
        _YES_NO.search(question)
        and not _MODAL.search(question)
        and not _SAYING.search(question)
        and not _NEGATIVE_QUESTION.search(question)
    )


# Not knowing is not a "no".
_UNSURE = re.compile(
    r"\b(?:not sure|no idea|maybe|might|perhaps|don't know|dunno|not certain)\b", re.IGNORECASE
)


def settled(question: str, text: str) -> str:
    """ "yes", "no" or "" (unsettled): what ``text`` says of the ``question``'s thing."""
    if not asks_done_or_still(question) or _UNSURE.search(text):
        return ""
    done = bool(_DONE.search(text))
    not_done = bool(_NOT_DONE.search(text))
    if done == not_done:
        return ""
    return "yes" if done else "no"


# "Did I end up calling Bo?", "have I ever paid the plumber": the deed's verb, after the
# words that only say how it happened.
_DEED_VERB = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|wait)\s+)*(?:did|have|had)\s+(?:i|we)\s+"
    r"(?:(?:ever|actually|finally|already|really|end\s+up|ended\s+up)\s+)*([a-z]{3,})",
    re.IGNORECASE,
)
# A promise or a wish is not the deed.
_FUTURE = re.compile(
    r"\b(?:i['\u2019]ll|i\s+will|gonna|going\s+to|should|need\s+to|have\s+to|must|will"
    r"|want\s+to|let\s+me|tomorrow|later)\b",
    re.IGNORECASE,
)
# "J'ai appelé", "he llamado", "ich habe … gemacht": a first-person past in other languages.
_FIRST_PERSON_PAST = re.compile(
    r"\b(?:j['\u2019]ai\s+(?:bien\s+|déjà\s+|enfin\s+)?\w+[ée]s?\b|he\s+\w+(?:ado|ido)\b"
    r"|ich\s+habe\b.*\bge\w+t\b)",
    re.IGNORECASE,
)


def _verb_stem(verb: str) -> str:
    """ "calling" / "called" / "call" -> "call"; "paying" -> "pay"."""
    folded = verb.lower()
    for ending in ("ing", "ed"):
        if folded.endswith(ending) and len(folded) - len(ending) >= 3:
            return folded[: -len(ending)]
    return folded


def reports_own_deed(question: str, text: str) -> bool:
    """Whether ``text`` (one of the user's own messages) reports the deed ``question`` asks
    about done: the question's own verb in the past ("did I end up calling Bo?" / "called
    Bo"), a done word ("sent", "attached", "paid"), or a first-person past in another
    language; never a promise, a wish, or a message that says it is not done."""
    if _NEGATIVE_QUESTION.search(question) or _UNSURE.search(text) or _FUTURE.search(text):
        return False
    if _NOT_DONE.search(text):
        return False
    if _DONE.search(text) or _FIRST_PERSON_PAST.search(text):
        return True
    verb = _DEED_VERB.search(question)
    if verb is None:
        return False
    stem = _verb_stem(verb.group(1))
    return bool(re.search(rf"\b{re.escape(stem)}(?:ed|d|t)\b", text, re.IGNORECASE))
