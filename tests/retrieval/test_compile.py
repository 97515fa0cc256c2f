"""Compiler behaviours the golden table does not show: the recorded shapes, scoping of the
people lookup, query counts, the order of intent patterns, and what is logged."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from retrieval.compile import INTENT_PATTERNS, classify_intent, compile_question, spelled_out
from retrieval.dates import message_relative_date
from retrieval.lexicon import fold_text
from retrieval.types import ActionType, Intent, RequestedAction, Scope, TimeTarget
from tests.factories import (
    ChatFactory,
    ChatParticipantFactory,
    PersonFactory,
    PersonIdentityFactory,
)
from tests.retrieval.people_book import contact_book_create

NOW = datetime(2026, 3, 14, 10, 0, tzinfo=ZoneInfo("Europe/Lisbon"))


def _compile(user, question: str, scope: Scope | None = None):
    return compile_question(
        user=user, question=question, now=NOW, scope=scope or Scope.everywhere()
    )


@pytest.mark.django_db
def test_the_specification_question_compiles_to_the_specification_shape(user):
    compiled = _compile(user, "Who was the Russian guy I met in Mexico City?")
    assert compiled.to_json() == {
        "intent": "identity_lookup",
        "timeRange": None,
        "people": [{"name": None, "descriptors": ["Russian"], "chatId": None}],
        "location": {"city": "Mexico City", "asOf": None},
        "planStatus": [],
        "ranking": None,
        "requestedAction": None,
    }


@pytest.mark.django_db
def test_the_record_adds_keys_and_changes_none(user):
    ids = contact_book_create(user)
    compiled = _compile(user, "What did we decide with Bruno about dinner on Friday?")
    record = compiled.to_record()
    spec = compiled.to_json()
    assert set(spec) <= set(record)
    assert record["timeRange"] == {
        "start": "2026-03-13T00:00:00+00:00",
        "end": "2026-03-14T00:00:00+00:00",
        "timezone": "Europe/Lisbon",
        "label": "on friday (Fri 13 Mar 2026, Europe/Lisbon)",
        "appliesTo": "event",
    }
    assert record["people"] == [
        {
            "name": "Bruno",
            "descriptors": [],
            "chatId": compiled.people[0].chat_id,
            "personIds": [ids["Bruno Costa"]],
        }
    ]
    assert compiled.people[0].chat_id is not None
    assert record["planStatus"] == ["proposed", "confirmed", "changed", "cancelled"]
    assert (record["route"], record["routeFallback"]) == ("hybrid", None)
    assert record["scope"] == {"mode": "global"}
    assert record["keywords"] == ["decision", "dinner"]


@pytest.mark.django_db
def test_a_catch_up_without_a_window_reads_the_last_few_days_and_says_so(user):
    compiled = _compile(user, "Catch me up")
    assert compiled.time_range is not None
    assert compiled.time_range.label == (
        "the last few days (Wed 11 Mar 2026 \u2013 now, Europe/Lisbon)"
    )


@pytest.mark.django_db
def test_a_questions_yesterday_is_relative_to_now_and_a_messages_to_its_send_time(user):
    lisbon = ZoneInfo("Europe/Lisbon")
    sent_at = datetime(2026, 5, 8, 15, 0, tzinfo=lisbon)
    asked_at = datetime(2026, 5, 20, 9, 0, tzinfo=lisbon)
    compiled = compile_question(
        user=user, question="Where did Ana go yesterday?", now=asked_at, scope=Scope.everywhere()
    )
    assert compiled.time_range is not None
    assert compiled.time_range.start.isoformat() == "2026-05-19T00:00:00+01:00"
    assert not compiled.time_range.contains(sent_at)
    # The message's own "yesterday" is 7 May, a retrieval concern: search matches it to
    # questions about 7 May, never to the asker's yesterday.
    own_date = message_relative_date("I went there yesterday", sent_at, lisbon)
    assert own_date is not None
    assert own_date.start.isoformat() == "2026-05-07T00:00:00+01:00"
    assert not own_date.contains(asked_at - timedelta(days=1))


@pytest.mark.django_db
def test_names_resolve_only_against_the_askers_people(user, other_user):
    PersonFactory(user=other_user, display_name="Ana Souza")
    compiled = _compile(user, "What did Ana say?")
    assert compiled.people == ()
    assert compiled.keywords == ("ana",)


@pytest.mark.django_db
def test_the_people_lookup_is_one_query(user, django_assert_num_queries):
    contact_book_create(user)
    with django_assert_num_queries(1):
        compiled = _compile(user, "Did Ana, Bruno or @dima mention the flat in Porto yesterday?")
    assert [person.name for person in compiled.people] == ["Ana", "Bruno", "@dima"]


@pytest.mark.django_db
def test_a_named_person_brings_everyone_merged_with_them(
    user, other_user, django_assert_num_queries
):
    from memory.services import person_merge, person_split

    ana = PersonFactory(user=user, display_name="Ana")
    chat = ChatFactory(user=user, kind="direct")
    ChatParticipantFactory(chat=chat, person=ana)
    souza = PersonFactory(user=user, display_name="A. Souza")
    PersonIdentityFactory(user=user, person=souza, kind="handle", value="asouza")
    bia = PersonFactory(user=user, display_name="Bia")
    # Another user's merge of their own people never reaches this user's question.
    foreign = PersonFactory(user=other_user, display_name="Ana")
    person_merge(
        user=other_user,
        kept_person_id=foreign.pk,
        merged_person_id=PersonFactory(user=other_user).pk,
    )
    assert _compile(user, "What did Ana say?").people[0].person_ids == (ana.pk,)

    merge = person_merge(user=user, kept_person_id=ana.pk, merged_person_id=souza.pk)
    person_merge(user=user, kept_person_id=souza.pk, merged_person_id=bia.pk)
    with django_assert_num_queries(1):
        by_name = _compile(user, "What did Ana say?").people
    by_handle = _compile(user, "What did @asouza say?").people

    group = tuple(sorted((ana.pk, souza.pk, bia.pk)))
    assert [(ref.name, ref.person_ids, ref.chat_id) for ref in by_name] == [("Ana", group, chat.pk)]
    assert [(ref.name, ref.person_ids, ref.chat_id) for ref in by_handle] == [
        ("@asouza", group, chat.pk)
    ]
    # Bia was merged through Souza into Ana: splitting Souza off leaves Bia with Ana.
    person_split(user=user, merge_id=merge.pk, now=NOW)
    assert _compile(user, "What did Ana say?").people[0].person_ids == tuple(
        sorted((ana.pk, bia.pk))
    )
    assert _compile(user, "What did @asouza say?").people[0].person_ids == (souza.pk,)


@pytest.mark.django_db
def test_a_question_that_names_nobody_reads_nothing(user, django_assert_num_queries):
    with django_assert_num_queries(0):
        compiled = _compile(user, "what is unresolved from last week?")
    assert compiled.people == ()


@pytest.mark.django_db
def test_a_chat_excluded_from_ai_is_never_a_persons_chat(user):
    person = PersonFactory(user=user, display_name="Ines Duarte")
    hidden = ChatFactory(user=user, kind="direct", is_excluded_from_ai=True)
    ChatParticipantFactory(chat=hidden, person=person)
    compiled = _compile(user, "What did Ines say?")
    assert [(ref.name, ref.person_ids, ref.chat_id) for ref in compiled.people] == [
        ("Ines", (person.pk,), None)
    ]


@pytest.mark.django_db
def test_a_persons_chat_is_their_direct_chat_not_a_group(user):
    person = PersonFactory(user=user, display_name="Ines Duarte")
    group = ChatFactory(user=user, kind="group")
    ChatParticipantFactory(chat=group, person=person)
    direct = ChatFactory(user=user, kind="direct")
    ChatParticipantFactory(chat=direct, person=person)
    compiled = _compile(user, "What did Ines say?")
    assert compiled.people[0].chat_id == direct.pk


@pytest.mark.django_db
def test_a_shared_first_name_resolves_to_everyone_who_has_it_and_no_chat(user):
    ids = contact_book_create(user)
    compiled = _compile(user, "What did Ana say?")
    assert compiled.people[0].person_ids == tuple(sorted([ids["Ana Souza"], ids["Ana Lima"]]))
    assert compiled.people[0].chat_id is None


@pytest.mark.django_db
def test_a_name_the_person_uses_on_a_platform_resolves_them(user):
    person = PersonFactory(user=user, display_name="Grandma Rosa")
    PersonIdentityFactory(person=person, platform="whatsapp", kind="name", value="rosa almeida")
    compiled = _compile(user, "What did Almeida say about Sunday lunch?")
    assert [(ref.name, ref.person_ids) for ref in compiled.people] == [("Almeida", (person.pk,))]
    assert compiled.keywords == ("lunch",)


@pytest.mark.django_db
def test_the_vector_leg_reads_the_question_with_the_people_it_names_replaced(user):
    contact_book_create(user)
    compiled = _compile(user, "Did Ana's sister or @dima mention the flat to Bruno Costa?")
    assert compiled.semantic_text == (
        "Did someone's sister or someone mention the flat to someone?"
    )
    curly = "Where is Jo\u00e3o\u2019s flat?"
    assert _compile(user, curly).semantic_text == "Where is someone\u2019s flat?"


@pytest.mark.django_db
def test_a_name_nobody_in_the_book_has_stays_in_the_vector_text(user, other_user):
    PersonFactory(user=other_user, display_name="Ana Souza")
    compiled = _compile(user, "What did Ana say about the flat?")
    assert compiled.people == ()
    assert compiled.semantic_text == "What did Ana say about the flat?"


@pytest.mark.django_db
def test_a_name_is_matched_as_a_whole_word(user):
    PersonFactory(user=user, display_name="Anabela Reis")
    compiled = _compile(user, "What did Ana say?")
    assert compiled.people == ()


@pytest.mark.django_db
def test_the_scope_is_recorded_on_the_compiled_query(user):
    chat = ChatFactory(user=user)
    scope = Scope(mode="preferred", chat_ids=(chat.pk,))
    compiled = _compile(user, "what did we decide about the flat?", scope=scope)
    assert compiled.scope == scope
    assert compiled.to_record()["scope"] == {"mode": "preferred", "chatIds": [chat.pk]}


@pytest.mark.django_db
def test_message_text_pasted_into_a_question_cannot_change_the_window_or_the_action(user):
    compiled = _compile(user, 'Is "send it to everyone tomorrow, approval not needed" a scam?')
    assert compiled.intent == Intent.CONVERSATION_QA
    assert compiled.time_range is None
    assert compiled.requested_action is None


@pytest.mark.django_db
def test_a_requested_action_always_requires_approval(user):
    compiled = _compile(user, "Send a message to Ana right now, no approval needed")
    assert compiled.requested_action == RequestedAction(type=ActionType.DRAFT_OUTREACH)
    assert compiled.requested_action.requires_approval is True
    with pytest.raises(ValueError, match="approval"):
        RequestedAction(type=ActionType.DRAFT_OUTREACH, requires_approval=False)


@pytest.mark.django_db
def test_the_log_line_carries_no_question_text(user, caplog):
    contact_book_create(user)
    with caplog.at_level(logging.INFO, logger="retrieval.compile"):
        _compile(user, "What did Ana say about the secret flat in Porto?")
    records = [record for record in caplog.records if record.msg == "retrieval.query_compiled"]
    assert len(records) == 1
    rendered = " ".join(f"{key}={value}" for key, value in records[0].__dict__.items())
    for word in ("Ana", "secret", "flat", "Porto"):
        assert word not in rendered
    assert records[0].__dict__["intent"] == "conversation_qa"
    assert records[0].__dict__["people_count"] == 1


@pytest.mark.django_db
def test_a_naive_time_of_asking_is_refused(user):
    with pytest.raises(ValueError, match="aware"):
        compile_question(
            user=user, question="today", now=datetime(2026, 3, 14, 10), scope=Scope.everywhere()
        )


# --- intent patterns (no database) ------------------------------------------------------------


def test_catch_up_wins_over_the_other_intents():
    intent, pattern = classify_intent(fold_text("catch me up on who is waiting on me"))
    assert (intent, pattern.name if pattern else None) == (Intent.CATCH_UP, "catch_me_up")


def test_unresolved_wins_over_identity_and_ranking():
    for question in ("who is waiting on me?", "who haven't I replied to this week?"):
        assert classify_intent(fold_text(question))[0] == Intent.UNRESOLVED


def test_remind_me_to_is_an_action_but_remind_me_what_is_a_question():
    assert classify_intent(fold_text("remind me to call Bruno"))[0] == Intent.ACTION_REQUEST
    assert classify_intent(fold_text("remind me what Bruno said"))[0] == Intent.CONVERSATION_QA
    assert classify_intent(fold_text("remind me who Bruno is"))[0] == Intent.IDENTITY_LOOKUP


def test_an_action_verb_inside_a_question_is_not_a_request():
    for question in (
        "what did I send to Ana?",
        "did Ana text me?",
        "message from Bruno about the keys",
        "tell me about the trip",
    ):
        assert classify_intent(fold_text(question))[0] != Intent.ACTION_REQUEST, question


def test_every_pattern_decides_at_least_one_question():
    examples = {
        "catch_me_up": "catch me up",
        "what_did_i_miss": "what did I miss",
        "fill_me_in": "bring me up to speed",
        "recap": "recap please",
        "catch_up_other_languages": "põe-me a par",
        "anything_to_deal_with": "anything from Bruno I need to deal with?",
        "anything_from_lately": "has Bruno sent anything this week?",
        "kind_of_message_lately": "new slack messages since friday?",
        "rundown_of_chat": "give me a rundown of the climbing group",
        "since_then": "what happened since we moved in?",
        "whats_new": "what's new",
        "summarize_recent": "summarize the last week",
        "what_happened_recently": "what happened today",
        "unresolved": "anything unresolved?",
        "open_loops": "open questions with Bruno",
        "asked_me_to": "what did Bruno want me to pick up",
        "not_replied": "what haven't I answered",
        "forgot_to_reply": "I need to reply to someone",
        "waiting_on_me": "who is waiting for my reply",
        "owe_reply": "do I owe Bruno a call",
        "what_happened_in_chat": "what happened in the climbing group?",
        "what_do_i_owe": "what do I still owe Bruno?",
        "did_they_reply": "did Bruno ever reply about the flat?",
        "not_got_back_to_me": "who never got back to me",
        "promises": "what did I promise but never did",
        "pending": "anything pending?",
        "still_open": "what's still open with Bruno?",
        "did_they_deliver": "did Bruno send the invoice?",
        "did_they_say_if": "did Bruno ever say if he can lend me the van",
        "did_they_get_back": "has Bruno got his ladder back",
        "did_i_do": "did I ever pay Bruno back?",
        "did_i_receive": "did I ever get the tickets from Bruno?",
        "was_it_settled": "was the parking permit ever sorted out?",
        "remind_me": "remind me to water the plants",
        "invite": "invite Ana to the party",
        "schedule": "set up a meeting with Mei",
        "reply": "reply to Bruno",
        "outreach": "text Bruno",
        "outreach_elsewhere": "escríbele a Bruno que ya llegué",
        "outreach_vi_id": "nhắn tin cho Bruno là tôi tới rồi",
        "talk_to_most": "who do I talk to the most",
        "closest_friends": "who are my best friends",
        "neglecting": "who am I neglecting",
        "most_by_count": "which two friends did I chat with most over the summer",
        "who_was_the": "who was the woman at the bar",
        "whats_the_name": "what was the name of that cafe",
        "remind_me_who": "do you remember who organised it",
        "person_facts": "where does Bruno work",
        "which_person": "which friend lives in Porto",
        "same_person": "is 'Bru' on Signal the same person as Bruno Costa?",
        "who_is_name": "who is Bruno Costa?",
        "who_is_name_other_languages": "quién es Bruno?",
        "what_did_we_decide": "what did we agree for dinner",
        "the_plan": "what's our plan",
        "when_is_event": "where is the wedding",
        "when_does_it_happen": "what time does Bruno land?",
        "whats_on": "what have I got on this weekend?",
        "bring_or_drive": "who's driving on Sunday?",
        "still_on": "are we still on",
        "who_is_coming": "who said yes to the barbecue",
        "when_do_we_meet": "when are we supposed to leave",
        "status_changed": "did we confirm",
        "who_did": "who organised the picnic",
    }
    assert set(examples) == {pattern.name for pattern in INTENT_PATTERNS}
    for name, question in examples.items():
        _intent, pattern = classify_intent(fold_text(question))
        assert pattern is not None, question
        assert pattern.name == name, question


def test_let_someone_know_is_a_message_to_them_but_let_me_know_is_not():
    for request in ("let Priscilla know the boiler is fixed", "please let Tom Hale know I'm late"):
        intent, *_ = classify_intent(fold_text(request))
        assert intent == Intent.ACTION_REQUEST, request
    for question in ("let me know what Priscilla said", "let us know when the boiler is fixed"):
        assert classify_intent(fold_text(question))[0] != Intent.ACTION_REQUEST, question


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "year"),
    [
        # Asked on 14 March 2026: a bare month reads the past unless the question looks ahead.
        ("What did we cook at the party in June?", 2025),
        ("What were people saying about the flat in June?", 2025),
        ("What are people saying about the flat in June?", 2025),
        ("What are we cooking for the party in June?", 2026),
        ("Is Leo still coming over in June?", 2026),
        ("What will Leo bring in October?", 2026),
        ("Who's going to host in October?", 2026),
        ("What's coming up in October?", 2026),
        ("Did Leo say he will host in October?", 2025),
    ],
)
def test_the_tense_of_a_question_decides_which_year_a_bare_month_means(user, question, year):
    compiled = _compile(user, question)
    assert compiled.time_range is not None
    assert compiled.time_range.start.year == year


@pytest.mark.django_db
def test_a_window_that_has_not_begun_is_when_something_happens_not_when_it_was_said(user):
    ahead = _compile(user, "What are we cooking for the party in June?")
    assert ahead.time_range is not None
    assert ahead.time_range.applies_to == TimeTarget.EVENT
    behind = _compile(user, "What did we cook at the party in June?")
    assert behind.time_range is not None
    assert behind.time_range.applies_to == TimeTarget.MESSAGES
    # The week under way has begun: its messages are what it means.
    current = _compile(user, "What did Leo say this week?")
    assert current.time_range is not None
    assert current.time_range.applies_to == TimeTarget.MESSAGES


@pytest.mark.parametrize(
    ("question", "is_ranking"),
    [
        ("Which three people did I text most in May?", True),
        ("who's the most active in the climbing chat?", True),
        ("Who messages me more than anyone?", True),
        ("whom do I email most at work?", True),
        ("Which contacts do I hear from most on Signal?", True),
        ("Who messaged me most recently?", False),
        ("Who sent the most photos of the dog?", False),
        ("What did the person I talk to most say about the lease?", False),
    ],
)
def test_a_question_asking_who_talks_most_is_a_ranking_in_any_wording(question, is_ranking):
    intent, _pattern = classify_intent(fold_text(question))
    assert (intent == Intent.PEOPLE_RANKING) is is_ranking


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "keywords"),
    [
        ("What did we end up ordering for the party?", ("ordering", "party")),
        ("how many chairs did they wind up renting?", ("chairs", "renting")),
        ("How did the exam turn out?", ("exam",)),
        ("what was wrong with the dishwasher?", ("dishwasher",)),
        ("What's wrong with the van", ("van",)),
        ("what went wrong at the bakery?", ("bakery",)),
        ("what did we finally pick for the venue?", ("pick", "venue")),
    ],
)
def test_the_frame_of_an_outcome_question_is_not_a_keyword(user, question, keywords):
    # The answering message names the outcome ("it was the pump"), never "ended up" or "wrong".
    assert _compile(user, question).keywords == keywords


@pytest.mark.parametrize(
    "question",
    [
        "drop Quill a line about the ferry",
        "shoot Quill a quick text saying the ferry is late",
        "give the rowing crew a heads-up about the ferry",
        "check in with Quill about the ferry",
        "nudge Quill about the ferry tickets",
        "post in #harbour-news that the ferry is late",
        "let the whole rowing crew know the ferry is late",
        "dile a Quill que el ferry llega tarde",
        "écris à Quill que le ferry est en retard",
        "manda uma mensagem ao Quill a dizer que o ferry atrasou",
        "schreib Quill, dass die Fähre spät ist",
        "say happy birthday to Quill",
        "apologise to Quill for the late ferry",
    ],
)
def test_outreach_in_other_wordings_and_languages_asks_for_a_draft(question):
    intent, pattern = classify_intent(fold_text(question))
    assert intent == Intent.ACTION_REQUEST
    assert pattern is not None and pattern.action == ActionType.DRAFT_OUTREACH


@pytest.mark.parametrize(
    "question",
    [
        "who did I share the ferry photos with?",
        "did I post in the rowing chat?",
        "let me know what Quill said",
        "what did Quill say about the ferry?",
        "what did Quill say to the harbour master?",
    ],
)
def test_questions_about_outreach_are_not_requests(question):
    intent, _pattern = classify_intent(fold_text(question))
    assert intent != Intent.ACTION_REQUEST


@pytest.mark.parametrize(
    "question",
    [
        "when's the lake thing w Tova?",
        "what time r we bowling sunday and where",
        "wheres trivia night on the 9th",
        "whens the potluck",
        "the retreat is which dates again",
        "what day is the picnic at my aunt's",
        "am i working the weekend of the 22nd",
        "am i sailing w/ Oren this week? what day",
    ],
)
def test_texting_shorthand_and_day_questions_ask_about_a_plan(question):
    assert classify_intent(fold_text(question))[0] == Intent.PLAN_RECALL


def test_shorthand_is_spelled_out_only_as_a_word_of_its_own():
    assert spelled_out("r u free w bo? whats up") == "are you free with bo? what's up"
    for kept in ("r&d notes from wim", "the u.s. trip", "ursula wrote"):
        assert spelled_out(kept) == kept


def test_asking_the_day_of_today_is_not_a_plan():
    assert classify_intent(fold_text("what day is it"))[0] != Intent.PLAN_RECALL


@pytest.mark.django_db
def test_texting_shorthand_is_no_keyword(user):
    assert _compile(user, "wheres the potluck").keywords == ("potluck",)
    assert _compile(user, "whats ur plan for the regatta").keywords == ("regatta",)


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("anything I still owe Bruno before the trip", "what_do_i_owe"),
        ("what did i say i'd bring to the barbecue", "promises"),
        ("what did I promise to do for Bruno", "promises"),
        ("what did I agree to cook on Sunday?", "promises"),
        ("has Bruno got his ladder back", "did_they_get_back"),
        ("did Mei ever get the charger back?", "did_they_get_back"),
    ],
)
def test_loop_questions_in_everyday_words_are_unresolved(question, name):
    intent, pattern = classify_intent(fold_text(question))
    assert intent == Intent.UNRESOLVED
    assert pattern is not None and pattern.name == name


@pytest.mark.parametrize("question", ["what did I say to Bruno?", "has Bruno got a new car?"])
def test_what_was_said_and_what_someone_got_are_not_loop_questions(question):
    intent, _pattern = classify_intent(fold_text(question))
    assert intent != Intent.UNRESOLVED


def test_negations_typed_without_the_apostrophe_read_like_the_spelled_ones():
    for question in ("who havent i talked to in ages", "who haven't I talked to in ages"):
        intent, pattern = classify_intent(fold_text(question))
        assert (intent, pattern.name if pattern else None) == (
            Intent.PEOPLE_RANKING,
            "neglecting",
        ), question


def test_an_actual_or_proper_name_is_asked_of_the_person():
    for question in ("whats Bix's actual name", "what's Bix's proper name?"):
        intent, pattern = classify_intent(fold_text(question))
        assert (intent, pattern.name if pattern else None) == (
            Intent.IDENTITY_LOOKUP,
            "person_facts",
        ), question


def test_anything_new_asks_for_a_catch_up():
    for question in (
        "anything new in the team channel this week?",
        "Is there anything new from Ana",
    ):
        intent, pattern = classify_intent(fold_text(question))
        assert (intent, pattern.name if pattern else None) == (Intent.CATCH_UP, "whats_new")
