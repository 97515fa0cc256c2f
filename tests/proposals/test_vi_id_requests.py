"""Message requests written in Vietnamese and Indonesian: the compiler reads their verbs
("nhắn", "nhắn tin cho", "hỏi", "nhắc"; "bilang ke", "kirim pesan ke", "tanya", "ingatkan"), a
word for a relative ("mẹ", "ibu") names the contact saved so or the one the user's kinship
facts know as that relative (never English "me"), and the draft is written in the request's
language from the user's own words."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat
from memory import services as memory_services
from proposals.drafting import request_language
from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, propose

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def _refresh(user) -> None:
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def saved_history(user) -> None:
    """The user's mother is saved as "Mẹ"; Vinh and Sari Wulandari are friends."""
    ingest(
        user,
        chat_of("dm-me", "Mẹ"),
        say("m0", NOW - 3 * DAY, "Mẹ ơi con tới nơi rồi"),
        say("m1", NOW - 3 * DAY + timedelta(hours=1), "Ừ, nghỉ ngơi đi con", sender="Mẹ"),
    )
    ingest(
        user,
        chat_of("dm-vinh", "Vinh Đặng"),
        say("v0", NOW - 4 * DAY, "Vinh ơi cảm ơn nhé"),
        say("v1", NOW - 4 * DAY + timedelta(hours=2), "Không có gì", sender="Vinh Đặng"),
    )
    ingest(
        user,
        chat_of("dm-sari", "Sari Wulandari"),
        say("s0", NOW - 2 * DAY, "Hai Sari, makasih ya"),
        say("s1", NOW - 2 * DAY + timedelta(hours=1), "Sama-sama!", sender="Sari Wulandari"),
    )
    _refresh(user)


def family_history(user) -> None:
    """The user's mother is saved by her name; memory knows her as the mother from how she
    signs and how the user addresses her."""
    ingest(
        user,
        chat_of("dm-parent", "Lorna Quist"),
        say("h0", NOW - 3 * DAY, "Mum, did the parcel arrive?"),
        say("h1", NOW - 2 * DAY, "It did, thank you!\nLove, Mom", sender="Lorna Quist"),
    )
    _refresh(user)


def _chat_id(view) -> str:
    return Chat.objects.get(pk=view.chat_id).platform_chat_id


@pytest.mark.parametrize(
    ("question", "chat_id", "line"),
    [
        ("nhắn mẹ là con sẽ ghé nhà ăn tối thứ Bảy", "dm-me", "Con sẽ ghé nhà ăn tối thứ Bảy."),
        ("nhắn tin cho mẹ rằng tuần này con bận", "dm-me", "Tuần này con bận."),
        ("hỏi Vinh xem tối nay có rảnh không", "dm-vinh", "Tối nay có rảnh không?"),
        (
            "kirim pesan ke Sari bahwa rapatnya diundur ke Jumat",
            "dm-sari",
            "Rapatnya diundur ke Jumat.",
        ),
        ("tanya Sari apakah dia bisa datang besok", "dm-sari", "Apakah kamu bisa datang besok?"),
        ("ingatkan Sari untuk bawa payung", "dm-sari", "Cuma mengingatkan: bawa payung ya."),
    ],
)
def test_a_vietnamese_or_indonesian_request_is_drafted_in_its_language(
    user, question, chat_id, line
):
    saved_history(user)
    view = propose(user, question)
    assert view is not None
    assert _chat_id(view) == chat_id
    assert line in view.draft_text
    assert "Hi " not in view.draft_text and "Talk soon" not in view.draft_text


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("nhắn mẹ là con về muộn", "Con về muộn."),
        ("bilang ke ibu kalau aku pulang hari Minggu", "Aku pulang hari Minggu."),
        ("nhắc mẹ để mang áo ấm", "Nhắc nhẹ nhé: mang áo ấm."),
    ],
)
def test_a_word_for_a_relative_names_the_one_memory_knows_as_that_relative(user, question, line):
    family_history(user)
    view = propose(user, question)
    assert view is not None
    assert _chat_id(view) == "dm-parent"
    assert line in view.draft_text


@pytest.mark.parametrize(
    "question", ["remind me to call the bank", "text me the list", "send me the notes from Sari"]
)
def test_english_me_is_never_the_contact_saved_as_a_relative(user, question):
    saved_history(user)
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
    mother = Chat.objects.get(user=user, platform_chat_id="dm-me")
    assert all(ref.chat_id != mother.pk for ref in compiled.people)


def test_a_relative_word_before_a_name_is_a_title(user):
    saved_history(user)
    ingest(
        user,
        chat_of("dm-loc", "Lộc Trần"),
        say("l0", NOW - DAY, "Chú Lộc ơi cháu cảm ơn chú"),
    )
    view = propose(user, "nhắn chú Lộc là cháu sẽ tới sớm")
    assert view is not None
    assert _chat_id(view) == "dm-loc"


@pytest.mark.parametrize(
    ("question", "is_request"),
    [
        ("nói với Vinh rằng mai mình bận", True),
        ("kasih tahu Sari kalau aku sudah sampai", True),
        ("mẹ nói gì về chuyến đi?", False),
        ("apa kata Sari soal tiketnya?", False),
        ("what did Vinh say about the hotel?", False),
    ],
)
def test_vietnamese_and_indonesian_request_verbs_ask_for_a_draft(user, question, is_request):
    saved_history(user)
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
    assert (compiled.intent == "action_request") is is_request


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("nhắn tin cho Lan là mai gặp nhé", "vi"),
        ("hỏi Minh xem khi nào về", "vi"),
        ("bilang ke Dewi kalau aku telat", "id"),
        ("tanya Budi soal tiket", "id"),
        ("text Dewi that I'm late", "en"),
        ("ask Budi about the tickets", "en"),
    ],
)
def test_the_request_language_is_read_from_its_verb(question, language):
    assert request_language(question) == language
