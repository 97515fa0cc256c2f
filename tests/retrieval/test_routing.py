"""Scope resolution (ownership checked server-side, refused never dropped), the searchable chats
of a scope, and the routing table."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from claire.errors import CodedError, NotFound
from retrieval import routing
from retrieval.compile import compile_question
from retrieval.routing import chats_for_scope, route_fallback_for, route_for, scope_resolve
from retrieval.types import CompiledQuery, Intent, Route, Scope, ScopeMode
from tests.factories import ChatFactory

NOW = datetime(2026, 3, 14, 10, 0, tzinfo=ZoneInfo("Europe/Lisbon"))


def _invalid_field(raw_scope, user) -> str:
    with pytest.raises(CodedError) as raised:
        scope_resolve(user=user, raw_scope=raw_scope)
    assert raised.value.code == "invalid_scope"
    assert raised.value.status_code == 400
    return raised.value.details["field"]


# --- shapes -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_global_scope_needs_no_query(user, django_assert_num_queries):
    with django_assert_num_queries(0):
        scope = scope_resolve(user=user, raw_scope={"mode": "global"})
    assert scope == Scope(mode=ScopeMode.GLOBAL, chat_ids=())


@pytest.mark.django_db
def test_preferred_scope_keeps_the_given_order_and_accepts_string_ids(
    user, django_assert_num_queries
):
    first, second = ChatFactory(user=user), ChatFactory(user=user)
    with django_assert_num_queries(1):
        scope = scope_resolve(
            user=user, raw_scope={"mode": "preferred", "chatIds": [str(second.pk), first.pk]}
        )
    assert scope == Scope(mode=ScopeMode.PREFERRED, chat_ids=(second.pk, first.pk))


@pytest.mark.django_db
def test_strict_chat_scope_names_one_chat(user):
    chat = ChatFactory(user=user)
    scope = scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": str(chat.pk)})
    assert scope == Scope(mode=ScopeMode.STRICT_CHAT, chat_ids=(chat.pk,))
    assert scope.to_json() == {"mode": "strict_chat", "chatId": chat.pk}


@pytest.mark.django_db
def test_preferred_scope_takes_one_to_five_chats(user):
    chats = [ChatFactory(user=user) for _ in range(6)]
    five = scope_resolve(
        user=user, raw_scope={"mode": "preferred", "chatIds": [chat.pk for chat in chats[:5]]}
    )
    assert len(five.chat_ids) == 5
    assert (
        _invalid_field({"mode": "preferred", "chatIds": [chat.pk for chat in chats]}, user)
        == "scope.chatIds"
    )
    assert _invalid_field({"mode": "preferred", "chatIds": []}, user) == "scope.chatIds"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("raw_scope", "field"),
    [
        (None, "scope"),
        (["global"], "scope"),
        ({}, "scope.mode"),
        ({"mode": "everywhere"}, "scope.mode"),
        ({"mode": "global", "chatIds": [1]}, "scope"),
        ({"mode": "preferred"}, "scope.chatIds"),
        ({"mode": "preferred", "chatIds": "1"}, "scope.chatIds"),
        ({"mode": "preferred", "chatIds": [1, 1]}, "scope.chatIds"),
        ({"mode": "preferred", "chatIds": [True]}, "scope.chatIds"),
        ({"mode": "preferred", "chatIds": [0]}, "scope.chatIds"),
        ({"mode": "preferred", "chatIds": [-3]}, "scope.chatIds"),
        ({"mode": "preferred", "chatIds": ["abc"]}, "scope.chatIds"),
        ({"mode": "preferred", "chatIds": [1.0]}, "scope.chatIds"),
        ({"mode": "strict_chat"}, "scope.chatId"),
        ({"mode": "strict_chat", "chatIds": [1]}, "scope"),
        ({"mode": "strict_chat", "chatId": None}, "scope.chatId"),
        ({"mode": "strict_chat", "chatId": [1]}, "scope.chatId"),
    ],
)
def test_malformed_scopes_are_refused_with_invalid_scope(
    raw_scope, field, user, django_assert_num_queries
):
    with django_assert_num_queries(0):
        assert _invalid_field(raw_scope, user) == field


# --- ownership --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_foreign_chat_in_preferred_is_refused_not_dropped(user, other_user):
    own = ChatFactory(user=user)
    foreign = ChatFactory(user=other_user)
    with pytest.raises(NotFound) as raised:
        scope_resolve(user=user, raw_scope={"mode": "preferred", "chatIds": [own.pk, foreign.pk]})
    assert raised.value.code == "not_found"
    assert raised.value.status_code == 404
    # The refusal does not say which id failed, so ids never leak whether they exist.
    assert raised.value.details is None


@pytest.mark.django_db
def test_a_foreign_chat_in_strict_chat_is_refused(user, other_user):
    foreign = ChatFactory(user=other_user)
    with pytest.raises(NotFound):
        scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": foreign.pk})


@pytest.mark.django_db
def test_a_missing_chat_is_refused_exactly_like_a_foreign_one(user, other_user):
    foreign = ChatFactory(user=other_user)
    missing_id = foreign.pk + 1000
    refusals = []
    for chat_id in (foreign.pk, missing_id):
        with pytest.raises(NotFound) as raised:
            scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": chat_id})
        refusals.append((raised.value.code, str(raised.value.detail), raised.value.status_code))
    assert refusals[0] == refusals[1]


@pytest.mark.django_db
def test_a_chat_excluded_from_ai_cannot_be_the_strict_chat(user):
    chat = ChatFactory(user=user, is_excluded_from_ai=True)
    with pytest.raises(CodedError) as raised:
        scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": chat.pk})
    assert raised.value.code == "chat_excluded_from_ai"
    assert raised.value.status_code == 409
    assert raised.value.details == {"chatIds": [chat.pk]}


@pytest.mark.django_db
def test_a_chat_excluded_from_ai_cannot_be_preferred(user):
    kept = ChatFactory(user=user)
    excluded = ChatFactory(user=user, is_excluded_from_ai=True)
    with pytest.raises(CodedError) as raised:
        scope_resolve(user=user, raw_scope={"mode": "preferred", "chatIds": [kept.pk, excluded.pk]})
    assert raised.value.code == "chat_excluded_from_ai"
    assert raised.value.details == {"chatIds": [excluded.pk]}


@pytest.mark.django_db
def test_ownership_is_checked_before_exclusion(user, other_user):
    # A foreign chat that is excluded from AI must not reveal that it exists.
    foreign = ChatFactory(user=other_user, is_excluded_from_ai=True)
    with pytest.raises(NotFound):
        scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": foreign.pk})


# --- chats a scope may read -------------------------------------------------------------------


@pytest.mark.django_db
def test_a_global_scope_reads_the_users_chats_that_are_not_excluded(user, other_user):
    kept = ChatFactory(user=user)
    ChatFactory(user=user, is_excluded_from_ai=True)
    ChatFactory(user=other_user)
    chats = chats_for_scope(user=user, scope=Scope.everywhere())
    assert list(chats.values_list("pk", flat=True)) == [kept.pk]


@pytest.mark.django_db
def test_a_preferred_scope_still_reads_every_chat(user):
    first, second = ChatFactory(user=user), ChatFactory(user=user)
    scope = scope_resolve(user=user, raw_scope={"mode": "preferred", "chatIds": [first.pk]})
    chats = chats_for_scope(user=user, scope=scope)
    assert sorted(chats.values_list("pk", flat=True)) == sorted([first.pk, second.pk])


@pytest.mark.django_db
def test_a_strict_scope_reads_only_its_chat(user):
    chat = ChatFactory(user=user)
    ChatFactory(user=user)
    scope = scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": chat.pk})
    assert list(chats_for_scope(user=user, scope=scope).values_list("pk", flat=True)) == [chat.pk]


@pytest.mark.django_db
def test_a_chat_excluded_after_the_scope_was_resolved_is_not_read(user):
    chat = ChatFactory(user=user)
    scope = scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": chat.pk})
    chat.is_excluded_from_ai = True
    chat.save(update_fields=["is_excluded_from_ai"])
    assert not chats_for_scope(user=user, scope=scope).exists()


@pytest.mark.django_db
def test_another_users_scope_reads_none_of_this_users_chats(user, other_user):
    ChatFactory(user=user)
    own = ChatFactory(user=other_user)
    scope = scope_resolve(user=other_user, raw_scope={"mode": "strict_chat", "chatId": own.pk})
    assert not chats_for_scope(user=user, scope=scope).exists()


# --- routes -----------------------------------------------------------------------------------


def _compiled(intent: Intent) -> CompiledQuery:
    return CompiledQuery(
        question="", intent=intent, scope=Scope.everywhere(), route=Route.NO_EVIDENCE
    )


@pytest.mark.parametrize(
    ("intent", "route"),
    [
        (Intent.CATCH_UP, Route.RECENT_WINDOW),
        (Intent.UNRESOLVED, Route.UNRESOLVED),
        (Intent.PEOPLE_RANKING, Route.PEOPLE_RANKING),
        (Intent.IDENTITY_LOOKUP, Route.HYBRID),
        (Intent.PLAN_RECALL, Route.HYBRID),
        (Intent.CONVERSATION_QA, Route.HYBRID),
        (Intent.ACTION_REQUEST, Route.HYBRID),
    ],
)
def test_routing_table(intent, route):
    assert route_for(_compiled(intent)) == route


def test_no_intent_is_routed_to_no_evidence():
    assert Route.NO_EVIDENCE not in {route_for(_compiled(intent)) for intent in Intent}


def test_unresolved_reads_open_loops_and_falls_back_to_hybrid_when_they_are_off(monkeypatch):
    assert {route_fallback_for(route) for route in Route} == {None}
    monkeypatch.setattr(routing, "LOOPS_AVAILABLE", False)
    assert route_fallback_for(Route.UNRESOLVED) == Route.HYBRID
    assert {route_fallback_for(route) for route in Route if route != Route.UNRESOLVED} == {None}


@pytest.mark.django_db
def test_the_unresolved_route_is_recorded_without_a_fallback(user):
    compiled = compile_question(
        user=user, question="What is unresolved?", now=NOW, scope=Scope.everywhere()
    )
    assert compiled.route == Route.UNRESOLVED
    assert compiled.source_route == Route.UNRESOLVED
    record = compiled.to_record()
    assert (record["route"], record["routeFallback"]) == ("unresolved", None)


@pytest.mark.django_db
def test_the_route_is_recorded_with_its_fallback(user, monkeypatch):
    monkeypatch.setattr(routing, "LOOPS_AVAILABLE", False)
    compiled = compile_question(
        user=user, question="What is unresolved?", now=NOW, scope=Scope.everywhere()
    )
    assert compiled.route == Route.UNRESOLVED
    assert compiled.source_route == Route.HYBRID
    record = compiled.to_record()
    assert (record["route"], record["routeFallback"]) == ("unresolved", "hybrid")


@pytest.mark.django_db
def test_a_catch_up_in_a_strict_chat_reads_the_recent_window_of_that_chat(user):
    chat = ChatFactory(user=user)
    scope = scope_resolve(user=user, raw_scope={"mode": "strict_chat", "chatId": chat.pk})
    compiled = compile_question(user=user, question="Catch me up", now=NOW, scope=scope)
    assert compiled.route == Route.RECENT_WINDOW
    assert compiled.scope == scope
    assert compiled.to_record()["scope"] == {"mode": "strict_chat", "chatId": chat.pk}
