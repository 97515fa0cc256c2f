"""The kinship lexicon across languages: contact names, forms of address, questions about a
relative by a relation word, and the answers that read that relative's messages."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind, Message, Person
from memory import services
from memory.evidence import memory_message_ids
from memory.kinship import (
    addressed_relation,
    kin_relation,
    relation_of_contact_name,
    relation_words,
    signed_relation,
)
from memory.models import FactKind, PersonFact
from retrieval.answerability import _names_in
from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, say

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def _at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


@pytest.mark.parametrize(
    ("name", "relation"),
    [
        ("Mẹ", "mother"),
        ("Mamá ❤️", "mother"),
        ("Ibu", "mother"),
        ("妈妈", "mother"),
        ("Mutti", "mother"),
        ("Mẹ yêu", "mother"),
        ("Papà", "father"),
        ("Bà ngoại", "grandmother"),
        ("Avó", "grandmother"),
        ("Avô", "grandfather"),
        ("Ma sœur", "sister"),
        ("Nan 🌸", "grandmother"),
        ("Kasia (hermana)", "sister"),
        # A name, or another word, that a relation word folds to or starts.
        ("Sơn", None),
        ("Me", None),
        ("Mae", None),
        ("Ibu Sari", None),
        ("Mum's friend Jo", None),
        ("Mom Jeans Outlet", None),
    ],
)
def test_a_saved_name_in_any_language_states_the_relation(name, relation):
    assert relation_of_contact_name(name) == relation


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        ("Mẹ ơi, tối nay con về trễ nha", "mother"),
        ("ok bố ơi", "father"),
        ("hola mamá!", "mother"),
        ("terima kasih ibu 🙏", "mother"),
        ("Papa, tu peux m'appeler ce soir ?", "father"),
        ("danke Oma!", "grandmother"),
        ("妈\uff0c我到家了", "mother"),
        # Courtesy words, talk about someone, and English words a marked one folds to.
        ("anh Tuấn ơi, mai đi không", None),
        ("cô ơi em gửi bài rồi", None),
        ("thanks me later", None),
        ("my mum's friend says hi", None),
        ("mom jeans are back lol", None),
        ("hoy mamá hizo sopa", None),
    ],
)
def test_a_form_of_address_in_any_language_is_read(text, relation):
    assert addressed_relation(text) == relation


def test_a_signature_in_another_language_is_read():
    assert signed_relation("Chegamos bem.\nBeijos,\nMãe") == "mother"
    assert signed_relation("Te veo el domingo\n- Papá") == "father"
    assert signed_relation("beijos para a mãe") is None


def test_marks_decide_the_word():
    assert kin_relation("Mẹ") == "mother"
    assert kin_relation("me") is None
    assert kin_relation("Sơn") is None
    assert kin_relation("son") == "son"
    assert (kin_relation("avó"), kin_relation("avô")) == ("grandmother", "grandfather")


def test_relation_words_are_every_word_for_the_relation():
    words = relation_words("mum")
    assert {"mẹ", "mamá", "mãe", "ibu", "mother"} <= set(words)
    assert "me" not in words
    assert set(relation_words("my mother")) == set(words)
    assert relation_words("Ana") == ()
    assert relation_words("the landlord") == ()


def test_a_name_is_found_as_written():
    assert _names_in("can you take mẹ to her eye appt?", ("mẹ",))
    assert _names_in("Mãe já chegou", ("mãe",))
    assert not _names_in("send me the eye drops", ("mẹ",))
    assert not _names_in("Mom Jeans Outlet sale", ("mum",))


def _compile(user, question: str, now: datetime):
    return compile_question(user=user, question=question, now=now, scope=Scope.everywhere())


def _relations(user) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for name, value in PersonFact.objects.filter(
        user=user, kind=FactKind.RELATIONSHIP, related_person__isnull=True
    ).values_list("person__display_name", "value"):
        found.setdefault(name, set()).add(value)
    return found


def _id(user, name: str) -> int:
    return Person.objects.get(user=user, display_name=name).pk


def _message(user, platform_message_id: str) -> int:
    return Message.objects.get(user=user, platform_message_id=platform_message_id).pk


@pytest.mark.django_db
def test_a_mother_saved_in_vietnamese_is_mum_in_an_english_question(user):
    ingest(user, chat_of("dm-me", "Mẹ"), say("m1", _at(0), "Con ăn cơm chưa?", sender="Mẹ"))
    ingest(user, chat_of("dm-son", "Sơn"), say("s1", _at(1), "send me the file", sender="Sơn"))
    services.facts_rebuild(user=user)
    assert _relations(user) == {"Mẹ": {"mother"}}
    now = _at(24)
    for question in ("what did mum say?", "what did my mother say?", "did mẹ reply?"):
        refs = _compile(user, question, now).people
        assert [ref.person_ids for ref in refs] == [(_id(user, "Mẹ"),)], question
    assert not any(ref.person_ids for ref in _compile(user, "what did his mum say?", now).people)
    # English "me" is not "mẹ".
    mother = (_id(user, "Mẹ"),)
    refs = _compile(user, "can you send me the photos from Sunday?", now).people
    assert all(ref.person_ids != mother for ref in refs)


@pytest.mark.django_db
def test_the_user_addressing_someone_in_indonesian_relates_them(user):
    ingest(
        user,
        chat_of("dm-w", "Wati Santoso"),
        say("w1", _at(0), "Sudah makan?", sender="Wati Santoso"),
        say("w2", _at(1), "Ibu, besok jadi ke pasar?"),
    )
    ingest(
        user,
        chat_of("dm-r", "Rina Putri"),
        say("r1", _at(2), "aku tadi ketemu ibu kamu di pasar"),
    )
    services.facts_rebuild(user=user)
    assert _relations(user) == {"Wati Santoso": {"mother"}}
    refs = _compile(user, "anything new from mum?", _at(30)).people
    assert [ref.person_ids for ref in refs] == [(_id(user, "Wati Santoso"),)]


@pytest.mark.django_db
def test_two_mothers_by_different_evidence_name_nobody(user):
    ingest(user, chat_of("dm-a", "Mamá"), say("a1", _at(0), "¿vienes el domingo?", sender="Mamá"))
    ingest(user, chat_of("dm-b", "Mẹ"), say("b1", _at(1), "Con khỏe không?", sender="Mẹ"))
    services.facts_rebuild(user=user)
    refs = _compile(user, "what did mum say?", _at(30)).people
    assert [(ref.person_ids, ref.descriptors) for ref in refs] == [((), ("mother",))]


@pytest.mark.django_db
def test_the_mother_saved_as_one_outweighs_someone_only_called_so(user):
    ingest(user, chat_of("dm-me", "Mẹ"), say("m1", _at(0), "Con ăn cơm chưa?", sender="Mẹ"))
    ingest(
        user,
        chat_of("dm-w", "Wati Santoso"),
        say("w1", _at(1), "Kuenya sudah jadi", sender="Wati Santoso"),
        say("w2", _at(2), "terima kasih ibu!"),
    )
    services.facts_rebuild(user=user)
    assert _relations(user) == {"Mẹ": {"mother"}, "Wati Santoso": {"mother"}}
    refs = _compile(user, "what did mum say?", _at(30)).people
    assert [ref.person_ids for ref in refs] == [(_id(user, "Mẹ"),)]


def _brazilian_family(user) -> None:
    ingest(
        user,
        chat_of("dm-mae", "Mãe"),
        say(
            "m1", _at(0), "Filha, você pode comprar pão de queijo na padaria amanhã?", sender="Mãe"
        ),
        say("m2", _at(0.5), "compro sim!"),
        say("m3", _at(48), "Mãe, o Pedro leva você ao dentista na terça, 7 de abril, às 10h"),
        say("m4", _at(48.5), "tá bom, filha", sender="Mãe"),
    )
    ingest(
        user,
        chat_of("dm-pedro", "Pedro Alves"),
        say("p1", _at(47), "can you take mãe to the dentist on tue 7 april? I'm working"),
        say("p2", _at(47.5), "sure", sender="Pedro Alves"),
    )
    family = replace(
        chat_of("grp-fam", "Mãe", "Pedro Alves", kind=ChatKind.GROUP), title="Família Alves"
    )
    ingest(
        user,
        family,
        say(
            "f1",
            _at(150),
            "a mãe já saiu do dentista, tudo certo, volta em 6 meses",
            sender="Pedro Alves",
        ),
    )
    ingest(
        user,
        chat_of("dm-spam", "Unknown Number"),
        say(
            "x1",
            _at(60),
            "Hi Mum, it's me, new phone. Can you send money?",
            sender="Unknown Number",
        ),
    )
    ingest(
        user,
        chat_of("dm-bia", "Bia Costa"),
        say("b1", _at(160), "my mum's dentist is great btw", sender="Bia Costa"),
    )
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


@pytest.mark.django_db
def test_what_mum_asked_me_to_buy_is_her_ask_in_her_own_language(user):
    _brazilian_family(user)
    compiled = _compile(user, "what did mum ask me to buy?", _at(20))
    hits = memory_message_ids(user=user, compiled=compiled, now=_at(20))
    assert hits is not None
    assert hits.message_ids[0] == _message(user, "m1")
    assert "pão de queijo" in hits.findings[0].text


@pytest.mark.django_db
def test_a_catch_up_on_mum_reads_her_and_what_her_short_reply_answers(user):
    _brazilian_family(user)
    compiled = _compile(user, "anything new from mum?", _at(70))
    hits = memory_message_ids(user=user, compiled=compiled, now=_at(70))
    assert hits is not None
    ids = list(hits.message_ids)
    assert _message(user, "m4") in ids
    assert _message(user, "m3") in ids
    assert hits.notes[_message(user, "m3")] == "what they answer"
    # Someone calling the reader "Mum" elsewhere is not news of the user's mother.
    assert _message(user, "x1") not in ids


@pytest.mark.django_db
def test_how_mums_appointment_went_is_the_family_word_after_it(user):
    _brazilian_family(user)
    compiled = _compile(user, "how did mum's dentist appointment go?", _at(170))
    hits = memory_message_ids(user=user, compiled=compiled, now=_at(170))
    assert hits is not None
    assert hits.message_ids[0] == _message(user, "f1")
    assert _message(user, "p1") in hits.message_ids
    # A friend's mother, in a chat the user's mother is not in, tells nothing of her.
    assert _message(user, "b1") not in hits.message_ids
    before = _compile(user, "how did mum's dentist appointment go?", _at(100))
    assert memory_message_ids(user=user, compiled=before, now=_at(100)) is None or (
        _message(user, "f1")
        not in memory_message_ids(user=user, compiled=before, now=_at(100)).message_ids
    )
