"""Loop signals in message text: questions to the user, requests, promises, debts, deferrals
and their fulfilment."""

from __future__ import annotations

import re

from memory.extract.plans import _FLAGS, _TIME, mentions_word
from memory.plan_words import (
    ARRIVED,
    DEFERRAL,
    DONE,
    FINISHED,
    I_OWE,
    LATER_TIME,
    OWED_TO_ME,
    PLEASE,
    PROMISE,
    REQUEST,
    TAKE_ON,
    phrases_regex,
)

# Second-person words: a question with one of them is asked of the person it is sent to.
_ADDRESSED_QUESTION = re.compile(
    r"\b(?:you|your|u|ya)\b"
    # es, pt, fr, it, de
    r"|\b(?:t[uú]|usted|ustedes|vos|voc[eê]s?|vc|vous|toi|ton|ta|tes|votre|voi|tuo|tua|tuoi"
    r"|du|dich|dir|dein\w*|euch)\b",
    _FLAGS,
)
_REQUEST = phrases_regex(REQUEST)
_PLEASE = phrases_regex(PLEASE)
_PROMISE_VERB = re.compile(
    # "I'll send …", "I will pay …", and a reply that drops the subject: "will post it tonight!",
    # "yes, will tell him today".
    r"(?:\b(?:I['\u2019]ll|I will|I['\u2019]m (?:going to|gonna)|I can)"
    r"|(?:^|[.!?;,]\s*|\b(?:yes|yep|sure|ok|okay)\W{0,3})will)"
    r"(?!\s+(?:you|u|he|she|they|we|it|that|this)\b)\s+(?:\w+\s+)?"
    r"(send|share|forward|email|mail|write|draft|have|get back|look into|check|call|book|pay"
    r"|return|bring|give|transfer|review|pass|text|tell|venmo|order|post|upload|drop|print|sign"
    r"|scan|find|dig|ask|ping|message|sort|fix|grab|buy|pick|put|add|invite|introduce|lend"
    r"|cover|reimburse|settle|fill|submit|finish|translate|let|remind|ring|phone|visit|leave"
    r"|look"
    # Packing or collecting a thing ("will pack them"), not one's own packing ("I'll pack
    # tonight").
    r"|(?:pack|collect)(?=\s+(?:it|them|the|your|those|these|that|this)\b))\b"
    r"(?:\s+(?:you|it|them|the|a|an|my|our|over|up|out))*\s*(\w+)?",
    _FLAGS,
)
_LINK = re.compile(r"https?://\S+", _FLAGS)
_FULFILMENT = re.compile(
    r"\b(?:here (?:it is|they are|you go)|as promised|attached|just sent|sent (?:it|them|you)|"
    r"(?:is|are) (?:now )?in the|done)\b",
    _FLAGS,
)
_DONE_WORDS = phrases_regex({**DONE, **{f"{key}-finished": v for key, v in FINISHED.items()}})
_DELIVERED_WORDS = phrases_regex(DONE)
_ARRIVED_WORDS = phrases_regex(ARRIVED)
_DEFERRAL = phrases_regex(DEFERRAL)
_PROMISE_OTHER = phrases_regex(PROMISE)
_TAKE_ON = phrases_regex(TAKE_ON)
_LATER_TIME = phrases_regex(LATER_TIME)
# At most this many words in a reply that only names a later time ("sure, tonight").
SHORT_REPLY_WORDS = 6
_PRONOUNS = {
    "you", "it", "them", "the", "a", "an", "my", "our", "over", "by", "to", "in", "back", "him",
    "her", "on", "along", "tonight", "tomorrow", "later", "today", "soon", "up", "out",
}  # fmt: skip


def is_ask(text: str) -> bool:
    """Whether ``text`` asks the person it is sent to for something: a question with a
    second-person word or a request form ("¿me pasas …?", "mi mandi …?", "kannst du …?"), a
    request form with a politeness word and no question mark ("pls send me the code"), or
    money they owe the sender ("you owe me 6 for the balls", "me debes 6€")."""
    if claims_debt(text):
        return True
    if "?" in text:
        return bool(_ADDRESSED_QUESTION.search(text) or _REQUEST.search(text))
    return bool(_REQUEST.search(text) and _PLEASE.search(text))


def is_request_form(text: str) -> bool:
    """``text`` asks for something in one of ``plan_words.REQUEST``'s forms ("could you send
    …", "mi mandi …", "pls …"), not only a question ("did you find the map?")."""
    return bool(_REQUEST.search(text))


def is_question_to_user(
    text: str, *, user_name: str, is_direct: bool, replies_to_user: bool
) -> bool:
    """A question or request someone addressed to the user (``is_ask``); in a group it must
    also name the user or reply to them. A group question that names the user needs no "you"
    ("Ana, what does Rui want for his birthday?")."""
    if not is_direct and bool(user_name) and mentions_word(text, user_name):
        return "?" in text or is_ask(text)
    if not is_ask(text):
        return False
    return is_direct or replies_to_user


def is_request_by_user(text: str) -> bool:
    """The user asking someone for something: a request form with a question mark or a
    politeness word ("could you send …?", "¿me pasas el enlace?", "please confirm")."""
    return bool(_REQUEST.search(text)) and ("?" in text or bool(_PLEASE.search(text)))


# A reply that names a later time for the thing ("by Monday, promise", "not yet").
_LATER = re.compile(
    r"\b(?:promise|promised|not yet|still (?:working|waiting|need)|working on it|on it"
    r"|asap|soon|will do)\b"
    # "let me check with Sam", "I'll ask Ana and see": the answer is still to come.
    r"|\blet\s+me\s+(?:check|ask|see|think|find\s+out)\b"
    r"|\b(?:i['\u2019]ll|i\s+will)\s+(?:check|ask|see|find\s+out)\b"
    # "will do it tomorrow", "I'm going to look on Friday": a later time for it.
    r"|\b(?:i['\u2019]ll|i will|will|gonna|going to)\b[^.!?\n]{0,30}?\b(?:tomorrow|tonight"
    r"|later|next|this (?:week|evening|afternoon)|(?:on|by) (?:mon|tue|wed|thu|fri|sat|sun)\w*)\b",
    _FLAGS,
)


def names_later_time(text: str) -> bool:
    """A short reply that only names a time still ahead ("sure, tonight", "mañana", "demain
    sans faute") and says nothing is done: the thing comes later."""
    return (
        len(text.split()) <= SHORT_REPLY_WORDS
        and bool(_LATER_TIME.search(text))
        and not _DONE_WORDS.search(text)
    )


def puts_off(text: str) -> bool:
    """An answer that is no answer yet: a deferral ("I'll let you know"), a promise to send
    or do the thing ("will send it Friday"), taking it on ("on it"), or a later time for it
    ("not yet", "sure, tonight"). A request it replies to stays open."""
    return (
        is_deferral(text)
        or promise_object(text) is not None
        or bool(_LATER.search(text))
        or bool(_TAKE_ON.search(text))
        or names_later_time(text)
    )


def is_deferral(text: str) -> bool:
    """The user putting off an answer ("let me check and get back to you"): a promise to come
    back with it (``plan_words.DEFERRAL``)."""
    return bool(_DEFERRAL.search(text))


def takes_on(text: str) -> bool:
    """A reply that takes on what was just asked without naming it ("will do!", "on it",
    "lo faccio domani", "sure, tonight"): a promise when it answers an ask."""
    return bool(_TAKE_ON.search(text)) or names_later_time(text)


# An amount of money: "$22", "6€", "12 euros", "R$ 40".
_MONEY_AMOUNT = re.compile(
    r"(?:[$€£]|R\$)\s?\d|\b\d+(?:[.,]\d{1,2})?\s?(?:[€£$]|dollars|bucks|euros?|eur|usd|reais"
    r"|pounds|quid)(?!\w)",
    _FLAGS,
)
# A whole sum as written: "$85", "€12.50", "40 bucks".
_MONEY_SUM = re.compile(
    r"(?:[$€£]|R\$)\s?\d[\d,]*(?:\.\d{1,2})?"
    r"|\b\d+(?:[.,]\d{1,2})?\s?(?:[€£$]|dollars|bucks|euros?|eur|usd|reais|pounds|quid)(?!\w)",
    _FLAGS,
)
_OWED_TO_ME = phrases_regex(OWED_TO_ME)
_I_OWE = phrases_regex(I_OWE)


def _owes_amount(phrase: re.Pattern[str], text: str) -> bool:
    """``phrase`` (who owes whom) with an amount: one with a currency anywhere, or a bare
    number a few words after it ("owe you 12 for the tickets")."""
    match = phrase.search(text)
    if match is None:
        return False
    return bool(
        _MONEY_AMOUNT.search(text) or re.match(r"\W+(?:[^\W\d]+\s+){0,3}?\d", text[match.end() :])
    )


def debt_amount(text: str) -> str:
    """The sum a debt claim names ("$85" in "still need your $85 when you can"); "" when
    ``text`` claims no debt or names no sum with a currency."""
    if not claims_debt(text):
        return ""
    match = _MONEY_SUM.search(text)
    if match is None:
        return ""
    amount = match.group(0).strip()
    if re.search(r"\bhalf\b", text, _FLAGS):
        # "$280 for the cabin, send me half": the share owed is half of the sum named.
        number = re.search(r"\d[\d,]*(?:\.\d{1,2})?", amount)
        value = float(number.group(0).replace(",", "")) / 2 if number else 0.0
        half = f"{value:.2f}".removesuffix(".00") if number else ""
        if number and half:
            return f"half of {amount} ({amount.replace(number.group(0), half)})"
    return amount


def claims_debt(text: str) -> bool:
    """Someone telling the person they write to that they owe them an amount ("you owe me
    6 for the balls", "me debes 6€ cuando puedas")."""
    return _owes_amount(_OWED_TO_ME, text)


def owns_debt(text: str) -> bool:
    """The writer saying they owe an amount ("I owe you 12 for the tickets", "te debo 20€"):
    a promise to pay it."""
    return _owes_amount(_I_OWE, text)


def promise_object(text: str) -> str | None:
    """The thing a promise is about ("deck" in "I'll send the deck tomorrow"), "" when the
    promise names no object, or None when ``text`` promises nothing deliverable."""
    match = _PROMISE_VERB.search(text)
    if match is None:
        return "" if is_deferral(text) or _PROMISE_OTHER.search(text) or owns_debt(text) else None
    noun = (match.group(2) or "").lower()
    return "" if noun in _PRONOUNS or _TIME.fullmatch(noun) else noun


def promise_clause(text: str) -> tuple[str, bool]:
    """The words of the promise to the end of its clause, and whether they start at an
    English verb: ("drop it off thursday after work", True) in "omg sorry!! I'll drop it off
    thursday after work", ("do it this weekend", True) in "yes! will do it this weekend",
    ("je vais appeler Mamie dimanche", False); ("", False) when ``text`` promises nothing in
    a form the lexicon knows."""
    match = _PROMISE_VERB.search(text)
    if match is not None:
        start, is_verb = match.start(1), True
    elif (taken := _TAKE_ON.search(text)) is not None:
        # "on it, will do it tonight": from the modal when there is one, else as written.
        modal = _MODAL_ANY.search(text)
        start, is_verb = (modal.start(), True) if modal is not None else (taken.start(), False)
    elif (other := _PROMISE_OTHER.search(text)) is not None:
        start, is_verb = other.start(), False
    else:
        return "", False
    clause = _CLAUSE_END.split(text[start:], maxsplit=1)[0].strip(" ,")
    if is_verb:
        clause = _MODAL_START.sub("", clause)
    return clause, is_verb


_MODAL_ANY = re.compile(r"\b(?:i['\u2019]ll|i\s+will|will|gonna)\s+\w", _FLAGS)
_MODAL_START = re.compile(
    r"^(?:i['\u2019]ll|i\s+will|will|i['\u2019]m\s+(?:going\s+to|gonna)|gonna)\s+", _FLAGS
)


_CLAUSE_END = re.compile(r"[.!?\n;(]|\s[-\u2013\u2014]\s|\s+(?:but|though|because|cause|cuz)\s")
# "could you look over my draft?", "can u send me the code": what is asked, after the ask.
_ASKED_DEED = re.compile(
    r"\b(?:could|can|would|will|pls|please|plz)\s+(?:you|u|ya)\s+(?:please\s+)?(?P<deed>\w.*)",
    _FLAGS,
)


def ask_clause(text: str) -> tuple[str, bool]:
    """What an ask asks for: ("look over my draft", True) when it says "could you …", else the
    sentence that asks (False)."""
    for sentence in re.findall(r"[^.!?\n]+[.!?]*", text):
        match = _ASKED_DEED.search(sentence)
        if match is not None:
            return _CLAUSE_END.split(match.group("deed"), maxsplit=1)[0].strip(" ,"), True
    for sentence in re.findall(r"[^.!?\n]+[.!?]*", text):
        if "?" in sentence or _REQUEST.search(sentence):
            return sentence.strip(" ,?"), False
    return "", False


def says_done_words(text: str) -> bool:
    """``text`` says in one of the lexicon's languages that something was done ("done ✅",
    "c'est envoyé", "fatto", "pix feito")."""
    return bool(_DONE_WORDS.search(text))


def says_delivered_words(text: str) -> bool:
    """``text`` says in one of the lexicon's languages that something was handed over ("c'est
    envoyé", "überwiesen"), not only that something is finished ("fatto")."""
    return bool(_DELIVERED_WORDS.search(text))


def says_arrived_words(text: str) -> bool:
    """``text`` says in one of the lexicon's languages that something arrived."""
    return bool(_ARRIVED_WORDS.search(text))


def has_link(text: str) -> bool:
    return _LINK.search(text) is not None


# Promises kept in person or by voice, never by a file or a link sent in the chat: "I'll bring
# the chairs", "I'll drop it off Thursday", "je vais appeler Mamie", "te lo devuelvo".
_IN_PERSON_VERBS = frozenset(
    {"bring", "drop", "return", "give", "lend", "call", "ring", "phone", "visit", "leave"}
)  # fmt: skip
_IN_PERSON_OTHER = re.compile(
    r"\b(?:trago|trazer|ligo|ligar|telefonar|visitar|traigo|traer|llamo|llamar|devuelvo|devolver"
    r"|devolvo|apporte|amener|apporter|appelle|appellerai|appeler|t[ée]l[ée]phoner|rendre|rends"
    r"|rendrai|porto|chiamo|restituisco|bringe?|rufe?)\b",
    _FLAGS,
)


def promise_in_person(text: str) -> bool:
    """The promise in ``text`` is a deed done in person or by voice (bring, drop off, return,
    call): a photo or a link the user sends later does not keep it."""
    match = _PROMISE_VERB.search(text)
    if match is not None:
        return match.group(1).lower() in _IN_PERSON_VERBS
    return _IN_PERSON_OTHER.search(text) is not None


# A request for a deed done in person ("could you collect me at the station?", "can I have my
# drill back?", "¿me recoges el paquete?"): a photo or a voice note later in the chat does not
# do it.
_IN_PERSON_ASK = re.compile(
    r"\b(?:bring|lend|drive|collect|fetch|pick\s+(?:\w+\s+){0,3}?up|drop\s+(?:\w+\s+)?off"
    r"|(?:give|bring|hand|have|need|want)\s+(?:\w+\s+){0,2}?back|come\s+(?:over|round|by)"
    r"|recog\w*|recoj\w*|devolv\w*|devuelv\w*|tra(?:e|es|er|igas|zer|z)|lleva\w*|busca\w*"
    r"|rapporte\w*|r[ée]cup[ée]r\w*|rend(?:s|re)|ritir\w*|riport\w*|restituis\w*"
    r"|abhol\w*|zur[üu]ck\w*)\b",
    _FLAGS,
)


def request_in_person(text: str) -> bool:
    """The user's request in ``text`` asks for a deed done in person (collect, bring, give
    back, pick up): a file, a link or a voice note sent later does not do it."""
    return _IN_PERSON_ASK.search(text) is not None


def fulfils_promise(
    text: str, *, is_media: bool, promised_object: str, in_person: bool = False
) -> bool:
    """The user's later message in the chat delivers: a file, a link, a done word ("here you
    go", "fatto", "c'est envoyé"), or the promised thing named without putting it off. A
    promise kept in person (``in_person``) is not kept by a file or a link."""
    if in_person and (is_media or has_link(text)) and not _DONE_WORDS.search(text):
        return False
    if is_media or has_link(text) or _FULFILMENT.search(text):
        return True
    if "?" not in text and _DONE_WORDS.search(text) and not puts_off(text):
        return True
    return bool(promised_object) and mentions_word(text, promised_object) and not puts_off(text)
