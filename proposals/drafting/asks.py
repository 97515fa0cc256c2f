"""What the question asks the draft to say: the message or topic, a courtesy, the request
turned into the user's words to the recipient (``ask_of``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_MESSAGE_CLAUSE = re.compile(
    r"\b(?:saying|to\s+say|and\s+say|telling\s+(?:him|her|them)|tell\s+(?:him|her|them)"
    r"|letting\s+(?:him|her|them)\s+know|let\s+(?:him|her|them)\s+know)\s+(?:that\s+)?(?P<x>.+)",
    re.IGNORECASE,
)
_THAT_CLAUSE = re.compile(
    r"^\s*(?:that\b|:|[-\u2013\u2014]\s|,(?!\s*(?:about|re|regarding|to|and|again|with)\b))"
    r"\s*(?P<x>\w.+)",
    re.IGNORECASE,
)
# "reply to Ana on Slack that ...", "text Rui by email: ...": where it goes, said between the
# name and what to say.
_MEDIUM = re.compile(
    r"^\s*(?:(?:on|by|via|over|through|in)\s+(?:the\s+|a\s+|her\s+|his\s+|their\s+)?"
    r"(?:slack|whats\s?app|telegram|signal|sms|text|imessage|e-?mail|dms?|direct\s+message"
    r"|messenger|chat)|privately)\b",
    re.IGNORECASE,
)
# "tell the book club group ...": the word that said a group was meant, after its name.
_GROUP_NOUN = re.compile(
    r"^\s*(?:group|chat|channel|thread|club|team|crew|gang|squad|gc)s?\b", re.IGNORECASE
)
# "tell Noor I'll ...", "let Ines know the plumber's ...": what follows the name is the
# message itself.
_TELL = re.compile(
    r"\b(?:tell|let)\s+(?:(?:the|our|my|everyone\s+in|everybody\s+in|all\s+of)\s+)?$",
    re.IGNORECASE,
)
_LET = re.compile(r"\blet\s+(?:(?:the|our|my)\s+)?$", re.IGNORECASE)
# "let Ines V know ...": a surname's initial the name as resolved may leave out.
_KNOW = re.compile(r"^\s*(?:[\w.'-]+\s+){0,2}?know\s+(?:that\s+)?(?P<x>.+)", re.IGNORECASE)
# "text Ruairi I'll pick him up at 6": a first-person clause right after the name is the
# message itself.
_FIRST_PERSON_CLAUSE = re.compile(
    r"^\s*,?\s*(?P<x>(?:i|i'm|i'll|i've|i'd|im|ill|we|we're|we'll|we've)\b.+)",
    re.IGNORECASE,
)
_TOPIC = re.compile(
    r"\b(?:about|regarding|re:?|concerning|on\s+the\s+subject\s+of)\s+(?P<x>.+)", re.IGNORECASE
)
# "ask Ana whether she can drive", "ask the band when rehearsal starts": a question to them.
_INQUIRY = re.compile(r"^\s*(?P<x>(?:whether|if|when|what|where|who|how|which)\b.+)", re.I)
_WITH = re.compile(r"^\s*(?:again\s+)?with\s+(?P<x>.+)", re.IGNORECASE)
# "remind Sam to ...", "ask Ana to ...": the recipient is asked to do it.
_ASKING_VERB = re.compile(
    r"\b(?:remind|ask|nudge|get|tell)\s+(?:(?:the|our|my|everyone\s+in)\s+)?$", re.IGNORECASE
)
_ASK_TO = re.compile(r"^\s*(?:again\s+)?to\s+(?P<x>(?!me\b)\w.+)", re.IGNORECASE)
# "write Rui a sorry-the-photos-are-late message", "a happy-birthday text": the hyphenated
# words are the message. A kind of message ("a follow-up message") says nothing itself.
_HYPHENATED_MESSAGE = re.compile(
    r"\ban?\s+(?:(?:quick|short|little|nice|brief)\s+)?(?P<x>[^\W\d_]+(?:-[\w'\u2019]+)+)"
    r"\s+(?:message|text|note|e-?mail|reply|dm|card)\b",
    re.IGNORECASE,
)
_MESSAGE_KINDS = frozenset({"follow-up", "check-in", "catch-up", "heads-up", "thank-you-note"})
_LEADING_FILLER = re.compile(r"^\s*(?:again|back|once\s+more|,)\s*", re.IGNORECASE)
_TRAILING_FILLER = re.compile(r"\s*(?:again|please|pls|for\s+me)\s*[.!?]*\s*$", re.IGNORECASE)


def _you_form(match: re.Match[str]) -> str:
    """ "he wants" → "you want", "she goes" → "you go", "he tries" → "you try"."""
    verb = match.group(1)
    if verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif re.search(r"(?:sh|ch|x|ss|o)es$", verb):
        verb = verb[:-2]
    else:
        verb = verb[:-1]
    return f"you {verb}"


_SECOND_PERSON = (
    (
        re.compile(
            r"\b(?:he|she)\s+(?!(?:is|has|was|always|also|just|never|still|only)\b)"
            r"([a-z]{2,}[^s\W]s)\b",
            re.IGNORECASE,
        ),
        _you_form,
    ),
    (re.compile(r"\b(?:he|she|they)'s\b", re.IGNORECASE), "you're"),
    (re.compile(r"\b(?:he|she|they)\s+is\b", re.IGNORECASE), "you are"),
    (re.compile(r"\bthey're\b", re.IGNORECASE), "you're"),
    (re.compile(r"\bthey\s+are\b", re.IGNORECASE), "you are"),
    (re.compile(r"\b(?:he|she|they)\s+was\b", re.IGNORECASE), "you were"),
    (re.compile(r"\b(?:he|she|they)'ll\b", re.IGNORECASE), "you'll"),
    (re.compile(r"\b(?:he|she|they)'d\b", re.IGNORECASE), "you'd"),
    (re.compile(r"\b(?:he|she|they)\s+has\b", re.IGNORECASE), "you have"),
    (re.compile(r"\b(?:he|she|they)\b", re.IGNORECASE), "you"),
    (re.compile(r"\b(?:his|their)\b", re.IGNORECASE), "your"),
    (
        re.compile(
            r"\bher(?=\s+[a-z])(?!\s+(?:about|to|for|with|on|at|in|that|and|if|back|up|over|out|off|know"
            r"|the|a|an|some|this|these|those|my|our|it|one|any)\b)"
        ),
        "your",
    ),
    (re.compile(r"\b(?:him|her|them)\b", re.IGNORECASE), "you"),
    (re.compile(r"\b(?:himself|herself|themselves)\b", re.IGNORECASE), "yourself"),
)


def second_person(text: str, others: tuple[str, ...] = ()) -> str:
    """Third-person pronouns for the recipient turned to "you", up to the name of someone
    else the question names (``others``): "what Ivo wants for his birthday" keeps "his"."""
    cut = len(text)
    for name in others:
        words = re.findall(r"[^\W\d_]{2,}", name)
        if not words:
            continue
        match = re.search(rf"\b{re.escape(words[0])}\b", text, re.IGNORECASE)
        if match is not None:
            cut = min(cut, match.start())
    head, tail = text[:cut], text[cut:]
    for pattern, replacement in _SECOND_PERSON:
        head = pattern.sub(replacement, head)
    return head + tail


# "sat works for me", "monday is better for me": "for me" says whom it suits, not a filler.
_SUITS_ME = re.compile(
    r"\b(?:works?|good|fine|better|best|ok|okay|great|easier|suits?|perfect)\s+for\s+me\W*$",
    re.IGNORECASE,
)


# How the user types a message quickly, written out in the draft: "ill pay him back" → "I'll
# pay him back", "take the shift w him" → "take the shift with him". "ill" is "I'll" only where a
# clause starts ("yes ill swap", not "I'm ill").
_TEXTING = (
    # "yes ill swap" → "yes, I'll swap": an answer word opening a clause takes its comma.
    (
        re.compile(
            r"^(yes|yeah|yep|yup|sure|ok|okay|no|nope)\s+(?!(?:worries|problem|thing|way|more)\b)"
            r"(?=[a-z])",
            re.I,
        ),
        r"\1, ",
    ),
    (
        re.compile(
            r"(^|[,;:]\s*|\b(?:yes|yeah|yep|ok|okay|sure|and|but|so|then)\s+)ill(?=\s+[a-z])",
            re.I,
        ),
        r"\1I'll",
    ),
    (re.compile(r"\bim\b", re.I), "I'm"),
    (re.compile(r"\bive\b", re.I), "I've"),
    (re.compile(r"\bi\b"), "I"),
    (re.compile(r"(?<=\w\s)w/?(?=\s+\w)", re.I), "with"),
    (
        re.compile(
            r"\b(don|can|won|didn|doesn|isn|aren|wasn|couldn|wouldn|shouldn|haven)t\b", re.I
        ),
        r"\1't",
    ),
    (re.compile(r"\bu\b"), "you"),
    (re.compile(r"\bur\b"), "your"),
)


def written_out(text: str) -> str:
    """Texting shorthand in what the user asked to say, written out."""
    for pattern, replacement in _TEXTING:
        text = pattern.sub(replacement, text)
    return text


def tidy(text: str) -> str:
    text = text.strip()
    if not _SUITS_ME.search(text):
        text = _TRAILING_FILLER.sub("", text)
    return text.strip().rstrip(".!?,;: ").strip()


def sentence_of(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


@dataclass(frozen=True)
class Ask:
    """What the question wants said: a whole message, a topic, or a request."""

    message: str = ""
    topic: str = ""
    request: str = ""
    # What the user writes in order to do ("to confirm the time").
    purpose: str = ""
    # What the recipient is asked to tell ("ask Ana whether she can drive").
    inquiry: str = ""
    # "remind X about Y": the topic is a reminder.
    is_reminder: bool = False


def ask_of(question: str, named_as: str) -> Ask:
    """Read the question's own words: "saying ..."/"that ..." is the message, "about ..." or
    "with ..." the topic, "to ..." a request, otherwise what follows the name ("send Noor
    the numbers")."""
    text = " ".join(question.split())
    if match := _MESSAGE_CLAUSE.search(text):
        return Ask(message=tidy(match["x"]))
    after = before = ""
    if named_as:
        position = text.casefold().find(named_as.casefold())
        if position >= 0:
            before = text[:position]
            after = text[position + len(named_as) :]
            after = re.sub(r"^'s\b", "", after)
            after = _GROUP_NOUN.sub("", after, count=1)
            after = _MEDIUM.sub("", after, count=1)
    if after and (match := _THAT_CLAUSE.search(after)):
        return Ask(message=tidy(match["x"]))
    if courtesy := _courtesy(before, after):
        return Ask(message=courtesy)
    if after and (said := _courtesy_participle(after)):
        return Ask(message=said)
    if after and (match := _FIRST_PERSON_CLAUSE.search(after) or _ANSWER_START.search(after)):
        return Ask(message=tidy(match["x"]))
    if after and (match := _THANK_YOU_FOR.search(after)):
        return Ask(message=f"Thank you for {tidy(second_person(match['x']))}!")
    if after and (match := _COURTESY_START.search(after)):
        said = tidy(match["x"])
        # "imessage Ana happy birthday": a wish on its own is exclaimed.
        return Ask(message=said + "!" if _WISH.fullmatch(said) else said)
    if (
        after
        and re.search(r"\bremind\s+$", before, re.I)
        and not re.match(r"^\s*(?:about|to|re|regarding|of|that|again|with)\b", after, re.I)
        and _CLAUSE.search(after)
    ):
        # "remind Hemi the inset is due at 5": what they are reminded of, said.
        return Ask(message="Just a friendly reminder: " + tidy(after.strip()))
    hyphenated = _HYPHENATED_MESSAGE.search(after or text)
    if hyphenated and hyphenated["x"].casefold() not in _MESSAGE_KINDS:
        return Ask(message=tidy(hyphenated["x"].replace("-", " ")))
    if after and _TELL.search(before):
        told = _KNOW.search(after) if _LET.search(before) else None
        message = told["x"] if told else after
        if not re.match(r"^\s*(?:about|to|again|re)\b", message, re.IGNORECASE):
            return Ask(message=tidy(message))
    if (
        after
        and re.search(r"\bask\s+(?:[\w'#-]+\s+){0,3}$", before, re.IGNORECASE)
        and (match := _INQUIRY.search(after))
    ):
        return Ask(inquiry=tidy(match["x"]))
    if (
        after
        and _MESSAGE_VERB.search(before)
        and not _NOT_A_MESSAGE.match(after)
        and _CLAUSE.search(after)
        and not _TOPIC.search(after)
    ):
        # "message Max lunch is off": a clause right after the name is the message.
        return Ask(message=tidy(after))
    if match := _TOPIC.search(text):
        is_reminder = bool(re.search(r"\bremind\b", before or text, re.IGNORECASE))
        return Ask(topic=tidy(match["x"]), is_reminder=is_reminder)
    if after and (match := _WITH.search(after)):
        return Ask(topic=tidy(match["x"]))
    if after and (match := _ASK_TO.search(after)):
        if _ASKING_VERB.search(before):
            return Ask(request=tidy(match["x"]))
        # "message Dad to confirm the time": the user is the one who confirms.
        return Ask(purpose=tidy(match["x"]))
    rest = tidy(_LEADING_FILLER.sub("", after)) if after else ""
    if rest and not re.match(r"^(?:to|in|on|at|for|from)\b", rest, re.IGNORECASE):
        return Ask(topic=rest)
    return Ask()


# "reply to Tom yes I'll swap", "tell Ana no worries": an answer word right after the name
# opens the message itself.
_ANSWER_START = re.compile(
    r"^\s*,?\s*(?P<x>(?:yes|yeah|yep|yup|no|nope|sure|ok|okay|of\s+course|absolutely"
    r"|definitely|sounds\s+good|no\s+worries|no\s+problem|deal)\b.*)",
    re.IGNORECASE,
)
# Verbs that send a message (not "send X the Y", "ask", "remind": they have their own rules).
_MESSAGE_VERB = re.compile(
    r"\b(?:text|message|msg|ping|dm|whatsapp|slack|signal|telegram|sms|imessage|e-?mail"
    r"|write(?:\s+to)?|reply\s+to|respond\s+to|answer)\s+(?:back\s+)?$",
    re.IGNORECASE,
)
_NOT_A_MESSAGE = re.compile(
    r"^\s*(?:about|to|re|regarding|with|again|back|for|on|in|at|from|and|or|if|whether"
    r"|what|when|where|how|why|who|a|an)\b",
    re.IGNORECASE,
)
# "draft a reply to Moira thanking her for the dinner": the courtesy, said.
_COURTESY_PARTICIPLES = (
    (
        re.compile(r"^\s*,?\s*(?:and\s+)?thank(?:ing)?\s+(?:him|her|them)\s+for\s+(?P<x>.+)", re.I),
        "Thank you for {}!",
    ),
    (
        re.compile(r"^\s*,?\s*(?:and\s+)?thanking\s+for\s+(?P<x>.+)", re.I),
        "Thank you for {}!",
    ),
    (
        re.compile(
            r"^\s*,?\s*(?:and\s+)?congratulat(?:ing|e)\s+(?:him|her|them)\s+on\s+(?P<x>.+)", re.I
        ),
        "Congratulations on {}!",
    ),
    (
        re.compile(r"^\s*,?\s*(?:and\s+)?wish(?:ing)?\s+(?:him|her|them)\s+(?P<x>\w.+)", re.I),
        "Wishing you {}!",
    ),
    (
        re.compile(r"^\s*,?\s*(?:and\s+)?apologi[sz](?:ing|e)\s+for\s+(?P<x>.+)", re.I),
        "Sorry for {}.",
    ),
)


def _courtesy_participle(after: str) -> str:
    for pattern, line in _COURTESY_PARTICIPLES:
        if match := pattern.search(after):
            return line.format(tidy(second_person(match["x"])))
    return ""


# "text Ben thanks for the ute, I filled it up", "tell Ana sorry I missed it": a courtesy
# right after the name opens the message itself.
_COURTESY_START = re.compile(
    r"^\s*,?\s*(?P<x>(?:thanks|thank\s+you|thx|sorry|congrats|congratulations|happy\s+\w+"
    r"|good\s+luck|welcome\s+back|get\s+well)\b.*)",
    re.IGNORECASE,
)
_WISH = re.compile(
    r"(?:happy\s+[\w' ]+|congrats|congratulations|good\s+luck|welcome\s+back"
    r"|get\s+well\s+soon|thanks|thank\s+you)(?:\s+(?:again|so\s+much))?",
    re.IGNORECASE,
)
# "send Sam a thank-you on Slack for the counts": the thanks, said.
_THANK_YOU_FOR = re.compile(
    r"^\s*an?\s+(?:(?:quick|big|little|short)\s+)?thank[- ]?you(?:\s+(?:note|message|text))?"
    r"(?:\s+(?:on|by|via|over)\s+\w+)?\s+for\s+(?P<x>.+)",
    re.IGNORECASE,
)
# A clause: what follows has a verb of being, having or happening.
_CLAUSE = re.compile(
    r"\b(?:is|are|was|were|will|'s|has|have|starts?|opens?|closes?|moved|changed|due)\b", re.I
)

# "say happy birthday to Ana", "wish Ana luck", "thank Ana for the lift", "congratulate Ana
# on the job", "apologise to Ana for the mess": the courtesy is the message.
_SAY_TO = re.compile(r"\b(?:say|send)\s+(?P<x>(?!(?:a|an|the|my|this|it)\b).+?)\s+to\s+$", re.I)
_COURTESY_AFTER = (
    (re.compile(r"\bwish\s+$", re.I), re.compile(r"^\s*(?P<x>\w.*)", re.I), "Wishing you {}!"),
    (
        re.compile(r"\bthank\s+$", re.I),
        re.compile(r"^\s*for\s+(?P<x>.+)", re.I),
        "Thank you for {}!",
    ),
    (
        re.compile(r"\bcongratulate\s+$", re.I),
        re.compile(r"^\s*on\s+(?P<x>.+)", re.I),
        "Congratulations on {}!",
    ),
    (
        re.compile(r"\bapologi[sz]e\s+to\s+$", re.I),
        re.compile(r"^\s*for\s+(?P<x>.+)", re.I),
        "Sorry for {}.",
    ),
)


def _courtesy(before: str, after: str) -> str:
    if match := _SAY_TO.search(before):
        said = tidy(match["x"])
        return said[0].upper() + said[1:] + "!" if said else ""
    for verb, rest, line in _COURTESY_AFTER:
        if verb.search(before) and (match := rest.search(after)):
            return line.format(tidy(second_person(match["x"])))
    return ""
