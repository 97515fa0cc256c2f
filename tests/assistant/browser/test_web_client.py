"""The Ask tab and the in-chat surface in Chromium against the real server: sign in, ask,
sources before text, citations that open the message, Stop, Retry after a failure, the
no-evidence answer, a reload while the answer streams, proposals, accessibility at desktop and
mobile widths."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from assistant.models import Thread, Turn, TurnRole, TurnStatus
from billing.models import AiPolicy
from tests.assistant.browser.conftest import axe_violations, screenshot
from tests.factories import AiPolicyFactory, PriceBookEntryFactory, PriceBookFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

QUESTION = "When is the dinner with Ana?"
ANSWER_TEXT = "Dinner is on Friday at 8 S1. Ana suggested Casa Lisboa for it S1."

# Records, in page order, when the first source card and the first answer text appeared and
# every status line the page showed.
RECORDER = """
window.__seen = [];
new MutationObserver(() => {
  const seen = window.__seen;
  const mark = (name) => { if (!seen.includes(name)) seen.push(name); };
  if (document.querySelector(".turn .source-card")) mark("sources");
  const answer = document.querySelector(".turn .answer");
  if (answer && answer.textContent.trim()) mark("text");
  const status = document.getElementById("status");
  if (status && status.textContent) mark("status:" + status.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def _ask(page: Any, question: str = QUESTION) -> None:
    box = page.get_by_label("Ask about your conversations")
    box.click()
    box.fill(question)
    box.press("Enter")


def _wait_for_turn(page: Any, status: str) -> Any:
    turn = page.locator(f".turn[data-status={status}]")
    turn.wait_for()
    return turn


def test_sign_in_ask_and_open_a_citation(
    context_factory, server_password_user, dinner_chat, axe_source
):
    chat, first = dinner_chat
    page = context_factory().new_page()
    page.add_init_script(RECORDER)
    page.goto("/")
    assert page.url.endswith("/login/?next=/")
    page.get_by_label("Email").fill(server_password_user.email)
    page.get_by_label("Password").fill("ask-claire-browser")
    page.get_by_label("Password").press("Enter")
    page.wait_for_url(re.compile(r"/$"))

    box = page.get_by_label("Ask about your conversations")
    box.click()
    box.type("When is")
    box.press("Shift+Enter")
    box.type("the dinner with Ana?")
    assert box.input_value() == "When is\nthe dinner with Ana?"
    assert page.locator(".turn").count() == 0
    box.press("Enter")

    turn = _wait_for_turn(page, "completed")
    seen = page.evaluate("window.__seen")
    assert seen.index("sources") < seen.index("text")
    assert "status:Searching your conversations…" in seen
    assert "status:Writing the answer…" in seen
    assert turn.locator(".question").inner_text() == "When is\nthe dinner with Ana?"
    assert " ".join(turn.locator(".answer").inner_text().split()) == ANSWER_TEXT
    assert turn.locator(".answer strong").inner_text() == "Dinner"
    # Nothing is embedded in this test database: the answer says the index is incomplete.
    assert (
        turn.locator(".index-notice")
        .inner_text()
        .startswith("Your messages are still being indexed")
    )
    card = turn.locator(".source-card")
    assert card.count() == 1
    assert card.locator(".source-sender").inner_text() == "Ana"
    assert card.locator(".source-where").inner_text().startswith("Weekend plans · WhatsApp · ")
    assert card.locator("time").get_attribute("datetime") == first.sent_at.isoformat()
    # The answer is announced a sentence at a time, not per token.
    announced = turn.locator("[aria-live=polite] p").all_inner_texts()
    assert announced == ["Dinner is on Friday at 8.", "Ana suggested Casa Lisboa for it."]
    assert turn.locator(".finish-meta").inner_text() == "Answered by mock-scripted (mock) · no cost"
    thread = Thread.objects.get(user=server_password_user)
    assert page.url.endswith(f"/?thread={thread.pk}")
    assert page.locator("#thread-list a[aria-current=page]").inner_text() == thread.title
    assert axe_violations(page, axe_source) == []
    screenshot(page, "ask-desktop")

    turn.locator("a.cite").first.click()
    page.wait_for_url(re.compile(rf"/chats/{chat.pk}/\?message={first.pk}$"))
    cited = page.locator(f"#m{first.pk}")
    assert "anchor" in cited.get_attribute("class")
    assert cited.evaluate("node => node === document.activeElement")
    assert page.locator(".message").count() == 2
    assert axe_violations(page, axe_source) == []


def _open_ask_tab(context_factory, user, **options: Any) -> Any:
    page = context_factory(user=user, **options).new_page()
    page.add_init_script(RECORDER)
    page.goto("/")
    page.get_by_label("Ask about your conversations").wait_for()
    return page


def _first_text(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('.turn .answer')?.textContent.trim().length > 0"
    )


def _no_horizontal_scroll(page: Any) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def test_stop_from_the_keyboard_cancels_on_the_server_within_a_second(
    context_factory, user, dinner_chat
):
    page = _open_ask_tab(context_factory, user)
    _ask(page)
    _first_text(page)
    # Keyboard only: from the ask box, Tab reaches Stop (Ask is disabled while answering).
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "stop-button":
            break
    assert page.evaluate("document.activeElement.id") == "stop-button"
    # The keyboard focus is visible.
    ring = page.evaluate(
        "(() => { const style = getComputedStyle(document.activeElement);"
        " return [style.outlineStyle, style.outlineWidth]; })()"
    )
    assert ring == ["solid", "3px"]
    stopped_at = datetime.now(UTC)
    page.keyboard.press("Enter")

    turn = _wait_for_turn(page, "cancelled")
    assert turn.locator(".stopped").is_visible()
    assert page.locator("#status").inner_text() == "Stopped."
    assert turn.locator(".error").is_hidden()
    stored = Turn.objects.get(user=user, role=TurnRole.ASSISTANT)
    assert stored.status == TurnStatus.CANCELLED
    assert (stored.finished_at - stopped_at).total_seconds() < 1.0
    shown = " ".join(turn.locator(".answer").inner_text().split())
    assert shown and ANSWER_TEXT.startswith(shown.rstrip("."))
    assert len(shown) < len(ANSWER_TEXT)


def test_retry_after_a_failure_replaces_the_failed_turn(context_factory, user, dinner_chat):
    # A priced model and a day budget below its hold: the answer fails after its sources.
    book = PriceBookFactory()
    for model in ("extractive", "minilm", "hash-embed"):
        PriceBookEntryFactory(
            price_book=book,
            provider="local",
            model=model,
            input_micro_usd_per_million=0,
            cached_input_micro_usd_per_million=0,
            output_micro_usd_per_million=0,
            embedding_micro_usd_per_million=0,
            step_reserve_micro_usd=0,
        )
    PriceBookEntryFactory(
        price_book=book,
        provider="local",
        model="mock",
        input_micro_usd_per_million=5_000_000,
        output_micro_usd_per_million=20_000_000,
        step_reserve_micro_usd=0,
    )
    AiPolicyFactory(user=user, daily_limit_micro_usd=100)
    page = _open_ask_tab(context_factory, user)
    _ask(page)
    failed = _wait_for_turn(page, "failed")
    assert failed.locator(".error .message").inner_text() != ""
    first = Turn.objects.get(user=user, role=TurnRole.ASSISTANT)
    assert first.status == TurnStatus.FAILED
    assert first.error_code == "budget_exceeded"

    AiPolicy.objects.filter(user=user).update(daily_limit_micro_usd=1_000_000)
    failed.get_by_role("button", name="Retry").click()
    turn = _wait_for_turn(page, "completed")
    assert page.locator(".turn").count() == 1
    retry = Turn.objects.get(user=user, role=TurnRole.ASSISTANT, status=TurnStatus.COMPLETED)
    assert retry.retry_of_id == first.pk
    assert retry.thread_id == first.thread_id
    cost = turn.locator(".finish-meta").inner_text()
    assert re.fullmatch(r"Answered by mock-scripted \(mock\) · cost \$0\.\d{4}", cost), cost

    # The stored thread shows the question once: the failed attempt gave way to its retry.
    page.reload()
    _wait_for_turn(page, "completed")
    assert page.locator(".turn").count() == 1


def test_no_evidence_answer_says_what_was_searched(context_factory, user, dinner_chat):
    chat, _ = dinner_chat
    page = _open_ask_tab(context_factory, user)
    page.get_by_label("Search in").select_option("preferred")
    page.get_by_label("Weekend plans (WhatsApp)").check()
    _ask(page, "What did the plumber say about the boiler?")
    turn = _wait_for_turn(page, "completed")
    assert turn.locator(".answer p").first.inner_text() == (
        "I couldn't find anything about this in all your chats, starting with “Weekend plans”."
    )
    question = Turn.objects.get(user=user, role=TurnRole.USER)
    assert question.scope == {"mode": "preferred", "chatIds": [str(chat.pk)]}
    assert turn.locator(".sources").is_hidden()
    assert turn.locator(".finish-meta").inner_text() == (
        "Answered from your messages without a model · no cost"
    )


def test_reload_mid_answer_shows_the_stored_turn_once(context_factory, user, dinner_chat):
    page = _open_ask_tab(context_factory, user)
    _ask(page)
    _first_text(page)
    thread = Thread.objects.get(user=user)
    page.wait_for_url(re.compile(rf"/\?thread={thread.pk}$"))
    page.reload()
    # Leaving the page dropped the stream, so the server stored the answer as cancelled; the
    # reloaded page follows the stored turn until it is final and never asks again.
    turn = _wait_for_turn(page, "cancelled")
    assert page.locator(".turn").count() == 1
    assert Turn.objects.filter(thread=thread).count() == 2
    stored = Turn.objects.get(thread=thread, role=TurnRole.ASSISTANT)
    assert stored.status == TurnStatus.CANCELLED
    shown = " ".join(turn.locator(".answer").inner_text().split())
    assert shown == " ".join(stored.text.replace("[S1]", "S1").replace("**", "").split())
    assert turn.locator(".stopped").is_visible()
    assert page.locator("#thread-list a[aria-current=page]").count() == 1


def test_ask_about_this_chat_on_a_phone(context_factory, user, dinner_chat, axe_source):
    chat, _ = dinner_chat
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    page = context_factory(user=user, **phone).new_page()
    page.goto(f"/chats/{chat.pk}/")
    toggle = page.get_by_role("button", name="Ask about this chat")
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement.id") == "chat-question"
    page.keyboard.type(QUESTION)
    page.keyboard.press("Enter")
    turn = _wait_for_turn(page, "completed")
    assert " ".join(turn.locator(".answer").inner_text().split()) == ANSWER_TEXT
    thread = Thread.objects.get(user=user)
    assert (thread.kind, thread.chat_id) == ("chat", chat.pk)
    question = Turn.objects.get(thread=thread, role=TurnRole.USER)
    assert question.scope == {"mode": "strict_chat", "chatId": str(chat.pk)}
    assert _no_horizontal_scroll(page)
    assert axe_violations(page, axe_source) == []
    screenshot(page, "chat-ask-mobile")

    page.goto(f"/?thread={thread.pk}")
    _wait_for_turn(page, "completed")
    assert _no_horizontal_scroll(page)
    assert axe_violations(page, axe_source) == []
    screenshot(page, "ask-mobile")


def _sse(chunks: list[dict[str, Any]]) -> str:
    return "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"


def test_proposal_card_edit_and_approve_through_the_proposal_api(context_factory, user, axe_source):
    """A real proposal (drafted by the proposals service) arrives as the stream's
    data-proposal part; the card's Edit and Approve go to the real endpoints."""
    from proposals.models import Proposal, Receipt
    from tests.proposals.support import history, propose

    history(user)
    view = propose(user, "Write to Rui again about the boiler")
    assert view is not None
    stream = _sse(
        [
            {"type": "start", "messageId": "turn-2"},
            {
                "type": "data-thread",
                "data": {"threadId": "1", "userTurnId": "1", "assistantTurnId": "2"},
            },
            {"type": "data-sources", "data": {"citations": [], "indexStatus": {"state": "ready"}}},
            {"type": "text-start", "id": "t1"},
            {"type": "text-delta", "id": "t1", "delta": "You asked Rui about the boiler."},
            {"type": "text-end", "id": "t1"},
            {"type": "data-proposal", "id": "proposal-1", "data": view.as_wire()},
            {
                "type": "data-finish",
                "data": {
                    "finishReason": "stop",
                    "provider": "local",
                    "model": "mock",
                    "status": "completed",
                    "citedSourceIds": [],
                    "actions": [],
                    "removedCitationCount": 0,
                },
            },
            {"type": "finish", "finishReason": "stop"},
        ]
    )
    page = _open_ask_tab(context_factory, user)
    page.route(
        "**/api/assistant/messages",
        lambda route: route.fulfill(
            status=200, body=stream, headers={"Content-Type": "text/event-stream"}
        ),
    )
    _ask(page, "Write to Rui again about the boiler")
    card = page.locator(".proposal-card")
    card.wait_for()
    assert card.locator("h4").inner_text() == "Draft to Rui Costa"
    assert card.locator(".proposal-where").inner_text().startswith(f"{view.chat_title} · ")
    assert card.locator("textarea").input_value() == view.as_wire()["display"]["draftText"]
    assert card.locator("[role=status]").inner_text() == "Nothing is sent until you approve."

    card.get_by_role("button", name="Edit").click()
    card.locator("textarea").fill("Hi Rui, any news on the boiler?")
    card.get_by_role("button", name="Save draft").click()
    page.wait_for_function("() => document.querySelector('.proposal-card textarea').readOnly")
    assert card.locator("[role=status]").inner_text() == (
        "Draft saved. Nothing is sent until you approve."
    )
    card.get_by_role("button", name="Approve").click()
    page.wait_for_function(
        "() => document.querySelector('.proposal-card').dataset.status === 'approved'"
    )
    assert card.locator("[role=status]").inner_text() == (
        "Approved: your messaging bridge will send it."
    )
    assert card.get_by_role("button", name="Reject").is_disabled()
    proposal = Proposal.objects.get(pk=view.proposal_id)
    assert proposal.status == "approved"
    assert proposal.payload["text"] == "Hi Rui, any news on the boiler?"
    assert Receipt.objects.filter(proposal=proposal).count() == 1
    assert axe_violations(page, axe_source) == []


def test_the_markdown_renderer_never_makes_html_from_the_answer(context_factory, user):
    page = context_factory(user=user).new_page()
    page.goto("/")
    rendered = page.evaluate(
        """async () => {
          const { renderMarkdown } = await import("/client/markdown.js");
          const text = 'Hi <img src=x onerror="window.hacked=1"> **bold** [S1] [S9]\\n' +
            '[click](javascript:alert(1)) [site](https://example.com/a) ' +
            '<script>x()</script>\\n\\n' +
            '- one\\n- two';
          const cite = (id) => {
            if (id !== "S1") return null;
            const a = document.createElement("a");
            a.href = "/chats/1/?message=2";
            a.textContent = id;
            return a;
          };
          const box = document.createElement("div");
          box.append(renderMarkdown(text, cite));
          return {
            tags: [...box.querySelectorAll("*")].map((n) => n.tagName.toLowerCase()),
            links: [...box.querySelectorAll("a")].map((a) => a.getAttribute("href")),
            text: box.textContent,
          };
        }"""
    )
    assert rendered["tags"] == ["p", "strong", "a", "br", "a", "ul", "li", "li"]
    assert rendered["links"] == ["/chats/1/?message=2", "https://example.com/a"]
    assert '<img src=x onerror="window.hacked=1">' in rendered["text"]
    assert "[S9]" in rendered["text"]
    assert "[click](javascript:alert(1))" in rendered["text"]
    assert "<script>x()</script>" in rendered["text"]
    assert page.evaluate("window.hacked") is None


def test_thread_list_and_long_threads_load_older_pages(context_factory, user):
    from tests.factories import AssistantTurnFactory, ThreadFactory

    start = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    threads = [ThreadFactory(user=user, title=f"Question {index}") for index in range(22)]
    for index, thread in enumerate(threads):
        Thread.objects.filter(pk=thread.pk).update(last_activity_at=start + timedelta(hours=index))
    long_thread = threads[-1]
    for index in range(60):
        AssistantTurnFactory(
            user_turn__thread=long_thread, user_turn__text=f"Question number {index}"
        )

    page = context_factory(user=user).new_page()
    page.goto(f"/?thread={long_thread.pk}")
    page.locator(".turn").nth(49).wait_for()
    titles = page.locator("#thread-list a")
    assert titles.count() == 20
    assert titles.first.inner_text() == "Question 21"
    page.get_by_role("button", name="Load older threads").click()
    page.wait_for_function("() => document.querySelectorAll('#thread-list a').length === 22")
    assert titles.last.inner_text() == "Question 0"
    assert page.get_by_role("button", name="Load older threads").is_hidden()

    assert page.locator(".turn").count() == 50
    assert page.locator(".turn .question").first.inner_text() == "Question number 10"
    page.get_by_role("button", name="Show earlier turns").click()
    page.wait_for_function("() => document.querySelectorAll('.turn').length === 60")
    questions = page.locator(".turn .question").all_inner_texts()
    assert questions == [f"Question number {index}" for index in range(60)]
    assert page.evaluate("document.activeElement.textContent") == "Question number 9"
    assert page.get_by_role("button", name="Show earlier turns").count() == 0
