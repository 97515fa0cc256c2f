"""Draft text for an outreach proposal.

The local drafter is deterministic and needs no model: a short, polite message in the user's
voice built from the question (what to say, to whom) and the open loop it follows up (who
asked whom, since when). It never copies text from other people's messages, so nothing a
message says can reach the draft. The user's voice is their usual greeting to this person,
learned from the user's own messages to them: the greeting they open with (from a fixed list;
none when they open with the name alone) and the name they call them by.

A model draft (the ``draft`` profile, when configured) gets the same inputs and must pass
``draft_is_safe``: no link, address, phone or account number, sum of money or handle that
the question itself does not contain. Otherwise the local draft is used.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from conversations.models import Chat, ChatKind, IdentityKind, Message, Person
from memory.extract import is_suspicious
from memory.followup import FollowUpRole
from memory.models import LoopKind
from retrieval.compile import TITLES
from retrieval.lexicon import DESCRIPTOR_FORMS, STOP_WORDS, fold_text

MAX_DRAFT_CHARS = 1000
GREETINGS = (
    "hi", "hey", "hello", "hiya", "heya", "yo", "howdy", "olá", "ola", "oi", "hola", "salut",
    "hallo", "ciao", "bonjour",
)  # fmt: skip
# Words that greet only when the recipient's name or a stop follows them ("Morning Ana,",
# "Dear Ana", "Good evening!"), not in "morning run was great".
_SOFT_GREETINGS = ("good morning", "good afternoon", "good evening", "morning", "evening", "dear")
# How the user addresses a whole group after a greeting ("Hey all", "Hi everyone").
GROUP_ADDRESSES = ("all", "everyone", "everybody", "guys", "folks", "team", "y'all", "gang")
DEFAULT_GREETING = "Hi"
# The user's own messages read for their greeting, newest first.
VOICE_SAMPLE = 200


@dataclass(frozen=True)
class DraftGround:
    """A message the request follows up, as the answer cites it (``memory.followup``):
    why it matters (a ``FollowUpRole``), who wrote it, its text and its source label."""

    role: str
    text: str
    sender: str = ""
    label: str = ""


@dataclass(frozen=True)
class DraftContext:
    """What a draft may be written from: the question, who it is for, what it follows up."""

    question: str
    recipient_name: str
    # The name as the question wrote it ("Dmitri" for "Dmitri Volkov"), when it did.
    named_as: str
    loop_kind: str
    loop_opened_at: datetime | None
    greeting: str
    timezone: str
    # How the user addresses them after the greeting, learned from their own messages ("Dani",
    # "everyone"); "" for the first name (or "all", to a group).
    address: str = ""
    # The messages it follows up; the local drafter relays facts from the news and answers.
    grounds: tuple[DraftGround, ...] = ()
    # A message to a whole group chat (``recipient_name`` is its title).
    is_group: bool = False
    # The plan in that chat the request is about ("climbing on Saturday at 9 at Redstone").
    plan: str = ""
    # That plan's activity ("game night"), when the question names it.
    plan_activity: str = ""
    # The open question someone asked in the group that this reply answers: who asked (their
    # saved name), its question sentence, and when.
    asked_by: str = ""
    asked: str = ""
    asked_at: datetime | None = None
    # The text of the message that opened the question-to-the-user loop it follows up (only
    # read for what the user will do about it: "can you bring the tent?").
    loop_asked: str = ""
    # Names of other people the question names ("Ivo" in "tell mom what Ivo wants"): the
    # pronouns after them are theirs, not the recipient's.
    others: tuple[str, ...] = ()


# --- what the question asks for --------------------------------------------------------------

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


def _second_person(text: str, others: tuple[str, ...] = ()) -> str:
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


def _tidy(text: str) -> str:
    text = text.strip()
    if not _SUITS_ME.search(text):
        text = _TRAILING_FILLER.sub("", text)
    return text.strip().rstrip(".!?,;: ").strip()


def _sentence(text: str) -> str:
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
        return Ask(message=_tidy(match["x"]))
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
        return Ask(message=_tidy(match["x"]))
    if courtesy := _courtesy(before, after):
        return Ask(message=courtesy)
    if after and (said := _courtesy_participle(after)):
        return Ask(message=said)
    if after and (match := _FIRST_PERSON_CLAUSE.search(after) or _ANSWER_START.search(after)):
        return Ask(message=_tidy(match["x"]))
    if after and (match := _THANK_YOU_FOR.search(after)):
        return Ask(message=f"Thank you for {_tidy(_second_person(match['x']))}!")
    if after and (match := _COURTESY_START.search(after)):
        said = _tidy(match["x"])
        # "imessage Ana happy birthday": a wish on its own is exclaimed.
        return Ask(message=said + "!" if _WISH.fullmatch(said) else said)
    if (
        after
        and re.search(r"\bremind\s+$", before, re.I)
        and not re.match(r"^\s*(?:about|to|re|regarding|of|that|again|with)\b", after, re.I)
        and _CLAUSE.search(after)
    ):
        # "remind Hemi the inset is due at 5": what they are reminded of, said.
        return Ask(message="Just a friendly reminder: " + _tidy(after.strip()))
    hyphenated = _HYPHENATED_MESSAGE.search(after or text)
    if hyphenated and hyphenated["x"].casefold() not in _MESSAGE_KINDS:
        return Ask(message=_tidy(hyphenated["x"].replace("-", " ")))
    if after and _TELL.search(before):
        told = _KNOW.search(after) if _LET.search(before) else None
        message = told["x"] if told else after
        if not re.match(r"^\s*(?:about|to|again|re)\b", message, re.IGNORECASE):
            return Ask(message=_tidy(message))
    if (
        after
        and re.search(r"\bask\s+(?:[\w'#-]+\s+){0,3}$", before, re.IGNORECASE)
        and (match := _INQUIRY.search(after))
    ):
        return Ask(inquiry=_tidy(match["x"]))
    if (
        after
        and _MESSAGE_VERB.search(before)
        and not _NOT_A_MESSAGE.match(after)
        and _CLAUSE.search(after)
        and not _TOPIC.search(after)
    ):
        # "message Max lunch is off": a clause right after the name is the message.
        return Ask(message=_tidy(after))
    if match := _TOPIC.search(text):
        is_reminder = bool(re.search(r"\bremind\b", before or text, re.IGNORECASE))
        return Ask(topic=_tidy(match["x"]), is_reminder=is_reminder)
    if after and (match := _WITH.search(after)):
        return Ask(topic=_tidy(match["x"]))
    if after and (match := _ASK_TO.search(after)):
        if _ASKING_VERB.search(before):
            return Ask(request=_tidy(match["x"]))
        # "message Dad to confirm the time": the user is the one who confirms.
        return Ask(purpose=_tidy(match["x"]))
    rest = _tidy(_LEADING_FILLER.sub("", after)) if after else ""
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
            return line.format(_tidy(_second_person(match["x"])))
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
        said = _tidy(match["x"])
        return said[0].upper() + said[1:] + "!" if said else ""
    for verb, rest, line in _COURTESY_AFTER:
        if verb.search(before) and (match := rest.search(after)):
            return line.format(_tidy(_second_person(match["x"])))
    return ""


# --- the user's voice ------------------------------------------------------------------------


# Words a nickname or kin name opens with, said together with the name.
_EPITHETS = frozenset(
    {"big", "little", "lil", "old", "young", "uncle", "aunt", "auntie", "aunty", "cousin",
     "tio", "tia", "tante", "onkel", "nonna", "nonno", "zio", "zia"}
)  # fmt: skip


def address_names(recipient_name: str, named_as: str) -> tuple[str, str]:
    """How the greeting addresses the recipient, and their first name (for the facts relayed
    to them): with the title the question or the saved name uses ("reply to dr adeyemi" →
    "Dr Adeyemi", "Dr. Tunde Adeyemi" → "Dr. Adeyemi"), by the short form the user calls them
    ("dani" → "Dani" for "Daniela Ruiz"), else by their first name."""
    words = [word for word in recipient_name.split() if any(char.isalnum() for char in word)]
    title = ""
    while words and fold_text(words[0]).rstrip(".") in TITLES:
        title = title or words[0]
        words.pop(0)
    first = words[0] if words else ""
    surname = words[-1] if len(words) > 1 else ""
    said = named_as.split()
    said_title = said[0] if said and fold_text(said[0]).rstrip(".") in TITLES else ""
    if said_title and (surname or first):
        return f"{said_title[0].upper()}{said_title[1:]} {surname or first}", first
    if title and surname:
        return f"{title} {surname}", first
    if _is_other_name(said, words):
        # "niamh" for a contact saved under a nickname ("sea glass 🐚"): the name the user said.
        return said[0][0].upper() + said[0][1:], said[0][0].upper() + said[0][1:]
    if len(words) > 1 and fold_text(first) in _EPITHETS:
        # "Big Ben", "Uncle Joe": the epithet belongs to the name.
        return f"{first} {words[1]}", words[1]
    if (
        len(said) == 1
        and first
        and len(said[0]) < len(first)
        and fold_text(first).startswith(fold_text(said[0]))
    ):
        return said[0][0].upper() + said[0][1:], first
    return first, first


def _is_other_name(said: list[str], saved: list[str]) -> bool:
    """Whether the one word the question called the recipient is a name their saved name
    neither holds nor shortens (nor is a short form of): a contact saved under a nickname,
    asked for by their name. A word for a role ("landlord") is no name to greet with."""
    if len(said) != 1 or not said[0].isalpha() or not saved:
        return False
    word = fold_text(said[0])
    saved_words = [fold_text(name) for name in saved]
    return (
        word not in TITLES
        and word not in DESCRIPTOR_FORMS
        and word not in saved_words
        and not any(name.startswith(word) or word.startswith(name) for name in saved_words)
    )


_FULL_CALENDAR = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|january|february|april|june|july|august|september|october|november|december"
)
_SHORT_CALENDAR = (
    r"mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|jan|feb|mar|march|apr|may|jun|jul|aug|sept?|oct|nov|dec"
)
# A day or month name; a short one only beside a date or another one ("sat dec 5", "thu 7:30").
_CALENDAR_NAME = re.compile(
    rf"\b(?:{_FULL_CALENDAR})\b|\b(?:{_SHORT_CALENDAR})\b(?=\.?\s*(?:\d|(?:{_SHORT_CALENDAR})\b))",
    re.IGNORECASE,
)


def calendar_capitalised(text: str) -> str:
    """Days and months written as names are: "sat dec 5" → "Sat Dec 5"."""
    return _CALENDAR_NAME.sub(lambda match: match[0][0].upper() + match[0][1:], text)


@dataclass(frozen=True)
class Voice:
    """How the user opens messages to this person or group, learned from their own messages:
    the greeting ("Hey"; "" when they open with the name alone: "Ana, …") and the name or
    group word they address them by ("Dani", "everyone"; "" when not learned)."""

    greeting: str
    address: str = ""


_OPENING_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
# After the name, a stop or the end: "Ana, …", "Ana!", "Ana -".
_STOP_AFTER = re.compile(r"^\s*(?:[,!:;.\u2014\u2013-]|$)")


def _opening(text: str, *, name_forms: set[str], is_group: bool) -> tuple[str, str] | None:
    """The greeting and the address one message opens with, None when it opens with
    neither."""
    rest = text.lstrip()
    greeting = ""
    folded = rest.casefold()
    for soft in _SOFT_GREETINGS:
        if re.match(rf"{soft}\b", folded):
            after = rest[len(soft) :]
            word = _OPENING_WORD.match(after.lstrip(" ,"))
            if _STOP_AFTER.match(after) or (word and _is_address(word[0], name_forms, is_group)):
                greeting, rest = rest[: len(soft)], after
            break
    if not greeting:
        word = _OPENING_WORD.match(rest)
        if word is not None and word[0].casefold() in GREETINGS:
            greeting, rest = word[0], rest[word.end() :]
    word = _OPENING_WORD.match(rest.lstrip(" ,"))
    address = ""
    if word is not None and _is_address(word[0], name_forms, is_group):
        after = rest.lstrip(" ,")[word.end() :]
        if greeting or _STOP_AFTER.match(after):
            address = word[0]
    if not greeting and not address:
        return None
    return greeting, address


def _is_address(word: str, name_forms: set[str], is_group: bool) -> bool:
    folded = fold_text(word)
    if is_group:
        return folded in GROUP_ADDRESSES
    if folded in name_forms:
        return True
    # A short form written as a name ("Hey Dani" for Daniela), not a word ("hey man").
    return (
        word[:1].isupper()
        and len(folded) >= 3
        and folded not in STOP_WORDS
        and any(form.startswith(folded) for form in name_forms)
    )


def _name_forms(names: list[str]) -> set[str]:
    """The words of a contact's saved names, titles and emoji left out."""
    return {
        word
        for name in names
        for word in re.findall(r"[a-z]+", fold_text(name))
        if len(word) > 1 and word not in TITLES
    }


def voice_for(
    *,
    chat: Chat,
    person: Person | None = None,
    default: str = DEFAULT_GREETING,
) -> Voice:
    """How the user most often opens messages to them: in this chat, else (for a person) in
    the user's other direct chats with them; ``default`` (the request's language's greeting)
    when they never greet. Only the user's own messages are read, and only a fixed list of
    greetings, the contact's own name words or a group word can be learned."""
    names = [person.display_name] if person is not None else []
    if person is not None:
        names += [
            identity.value
            for identity in person.identities.all()
            if identity.kind == IdentityKind.NAME and identity.value
        ]
    name_forms = _name_forms(names)
    chats = [chat.pk]
    if person is not None:
        chats += list(
            Chat.objects.filter(
                user_id=chat.user_id,
                kind=ChatKind.DIRECT,
                is_excluded_from_ai=False,
                memberships__person=person,
            )
            .exclude(pk=chat.pk)
            .values_list("pk", flat=True)
        )
    for chat_id in chats:
        voice = _voice_in(
            user_id=chat.user_id,
            chat_id=chat_id,
            name_forms=name_forms,
            is_group=person is None and chat.kind != ChatKind.DIRECT,
        )
        if voice is not None:
            return voice
    return Voice(greeting=default)


def _voice_in(*, user_id: int, chat_id: int, name_forms: set[str], is_group: bool) -> Voice | None:
    greetings: Counter[str] = Counter()
    addresses: Counter[str] = Counter()
    spelled: dict[str, str] = {}
    texts = (
        Message.objects.filter(
            user_id=user_id, chat_id=chat_id, is_from_self=True, deleted_at__isnull=True
        )
        .order_by("-sent_at")
        .values_list("text", flat=True)[:VOICE_SAMPLE]
    )
    for text in texts:
        opening = _opening(text or "", name_forms=name_forms, is_group=is_group)
        if opening is None:
            continue
        greeting, address = opening
        greetings[greeting.casefold()] += 1
        spelled.setdefault(greeting.casefold(), greeting[:1].upper() + greeting[1:].lower())
        if address:
            addresses[address.casefold()] += 1
            spelled.setdefault(address.casefold(), address[:1].upper() + address[1:])
    if not greetings:
        return None
    greeting = spelled[greetings.most_common(1)[0][0]]
    address = spelled[addresses.most_common(1)[0][0]] if addresses else ""
    return Voice(greeting=greeting, address=address)


# --- facts relayed from the messages it follows up -------------------------------------------

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+|(?<=[.!?])(?=[A-Z])")
_EMOJI = re.compile(r"[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F\u200D]+")
_FILLER_START = re.compile(
    r"^\s*(?:(?:fyi|btw|so|ok|okay|update|news|also|anyway|oh|ah+)\b[\s,:!.-]*)+", re.IGNORECASE
)
# "ok write this down: ..." — a short lead-in before a colon introduces what follows.
_LEAD_IN = re.compile(r"^[^:]{0,30}:\s+(?=\S)")
_GREETING_START = re.compile(
    rf"^\s*(?:{'|'.join(GREETINGS)}|dear|good\s+(?:morning|afternoon|evening))\b", re.IGNORECASE
)
# "Sam here", "it's Sam": who is writing, nothing to pass on.
_SELF_INTRODUCTION = re.compile(r"\bhere\s*[.!]?$|^it'?s\s+\w+(?:\s+\w+)?\s*[.!]?$", re.I)
# Words a relayed sentence never carries: credentials and chain requests stay where they are.
_NEVER_RELAYED = re.compile(r"\b(?:forward|password|passcode|pin|otp|code)\b", re.IGNORECASE)
_TIME_RANGE = re.compile(r"\b(\d{1,2})\s?-\s?(\d{1,2})\s?(am|pm)\b", re.IGNORECASE)
_HAS_TIME_FACT = re.compile(
    r"\d|\b(?:mon|tues?|wed|thu(?:rs)?|fri|sat|sun)(?:day)?\b|\b(?:tomorrow|tonight|next\s+week)\b",
    re.IGNORECASE,
)
RELAYED_SENTENCES = 2
MIN_RELAYED_WORDS = 4


def _recipient_as_you(text: str, first_name: str) -> str:
    """ "your friend Ana's CV" → "your CV", "Ana" → "you": the fact, told to Ana."""
    if not first_name:
        return text
    name = re.escape(first_name)
    text = re.sub(
        rf"\b(?:your\s+(?:friend|buddy|mate|pal)\s+)?{name}(?:'s|\u2019s)",
        "your",
        text,
        flags=re.IGNORECASE,
    )
    return re.sub(rf"\b{name}\b", "you", text, flags=re.IGNORECASE)


def relayed_sentences(
    text: str, *, first_name: str, question: str, must_be_factual: bool
) -> list[str]:
    """The sentences of a message worth passing on: not a question, greeting or signature,
    at least a few words, safe (``draft_is_safe``), and, when ``must_be_factual``, carrying a
    day, time or number, or naming the recipient."""
    if is_suspicious(text):
        return []
    kept: list[str] = []
    for raw in _SENTENCE_SPLIT.split(_EMOJI.sub("", text)):
        sentence = " ".join(raw.split())
        sentence = _FILLER_START.sub("", sentence)
        sentence = _LEAD_IN.sub("", sentence).strip(" -\u2014\u2013")
        if (
            not sentence
            or sentence.endswith("?")
            or _GREETING_START.match(sentence)
            or _SELF_INTRODUCTION.search(sentence)
            or _NEVER_RELAYED.search(sentence)
            or len(sentence.split()) < MIN_RELAYED_WORDS
        ):
            continue
        names_them = bool(first_name) and re.search(
            rf"\b{re.escape(first_name)}\b", sentence, re.IGNORECASE
        )
        if must_be_factual and not (_HAS_TIME_FACT.search(sentence) or names_them):
            continue
        sentence = _TIME_RANGE.sub(lambda m: f"{m[1]}\u2013{m[2]} {m[3].lower()}", sentence)
        sentence = _sentence(_recipient_as_you(sentence, first_name))
        if draft_is_safe(sentence, question=question):
            kept.append(sentence)
        if len(kept) == RELAYED_SENTENCES:
            break
    return kept


def _relayed(context: DraftContext, *, first_name: str, ask: Ask) -> list[str]:
    """The news since the user last wrote to them, and, for "send X the tips", what the user
    was told when they asked, ready to go in the draft."""
    lines: list[str] = []
    # A message that says its own when ("sat dec 5 works for me") is the news itself.
    says_when = bool(ask.message and _HAS_TIME_FACT.search(ask.message))
    for ground in context.grounds:
        if ground.role == FollowUpRole.NEWS and not says_when:
            found = relayed_sentences(
                ground.text, first_name=first_name, question=context.question, must_be_factual=True
            )
            if found:
                lines.append("Update: " + " ".join(found))
        elif ground.role == FollowUpRole.TOLD and ask.topic and not ask.message:
            found = relayed_sentences(
                ground.text,
                first_name=first_name,
                question=context.question,
                must_be_factual=False,
            )
            if found:
                lines.append(
                    f"Here's what I have on {_second_person(ask.topic, context.others)}: "
                    + " ".join(found)
                )
    return lines


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]{3,}", fold_text(text))


# --- requests in other languages ------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """How a message opens, addresses a group and closes in the request's language, and how
    its usual lines are said."""

    greeting: str
    everyone: str
    closing: str
    thanks: str
    about: str  # "{}" is the topic
    purpose: str  # "{}" is what the user writes in order to do
    reminder: str  # "{}" is what the recipient is asked to do
    plain: str


ENGLISH = "en"
FRAMES = {
    "es": Frame(
        "Hola",
        "a todos",
        "¡Hasta pronto!",
        "¡Gracias!",
        "Te escribo sobre {}.",
        "Te escribo para {}.",
        "Un recordatorio: ¿podrías {}?",
        "Quería escribirte.",
    ),
    "fr": Frame(
        "Salut",
        "à tous",
        "À bientôt !",
        "Merci !",
        "Je t'écris au sujet de {}.",
        "Je t'écris pour {}.",
        "Petit rappel : pourrais-tu {} ?",
        "Je voulais prendre des nouvelles.",
    ),
    "pt": Frame(
        "Olá",
        "a todos",
        "Até já!",
        "Obrigado!",
        "Escrevo-te sobre {}.",
        "Escrevo-te para {}.",
        "Só para lembrar: podes {}?",
        "Queria falar contigo.",
    ),
    "de": Frame(
        "Hallo",
        "zusammen",
        "Bis bald!",
        "Danke!",
        "Ich schreibe dir wegen {}.",
        "Ich schreibe dir, um {}.",
        "Kurze Erinnerung: kannst du {}?",
        "Ich wollte mich kurz melden.",
    ),
}
# The verb that opens the request says its language (the question is folded: no accents).
_LANGUAGE_OF_VERB = (
    (
        "pt",
        re.compile(
            r"^\W*(?:(?:manda|envia)\s+uma\s+mensagem|diz\s+(?:a|ao)|pergunta\s+(?:a|ao)"
            r"|lembra\s+(?:a|o)|escreve\s+(?:a|ao|para))\b"
        ),
    ),
    (
        "es",
        re.compile(
            r"^\W*(?:dile|digale|decile|escribele|escribe|mandale|enviale|preguntale"
            r"|recuerdale|avisale|contestale|respondele|(?:manda|envia)(?:le)?\s+un)\b"
        ),
    ),
    (
        "fr",
        re.compile(
            r"^\W*(?:ecris|ecrivez|envoie|envoyez|dis|dites|demande|demandez|rappelle"
            r"|rappelez|reponds|repondez)\b"
        ),
    ),
    ("de", re.compile(r"^\W*(?:schreib|schreibe|sag|sage|frag|frage|erinnere)\b")),
)
_FOREIGN_MESSAGE = re.compile(
    r"\b(?:a\s+dizer\s+que|diciendo\s+que|en\s+disant\s+que|que|dass)\s+(?P<x>.+)", re.I
)
_FOREIGN_TOPIC = re.compile(
    r"\b(?:sobre|acerca\s+de|au\s+sujet\s+de|a\s+propos\s+de|à\s+propos\s+de|concernant"
    r"|wegen|über|ueber)\s+(?P<x>.+)",
    re.I,
)
_FOREIGN_PURPOSE = re.compile(r"\b(?:pour|para|um)\s+(?P<x>.+)", re.I)
# "pour le remercier" → "pour te remercier": the recipient, now addressed.
_FOREIGN_OBJECT = re.compile(r"^(?:le|la|les|lui|leur|lo|los|las|le|o|a)\s+(?=\w)", re.I)


def request_language(question: str) -> str:
    """The language of an action request, from its opening verb; English otherwise."""
    folded = fold_text(question)
    for language, pattern in _LANGUAGE_OF_VERB:
        if pattern.search(folded):
            return language
    return ENGLISH


def greeting_default(question: str) -> str:
    frame = FRAMES.get(request_language(question))
    return frame.greeting if frame is not None else DEFAULT_GREETING


def _foreign_lines(question: str, named_as: str, frame: Frame) -> tuple[list[str], str]:
    """The body lines and closing of a request in another language: "que …" is the message
    as said, "sobre …" the topic, "pour …" the user's purpose."""
    text = " ".join(question.split())
    position = text.casefold().find(named_as.casefold()) if named_as else -1
    after = text[position + len(named_as) :] if position >= 0 else text
    if match := _FOREIGN_MESSAGE.search(after):
        return [_sentence(_tidy(match["x"]))], frame.closing
    if match := _FOREIGN_TOPIC.search(after):
        return [frame.about.format(_tidy(match["x"]))], frame.closing
    if match := _FOREIGN_PURPOSE.search(after):
        purpose = _FOREIGN_OBJECT.sub("te ", _tidy(match["x"]))
        return [frame.purpose.format(purpose)], frame.closing
    return [frame.plain], frame.closing


# --- the local drafter -----------------------------------------------------------------------


def _day(moment: datetime, tz: str) -> str:
    local = moment.astimezone(ZoneInfo(tz))
    return f"{local:%a} {local.day} {local:%b}"


def salutation(greeting: str, addressed: str) -> str:
    """ "Hey Ana,", "Ana," (the user opens with the name alone), "Hi,"."""
    if not greeting:
        return f"{addressed[:1].upper()}{addressed[1:]}," if addressed else ""
    return f"{greeting} {addressed},".replace(" ,", ",")


def addressed_as(context: DraftContext) -> tuple[str, str]:
    """How the draft addresses the recipient and their first name: a title or short form the
    question says, else the name or group word the user usually writes to them, else the
    first name ("all", to a group)."""
    if context.is_group:
        learned = fold_text(context.address)
        return (learned if learned in GROUP_ADDRESSES else "all"), ""
    said, first_name = address_names(context.recipient_name, context.named_as)
    saved, _ = address_names(context.recipient_name, "")
    if context.address and said == saved:
        return context.address, first_name
    return said, first_name


def _foreign_draft(context: DraftContext, frame: Frame) -> str:
    body, closing = _foreign_lines(context.question, context.named_as, frame)
    addressed = frame.everyone if context.is_group else addressed_as(context)[0]
    greeting = salutation(context.greeting, addressed)
    return "\n\n".join([part for part in (greeting, *body, closing) if part])[:MAX_DRAFT_CHARS]


def _answer_line(context: DraftContext, *, ask: Ask, relayed: bool) -> str:
    """A reply to the question someone asked in the group, to them by first name: "Kip, about
    your question ("Who can drive on Sunday?"): I can drive." The question is quoted only when
    it passes ``draft_is_safe``; else the topic or its day says which question. With nothing
    to say in substance, what the user will do about it: "Kip, sorry for the slow reply to
    your question ("Who can drive on Sunday?") from Sat 5 Dec: I'll check whether I can drive
    on Sunday and let you know."."""
    asker = _first_name(context.asked_by)
    since = _day(context.asked_at, context.timezone) if context.asked_at is not None else ""
    is_quoted = bool(context.asked) and draft_is_safe(context.asked, question=context.question)
    quoted = f" (\u201c{context.asked}\u201d)" if is_quoted else ""
    topic = _second_person(ask.topic, context.others)
    which = quoted or (f" about {topic}" if topic else (f" from {since}" if since else ""))
    if ask.message:
        message = calendar_capitalised(_second_person(written_out(ask.message), context.others))
        return f"{asker}, about your question{which}: {_sentence(message)}"
    when = f" from {since}" if since and quoted else ""
    if relayed:
        return f"{asker}, sorry for the slow reply to your question{which}{when}."
    step = next_step(asked=context.asked if is_quoted else "", topic="", plan=context.plan)
    return f"{asker}, sorry for the slow reply to your question{which}{when}: {step}"


# A question to the user or to everyone, as the user's own "whether" clause: "who can drive on
# Sunday?" → "whether I can drive on Sunday", "are you coming friday?" → "whether I'm coming
# Friday".
_ASKED_LEAD = re.compile(
    r"^\W*(?:[^\W\d_]+\s*,\s*)?(?:(?:so|and|also|btw|ok|okay|quick\s+q(?:uestion)?)\b[\s,:]*)*",
    re.I,
)
_ASKED_AS_MINE = (
    (
        re.compile(
            r"^(?:who|anyone|anybody|someone|somebody)\s+(?:can|could|is\s+able\s+to|able\s+to"
            r"|free\s+to)\s+"
            r"(?P<x>\w.*)$",
            re.I,
        ),
        "whether I can {}",
    ),
    (
        re.compile(
            r"^(?:can|could)\s+(?:you|anyone|anybody|someone|somebody)\s+(?P<x>\w.*)$", re.I
        ),
        "whether I can {}",
    ),
    (
        re.compile(
            r"^(?:are\s+you|is\s+anyone|is\s+anybody|who['\u2019]s|who\s+is)\s+"
            r"(?P<x>[a-z]+ing\b.*)$",
            re.I,
        ),
        "whether I'm {}",
    ),
    (
        re.compile(r"^(?:are\s+you)\s+(?P<x>(?:free|around|in|up\s+for|ok)\b.*)$", re.I),
        "whether I'm {}",
    ),
    (re.compile(r"^do\s+you\s+(?P<x>\w.*)$", re.I), "whether I {}"),
    # "does the 14th work for everyone?" → "whether the 14th works for me"
    (
        re.compile(
            r"^(?:does|would)\s+(?P<x>\w.*?)\s+work(?:\s+for\s+(?:you|you\s+all|everyone"
            r"|everybody|people|all\s+of\s+you))?(?=\W|$)",
            re.I,
        ),
        "whether {} works for me",
    ),
)
# The asker's words for the two of them, turned round: "your tent" → "my tent", "my drill" →
# "your drill".
_TURNED = {"yourself": "myself", "myself": "yourself", "yours": "mine", "mine": "yours",
           "your": "my", "my": "your", "you": "me", "me": "you"}  # fmt: skip
_TURNABLE = re.compile(r"\b(?:" + "|".join(_TURNED) + r")\b", re.I)
# What the user looks into when the request names it: "what Ana wants for her birthday".
_WH_CLAUSE = re.compile(r"^(?:what|when|where|which|who|whom|whose|how|why|whether|if)\b", re.I)


def asked_as_mine(asked: str) -> str:
    """A question asked of the user (or of everyone) as the user's own clause, "" when it is
    not one such a clause can say."""
    text = _ASKED_LEAD.sub("", " ".join(asked.split())).strip().rstrip("?!. ")
    for pattern, line in _ASKED_AS_MINE:
        if match := pattern.match(text):
            said = _TURNABLE.sub(lambda word: _TURNED[word[0].casefold()], match["x"])
            return calendar_capitalised(line.format(said))
    return ""


_QUESTION_SENTENCE = re.compile(r"[^.!?\n]*\?")


def loop_step(text: str, *, question: str) -> str:
    """What the user will do about the first question of a message that a clause of theirs
    can say, "" when none (``asked_as_mine``); never from a suspicious or unsafe message."""
    if not text or is_suspicious(text):
        return ""
    for match in _QUESTION_SENTENCE.finditer(text):
        if clause := asked_as_mine(match[0]):
            step = f"I'll check {clause} and let you know."
            return step if draft_is_safe(step, question=question) else ""
    return ""


def next_step(*, asked: str, topic: str, plan: str = "") -> str:
    """What the user will do about a question they cannot answer yet, said for what was
    asked: "I'll check whether I can drive on Sunday and let you know.", "I'll check what
    Ivo wants for his birthday and let you know.", else "I'll look into it and let you know."."""
    if clause := asked_as_mine(asked) if asked else "":
        return f"I'll check {clause} and let you know."
    if topic and _WH_CLAUSE.match(topic):
        return f"I'll check {topic} and let you know."
    if plan:
        return f"I'll check about {plan} and let you know."
    return "I'll look into it and let you know."


def _first_name(name: str) -> str:
    return address_names(name, "")[0] or name


def local_draft(context: DraftContext) -> str:
    """A short polite message: greeting, what it is about (and since when), a closing, in the
    request's language; to a group, addressed to everyone in it."""
    addressed, first_name = addressed_as(context)
    frame = FRAMES.get(request_language(context.question))
    if frame is not None:
        return _foreign_draft(context, frame)
    ask = ask_of(context.question, context.named_as)
    since = (
        _day(context.loop_opened_at, context.timezone) if context.loop_opened_at is not None else ""
    )
    topic = calendar_capitalised(_second_person(ask.topic, context.others))
    kind = context.loop_kind
    relayed = _relayed(context, first_name=first_name, ask=ask)
    if addressed and first_name and addressed != first_name:
        # The facts relayed to "Dani" speak of "Dani's" place as "your" place.
        relayed = [_recipient_as_you(line, addressed) for line in relayed]
    plan = f" ({context.plan})" if context.plan else ""
    lines: list[str] = []
    closing = "Talk soon!"
    if context.asked_by:
        lines.append(_answer_line(context, ask=ask, relayed=bool(relayed)))
    elif ask.message:
        message = calendar_capitalised(_second_person(written_out(ask.message), context.others))
        if context.plan_activity and not set(_words(context.plan_activity)) & set(_words(message)):
            # "tell the game group sat works": the plan it is about, said.
            message = f"About {context.plan_activity}: {message}"
        lines.append(_sentence(message))
        is_apology = re.match(r"\s*(?:sorry|apologies|my apologies)\b", ask.message, re.I)
        if kind == LoopKind.QUESTION_TO_USER and since and not is_apology:
            lines.insert(0, f"Sorry for the slow reply to your message from {since}.")
    elif ask.purpose:
        lines.append(
            f"Just writing to {calendar_capitalised(_second_person(ask.purpose, context.others))}."
        )
    elif ask.inquiry:
        inquiry = calendar_capitalised(_second_person(ask.inquiry, context.others))
        lines.append(f"Could you let me know {inquiry}?")
        closing = "Thanks!"
    elif ask.request:
        request = calendar_capitalised(_second_person(ask.request, context.others))
        lines.append(f"Just a friendly reminder: could you {request}?")
        closing = "Thanks!"
    elif kind == LoopKind.REQUEST_BY_USER:
        about = f"on {topic}" if topic else "on my message"
        when = f" from {since}" if since else ""
        lines.append(f"Just following up {about}{when}. Could you let me know when you can?")
        closing = "Thanks!"
    elif kind == LoopKind.QUESTION_TO_USER and relayed:
        about = f" about {topic}" if topic else ""
        when = f" — you asked on {since}" if since else ""
        lines.append(f"Sorry for the slow reply{about}{when}.")
    elif kind == LoopKind.QUESTION_TO_USER:
        # Nothing to say in substance: which question (what, since when) and what the user
        # will do about it, not an apology alone.
        when = f" from {since}" if since else ""
        about = f" about {topic}" if topic else ""
        step = loop_step(context.loop_asked, question=context.question) or (
            "I'll check and let you know."
            if topic
            else next_step(asked="", topic="", plan=context.plan)
        )
        lines.append(f"Sorry for the slow reply to your question{when}{about}: {step}")
    elif kind == LoopKind.PROMISE_BY_USER:
        about = topic or "what I promised"
        when = f" (since {since})" if since else ""
        lines.append(f"I haven't forgotten {about}{when}. Sorry it's taking me a while!")
    elif topic and ask.is_reminder:
        lines.append(f"Just a friendly reminder about {topic}{plan}!")
    elif topic and not relayed:
        lines.append(f"I wanted to get in touch about {topic}{plan}.")
    elif not relayed:
        lines.append("I wanted to get in touch.")
    greeting = salutation(context.greeting, addressed)
    body = [part for part in (" ".join(lines), *relayed) if part]
    return "\n\n".join([part for part in (greeting, *body, closing) if part])[:MAX_DRAFT_CHARS]


# --- model drafts ----------------------------------------------------------------------------

DRAFT_SYSTEM_PROMPT = """You write one short, polite message that the user will send to a \
contact after reviewing it. Write in the first person, as the user, in the language of the \
user's request. Use only the request and the facts below; add no links, phone numbers, \
addresses, account numbers, sums of money or other recipients. Output only the message text."""


def draft_prompt(context: DraftContext) -> str:
    since = (
        _day(context.loop_opened_at, context.timezone)
        if context.loop_opened_at is not None
        else "unknown"
    )
    loop = {
        LoopKind.QUESTION_TO_USER: "they asked the user something the user has not answered",
        LoopKind.REQUEST_BY_USER: "the user asked them something and has had no reply",
        LoopKind.PROMISE_BY_USER: "the user promised them something not yet done",
    }.get(LoopKind(context.loop_kind) if context.loop_kind else None, "none")  # type: ignore[arg-type]
    answers = (
        f"The reply answers a question {context.asked_by} asked in the group on "
        f"{_day(context.asked_at, context.timezone)}\n"
        if context.asked_by and context.asked_at is not None
        else ""
    )
    return (
        f"Recipient: {context.recipient_name}\n"
        f"The user usually opens with: {salutation(context.greeting, addressed_as(context)[0])}\n"
        f"Open thread with them: {loop} (since {since})\n"
        f"{answers}"
        f"The user's request: {context.question}"
    )


_URL = re.compile(r"(?:https?://|www\.)\S+|\b[\w-]+\.(?:com|net|org|io|ru|xyz|link|ly)\b", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_HANDLE = re.compile(r"(?<!\w)@\w{2,}")
_LONG_NUMBER = re.compile(r"(?:\+?\d[\d\s().-]{6,}\d)")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,}\b")
_MONEY = re.compile(
    r"(?:[$€£¥₽]\s?\d|\d\s?(?:[$€£¥₽]|usd|eur|gbp|btc|usdt|dollars?|euros?|pounds?)\b"
    r"|\b(?:bitcoin|crypto|wallet|gift\s*cards?|wire\s+transfer|bank\s+transfer|iban|swift)\b)",
    re.IGNORECASE,
)
# A number of three or more digits (a code, a PIN, an amount) the model cannot have from the
# request, which holds none.
_DIGITS = re.compile(r"\d{3,}")
# Chain letters: asking the recipient to pass the message on to everyone.
_CHAIN = re.compile(
    r"\b(?:forward|share|pass\s+(?:it|this)\s+on|send\s+(?:it|this)\s+on|repost)\b[^.!?\n]{0,60}"
    r"\b(?:everyone|everybody|all\s+(?:your|my|the)\s+\w+|every\s+\w+|anyone)\b",
    re.IGNORECASE,
)
_SAFETY_PATTERNS = (_URL, _EMAIL, _HANDLE, _LONG_NUMBER, _IBAN, _MONEY, _DIGITS, _CHAIN)


def draft_is_safe(draft: str, *, question: str) -> bool:
    """False when the draft carries a link, address, handle, number, account number, payment
    ask or chain-letter request that the user's question does not itself contain, or is empty
    or too long. A model's draft has no other source for these than text it should not obey."""
    text = draft.strip()
    if not text or len(text) > MAX_DRAFT_CHARS:
        return False
    folded_question = question.casefold()
    for pattern in _SAFETY_PATTERNS:
        for match in pattern.finditer(text):
            if match.group(0).strip().casefold() not in folded_question:
                return False
    return True
