"""The bilingual concept lexicon: an English question word's forms in the other languages
people text in, the false friends it leaves out, and what the lexical leg and the check do
with them."""

import pytest

from retrieval.crosslingual import (
    CONCEPTS,
    LANGUAGES,
    asks_about_liking,
    translations,
    word_translation_query,
)
from retrieval.lexical import SearchFilters, lexical_search
from tests.factories import ChatFactory, MessageFactory


def _forms(keywords, question=""):
    return {form for item in translations(keywords, question) for form in item.forms}


def test_lexicon_is_broad_and_covers_every_language():
    assert len(CONCEPTS) >= 200
    for language in LANGUAGES:
        assert sum(1 for concept in CONCEPTS if concept.foreign[language]) >= 180


@pytest.mark.parametrize(
    ("keyword", "expected"),
    [
        ("grandmother", {"bà ngoại", "nenek", "abuela", "avó", "nonna", "mamie", "oma"}),
        ("pharmacy", {"nhà thuốc", "apotek", "farmacia", "farmácia", "apotheke"}),
        ("airport", {"sân bay", "bandara", "aeropuerto", "aeroporto", "aéroport", "flughafen"}),
        ("delicious", {"ngon", "enak", "delicioso", "gostoso", "buonissimo", "lecker"}),
    ],
)
def test_a_word_finds_its_forms_in_each_language(keyword, expected):
    assert expected <= _forms([keyword])


@pytest.mark.parametrize(
    ("keywords", "expected"),
    [
        (["weddings"], {"đám cưới", "pernikahan", "nikahan"}),
        (["bought"], {"mua", "beli", "comprei"}),
        (["dumplings"], {"bánh bao", "pangsit"}),
    ],
)
def test_plurals_and_listed_inflections_find_the_concept(keywords, expected):
    assert expected <= _forms(keywords)


@pytest.mark.parametrize(
    ("keywords", "present"),
    [
        (["mooncakes"], {"bánh trung thu", "banh trung thu"}),
        (["appointment"], {"lịch hẹn", "lich hen"}),
        (["funeral"], {"đám tang", "dam tang"}),
    ],
)
def test_phrases_are_searched_with_and_without_marks(keywords, present):
    assert present <= _forms(keywords)


@pytest.mark.parametrize(
    ("keyword", "marked", "bare"),
    [("house", "nhà", "nha"), ("sea", "biển", "bien"), ("coffee", "cà phê", None)],
)
def test_a_vietnamese_syllable_keeps_its_tone_marks(keyword, marked, bare):
    forms = _forms([keyword])
    assert marked in forms
    if bare is not None:
        # "nha" is also the particle of "rồi nha"; "bien" is a French word.
        assert bare not in forms
    else:
        # Two syllables fold: "ca phe" is still coffee.
        assert "ca phe" in forms


@pytest.mark.parametrize(
    ("keyword", "false_friend", "kept"),
    [
        ("mother", "me", "mẹ"),  # Vietnamese "mẹ" typed bare is English "me"
        ("tea", "the", "thé"),  # French "thé"
        ("cat", "chat", "kucing"),  # French "chat"
        ("bread", "pan", "pão"),  # Spanish "pan"
        ("bread", "pain", "brot"),  # French "pain"
    ],
)
def test_no_foreign_form_that_is_an_english_word(keyword, false_friend, kept):
    forms = _forms([keyword])
    assert kept in forms
    assert false_friend not in forms


@pytest.mark.parametrize(
    ("keyword", "stems_like_english"),
    [
        ("game", "partie"),  # French "partie" stems like "party"
        ("movie", "filme"),  # Portuguese "filme" stems like "film"
        ("family", "familie"),  # German "Familie" stems like "family" itself
    ],
)
def test_no_foreign_form_that_stems_like_an_english_word(keyword, stems_like_english):
    forms = _forms([keyword])
    assert forms
    assert stems_like_english not in forms


@pytest.mark.parametrize(
    "keywords",
    [["spring", "rolls"], ["spring", "roll"], ["ice", "cream"]],
)
def test_a_multi_word_concept_is_read_on_consecutive_keywords(keywords):
    found = translations(keywords)
    assert [item.words for item in found] == [tuple(keywords)]


def test_a_word_of_a_phrase_alone_is_not_the_phrase():
    assert "chả giò" not in _forms(["spring", "cleaning"])
    assert "kem" not in _forms(["cream"])
    assert "dọn dẹp" in _forms(["spring", "cleaning"])


@pytest.mark.parametrize(
    "question",
    [
        "did Ana like the soup?",
        "does your dad enjoy the new flat",
        "Did the kids love the cake?",
    ],
)
def test_a_question_of_liking_adds_the_words_of_liking(question):
    assert asks_about_liking(question)
    assert {"thích", "enak", "gostoso", "lecker"} <= _forms(["soup"], question)


@pytest.mark.parametrize(
    "question",
    [
        "what does the new flat look like?",
        "would Ana like to come on Friday?",
        "what did it sound like",
        "Where does Ana live?",
    ],
)
def test_other_likes_are_no_question_of_liking(question):
    assert not asks_about_liking(question)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("recomend", {"gợi ý", "dicas", "empfehlung"}),
        ("apointment", {"lịch hẹn", "janjian", "termin"}),
        ("dinnner", {"bữa tối", "makan malam", "abendessen"}),
    ],
)
def test_a_long_word_with_a_letter_doubled_or_not_is_read(typed, expected):
    assert expected <= _forms([typed])


@pytest.mark.parametrize("word", ["diner", "bred", "planing", "stationery"])
def test_a_short_or_english_word_is_not_read_as_a_typo(word):
    # "diner" and "bred" are too short to be read as "dinner" and "bread"; no concept is one
    # doubled letter away from "planing" or "stationery".
    assert translations([word]) == ()


@pytest.mark.parametrize("keyword", ["Sintra", "pottery", "quarterly"])
def test_a_word_outside_the_lexicon_has_no_forms(keyword):
    assert translations([keyword]) == ()
    assert word_translation_query(keyword) == ""


def test_forms_the_shorthand_already_searches_are_left_out():
    # "cumpleaños" is a shorthand form of "birthday": searched with the word, not again.
    forms = _forms(["birthday"])
    assert "cumpleaños" not in forms
    assert "sinh nhật" in forms


def test_word_translation_query_is_to_tsquery_text():
    query = word_translation_query("mooncakes")
    assert "(bánh <-> trung <-> thu)" in query
    assert "(kue <-> bulan)" in query
    assert word_translation_query("spring rolls") == ""


@pytest.mark.django_db
class TestLexicalLeg:
    def _search(self, user, keywords, question=""):
        hits = lexical_search(
            user=user,
            keywords=keywords,
            filters=SearchFilters(),
            term_cap=500,
            limit=20,
            translations=translations(keywords, question),
        )
        return [hit.message_id for hit in hits]

    def test_an_english_question_finds_a_message_in_another_language(self, user):
        chat = ChatFactory(user=user)
        vietnamese = MessageFactory(chat=chat, text="Con mua hai hộp bánh trung thu rồi mẹ ơi")
        indonesian = MessageFactory(chat=chat, text="Kue bulan dari Bandung sudah sampai")
        MessageFactory(chat=chat, text="See you at the station tomorrow")

        found = self._search(user, ["mooncakes"])

        assert sorted(found) == sorted([vietnamese.pk, indonesian.pk])

    def test_a_message_in_the_question_words_ranks_above_a_translation(self, user):
        chat = ChatFactory(user=user)
        english = MessageFactory(chat=chat, text="The pharmacy on the corner closes at six")
        spanish = MessageFactory(chat=chat, text="La farmacia cierra a las seis")

        found = self._search(user, ["pharmacy"])

        assert found == [english.pk, spanish.pk]

    def test_unaccented_texting_is_found(self, user):
        chat = ChatFactory(user=user)
        bare = MessageFactory(chat=chat, text="toi nay an lau o nha ba ngoai nha")

        found = self._search(user, ["grandmother"])

        assert found == [bare.pk]

    def test_a_false_friend_in_english_is_not_found(self, user):
        chat = ChatFactory(user=user)
        MessageFactory(chat=chat, text="Tell me when you are free")
        MessageFactory(chat=chat, text="The pan is in the sink")
        MessageFactory(chat=chat, text="I need to chat with the team")
        vietnamese = MessageFactory(chat=chat, text="Mẹ nấu canh chua rồi")

        assert self._search(user, ["mother"]) == [vietnamese.pk]
        assert self._search(user, ["bread"]) == []
        assert self._search(user, ["cat"]) == []

    def test_a_form_that_stems_like_the_word_is_found_by_the_word(self, user):
        chat = ChatFactory(user=user)
        german = MessageFactory(chat=chat, text="Die Familie kommt am Sonntag")
        english = MessageFactory(chat=chat, text="The whole family is coming on Sunday")
        MessageFactory(chat=chat, text="We had a party after the game")

        assert sorted(self._search(user, ["family"])) == sorted([german.pk, english.pk])

    def test_a_question_of_liking_finds_the_judgement(self, user):
        chat = ChatFactory(user=user)
        judged = MessageFactory(chat=chat, text="makasih ya, rendangnya enak banget")
        MessageFactory(chat=chat, text="jam berapa kita berangkat besok")

        found = self._search(user, ["rendang"], "did Sari like the rendang?")

        assert found == [judged.pk]
