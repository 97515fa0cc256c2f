"""Words of a question and of messages: folding, stems, content terms, sentences, and the weight of
words a chat's title adds.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from claire.ai.types import EvidenceSource

# Words that carry no topic: question words, pronouns, verbs of asking and chatting, and the
# light verbs of "how did it go" and "what ended up".
_STOPWORD_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves ever anything something someone somebody anyone anybody thing
    things tell told say said says ask asked know remember recall find show give get got
    let lets message messages chat chats conversation conversations text texted texting
    wrote write mention mentioned talk talked talking please claire thanks hey hi also
    really go goes going went gone end ended actually want wants wanted
    """
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


_WORD_PATTERN = re.compile(r"[\w']+", re.UNICODE)
_SENTENCE_PATTERN = re.compile(r"(?<=[.!?…])\s+(?=\S)|\n+")


# An ordinal or degree mark between a number and a letter ("2ºB", "3°C"): people type the
# class "2ºB" as "2b". A mark that ends the word ("1ª") folds to its letter as usual.
_ORDINAL_MARK = re.compile(r"(?<=\d)[\u00ba\u00aa\u00b0](?=[^\W\d_])")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", _ORDINAL_MARK.sub("", text.lower()))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _stem(word: str) -> str:
    word = word.removesuffix("'s")
    if word.endswith("ision") and len(word) >= 8:
        # "decision" / "decide", "provision" / "provide", "division" / "divide"
        return word[:-4] + "d"
    for suffix in ("ing", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    # "decide" / "decided", "date" / "dates": a final silent e goes too.
    if word.endswith("e") and len(word) >= 5:
        return word[:-1]
    return word


def content_terms(text: str) -> list[str]:
    """Lowercased, accent-folded, lightly stemmed words that carry meaning."""
    terms = []
    for word in _WORD_PATTERN.findall(_fold(text)):
        word = word.strip("'")
        if len(word) < 2 or word in _STOPWORDS:
            continue
        terms.append(_stem(word))
    return terms


@dataclass(frozen=True)
class _Sentence:
    source: EvidenceSource
    source_rank: int
    position: int
    text: str
    terms: frozenset[str]
    # The words of its chat's title ("Riverside Book Club"): ``title_weight``.
    title_terms: frozenset[str] = frozenset()


def _sentences(evidence: Sequence[EvidenceSource]) -> list[_Sentence]:
    sentences = []
    for rank, source in enumerate(evidence):
        sender_terms = frozenset(content_terms(source.sender))
        title_terms = frozenset(content_terms(source.chat_title))
        for position, piece in enumerate(_SENTENCE_PATTERN.split(source.text.strip())):
            piece = piece.strip()
            if piece:
                terms = frozenset(content_terms(piece)) | sender_terms
                sentences.append(_Sentence(source, rank, position, piece, terms, title_terms))
    return sentences


def title_weight(
    question_terms: set[str],
    said: Sequence[frozenset[str]],
    titles: Sequence[frozenset[str]],
) -> list[float]:
    """What each item (a sentence, a turn) earns from its chat's title: a question word no
    item says (in its text or sender's name) but some items' chat title holds ("how did we do
    in the padel tournament?", asked of a group titled "Padel Tuesdays" whose messages never
    write the word) counts for the items of those chats as a word they said would, the rarer
    among titles the heavier. A word any message says is left to the messages."""
    total = len(titles)
    spoken = set().union(*said) if said else set()
    unsaid = {term for term in question_terms if term not in spoken}
    if not unsaid or not total:
        return [0.0] * total
    frequency = Counter(term for terms in titles for term in terms if term in unsaid)
    return [
        sum(math.log(1 + total / frequency[term]) for term in unsaid & terms) for terms in titles
    ]
