"""The loop rules: which messages of a chat open a loop (a question to the user, a request or a
promise of theirs) and which later message resolves it. Pure functions over a chat's messages;
``memory.services.loops`` reads the messages and stores what these find."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from conversations.models import Chat, ChatKind, MessageKind
from memory.closure import (
    CLOSE_WINDOW,
    QUESTION_CLOSE_WINDOW,
    says_arrived,
    says_delivered,
    topic_words,
)
from memory.extract import (
    fulfils_promise,
    has_link,
    is_ask,
    is_deferral,
    is_question_to_user,
    is_request_by_user,
    promise_in_person,
    promise_object,
    puts_off,
    request_in_person,
    takes_on,
)
from memory.models import LoopKind
from retrieval.lexicon import fold_text


@dataclass(frozen=True)
class _LoopFound:
    kind: LoopKind
    opened_by_id: int
    opened_at: datetime
    person_id: int | None
    resolved_by_id: int | None
    resolved_at: datetime | None


@dataclass(frozen=True)
class _ChatMessage:
    pk: int
    is_from_self: bool
    sender_person_id: int | None
    reply_to_id: int | None
    kind: str
    text: str
    sent_at: datetime


def _loops_in_chat(
    *,
    chat: Chat,
    messages: list[_ChatMessage],
    user_name: str,
    counterpart_id: int | None,
    members: Mapping[str, int] | None = None,
    opener_indexes: Collection[int] | None = None,
    user_writes_here: bool | None = None,
) -> list[_LoopFound]:
    """Every loop the chat's messages open, each with the later message that resolves it.

    ``members`` maps a group member's folded first name to their person (first names two
    members share are left out). In a group, a question is to the user when it names them,
    replies to them, or asks "you" right after they wrote (``FOLLOW_UP_WINDOW``) without
    replying to someone else; it is answered by the user's
    message that replies to it, names the asker, or comes within ``GROUP_REPLY_WINDOW``; a
    later message about something else days after is no answer. A promise in a group is to
    the person it replies to, else the member it names.

    ``opener_indexes`` limits which messages are read as openers (the others are context and
    candidates only); ``user_writes_here`` says whether the whole chat has a message of the
    user, for a caller that passes only part of it."""
    found: list[_LoopFound] = []
    is_direct = chat.kind == ChatKind.DIRECT
    members = members or {}
    names = {person_id: name for name, person_id in members.items()}
    # A chat the user never wrote in (a spammer, a newsletter) owes nobody a reply.
    if user_writes_here is None:
        user_writes_here = any(message.is_from_self for message in messages)
    by_pk = {message.pk: message for message in messages}
    replies_to: dict[int, list[_ChatMessage]] = {}
    for message in messages:
        if message.reply_to_id:
            replies_to.setdefault(message.reply_to_id, []).append(message)
    for index, message in enumerate(messages):
        if opener_indexes is not None and index not in opener_indexes:
            continue
        if not message.is_from_self:
            replied = by_pk.get(message.reply_to_id) if message.reply_to_id else None
            # "Are you coming too?" right after the user spoke is asked of them.
            previous = messages[index - 1] if index else None
            follows_user = (
                previous is not None
                and previous.is_from_self
                and message.sent_at - previous.sent_at <= FOLLOW_UP_WINDOW
            )
            if user_writes_here and is_question_to_user(
                message.text,
                user_name=user_name,
                is_direct=is_direct,
                replies_to_user=(replied is not None and replied.is_from_self)
                or (replied is None and follows_user),
            ):
                answer = next(
                    (
                        m
                        for m in _answer_candidates(messages, index, replies_to)
                        if m.is_from_self
                        # "let me check and get back to you" puts the answer off.
                        and not is_deferral(m.text)
                        and (
                            (is_direct and _answers_question(m, message))
                            or m.reply_to_id == message.pk
                            or m.sent_at - message.sent_at <= GROUP_REPLY_WINDOW
                            or _names(m.text, names.get(message.sender_person_id or 0, ""))
                        )
                    ),
                    None,
                )
                found.append(
                    _loop(LoopKind.QUESTION_TO_USER, message, message.sender_person_id, answer)
                )
            continue
        replied = by_pk.get(message.reply_to_id) if message.reply_to_id else None
        asked = _ask_answered(messages, index, replied)
        person_id = counterpart_id if is_direct else (replied.sender_person_id if replied else None)
        if person_id is None and not is_direct:
            person_id = next(
                (pid for name, pid in members.items() if _names(message.text, name)), None
            )
        if person_id is None and asked is not None:
            # "yes, I'll post them after work" in a group is owed to whoever just asked.
            person_id = asked.sender_person_id
        if is_request_by_user(message.text):
            answer = next(
                (
                    m
                    for m in _answer_candidates(messages, index, replies_to)
                    if not m.is_from_self
                    and (is_direct or person_id is None or m.sender_person_id == person_id)
                    and _answers_request(m, message)
                ),
                None,
            )
            found.append(_loop(LoopKind.REQUEST_BY_USER, message, person_id, answer))
        promised = promise_object(message.text)
        if promised is None and asked is not None and takes_on(message.text):
            # "will do!" after "could you share the slides?": the ask says what is owed.
            promised = ""
        if promised is not None:
            asked = (
                _deferred_question(message, messages[:index]) if is_deferral(message.text) else None
            )
            in_person = promise_in_person(message.text)
            kept = next(
                (
                    m
                    for m in _answer_candidates(messages, index, replies_to)
                    if (
                        m.is_from_self
                        and (
                            fulfils_promise(
                                m.text,
                                is_media=m.kind == MessageKind.MEDIA,
                                promised_object=promised,
                                in_person=in_person,
                            )
                            or (asked is not None and _answers_deferred(m, asked))
                        )
                    )
                    # "recebi o pix, valeu!": the person it was owed to says it arrived.
                    or (
                        not m.is_from_self
                        and (is_direct or m.sender_person_id == person_id)
                        and says_arrived(m.text)
                    )
                ),
                None,
            )
            found.append(_loop(LoopKind.PROMISE_BY_USER, message, person_id, kept))
    return found


# How long a loop can be answered in its chat by a message that does not reply to it: a
# message half a year later is about something else. Bounding it keeps the memory job from
# reading every old open loop again at each batch.
LOOP_ANSWER_HORIZON = timedelta(days=180)


def _answer_candidates(
    messages: Sequence[_ChatMessage], index: int, replies_to: Mapping[int, list[_ChatMessage]]
) -> Iterator[_ChatMessage]:
    """The messages after ``messages[index]`` that may answer it, in order: those within
    ``LOOP_ANSWER_HORIZON``, then the later ones that reply to it. Lazy: a caller looking
    for the first answer reads no further than it, and a message that opens nothing reads
    none of them."""
    opener = messages[index]
    until = opener.sent_at + LOOP_ANSWER_HORIZON
    for position in range(index + 1, len(messages)):
        if messages[position].sent_at > until:
            break
        yield messages[position]
    for reply in replies_to.get(opener.pk, ()):
        if reply.sent_at > until:
            yield reply


# How soon after an ask the user's reply takes it on.
TAKE_ON_WINDOW = timedelta(hours=12)


def _ask_answered(
    messages: Sequence[_ChatMessage], index: int, replied: _ChatMessage | None
) -> _ChatMessage | None:
    """The ask the user's ``messages[index]`` answers: the message it replies to, else the
    other side's last message within ``TAKE_ON_WINDOW`` before it, when that asks for
    something."""
    if replied is not None:
        return replied if not replied.is_from_self and is_ask(replied.text) else None
    message = messages[index]
    for position in range(index - 1, -1, -1):
        previous = messages[position]
        if message.sent_at - previous.sent_at > TAKE_ON_WINDOW:
            return None
        if not previous.is_from_self:
            return previous if is_ask(previous.text) else None
    return None


def _answers_request(message: _ChatMessage, request: _ChatMessage) -> bool:
    """Whether the other side's ``message`` answers the user's ``request``: not when it puts
    it off ("I'll let you know", "end of next week, promise"); a reply to it or one soon
    after it does; a later one only when it is about the same thing (a topic word of the
    request) or delivers ("attached", a file)."""
    if puts_off(message.text):
        return False
    if message.reply_to_id == request.pk:
        return True
    if message.sent_at - request.sent_at <= REQUEST_REPLY_WINDOW:
        return True
    # A file or a link days later does not collect anyone or give anything back.
    sends = (message.kind == MessageKind.MEDIA or has_link(message.text)) and not (
        request_in_person(request.text)
    )
    return (
        sends
        or says_delivered(message.text)
        or bool(topic_words(message.text) & topic_words(request.text))
    )


# How soon the user's next message in a direct chat answers a question asked there, whatever
# it says.
DIRECT_REPLY_WINDOW = timedelta(hours=12)
# A late reply that opens with an answer in its first words ("here, sorry for the wait", "oh
# sorry, just saw this! yes", "claro", "nope").
_ANSWER_OPENING = re.compile(
    r"^\W*(?:\w+\W+){0,2}?(?:yes|yeah|yep|yup|yess+|no|nope|nah|sure|sorry|here|finally"
    r"|of\s+course|definitely|absolutely"
    r"|ok|okay|oki|deal|si|claro|vale|sim|oui|non|ja|nein|certo|d'accord|bien\s+sur)(?!\w)",
    re.IGNORECASE,
)


def _answers_question(message: _ChatMessage, question: _ChatMessage) -> bool:
    """Whether the user's ``message`` in a direct chat answers the ``question`` asked there: a
    reply to it or one soon after it does; a later one when it is about the same thing (a
    topic word) or, not being a question of its own, opens with an answer ("sorry, only saw
    this now, yes!"), sends something (a file, a link, "sent") or promises it ("will send it
    tonight"). Days later, "printer's jammed again" is no answer to "can you look over my
    draft?"."""
    if message.reply_to_id == question.pk:
        return True
    if message.sent_at - question.sent_at <= DIRECT_REPLY_WINDOW:
        return True
    if bool(topic_words(message.text) & topic_words(question.text)):
        return True
    if "?" in message.text:
        # "talk later?", "did you see that?": a question of its own.
        return False
    return (
        bool(_ANSWER_OPENING.search(fold_text(message.text)))
        or message.kind == MessageKind.MEDIA
        or has_link(message.text)
        or says_delivered(message.text)
        or promise_object(message.text) is not None
    )


def _deferred_question(
    deferral: _ChatMessage, earlier: Sequence[_ChatMessage]
) -> _ChatMessage | None:
    """What "let me check and get back to you" puts off: the message it replies to, else
    the last message someone else wrote before it."""
    if deferral.reply_to_id is not None:
        replied = next((m for m in earlier if m.pk == deferral.reply_to_id), None)
        if replied is not None:
            return replied
    return next((m for m in reversed(earlier) if not m.is_from_self), None)


def _answers_deferred(message: _ChatMessage, asked: _ChatMessage) -> bool:
    """The user's later answer to what they put off: not another deferral, and about the
    same thing (a topic word of the question)."""
    if is_deferral(message.text):
        return False
    return bool(topic_words(message.text) & topic_words(asked.text))


# No message later than this after a loop opened closes it from another chat.
LOOP_CLOSE_WINDOW = max(CLOSE_WINDOW, QUESTION_CLOSE_WINDOW)
# How soon after the user's message a second-person question in a group is asked of them.
FOLLOW_UP_WINDOW = timedelta(minutes=30)
# How soon a user's message in a group counts as the answer to a question asked there.
GROUP_REPLY_WINDOW = timedelta(hours=12)
# How soon the other side's message counts as the answer to the user's request, whatever it
# is about.
REQUEST_REPLY_WINDOW = timedelta(hours=12)


def _names(text: str, first_name: str) -> bool:
    return (
        bool(first_name)
        and re.search(rf"(?<!\w){re.escape(first_name)}(?!\w)", fold_text(text)) is not None
    )


def _loop(
    kind: LoopKind, opener: _ChatMessage, person_id: int | None, resolver: _ChatMessage | None
) -> _LoopFound:
    return _LoopFound(
        kind=kind,
        opened_by_id=opener.pk,
        opened_at=opener.sent_at,
        person_id=person_id,
        resolved_by_id=resolver.pk if resolver else None,
        resolved_at=resolver.sent_at if resolver else None,
    )
