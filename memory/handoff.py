"""One human on two platforms, told by a hand-off: "I'll email you the forms" said in a chat
with a contact saved under a nickname, and a few days later a new contact on email writes
about the same forms under a full name.

A hand-off is a message of a direct chat, by either side, that moves the conversation to
another medium: a promise ("I'll email u the address", "je t'envoie ça par courriel", "te
mando un correo", "ich schick dir eine Mail"), a request ("text me the code", "DM me") or a
report ("just emailed you"). It names the medium (email, text/SMS, WhatsApp, Signal,
Telegram, Slack, iMessage, or a bare "DM"). It links the chat's contact to a new contact
when

- that contact's direct chat is on a platform of the named medium and begins after the
  hand-off, within ``HANDOFF_WINDOW``, and the contact sent nothing anywhere before it;
- the new chat's first messages (and its title, an email's subject) share content words
  with what was said in the hand-off chat just before: words rare in the rest of the
  history ("kayak", "gate", "permit") count one each, numbers of three digits or more one,
  shorter numbers (days of a month) half; ``HANDOFF_MIN_SCORE`` is needed, one word at least;
- no other new chat fits that hand-off as well, and the two contacts' names do not
  contradict each other (two different full names are two people).

A name prefix alone links nobody, and a message that reads as spam or as instructions to an
assistant is no hand-off and no evidence. Pure text rules here;
``services.handoff_links_merge`` reads the history and records the links.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta

from conversations.models import Platform
from retrieval.lexicon import STOP_WORDS, fold_text, word_set

# A new contact's chat must begin this soon after the hand-off.
HANDOFF_WINDOW = timedelta(days=10)
# What was said before the hand-off, in its chat: this far back, this many messages.
CONTEXT_WINDOW = timedelta(days=14)
CONTEXT_MESSAGES = 20
# The new chat's first messages read.
FIRST_MESSAGES = 3
# A word is rare when at most this many messages outside the two chats use it.
RARE_OUTSIDE = 5
HANDOFF_MIN_SCORE = 2.0

# Medium -> the platforms it reaches; "dm" reaches any platform but the hand-off chat's.
MEDIUM_PLATFORMS: dict[str, tuple[str, ...]] = {
    "email": (Platform.EMAIL,),
    "text": (Platform.SMS, Platform.IMESSAGE),
    "whatsapp": (Platform.WHATSAPP,),
    "signal": (Platform.SIGNAL,),
    "telegram": (Platform.TELEGRAM,),
    "slack": (Platform.SLACK,),
    "imessage": (Platform.IMESSAGE,),
    "discord": (Platform.DISCORD,),
    "dm": tuple(Platform),
}
_MEDIUM_WORDS: dict[str, str] = {
    **dict.fromkeys(
        ("email", "e-mail", "mail", "inbox", "courriel", "correo", "emailed", "e-mailed",
         "mailed", "emailing", "mailing"),
        "email",
    ),
    **dict.fromkeys(("text", "texto", "sms", "txt", "texted", "texting"), "text"),
    **dict.fromkeys(("whatsapp", "whatsapped", "zap", "zapzap"), "whatsapp"),
    "signal": "signal",
    **dict.fromkeys(("telegram", "tg"), "telegram"),
    "slack": "slack",
    **dict.fromkeys(("imessage", "imsg"), "imessage"),
    "discord": "discord",
    **dict.fromkeys(("dm", "dms", "pm", "dm'd", "dmd", "dmed", "dming"), "dm"),
}  # fmt: skip
_MEDIUM = r"(?:" + "|".join(sorted(map(re.escape, _MEDIUM_WORDS), key=len, reverse=True)) + r")"
# The prefilter for the database: a message without one of these hands nothing off.
HANDOFF_VOCABULARY = (
    r"\m(e-?mail|mail|text|sms|txt|dm|pm|whatsapp|zap|signal|telegram|slack|imessage|imsg"
    r"|discord|courriel|correo|texto|inbox)"
)
_YOU = r"(?:you|u|ya|yu|y'all|te|t'|vous|v'|dir|euch|lhe|vos)"
_ME = r"(?:me|moi|mir|m')"
# Saying the conversation moves: a promise to send or write by a medium, a request to be
# sent something there, or a report that it was sent. The medium may be the verb itself
# ("I'll email you", "text me") or said after a verb of sending ("send it to you on
# WhatsApp", "je t'envoie ça par courriel").
_FUTURE = (
    r"(?:i'?ll|ill|i\s+will|i\s+shall|i'?m\s+(?:gonna|going\s+to)|gonna|lemme|let\s+me|i\s+can"
    r"|i'?d|i\s+could|will|i\s+(?:just\s+)?need\s+to|je\s+(?:vais|peux)|voy\s+a|vou"
    r"|ich\s+(?:werde|kann))"
)
_HANDOFF = re.compile(
    # "I'll email u", "gonna text you later", "let me DM you", "I'll WhatsApp ya".
    rf"\b{_FUTURE}\s+(?:just\s+|quickly\s+|also\s+|prob(?:ably)?\s+)?(?P<m1>{_MEDIUM})\s+{_YOU}\b"
    # "just emailed you", "texted u", "DM'd you".
    rf"|\b(?P<m2>emailed|e-mailed|mailed|texted|whatsapped|dm'?d|dmed)\s+{_YOU}\b"
    # "email me the link", "text me when", "DM me".
    rf"|(?:^|[.!?,;]\s*|\b(?:pls|please|plz|just|can\s+you|could\s+you|can\s+u|could\s+u)\s+)"
    rf"(?P<m3>email|e-mail|text|dm|whatsapp|signal|telegram|slack)\s+{_ME}\b"
    # "check your email / inbox / DMs".
    rf"|\bcheck\s+(?:your|ur|yr)\s+(?P<m4>email|e-mail|mail|inbox|texts|dms|whatsapp|signal"
    rf"|telegram|slack)\b"
    # A verb of sending, then the medium in the same clause: "I'll send it to you on
    # WhatsApp", "shoot u an email", "je t'envoie l'adresse par courriel", "te mando un
    # correo", "te mando pelo zap", "ich schick dir eine Mail", "send it to my email".
    rf"|\b(?:{_FUTURE}\s+(?:just\s+)?(?:send|shoot|drop|forward|fire\s+off|write|message|msg"
    rf"|ping)|(?:send|shoot|forward)\s+(?:it|them|that|this|those)?\s*(?:to\s+)?{_ME}"
    r"|je\s+(?:te|t'|vous|v')\s*(?:l'|la\s+|le\s+|les\s+)?(?:envoie|enverrai|ecris|ecrirai"
    r"|texte|texterai)|te\s+(?:lo\s+|la\s+|los\s+|las\s+)?(?:mando|envio|escribo|escrevo|paso"
    r"|passo)|ich\s+(?:schick|schicke|sende|schreib|schreibe)\s+dir|(?:sent|forwarded)\s+"
    r"(?:it|them|that|this|those|you|u)(?:\s+to\s+(?:you|u))?)"
    rf"\b[^.!?\n]{{0,60}}?\b(?:by|via|over|on|in|to\s+(?:your|ur|my)|through|an?|par|sur|au"
    r"|en|por|pelo|pela|no|na|al|a\s+tu|um|uma|un|une|una|per|auf|eine|ne|als)\s+"
    rf"(?:(?:your|ur|my)\s+)?(?P<m5>{_MEDIUM})\b",
    re.IGNORECASE,
)


def handoff_medium(text: str) -> str | None:
    """The medium a message moves the conversation to ("email", "text", "whatsapp",
    "signal", "telegram", "slack", "imessage", "discord" or "dm"), or ``None``."""
    folded = fold_text(text or "")
    for match in _HANDOFF.finditer(folded):
        for group in ("m1", "m2", "m3", "m4", "m5"):
            word = match.group(group)
            if word:
                word = word.lower()
                medium = _MEDIUM_WORDS.get(word) or _MEDIUM_WORDS.get(word.rstrip("s"))
                if medium is not None:
                    return medium
    return None


_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_NUMBER = re.compile(r"^(\d+)(?:st|nd|rd|th|er|e|eme|o|a|h)?$")
# Words that carry no topic in chat: greetings, fillers, the words of mail and of hand-offs.
_FILLER = word_set(
    """
    haha hahah hahaha lol lmao omg yeah yess yesss okay sure sorry thanks thank thx cheers
    hey hello dear best regards subject fwd great good cool nice awesome perfect love
    tonight tomorrow today yesterday morning evening night week weekend later soon time
    email mail text message send sent will would could should gonna wanna just also really
    still something anything everything thing things stuff people guys
    monday tuesday wednesday thursday friday saturday sunday january february march april
    june july august september october november december sept
    merci bonjour salut gracias hola obrigado obrigada danke hallo
    """
)


def content_words(text: str) -> set[str]:
    """The words of a message that can carry its topic: folded, singular, no stop words,
    fillers or calendar words; numbers without their ordinal ending ("25th" is "25")."""
    words: set[str] = set()
    for token in _TOKEN.findall(fold_text(text or "")):
        number = _NUMBER.match(token)
        if number is not None:
            words.add(number.group(1).lstrip("0") or "0")
            continue
        if any(char.isdigit() for char in token) or len(token) < 4:
            continue
        if token in STOP_WORDS or token in _FILLER:
            continue
        words.add(_singular(token))
    return {word for word in words if word not in _FILLER}


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def is_number(word: str) -> bool:
    return word.isdigit()


def overlap_score(shared: Iterable[str], rare: Iterable[str]) -> float:
    """How much two conversations share: each rare word 1, each number of three digits or
    more 1, each shorter number ½. No rare word, no score."""
    rare_words = set(rare)
    if not rare_words:
        return 0.0
    score = float(len(rare_words))
    for word in shared:
        if is_number(word):
            score += 1.0 if len(word) >= 3 else 0.5
    return score


_NAME_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")


def names_contradict(first: str, second: str) -> bool:
    """Whether two contact names say two different people: both are full names (two words
    or more) with different first words, or the same first word and different last
    words ("Ana Lima" and "Ana Costa"). A one-word name (a nickname) contradicts nothing."""
    a = [fold_text(word) for word in _NAME_WORD.findall(first or "")]
    b = [fold_text(word) for word in _NAME_WORD.findall(second or "")]
    if len(a) < 2 or len(b) < 2:
        return False
    if a[0] != b[0]:
        return True
    last_a, last_b = a[-1].rstrip("."), b[-1].rstrip(".")
    if len(last_a) == 1 or len(last_b) == 1:
        return last_a[0] != last_b[0]
    return last_a != last_b


def is_full_name(name: str) -> bool:
    return len(_NAME_WORD.findall(name or "")) >= 2
