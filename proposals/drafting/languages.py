"""Requests in other languages: the frame (greeting, lines) a request written in French,
Spanish, Portuguese, German, Vietnamese or Indonesian is drafted in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from proposals.drafting.asks import sentence_of, tidy
from proposals.drafting.context import DEFAULT_GREETING
from retrieval.compile import VI_ID_REQUEST
from retrieval.lexicon import fold_text


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
    "vi": Frame(
        "Chào",
        "cả nhà",
        "Hẹn gặp lại!",
        "Cảm ơn nhé!",
        "Mình nhắn về {}.",
        "Mình nhắn để {}.",
        "Nhắc nhẹ nhé: {}.",
        "Mình nhắn hỏi thăm chút.",
    ),
    "id": Frame(
        "Hai",
        "semua",
        "Sampai nanti!",
        "Makasih!",
        "Aku mau bahas soal {}.",
        "Aku mau {}.",
        "Cuma mengingatkan: {} ya.",
        "Aku cuma mau menyapa.",
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
# Vietnamese and Indonesian requests: the verb (``retrieval.compile.VI_ID_REQUEST``) and the
# language's own letters or words. Vietnamese is told by its marks, read before folding.
_VIETNAMESE_LETTERS = re.compile(r"[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.I)
_REQUEST_VI_ID = re.compile(rf"^\W*{VI_ID_REQUEST}\b")
# What the user asks to say or ask, after the recipient: "là …"/"rằng …", "bahwa …"/"kalau …"
# is the message; "về …"/"tentang …"/"soal …" the topic; "để …"/"untuk …" what the recipient
# is asked to do.
_VI_ID_MESSAGE = re.compile(r"^\W*(?:là|rằng|bahwa|kalau|kalo|:)\s+(?P<x>.+)", re.I)
_VI_ID_TOPIC = re.compile(r"^\W*(?:về|tentang|soal|mengenai)\s+(?P<x>.+)", re.I)
_VI_ID_TO_DO = re.compile(r"^\W*(?:để|untuk|buat|supaya)\s+(?P<x>.+)", re.I)
_REMINDING = re.compile(r"^\W*(?:nhac|ingatkan|ingetin)\b")
# "hỏi Lan xem …", "tanya Sari apakah …": what follows is a question to the recipient; the
# Indonesian third person ("dia") is them, now addressed ("kamu").
_ASKING = re.compile(r"^\W*(?:hoi|tanya(?:in|kan)?)\b")
_ASKED_LEAD = re.compile(r"^\W*(?:xem|coi|là|ke|sama)\s+", re.I)
_THEM_ID = re.compile(r"\bdia\b", re.I)
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
    if _REQUEST_VI_ID.search(folded):
        return "vi" if _VIETNAMESE_LETTERS.search(question) else "id"
    return ENGLISH


def greeting_default(question: str) -> str:
    frame = FRAMES.get(request_language(question))
    return frame.greeting if frame is not None else DEFAULT_GREETING


def foreign_lines(question: str, named_as: str, frame: Frame) -> tuple[list[str], str]:
    """The body lines and closing of a request in another language: "que …" is the message
    as said, "sobre …" the topic, "pour …" the user's purpose."""
    text = " ".join(question.split())
    position = text.casefold().find(named_as.casefold()) if named_as else -1
    after = text[position + len(named_as) :] if position >= 0 else text
    if frame in (FRAMES["vi"], FRAMES["id"]):
        return _vi_id_lines(question, after, frame), frame.closing
    if match := _FOREIGN_MESSAGE.search(after):
        return [sentence_of(tidy(match["x"]))], frame.closing
    if match := _FOREIGN_TOPIC.search(after):
        return [frame.about.format(tidy(match["x"]))], frame.closing
    if match := _FOREIGN_PURPOSE.search(after):
        purpose = _FOREIGN_OBJECT.sub("te ", tidy(match["x"]))
        return [frame.purpose.format(purpose)], frame.closing
    return [frame.plain], frame.closing


def _vi_id_lines(question: str, after: str, frame: Frame) -> list[str]:
    """A Vietnamese or Indonesian request: what follows the recipient is the user's own words
    ("là con sẽ qua …", "bahwa aku telat …", or said straight after the name), a topic ("về
    …", "tentang …"), or, after a verb of reminding, what the recipient is to do."""
    rest = tidy(after)
    if not rest:
        return [frame.plain]
    if match := _VI_ID_MESSAGE.match(rest):
        return [sentence_of(tidy(match["x"]))]
    if match := _VI_ID_TOPIC.match(rest):
        return [frame.about.format(tidy(match["x"]))]
    if _REMINDING.match(fold_text(" ".join(question.split()))):
        to_do = _VI_ID_TO_DO.match(rest)
        return [frame.reminder.format(tidy(to_do["x"]) if to_do else rest)]
    if _ASKING.match(fold_text(" ".join(question.split()))):
        asked = _ASKED_LEAD.sub("", rest)
        if frame is FRAMES["id"]:
            asked = _THEM_ID.sub("kamu", asked)
        return [f"{asked[:1].upper()}{asked[1:]}?"]
    if match := _VI_ID_TO_DO.match(rest):
        return [frame.purpose.format(tidy(match["x"]))]
    return [sentence_of(rest)]
