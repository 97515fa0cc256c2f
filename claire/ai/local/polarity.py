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

# A yes/no question about a state of affairs: it opens with an auxiliary.
_YES_NO = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:did|has|have|had|is|are|was|were|does|do)\b", re.IGNORECASE
)
_SAYING = re.compile(
    r"\b(?:say|said|says|mention\w*|tell|told|ask\w*|write|wrote|text\w*|talk\w*|think|thought"
    r"|want\w*|like\w*)\b",
    re.IGNORECASE,
)
_NEGATIVE_QUESTION = re.compile(r"n't\b|\bnot\b|\bnever\b", re.IGNORECASE)

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
    r"\b(?:not yet|still (?:need|have|haven't|waiting|working|to)|haven't|hasn't|didn't"
    r"|won't|can't|cannot|couldn't|not|no longer|pending|postponed|cancel\w*|pull(?:ing|ed)?"
    r" out|drop(?:ping|ped)? out|ainda não|todavía no|noch nicht|non ancora|pas encore)\b",
    re.IGNORECASE,
)


def asks_done_or_still(question: str) -> bool:
    """Whether ``question`` is a yes/no question a done / not-done message can settle."""
    return bool(
        _YES_NO.search(question)
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
