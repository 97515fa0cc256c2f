"""The local drafter: a short, polite message in the user's voice from the question and what
it follows up (``local_draft``)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from memory.extract import is_suspicious
from memory.models import LoopKind
from proposals.drafting.asks import Ask, ask_of, second_person, sentence_of, written_out
from proposals.drafting.context import GROUP_ADDRESSES, MAX_DRAFT_CHARS, DraftContext
from proposals.drafting.languages import FRAMES, Frame, foreign_lines, request_language
from proposals.drafting.relayed import recipient_as_you, relayed_for, words_of
from proposals.drafting.safety import draft_is_safe
from proposals.drafting.voice import address_names, calendar_capitalised
from retrieval.lexicon import STOP_WORDS, fold_text


def short_day(moment: datetime, tz: str) -> str:
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
    body, closing = foreign_lines(context.question, context.named_as, frame)
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
    since = short_day(context.asked_at, context.timezone) if context.asked_at is not None else ""
    is_quoted = bool(context.asked) and draft_is_safe(context.asked, question=context.question)
    quoted = f" (\u201c{context.asked}\u201d)" if is_quoted else ""
    topic = second_person(ask.topic, context.others)
    which = quoted or (f" about {topic}" if topic else (f" from {since}" if since else ""))
    if ask.message:
        message = calendar_capitalised(second_person(written_out(ask.message), context.others))
        return f"{asker}, about your question{which}: {sentence_of(message)}"
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


# A greeting and the name before what a message says: "Hey Rui, could you …" → "could you …".
_OPENING = re.compile(
    r"^\W*(?:(?:hi|hey|hello|hiya|heya|yo|morning|so|ok|okay|btw|also)\b[\s,!:]*)*"
    r"(?:[^\W\d_]+\s*[,!:]\s+)?",
    re.I,
)
# What the user said they would do: "I'll send you the photos tomorrow" → "send you the
# photos"; a word of time said then is dropped (it is not "tomorrow" or "on Monday" any more).
_PROMISED = re.compile(
    r"\b(?:i['\u2019]ll|i\s+will|i['\u2019]m\s+going\s+to|i\s+am\s+going\s+to|i\s+can"
    r"|let\s+me)\s+(?P<x>[^.!?\n]{3,}?)\s*(?:[.!?\n]|$)",
    re.I,
)
_THEN = re.compile(
    r"(?:\s+(?:by\s+|later\s+)?(?:tomorrow(?:\s+(?:morning|afternoon|evening|night))?|tonight"
    r"|today|later(?:\s+today)?|soon|asap|next\s+time|this\s+(?:week|weekend|morning|afternoon|evening)"
    r"|in\s+a\s+(?:bit|sec|minute)|next\s+week"
    r"|(?:on\s+|by\s+|this\s+|next\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"(?:\s+(?:morning|afternoon|evening|night))?))+\s*$",
    re.I,
)


def _said_first(sentence: str) -> str:
    said = _OPENING.sub("", " ".join(sentence.split())).strip()
    return said[:1].lower() + said[1:] if said[:2] not in ("I ", "I'") else said


def loop_question(text: str, *, question: str) -> str:
    """The first question sentence of the message that opened the loop, as it was asked
    ("could you send someone to fix the boiler this week?"), "" when there is none or the
    message reads as spam or instructions or the line would not pass ``draft_is_safe``."""
    if not text or is_suspicious(text):
        return ""
    for match in _QUESTION_SENTENCE.finditer(text):
        said = _said_first(match[0])
        if len(said.split()) >= 3 and draft_is_safe(said, question=question):
            return said
    return ""


def loop_promise(text: str, *, question: str) -> str:
    """What the user promised in the message that opened the loop, as "I said I'd …" says it
    ("send you the photos"), "" when it says no such clause or is not safe to repeat."""
    if not text or is_suspicious(text):
        return ""
    match = _PROMISED.search(written_out(text))
    if match is None:
        return ""
    promised = _THEN.sub("", match["x"]).strip(" ,;:-")
    if len(promised.split()) < 2 or not draft_is_safe(promised, question=question):
        return ""
    return promised


# What the user promised, as a thing late: "send you the photos" → ("send", "the photos", " to
# you"), "return your drill" → ("return", "your drill", "").
_PROMISED_THING = re.compile(
    r"^(?P<verb>[a-z]+)\s+(?P<you>you\s+)?(?P<thing>(?:the|my|your|those|these|that|this|our)"
    r"\s+[^,;]+?)(?P<rest>\s+(?:to|for|over|back)\b.*)?$",
    re.I,
)


def owned_promise(promised: str) -> str:
    """The user's promise owned, late: "Sorry, the deck is late — I'll send it as soon as I
    can." ("send the deck"), else "Sorry this is taking me a while — I'll … as soon as I can."."""
    late = late_promise(promised)
    return f"Sorry, {late}" if _PROMISED_THING.match(promised) else f"Sorry {late}"


def late_promise(promised: str) -> str:
    """What is late and what the user will do, for ``owned_promise``: "the deck is late — I'll
    send it as soon as I can.", else "this is taking me a while — I'll … as soon as I can."."""
    match = _PROMISED_THING.match(promised)
    if match is None:
        return f"this is taking me a while \u2014 I'll {promised} as soon as I can."
    thing = match["thing"]
    head = thing.split()[-1].casefold()
    plural = (head.endswith("s") and not head.endswith("ss")) or thing.split()[0].casefold() in (
        "those",
        "these",
    )
    to_you = " to you" if match["you"] else ""
    rest = match["rest"] or ""
    verb = match["verb"]
    it = "them" if plural else "it"
    return (
        f"{thing} {'are' if plural else 'is'} late \u2014 I'll {verb} {it}"
        f"{rest or to_you} as soon as I can."
    )


def _also_line(context: DraftContext) -> str:
    """After answering their ask, the user's own open request or promise in the same chat:
    "Also, just following up on my question from Fri 6 Mar: could you return my tent?"."""
    kind, text, opened_at = context.also
    since = f" from {short_day(opened_at, context.timezone)}" if opened_at is not None else ""
    if kind == LoopKind.REQUEST_BY_USER and (
        asked := loop_question(text, question=context.question)
    ):
        return f"Also, just following up on my question{since}: {calendar_capitalised(asked)}"
    if kind == LoopKind.PROMISE_BY_USER and (
        promised := loop_promise(text, question=context.question)
    ):
        return f"Also, I haven't forgotten that I said I'd {promised}."
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
        short_day(context.loop_opened_at, context.timezone)
        if context.loop_opened_at is not None
        else ""
    )
    topic = calendar_capitalised(second_person(ask.topic, context.others))
    kind = context.loop_kind
    relayed = relayed_for(context, first_name=first_name, ask=ask)
    if addressed and first_name and addressed != first_name:
        # The facts relayed to "Dani" speak of "Dani's" place as "your" place.
        relayed = [recipient_as_you(line, addressed) for line in relayed]
    plan = f" ({context.plan})" if context.plan else ""
    lines: list[str] = []
    closing = "Talk soon!"
    if context.asked_by:
        lines.append(_answer_line(context, ask=ask, relayed=bool(relayed)))
    elif ask.message:
        message = calendar_capitalised(second_person(written_out(ask.message), context.others))
        if context.plan_activity and not set(words_of(context.plan_activity)) & set(
            words_of(message)
        ):
            # "tell the game group sat works": the plan it is about, said.
            message = f"About {context.plan_activity}: {message}"
        lines.append(sentence_of(message))
        is_apology = re.match(r"\s*(?:sorry|apologies|my apologies)\b", ask.message, re.I)
        if kind == LoopKind.QUESTION_TO_USER and since and not is_apology:
            lines.insert(0, f"Sorry for the slow reply to your message from {since}.")
    elif ask.purpose:
        lines.append(
            f"Just writing to {calendar_capitalised(second_person(ask.purpose, context.others))}."
        )
    elif ask.inquiry:
        inquiry = calendar_capitalised(second_person(ask.inquiry, context.others))
        lines.append(f"Could you let me know {inquiry}?")
        closing = "Thanks!"
    elif ask.request:
        request = calendar_capitalised(second_person(ask.request, context.others))
        lines.append(f"Just a friendly reminder: could you {request}?")
        closing = "Thanks!"
    elif kind == LoopKind.REQUEST_BY_USER:
        when = f" from {since}" if since else ""
        asked = "" if topic else loop_question(context.loop_asked, question=context.question)
        if asked:
            # Nothing said of its own: the request followed up, as the user asked it.
            lines.append(f"Just following up on my question{when}: {calendar_capitalised(asked)}")
        else:
            about = f"on {topic}" if topic else "on my message"
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
        if promised := _promise_answering(context, topic=topic):
            # The user already said they would do what they ask about: the reply owns that
            # promise instead of offering to check.
            late = late_promise(promised)
            lines.append(f"Sorry for the slow reply to your question{about}{when}: {late}")
            return _assembled(context, addressed=addressed, lines=lines, relayed=relayed)
        step = loop_step(context.loop_asked, question=context.question)
        if not topic and not step:
            # Which question, said: quoted when it is safe to repeat.
            asked = loop_question(context.loop_asked, question=context.question)
            about = f" (\u201c{asked[:1].upper()}{asked[1:]}\u201d)" if asked else ""
        step = step or (
            "I'll check and let you know."
            if topic
            else next_step(asked="", topic="", plan=context.plan)
        )
        which = f"{about}{when}" if about.startswith(" (") else f"{when}{about}"
        lines.append(f"Sorry for the slow reply to your question{which}: {step}")
        if also := _also_line(context):
            lines.append(also)
    elif (
        kind == LoopKind.PROMISE_BY_USER
        and context.loop_on_topic
        and (owned := loop_promise(context.loop_asked, question=context.question))
    ):
        # The promise the question names, owned: what is late and what the user will do.
        lines.append(owned_promise(owned))
    elif kind == LoopKind.PROMISE_BY_USER:
        promised = "" if topic else loop_promise(context.loop_asked, question=context.question)
        if promised:
            on = f" on {since}" if since else ""
            lines.append(
                f"I haven't forgotten that I said{on} I'd {promised}. Sorry it's taking me a while!"
            )
        else:
            about = topic or "what I promised"
            when = f" (since {since})" if since else ""
            lines.append(f"I haven't forgotten {about}{when}. Sorry it's taking me a while!")
    elif topic and ask.is_reminder:
        lines.append(f"Just a friendly reminder about {topic}{plan}!")
    elif topic and not relayed:
        lines.append(f"I wanted to get in touch about {topic}{plan}.")
    elif not relayed:
        lines.append("I wanted to get in touch.")
    return _assembled(context, addressed=addressed, lines=lines, relayed=relayed, closing=closing)


def _assembled(
    context: DraftContext,
    *,
    addressed: str,
    lines: list[str],
    relayed: list[str],
    closing: str = "Talk soon!",
) -> str:
    greeting = salutation(context.greeting, addressed)
    body = [part for part in (" ".join(lines), *relayed) if part]
    return "\n\n".join([part for part in (greeting, *body, closing) if part])[:MAX_DRAFT_CHARS]


def _promise_answering(context: DraftContext, *, topic: str) -> str:
    """The user's open promise in the chat of their ask (``context.also``) when it is about
    what they ask: its clause ("send the deck") shares a word with the ask or the topic."""
    kind, text, _ = context.also
    if kind != LoopKind.PROMISE_BY_USER:
        return ""
    promised = loop_promise(text, question=context.question)
    asked = set(words_of(f"{context.loop_asked} {topic}")) - STOP_WORDS
    return promised if asked & set(words_of(promised)) else ""
