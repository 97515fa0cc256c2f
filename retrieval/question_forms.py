"""The canonical surface form of a question, read once before it is compiled.

The compiler's intent rules (``retrieval.compile``) start from a wh-word and an auxiliary
("when is ...", "are we still ...", "ask Bo to ..."). People ask the same things in other
surface forms; each rule here rewrites one such form into the one the compiler reads, and
leaves every other question as it is:

- texting shorthand spelled out: "r" / "u" / "pls" / "msg" / "tmrw" / "b4" / "abt" / "wanna"
  ..., plus the English texting forms of ``retrieval.shorthand`` ("mtg", "bday", "wknd");
- a tag question dropped, and a statement it turned into a question put back in question
  order: "we're still meeting at six, right?" -> "are we still meeting at six?";
- a topic fronted before a dash, comma or colon moved into its wh-question: "the gala —
  when is it?" -> "when is the gala?", "Rosa, who is she" -> "who is Rosa?", "the gala is
  when?" -> "when is the gala?";
- a verbless fragment asking one attribute of a person or a deadline completed, where that
  is unambiguous: "Rosa's last name?" -> "what is Rosa's last name?", "essay deadline?" ->
  "when is the essay deadline?";
- a request put as a question about someone else: "can you get Rosa to call me" -> "can you
  ask Rosa to call me"; a platform said as the verb of a ranking question: "who do I signal
  the most" -> "who do I message the most on signal".

Quoted text is never rewritten. A rewrite may only drop words that carry no content (stop
words, the words of a tag, "get"): when a rule would drop any other word the question is
kept as written (shorthand still spelled out), so search sees every word the user typed.
Pure functions, no database.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from retrieval.lexicon import ROUTING_WORDS, STOP_WORDS, fold_text
from retrieval.shorthand import texting_words

# Texting forms of function words and verbs, beyond ``retrieval.shorthand``'s nouns. Single
# letters are spelled out only in lower case ("U" may be an initial).
_SPELLED: dict[str, str] = {
    "r": "are",
    "u": "you",
    "y'all": "you all",
    "pls": "please",
    "plz": "please",
    "plez": "please",
    "2day": "today",
    "2nite": "tonight",
    "tmrw": "tomorrow",
    "abt": "about",
    "bout": "about",
    "b4": "before",
    "bc": "because",
    "cuz": "because",
    "coz": "because",
    "wat": "what",
    "wut": "what",
    "wht": "what",
    "whr": "where",
    "wen": "when",
    "txt": "text",
    "txts": "texts",
    "txtd": "texted",
    "msgd": "messaged",
    "msged": "messaged",
    "wanna": "want to",
    "gonna": "going to",
    "gotta": "got to",
    "shud": "should",
    "cud": "could",
    "wud": "would",
    "sum1": "someone",
    "any1": "anyone",
    "every1": "everyone",
    "no1": "no one",
    "ne1": "anyone",
    "2": "to",
    "4": "for",
    "whos": "who's",
    "whens": "when's",
    "wheres": "where's",
    "whats": "what's",
    "hows": "how's",
    "im": "i'm",
    # Contractions typed without the apostrophe.
    "ive": "i've",
    "dont": "don't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "cant": "can't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "werent": "weren't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "hadnt": "hadn't",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    "youre": "you're",
    "theyre": "they're",
    "thats": "that's",
    "theres": "there's",
    "how'd": "how did",
    "what'd": "what did",
    "where'd": "where did",
}
# ``retrieval.shorthand`` forms that are also other words or titles ("Dr Ruiz", "doc" a
# document, "apt" an appointment, "prob" a problem, "vet" the verb), or a spelling only.
_NOT_SPELLED = frozenset({"dr", "doc", "apt", "prob", "vet", "favourite", "info", "thx", "tnx"})
# "2" and "4" are words only between words ("talk 2 Bo", "4 the party"), never in a time or a
# date ("at 2", "the 4th").
_DIGIT_WORDS = frozenset({"2", "4"})
_LETTER_WORDS = frozenset({"r", "u", "im", "ive"})


def _spelled_table() -> dict[str, str]:
    table = {
        form: word
        for form, word in texting_words().items()
        if form not in _NOT_SPELLED and " " not in form
    }
    for form, word in list(table.items()):
        # A plural form keeps its plural: "mtgs" -> "meetings", not "meeting".
        if form.endswith("s") and table.get(form[:-1]) == word and not word.endswith("s"):
            table[form] = word + "s"
    table.update(_SPELLED)
    return table


_TABLE = _spelled_table()
_WORD = re.compile(r"(?<![\w'@#./-])[\w][\w'-]*(?![\w@])")
_QUOTED = re.compile(
    r'"[^"]*"|\u201c[^\u201d]*\u201d|(?<!\w)\'[^\']+\'(?!\w)|\u2018[^\u2019]*\u2019'
)
# "w/ Kai" is "with Kai"; a bare "w" may be an initial ("Tomasz W") and is left.
_WITH = re.compile(r"(?<![\w/])w/\s*(?=[^\W\d])", re.IGNORECASE)
_WHAT_TIME_IS = re.compile(r"\b(what\s+time)['\u2019]s\b", re.IGNORECASE)
_DIGIT_CONTEXT = re.compile(r"(?<=[a-z]\s)[24](?=\s+[a-z])", re.IGNORECASE)


def _spell_word(match: re.Match[str]) -> str:
    word = match.group(0)
    key = word.lower()
    if key in _DIGIT_WORDS:
        return word
    if key in _LETTER_WORDS and word != key:
        return word
    if len(word) > 1 and word.isupper():
        # "GF", "DR": an acronym of the conversation, not texting.
        return word
    full = _TABLE.get(key)
    if full is None:
        return word
    return full


def _spell_digit(match: re.Match[str], text: str) -> str:
    before = text[: match.start()].rstrip().split()
    previous = before[-1].lower() if before else ""
    # "at 2 pm", "from 2 to 4", "the 4 of us": a number, not a word.
    # "top 2 people", "the first 4": a count.
    if previous in {
        "at",
        "from",
        "to",
        "till",
        "until",
        "by",
        "the",
        "about",
        "around",
        "or",
        "top",
        "first",
        "last",
        "next",
    }:
        return match.group(0)
    after = text[match.end() :].lstrip().lower()
    if re.match(r"(?:am|pm|o'clock|of|or|and|people|days?|weeks?|hours?|mins?|minutes)\b", after):
        return match.group(0)
    return _TABLE[match.group(0)]


# One verb said another way, read as the word the messages and the rules use most: "wind up
# doing" is "end up doing"; phoning someone is calling them ("my phone" stays a noun).
_SAME_VERB: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bwind(?=s?\s+up\s+\w+ing\b)", re.IGNORECASE), "end"),
    (re.compile(r"\bwound(?=\s+up\s+\w+ing\b)", re.IGNORECASE), "ended"),
    (re.compile(r"\bphon(?=ed\b|ing\b)", re.IGNORECASE), "call"),
    (
        re.compile(
            r"\b(?P<before>(?:(?:did|do|does|will|would|should|could|can)\s+(?:i|we|you)"
            r"|to)\s+)phone(?=\s+(?!(?:number|bill|call|charger|case|screen|plan)\b)[\w@])",
            re.IGNORECASE,
        ),
        r"\g<before>call",
    ),
)


# "ill" typed for "I'll" before the verb it helps ("tell Bo ill be late"); "I'm ill", "ill
# again" keep the adjective.
_ILL = re.compile(
    r"(?<![\w'])ill(?=\s+(?:be|get|send|bring|pick|call|text|do|make|have|come|take|pay|see|let"
    r"|try|check|grab|meet|ask|tell|give|drop|sort|look|need|go|leave|book|buy|cover|drive|email"
    r"|message|ring|swing|stop|head|write|reply|sign|print|fix|cook|help|join|miss|wait)\b)",
)


def _same_verb(text: str) -> str:
    for pattern, word in _SAME_VERB:
        text = pattern.sub(word, text)
    return _ILL.sub("I'll", text)


def spell_out(text: str) -> str:
    """``text`` with texting shorthand spelled out ("r u free tmrw" -> "are you free
    tomorrow"); other words untouched, case kept."""
    text = _same_verb(_WITH.sub("with ", text))
    text = _WHAT_TIME_IS.sub(r"\1 is", text)
    text = _DIGIT_CONTEXT.sub(lambda match: _spell_digit(match, text), text)
    return _WORD.sub(_spell_word, text)


# A tag that turns a statement into a yes/no question: ", right?", ", yeah?", ", no?",
# "..., isn't it?", "..., did she?".
_AUX = (
    r"is|are|was|were|am|do|does|did|has|have|had|will|would|can|could|should|shall|won't"
    r"|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|hasn't|haven't|hadn't|wouldn't"
    r"|can't|couldn't|shouldn't|ain't"
)
_PRONOUN = r"it|he|she|they|we|i|you|there|that|this"
_TAG = re.compile(
    r"\s*[,;]\s*(?:(?:right|yeah|yea|yes|no|correct|innit|eh|ok|okay|surely|true)"
    rf"|(?:{_AUX})(?:\s+not)?\s+(?:{_PRONOUN}))\s*\?+\s*$",
    re.IGNORECASE,
)
# A statement put back in question order once its tag is gone: "it's still on" -> "is it
# still on", "Bo is coming" -> "is Bo coming", "we still on for six" -> "are we still on".
_CONTRACTED = {"'s": "is", "'re": "are", "'m": "am", "'ll": "will", "'ve": "have"}
_STATEMENT = re.compile(
    rf"^(?P<subject>(?i:{_PRONOUN})|[A-Z][\w-]*)"
    r"(?:(?P<contracted>'s|'re|'m|'ll|'ve)\b|\s+(?P<aux>is|are|was|were|am|will|has|have)\b)"
    r"(?P<rest>.*)$",
    re.DOTALL,
)
_PARTICIPLE = re.compile(r"\s+(?:still\s+|definitely\s+|really\s+)?\w+ing\b")
_NO_AUX = re.compile(r"^(?P<subject>we|you|they|it|that|this)\s+(?P<rest>still\b.*)$", re.I)
_BE_FOR = {"we": "are", "you": "are", "they": "are", "it": "is", "that": "is", "this": "is"}


# The tag written without its comma ("the dinner is sat right?"), read only after a statement
# that says what something is ("<subject> is/are ..."), never after a question ("is that
# right?") or a turn ("so we go right?").
_BARE_TAG = re.compile(r"(?<=\w)\s+(?:right|yeah|correct)\s*\?+\s*$", re.IGNORECASE)
_BARE_TAGGED = re.compile(
    rf"^\W*(?!(?:{_AUX}|what|when|where|who|how|why|which|and|so|but)\b)[\w'-]+"
    r"(?:\s+[\w'-]+){0,5}?(?:'s|\s+(?:is|are))\s+\S",
    re.IGNORECASE,
)


def _untagged(text: str) -> str:
    match = _TAG.search(text)
    if match is None:
        bare = _BARE_TAG.search(text)
        if bare is None or not _BARE_TAGGED.match(text[: bare.start()]):
            return text
        match = bare
    statement = text[: match.start()].strip()
    if not statement:
        return text
    inverted = _STATEMENT.match(statement)
    if inverted is not None:
        subject = inverted.group("subject")
        contracted = inverted.group("contracted")
        aux = _CONTRACTED[contracted.lower()] if contracted else inverted.group("aux").lower()
        if (
            contracted == "'s"
            and subject.lower() not in ("it", "he", "she", "that", "this", "there")
            and not _PARTICIPLE.match(inverted.group("rest"))
        ):
            # "Bo's party is Friday": a possessive. "Bo's coming" (a participle) inverts.
            return f"{statement}?"
        if subject.lower() == "i":
            subject = "I"
        elif subject.lower() in _PRONOUN.split("|"):
            subject = subject.lower()
        return f"{aux} {subject}{inverted.group('rest')}?"
    bare = _NO_AUX.match(statement)
    if bare is not None:
        subject = bare.group("subject").lower()
        return f"{_BE_FOR[subject]} {subject} {bare.group('rest')}?"
    return f"{statement}?"


# A topic fronted before its wh-question: "<topic> — when is it?", "<topic>, who's she",
# "<topic>: what time does it start?". The topic is a noun phrase: a few words, no verb.
_SEPARATOR = r"\s*(?:—|\u2013|--|-\s|,|:)\s*"
_WH = r"when|where|who|what\s+time|what\s+day|what\s+date|which\s+day"
_FRONTED = re.compile(
    rf"^(?P<topic>[^—\u2013,:?]+?){_SEPARATOR}(?P<wh>{_WH}|what|which|how\s+much|how\s+many)"
    r"(?P<aux>'s|\s+is|\s+are|\s+was|\s+were|\s+does|\s+do|\s+did|\s+will)\s+"
    r"(?P<pronoun>it|that|this|they|he|she|them|those)\b(?P<rest>[^?]*?)\s*\?*\s*$",
    re.IGNORECASE,
)
# "<topic> — when?", "<topic>, where?": the wh-word alone.
_FRONTED_BARE = re.compile(
    rf"^(?P<topic>[^—\u2013,:?]+?){_SEPARATOR}(?P<wh>when|where|who|what\s+time)\s*\?*\s*$",
    re.IGNORECASE,
)
# "<topic> is when?", "the gala's where?": the wh-word left in place.
_IN_PLACE = re.compile(
    r"^(?P<topic>[^—\u2013,:?]+?)(?:'s|\s+(?P<aux>is|are|was|were))\s+"
    rf"(?P<wh>{_WH})(?:\s+again)?\s*\?+\s*$",
    re.IGNORECASE,
)
# "<topic> is what?", "Ana's real name was what again?": "what" left in place after a
# written auxiliary ("Bo's what?" is no question of its own).
_WHAT_IN_PLACE = re.compile(
    r"^(?P<topic>[^—\u2013,:?]+?)\s+(?P<aux>is|are|was|were)\s+what(?:\s+again)?\s*\?+\s*$",
    re.IGNORECASE,
)
# What a fronted topic never holds: a subject pronoun, an auxiliary or a finite verb ("I
# called Bo — when was it?" is no topic).
_NOT_TOPIC = re.compile(
    rf"\b(?:i|we|you|he|she|they|it|{_AUX}|said|told|sent|went|came|got|made|left|wrote|saw"
    r"|met|asked|called|texted|messaged|if|when|where|who|what|why|how|because|but)\b"
    r"|'(?:re|ve|ll|d|m)\b|\w{3,}ed$",
    re.IGNORECASE,
)
_MAX_TOPIC_WORDS = 6
_POSSESSIVE = re.compile(r"['\u2019]s\b")


def _is_topic(topic: str) -> bool:
    words = topic.split()
    if not words or len(words) > _MAX_TOPIC_WORDS or _NOT_TOPIC.search(topic):
        return False
    return any(fold_text(word).strip(".!") not in STOP_WORDS for word in words)


def _aux_word(aux: str | None) -> str:
    aux = (aux or "").strip().lower()
    return "is" if aux in ("", "'s") else aux


def _topic(topic: str) -> str:
    topic = topic.strip()
    # A capitalised first word that is not a name is the start of the sentence.
    first, _, tail = topic.partition(" ")
    if first.lower() in ("the", "our", "my", "this", "that", "a", "an", "his", "her", "their"):
        first = first.lower()
    return f"{first} {tail}".strip()


# "<topic> — who won?", "<topic>, who organised it?": the subject asked, the topic its
# object. "<topic> — what did Bo say?": what someone said about the topic.
_FRONTED_SUBJECT = re.compile(
    rf"^(?P<topic>[^—\u2013,:?]+?){_SEPARATOR}(?P<wh>who)\s+(?P<verb>won|organi[sz]ed|booked|chose|picked"
    r"|paid|made|brought|bought|sent|wrote|hosted|planned|cooked|baked|started|cancell?ed|ran|led"
    r"|suggested|found|fixed|arranged)(?:\s+(?:it|them|that))?\s*\?*\s*$",
    re.IGNORECASE,
)
_FRONTED_SAID = re.compile(
    rf"^(?P<topic>[^—\u2013,:?]+?){_SEPARATOR}(?P<head>what\s+(?:did|does|do|has|have)\s+"
    r"(?:[\w'-]+\s+){0,2}?(?:say|said|think|thought|mention|mentioned|reckon|write|wrote))"
    r"\s*\?*\s*$",
    re.IGNORECASE,
)


def _fronted_object(text: str) -> str:
    match = _FRONTED_SUBJECT.match(text)
    if match is not None and _is_topic(match.group("topic")):
        return f"who {match.group('verb')} {_topic(match.group('topic'))}?"
    match = _FRONTED_SAID.match(text)
    if match is not None and _is_topic(match.group("topic")):
        head = match.group("head")
        return f"{head[0].lower()}{head[1:]} about {_topic(match.group('topic'))}?"
    return text


def _fronted(text: str) -> str:
    rewritten = _fronted_object(text)
    if rewritten != text:
        return rewritten
    match = _FRONTED.match(text)
    if (
        match is not None
        and _is_topic(match.group("topic"))
        # "he" / "she" stand for a person: a possessive topic ("Bo's flight") is a thing.
        and not (
            match.group("pronoun").lower() in ("he", "she")
            and _POSSESSIVE.search(match.group("topic"))
        )
    ):
        wh = " ".join(match.group("wh").lower().split())
        rest = match.group("rest").rstrip()
        return f"{wh} {_aux_word(match.group('aux'))} {_topic(match.group('topic'))}{rest}?"
    match = _FRONTED_BARE.match(text)
    if match is not None and _is_topic(match.group("topic")):
        wh = " ".join(match.group("wh").lower().split())
        return f"{wh} is {_topic(match.group('topic'))}?"
    match = _IN_PLACE.match(text)
    if match is not None and _is_topic(match.group("topic")):
        wh = " ".join(match.group("wh").lower().split())
        return f"{wh} {_aux_word(match.group('aux'))} {_topic(match.group('topic'))}?"
    match = _WHAT_IN_PLACE.match(text)
    if match is not None and _is_topic(match.group("topic")):
        return f"what {match.group('aux').lower()} {_topic(match.group('topic'))}?"
    return text


# A verbless fragment with one slot: "<name>'s full name?", "<thing> deadline?".
_PERSON_SLOT = (
    r"(?:full\s+|last\s+|first\s+|real\s+|actual\s+|proper\s+|legal\s+|middle\s+|maiden\s+)?"
    r"name|surname|number"
    r"|phone(?:\s+number)?|mobile(?:\s+number)?|cell(?:\s+number)?|e-?mail(?:\s+address)?"
    r"|address|birthday|job|employer|handle|username|nationality|hometown"
)
# "and Bo's email?" continues an earlier question: no fragment of its own.
_LINKED = re.compile(r"(?:and|but|so|or|then|also)\s", re.IGNORECASE)
_PERSON_FRAGMENT = re.compile(
    r"^(?P<owner>(?:(?i:the|my|our)\s+)?(?:[\w-]+\s+){0,2}[\w-]+['\u2019]s)\s+"
    rf"(?P<slot>(?:new\s+|current\s+|old\s+)?(?:{_PERSON_SLOT}))\s*\?+\s*$"
)
_DEADLINE_FRAGMENT = re.compile(
    r"^(?P<thing>(?:[\w'\u2019-]+\s+){0,3}?[\w'\u2019-]+)\s+(?P<slot>deadline|due\s+date)"
    r"(?:\s+again)?\s*\?+\s*$",
    re.IGNORECASE,
)


def _completed(text: str) -> str:
    match = _PERSON_FRAGMENT.match(text)
    owner = match.group("owner") if match is not None else ""
    if (
        match is not None
        and not _NOT_TOPIC.search(owner.replace("'s", ""))
        and not _LINKED.match(owner)
    ):
        return f"what is {match.group('owner')} {match.group('slot')}?"
    match = _DEADLINE_FRAGMENT.match(text)
    if match is not None and not _NOT_TOPIC.search(match.group("thing")):
        thing = _topic(match.group("thing"))
        determiner = (
            "" if re.match(r"(?:the|my|our|his|her|their|[\w-]+['\u2019]s)\s", thing) else "the "
        )
        return f"when is {determiner}{thing} {match.group('slot').lower()}?"
    return text


# "Can you get Rosa to call me?", "get the team to vote": a message asking someone to act.
_GET_TO = re.compile(
    r"\b(?P<verb>get|have)\s+(?P<who>(?!(?:me|us|it|this|that|them|things|everything)\b)"
    r"(?!(?:a|an|some|any)\s)(?:[\w@#'\u2019-]+\s+){0,3}?[\w@#'\u2019-]+)\s+to\s+"
    r"(?!(?:the|a|an|my|your|our|his|her|their|this|that|work|school)\b)(?=(?-i:[a-z]))",
    re.IGNORECASE,
)
_REQUEST_START = re.compile(
    r"^\W*(?:(?:hey|hi|ok|okay)\W+)?(?:claire\W+)?(?:(?:can|could|would|will)\s+you\s+"
    r"(?:please\s+)?|please\s+)?(?=(?:get|have)\s)",
    re.IGNORECASE,
)


def _request(text: str) -> str:
    start = _REQUEST_START.match(text)
    if start is None:
        return text
    match = _GET_TO.match(text, start.end())
    if match is None or match.group("verb").lower() == "have":
        return text
    return f"{text[: match.start()]}ask {match.group('who')} to {text[match.end() :]}"


# "Who do I WhatsApp the most?": a platform as the verb of a ranking question.
_PLATFORMS = r"whatsapp|telegram|signal|slack|imessage|discord|sms"
_PLATFORM_RANKING = re.compile(
    r"\b(?P<head>(?:who|which\s+(?:[\w']+\s+)?(?:people|person|friends?|contacts?))\s+"
    r"(?:do|did|have|'ve)\s+i\s+(?:[\w']+\s+)?"
    # "top 2 people I WhatsApp the most", "the friends I telegram most".
    r"|(?:top\s+\w+\s+|the\s+)(?:people|ppl|persons|friends|contacts)\s+(?:that\s+|who\s+)?i\s+)"
    rf"(?P<platform>{_PLATFORMS})(?:'?d|ed)?\s+(?P<tail>(?:the\s+)?most\b[^?]*?)\s*(?P<end>\?*)\s*$",
    re.IGNORECASE,
)


def _platform_ranking(text: str) -> str:
    match = _PLATFORM_RANKING.search(text)
    if match is None:
        return text
    where = f" on {match.group('platform')}"
    return (
        f"{text[: match.start()]}{match.group('head')}message {match.group('tail')}"
        f"{where}{match.group('end') or ''}"
    )


# Loop questions in other words, put in the form the loop rules of ``retrieval.compile``
# read. Each rule names the only words it may drop (the verb it says in other words):
# - the person's receipt of the user's deed: "did Bo get the photos from me?", "has Bo
#   received the form from me?" -> "did I send Bo the photos?";
# - telling in other words: "did I let Bo know about the swap?", "have I given Bo a heads-up
#   about it?", "did I fill Bo in on the move?" -> "did I tell Bo about …?";
# - a thing arriving: "did the counts ever come through?", "has my parcel arrived yet?",
#   "did the refund show up?" -> "did I ever get the counts?";
# - "is Bo done with the slides?", "is Bo finished with the report yet?" -> "has Bo
#   finished the slides?".
_LEAD = r"(?P<lead>\W*(?:(?:so|and|ok|okay|wait)\s+)*)"
_ADVERBS = r"(?P<adv>(?:(?:ever|already|actually|finally|really)\s+)*)"
_SOMEONE = (
    r"(?P<who>(?!(?:i|we|you|it|that|this|there|they)\b)(?:(?i:the|my)\s+)?[\w'@.-]+"
    r"(?:\s+(?-i:[A-Z])[\w'-]*)?)"
)
_RECEIVED_FROM_ME = re.compile(
    rf"^{_LEAD}(?P<aux>did|has|have)\s+{_SOMEONE}\s+{_ADVERBS}(?:get|got|gotten|receive|received)\s+"
    r"(?P<thing>(?!back\b)[^?]+?)\s+from\s+me\b(?P<rest>[^?]*?)\s*\?*\s*$",
    re.IGNORECASE,
)
# "did Bo ever confirm she got my share?", "has Bo said he received the form?": the person's
# word that the user's deed reached them is the user's deed.
_CONFIRMED_RECEIPT = re.compile(
    rf"^{_LEAD}(?P<aux>did|has|have)\s+{_SOMEONE}\s+{_ADVERBS}(?:confirm|confirmed|say|said"
    r"|tell\s+me|told\s+me|let\s+me\s+know|mention|mentioned)\s+(?:that\s+|if\s+|whether\s+)?"
    r"(?:she|he|they|it)\s+(?:(?:had|has|have|'d|'s|'ve)\s+)?(?:got|gotten|received|get|receive)\s+"
    # The user's own thing ("my share"), or one said to come from the user: "did Bo say she
    # got the job?" is no deed of the user's.
    r"(?:(?P<mine>my\s+[^?]+?)|(?P<thing>(?!back\b)[^?]+?)\s+from\s+me)\s*\?*\s*$",
    re.IGNORECASE,
)
# "did I promise Bo anything for the move?", "have I promised anyone something?": what the
# user promised, asked as yes or no, reads as the list of promises.
_PROMISED_ANYTHING = re.compile(
    r"^(?P<lead>\W*(?:(?:so|and|ok|okay|wait)\s+)*)(?:did|have|had)\s+i\s+"
    r"(?:(?:ever|already|actually|really)\s+)*(?P<verb>promise|promised|agree\s+to\s+do"
    r"|agreed\s+to\s+do|offer|offered|commit\s+to|committed\s+to)\s+"
    r"(?P<who>(?:[\w'@.-]+\s+){0,2}?)(?:anything|something)\b(?P<rest>[^?]*?)\s*\?*\s*$",
    re.IGNORECASE,
)
_LET_KNOW = re.compile(
    r"^(?P<head>\W*(?:(?:so|and|ok|okay|wait)\s+)*(?P<aux>did|have|had)\s+i\s+"
    r"(?:(?:ever|already|actually|finally|yet|not|never)\s+)*)"
    r"(?:let|give|given|gave|fill|filled)\s+(?P<who>[\w'@.-]+(?:\s+(?-i:[A-Z])[\w'-]*)?)\s+"
    r"(?:know|a\s+heads[\s-]?up|in)\b(?:\s+(?:about|on|re|regarding)\b)?(?P<rest>[^?]*?)\s*\?*\s*$",
    re.IGNORECASE,
)
_ARRIVED = re.compile(
    rf"^{_LEAD}(?:did|has|have)\s+(?P<thing>(?:the|my|those|these|that|our)\s+(?:[\w'-]+\s+){{0,5}}?"
    rf"[\w'-]+)\s+{_ADVERBS}(?:come\s+through|came\s+through|arrive|arrived|show\s+up"
    r"|shown\s+up|showed\s+up|turn\s+up|turned\s+up)\b(?P<rest>[^?]*?)\s*\?*\s*$",
    re.IGNORECASE,
)
_DONE_WITH = re.compile(
    rf"^{_LEAD}(?:is|are)\s+{_SOMEONE}\s+(?:(?:already|finally|actually|all)\s+)*"
    r"(?:done|finished|through)\s+with\s+(?P<thing>[^?]+?)\s*\?*\s*$",
    re.IGNORECASE,
)


# The person hearing from the user is the user telling them: "did Bo hear from me about the
# move?", "has Bo heard anything from me on the swap?" -> "did I tell Bo about the move?".
_HEARD_FROM_ME = re.compile(
    rf"^{_LEAD}(?P<aux>did|has|have)\s+{_SOMEONE}\s+{_ADVERBS}(?:hear|heard)\s+"
    r"(?:anything\s+|something\s+)?(?:back\s+)?from\s+me\s+(?:about|on|re|regarding)\s+"
    r"(?P<rest>[^?]+?)\s*\?*\s*$",
    re.IGNORECASE,
)
# The user's thing reaching a person is the user sending it: "has my form gone to Bo yet?",
# "did the signed lease get to Bo Lind?", "has my essay reached Dr Ames?" -> "have I sent my
# form to Bo yet?". The person is named (no "the"/"my": "gone to the bank" is a place).
_GONE_TO = re.compile(
    rf"^{_LEAD}(?P<aux>did|has|have)\s+(?P<thing>(?:my|the|our|those|these|that)\s+"
    rf"(?:[\w'-]+\s+){{0,5}}?[\w'-]+)\s+{_ADVERBS}(?:(?:go|gone|went|get|got|gotten|make\s+it"
    r"|made\s+it)\s+(?:over\s+)?to|reach|reached)\s+"
    r"(?P<who>(?!(?:the|my|a|an|our|your|me|us|him|her|them|it|you|work|school|home)\b)"
    r"[\w'@.-]+(?:\s+(?!(?:yet|already|ok|okay|in|on|by|before|after)\b)[\w'@.-]+)?)"
    r"(?P<rest>(?:\s+(?:yet|already|ok|okay))*)\s*\?*\s*$",
    re.IGNORECASE,
)


def _heard_from_me(text: str) -> str:
    match = _HEARD_FROM_ME.match(text)
    if match is None:
        return text
    verb = "did I {adv}tell" if match.group("aux").lower() == "did" else "have I {adv}told"
    return (
        f"{match.group('lead')}{verb.format(adv=match.group('adv'))} {match.group('who')} "
        f"about {match.group('rest')}?"
    )


# People who go somewhere themselves: "has my brother gone to Lima?" is no sending.
_PEOPLE_NOUNS = re.compile(
    r"\b(?:mum|mom|mother|dad|father|parents?|brother|sister|cousin|aunt|uncle|grandma|grandpa"
    r"|gran|nan|wife|husband|partner|boyfriend|girlfriend|son|daughter|kids?|children|family"
    r"|friends?|boss|team|colleagues?|neighbou?rs?|flatmates?|roommates?|guests?|dog|cat)$",
    re.IGNORECASE,
)


def _gone_to(text: str) -> str:
    match = _GONE_TO.match(text)
    if (
        match is None
        or match.group("aux").lower() == "have"
        or _PEOPLE_NOUNS.search(match.group("thing"))
    ):
        return text
    verb = "did I {adv}send" if match.group("aux").lower() == "did" else "have I {adv}sent"
    thing = _topic(match.group("thing"))
    return (
        f"{match.group('lead')}{verb.format(adv=match.group('adv'))} {thing} to "
        f"{match.group('who')}{match.group('rest')}?"
    )


def _received_from_me(text: str) -> str:
    match = _RECEIVED_FROM_ME.match(text)
    if match is None:
        return text
    verb = "did I {adv}send" if match.group("aux").lower() == "did" else "have I {adv}sent"
    return (
        f"{match.group('lead')}{verb.format(adv=match.group('adv'))} {match.group('who')} "
        f"{match.group('thing')}{match.group('rest')}?"
    )


# A sum of money received is the user's payment: "did Bo say he got my share?" asks "did I pay
# Bo my share?".
_MONEY_THING = re.compile(
    r"[$€£]|\d|\b(?:money|cash|share|half|fee|fees|deposit|rent|payment|transfer|bond|dues"
    r"|reimbursement)\b",
    re.IGNORECASE,
)


def _confirmed_receipt(text: str) -> str:
    match = _CONFIRMED_RECEIPT.match(text)
    if match is None:
        return text
    verb = "did I {adv}send" if match.group("aux").lower() == "did" else "have I {adv}sent"
    if _MONEY_THING.search(match.group("mine") or match.group("thing")):
        verb = "did I {adv}pay" if match.group("aux").lower() == "did" else "have I {adv}paid"
    return (
        f"{match.group('lead')}{verb.format(adv=match.group('adv'))} {match.group('who')} "
        f"{match.group('mine') or match.group('thing')}?"
    )


def _promised_anything(text: str) -> str:
    match = _PROMISED_ANYTHING.match(text)
    if match is None:
        return text
    verb = re.sub(r"^(promise|agree|offer|commit)(?:d|ed)?\b", r"\1", match.group("verb").lower())
    who = match.group("who").strip()
    rest = match.group("rest").strip()
    return (
        " ".join(part for part in (f"{match.group('lead')}what did I {verb}", who, rest) if part)
        + "?"
    )


def _let_know(text: str) -> str:
    match = _LET_KNOW.match(text)
    if match is None:
        return text
    verb = "tell" if match.group("aux").lower() == "did" else "told"
    rest = match.group("rest").strip()
    about = f" about {rest}" if rest else ""
    return f"{match.group('head')}{verb} {match.group('who')}{about}?"


def _arrived(text: str) -> str:
    match = _ARRIVED.match(text)
    if match is None:
        return text
    thing = _topic(match.group("thing"))
    return f"{match.group('lead')}did I {match.group('adv')}get {thing}{match.group('rest')}?"


def _done_with(text: str) -> str:
    match = _DONE_WITH.match(text)
    if match is None:
        return text
    who = match.group("who")
    aux = "have" if re.match(r"(?i:the|my)\s+\w+s$", who) else "has"
    return f"{match.group('lead')}{aux} {who} finished {match.group('thing')}?"


# Each loop form with the words it may drop: the verb it says in other words.
_LOOP_RULES: tuple[tuple[Callable[[str], str], frozenset[str]], ...] = (
    (_received_from_me, frozenset({"get", "got", "gotten", "receive", "received"})),
    (
        _confirmed_receipt,
        frozenset(
            {"confirm", "confirmed", "say", "said", "tell", "told", "let", "know", "mention"}
            | {"mentioned", "get", "got", "gotten", "receive", "received", "send", "sent"}
        ),
    ),
    (_promised_anything, frozenset({"anything", "something", "promised", "agreed", "offered"})),
    (
        _let_know,
        frozenset({"let", "know", "give", "given", "gave", "heads", "heads-up", "fill", "filled"}),
    ),
    (
        _arrived,
        frozenset({"come", "came", "arrive", "arrived", "showed", "shown", "turn", "turned"}),
    ),
    (_done_with, frozenset({"done", "finished"})),
    (
        _heard_from_me,
        frozenset({"hear", "heard", "anything", "something", "back", "regarding", "re"}),
    ),
    (
        _gone_to,
        frozenset({"go", "gone", "went", "get", "got", "gotten", "reach", "reached", "make"})
        | frozenset({"made"}),
    ),
)


def _loop_form(text: str) -> str:
    """``text`` as the loop rules read it, when one of ``_LOOP_RULES`` applies and drops no
    word but the ones it says in other words."""
    before = Counter(_content_words(text))
    for rule, verbs in _LOOP_RULES:
        rewritten = rule(text)
        if rewritten == text:
            continue
        kept = Counter(_content_words(rewritten))
        if all(kept[word] >= count or word in verbs for word, count in before.items()):
            return rewritten
    return text


# "Is there anything I still owe Bo?", "are there any tasks I need to do?": a list asked
# with "is there" reads as the list ("anything I still owe Bo?"); "is there food at the
# party?" asks whether, and is kept.
_THERE_ANYTHING = re.compile(
    r"^(?P<lead>\W*(?:(?:so|and|ok|okay|wait|hey)\s+)*)(?:is|are)\s+there\s+"
    r"(?P<rest>(?:anything|something|any\s+\w+)\s+(?:(?:that|which)\s+)?(?:i|we)\s+[^?]+?)"
    r"\s*(?P<end>\?*)\s*$",
    re.IGNORECASE,
)


def _there_anything(text: str) -> str:
    match = _THERE_ANYTHING.match(text)
    if match is None:
        return text
    return f"{match.group('lead')}{match.group('rest')}{match.group('end')}"


_RULES: tuple[Callable[[str], str], ...] = (
    _there_anything,
    _untagged,
    _fronted,
    _completed,
    _request,
    _platform_ranking,
)
# Words a rewrite may drop besides stop words: the words of a tag.
_DROPPABLE = frozenset({"right", "correct", "innit", "eh", "true", "surely", "get"})


_APOSTROPHE_S = re.compile(r"'s$")


def _content_words(text: str) -> list[str]:
    # "the gala's" and "the gala" hold the same word: a contraction or a possessive is no word.
    words = [_APOSTROPHE_S.sub("", fold_text(word)) for word in _WORD.findall(text)]
    return sorted(
        word
        for word in words
        if word not in STOP_WORDS and word not in ROUTING_WORDS and word not in _DROPPABLE
    )


def _outside_quotes(text: str, rewrite: Callable[[str], str]) -> str:
    parts = []
    position = 0
    for match in _QUOTED.finditer(text):
        parts.append(rewrite(text[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(rewrite(text[position:]))
    return "".join(parts)


# "who's Bo?" asks what "who is Bo?" asks; a possessive "who's" does not exist ("whose").
_WHO_IS = re.compile(r"\b(who)['\u2019]s\b", re.IGNORECASE)


def reading_form(question: str) -> str:
    """The form whatever decides what ``question`` asks reads (memory's readers, the
    answerability check, the local answer's lead): its canonical form with "who's" read as
    "who is", quoted text untouched. Search reads the canonical form's own words."""
    canonical = canonical_question(question)
    return _outside_quotes(canonical, lambda part: _WHO_IS.sub(r"\1 is", part))


def canonical_question(question: str) -> str:
    """``question`` in the surface form the compiler's intent rules read (see the module
    docstring); the question itself when no rule applies."""
    spelled = _outside_quotes(question, spell_out)
    if _QUOTED.search(spelled):
        # A quoted name or phrase is kept whole: only shorthand outside it is spelled out.
        return spelled
    stripped = spelled.strip()
    rewritten = stripped
    for rule in _RULES:
        rewritten = rule(rewritten)
    kept = Counter(_content_words(rewritten))
    if rewritten == stripped or any(
        kept[word] < count for word, count in Counter(_content_words(stripped)).items()
    ):
        rewritten = stripped
    looped = _loop_form(rewritten)
    if looped != rewritten:
        return looped
    return spelled if rewritten == stripped else rewritten
