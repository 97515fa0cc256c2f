"""The answer engine: one sequence of typed events, whatever the transport.

``answer_open`` runs the checks that decide the HTTP status (authentication happened before
it): AI policy and budget, scope ownership, and the idempotent ``turn_begin``. Its
``AnswerSession.events()`` then yields the events of the answer lifecycle::

    start, status(retrieving), thread, sources, [status(answering)],
    text-start, text-delta..., text-end, status(saving), finish
    -- or, on failure: text-end (when text was open), error

A request seen before replays its stored outcome through the same event shapes.

Database work runs in short steps on the assistant's worker threads (``assistant.db``): a
stream holds no connection while the model streams.
Cancellation: a client disconnect cancels the task that iterates ``events()``; the engine
cancels the model call, stores the partial answer as ``cancelled`` and settles what was used.
``stop()`` (the Stop endpoint) ends the answer the same way but still emits the closing events
to a client that is listening.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from dataclasses import dataclass, field

from django.conf import settings

from assistant import answering, services
from assistant.citations import CitationFilter
from assistant.db import run_db
from assistant.errors import INTERNAL_ERROR, RETRIEVAL_FAILED, StreamFailure
from assistant.generation import Generation, GenerationEnd, GenerationRefused, generation_prepare
from assistant.leases import stream_lease
from assistant.mailbox import STOPPED, ModelMailbox, ModelWait, Stopped
from assistant.models import TurnStatus
from assistant.replay import TEXT_ID, closing_events, replay_events
from assistant.selectors import thread_summary_of
from assistant.services import FinalizedTurn, TurnOutcome, TurnPair
from assistant.streaming import ModelReader
from assistant.trace_spans import trace_model, trace_retrieval
from assistant.types import (
    AskRequest,
    EngineEvent,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    ProposalEvent,
    SourcesEvent,
    StartEvent,
    StatusEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThreadEvent,
)
from claire.accounts.models import User
from claire.tracing import Trace
from proposals.claims import ActionClaimGuard
from proposals.flow import draft_grounds, proposal_for_answer, proposal_paragraph
from proposals.selectors import proposal_view_for_request
from proposals.types import ProposalView

logger = logging.getLogger(__name__)


async def answer_open(*, user: User, request: AskRequest) -> AnswerSession:
    """Raises ``CodedError``s that become the HTTP status: ``ai_disabled``,
    ``budget_exceeded``, ``not_found`` (foreign chat, thread or retried turn),
    ``request_in_progress``, ``request_id_reused``, ``turn_not_retryable``, having written
    nothing."""
    trace = Trace("assistant.request")
    begun = time.monotonic()
    pair = await run_db(answering.answer_begin, user=user, request=request)
    trace.add(
        "thread.load",
        start=begun,
        duration_ms=(time.monotonic() - begun) * 1000,
        is_new=pair.is_new,
    )
    return AnswerSession(user=user, request=request, pair=pair, trace=trace)


@dataclass
class _Progress:
    retrieval: answering.Retrieval | None = None
    generation: Generation | None = None
    # The text shown so far, in pieces (joined on read: the answer grows by one piece a delta).
    parts: list[str] = field(default_factory=list)
    is_text_open: bool = False
    is_ended: bool = False
    # The action request's proposal, made once, before the text ends (``_proposal_shown``).
    proposal: ProposalView | None = None
    is_proposal_checked: bool = False
    # Set by the settlement inside turn_finalize's transaction.
    cost_micro_usd: int | None = None

    @property
    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""


class AnswerSession:
    def __init__(
        self, *, user: User, request: AskRequest, pair: TurnPair, trace: Trace | None = None
    ) -> None:
        self.user = user
        self.request = request
        self.pair = pair
        self._stop_requested = asyncio.Event()
        self._mailbox: ModelMailbox | None = None
        self._model_wait: ModelWait | None = None
        self._progress = _Progress()
        self._started = time.monotonic()
        # One privacy-safe trace per answer (claire.tracing), written when the answer ends.
        self._trace = trace or Trace("assistant.request", started=self._started)
        self._final_status = ""

    @property
    def is_new(self) -> bool:
        return self.pair.is_new

    @property
    def assistant_turn_id(self) -> int:
        return self.pair.assistant_turn.pk

    def stop(self) -> None:
        """End the answer as ``cancelled`` (the Stop button); idempotent."""
        self._stop_requested.set()
        if self._mailbox is not None:
            self._mailbox.put(STOPPED)
        if self._model_wait is not None:
            self._model_wait.stop()

    async def events(self) -> AsyncGenerator[EngineEvent, None]:
        if not self.pair.is_new:
            proposal = await run_db(
                proposal_view_for_request, user=self.user, request_id=self.request.request_id
            )
            for event in replay_events(self.pair, proposal=proposal):
                yield event
            return
        try:
            # Crash recovery: the turn's lease is renewed (with the text so far) while it runs.
            async with (
                stream_lease(
                    user=self.user,
                    assistant_turn_id=self.assistant_turn_id,
                    text_so_far=lambda: self._progress.text,
                ),
                aclosing(self._answer()) as answer,
            ):
                async for event in answer:
                    yield event
        except Exception:
            # A bug or a database failure must still end the stream with a safe error.
            logger.exception(
                "assistant.answer_failed", extra={"assistant_turn_id": self.assistant_turn_id}
            )
            async for event in self._fail(INTERNAL_ERROR):
                yield event
        finally:
            if not self._progress.is_ended:
                # Cancelled (client gone) or closed early: record what was shown.
                await asyncio.shield(self._interrupt(TurnStatus.CANCELLED, code="cancelled"))
            self._trace_emit()

    def _trace_emit(self) -> None:
        retrieval = self._progress.retrieval
        generation = self._progress.generation
        self._trace.emit(
            logger,
            request_id=self.request.request_id,
            assistant_turn_id=self.assistant_turn_id,
            status=self._final_status,
            route=retrieval.route if retrieval else "",
            intent=retrieval.intent if retrieval else "",
            source_count=len(retrieval.citations) if retrieval else 0,
            model=generation.model_key if generation else "",
            answer_chars=len(self._progress.text),
        )

    # --- the lifecycle -----------------------------------------------------------------------

    async def _answer(self) -> AsyncGenerator[EngineEvent, None]:
        pair = self.pair
        yield StartEvent(message_id=f"turn-{pair.assistant_turn.pk}")
        yield StatusEvent(phase="retrieving")
        yield ThreadEvent(
            thread_id=pair.thread.pk,
            user_turn_id=pair.user_turn.pk,
            assistant_turn_id=pair.assistant_turn.pk,
        )
        retrieval_started = time.monotonic()
        try:
            retrieval = await run_db(
                answering.retrieval_run, user=self.user, request=self.request, thread=pair.thread
            )
        except Exception:
            logger.exception(
                "assistant.retrieval_failed", extra={"assistant_turn_id": self.assistant_turn_id}
            )
            async for event in self._fail(RETRIEVAL_FAILED):
                yield event
            return
        self._progress.retrieval = retrieval
        trace_retrieval(self._trace, retrieval, start=retrieval_started)
        yield SourcesEvent(citations=retrieval.citations, index_status=retrieval.index_status)
        if self._stop_requested.is_set():
            async for event in self._end_cancelled():
                yield event
            return

        if retrieval.is_empty:
            # No candidate passed the relevance floor: a deterministic answer, no model call.
            text = answering.no_evidence_answer(retrieval)
            yield TextStartEvent(text_id=TEXT_ID)
            yield TextDeltaEvent(text_id=TEXT_ID, delta=text)
            self._progress.parts[:] = [text]
            self._progress.is_text_open = True
            for event in self._show(await self._proposal_shown()):
                yield event
            yield TextEndEvent(text_id=TEXT_ID)
            self._progress.is_text_open = False
            async for event in self._complete(
                finish_reason="stop", provider="", model="", removed_citation_count=0
            ):
                yield event
            return

        yield StatusEvent(phase="answering")
        try:
            generation = await run_db(
                generation_prepare,
                user=self.user,
                request=self.request,
                pair=pair,
                retrieval=retrieval,
            )
        except GenerationRefused as refused:
            async for event in self._fail(refused.failure):
                yield event
            return
        self._progress.generation = generation
        citation_filter = CitationFilter(retrieval.source_ids)
        # An action request's answer never says the action was done (proposals.claims).
        claim_guard = ActionClaimGuard(
            is_active=bool(retrieval.compiled_query.get("requestedAction"))
        )
        ending: GenerationEnd | None = None
        model_started = time.monotonic()
        async with aclosing(self._model_output(generation)) as output:
            async for item in output:
                if isinstance(item, GenerationEnd):
                    ending = item
                    break
                for event in self._show(claim_guard.feed(citation_filter.feed(item))):
                    yield event
        trace_model(self._trace, generation, start=model_started)
        for event in self._show(claim_guard.feed(citation_filter.flush()) + claim_guard.flush()):
            yield event
        if ending is not None and ending.failure is None:
            for event in self._show(await self._proposal_shown()):
                yield event
        if claim_guard.rewritten_count:
            logger.warning(
                "proposals.action_claim_rewritten",
                extra={"user_id": self.user.pk, "claims": claim_guard.rewritten_count},
            )
        if self._progress.is_text_open:
            yield TextEndEvent(text_id=TEXT_ID)
            self._progress.is_text_open = False

        if ending is None:
            async for event in self._end_cancelled():
                yield event
            return
        if ending.failure is not None:
            async for event in self._fail(ending.failure):
                yield event
            return
        async for event in self._complete(
            finish_reason=ending.finish_reason,
            provider=ending.provider,
            model=ending.model,
            removed_citation_count=citation_filter.removed_count,
        ):
            yield event

    def _show(self, visible: str) -> list[EngineEvent]:
        if not visible:
            return []
        events: list[EngineEvent] = []
        if not self._progress.is_text_open:
            events.append(TextStartEvent(text_id=TEXT_ID))
            self._progress.is_text_open = True
        events.append(TextDeltaEvent(text_id=TEXT_ID, delta=visible))
        self._progress.parts.append(visible)
        return events

    def _model_output(self, generation: Generation) -> AsyncGenerator[str | GenerationEnd, None]:
        """The model's text, then its ``GenerationEnd``; nothing more after a Stop."""
        window_s = settings.ASSISTANT_STREAM_FLUSH_MS / 1000
        if window_s > 0:
            return self._model_output_gathered(generation, flush_window_s=window_s)
        return self._model_output_direct(generation)

    async def _model_output_direct(
        self, generation: Generation
    ) -> AsyncGenerator[str | GenerationEnd, None]:
        """The model's deltas read by the task that sends the answer (one task wake-up per
        read), each read taking every delta that is ready (``ModelReader``). A Stop cancels the
        wait for the model (``ModelWait``); a Stop that comes while text is being sent ends
        the model stream before the next read."""
        task = asyncio.current_task()
        assert task is not None
        wait = ModelWait(task)
        self._model_wait = wait
        reader: ModelReader[GenerationEnd] = ModelReader(generation.deltas())
        try:
            while not self._stop_requested.is_set():
                wait.is_waiting = True
                try:
                    text, ending = await reader.read()
                except asyncio.CancelledError:
                    wait.is_waiting = False
                    if wait.was_stop():
                        return
                    raise
                wait.is_waiting = False
                if wait.is_stopped:
                    # The Stop came as the text did: its cancellation is withdrawn unused.
                    wait.was_stop()
                    return
                if text:
                    yield text
                if ending is not None:
                    yield ending
                    return
                if reader.is_exhausted:
                    return
        finally:
            self._model_wait = None
            await reader.aclose()

    async def _model_output_gathered(
        self, generation: Generation, *, flush_window_s: float
    ) -> AsyncGenerator[str | GenerationEnd, None]:
        """The model call runs in its own task feeding a ``ModelMailbox``, so a Stop cancels the
        call at once (``stop()`` ends the mailbox) while this generator keeps control of the
        events. Text that arrives within the flush window of the last delta sent is gathered
        and sent as one delta."""
        mailbox = ModelMailbox(flush_window_s=flush_window_s)
        self._mailbox = mailbox
        pump = asyncio.ensure_future(generation.pump(mailbox.put))
        if self._stop_requested.is_set():
            mailbox.put(STOPPED)
        try:
            while True:
                text, ending = await mailbox.get()
                if text:
                    yield text
                if isinstance(ending, Stopped):
                    return
                if ending is not None:
                    yield ending
                    return
        finally:
            self._mailbox = None
            mailbox.close()
            if not pump.done():
                pump.cancel()
                await asyncio.shield(asyncio.gather(pump, return_exceptions=True))

    # --- endings -----------------------------------------------------------------------------

    async def _proposal_shown(self) -> str:
        """Make the action request's proposal (once) and return how the answer text shows it
        (``""`` when there is none)."""
        retrieval = self._progress.retrieval
        assert retrieval is not None
        if not self._progress.is_proposal_checked:
            self._progress.is_proposal_checked = True
            grounds = draft_grounds(sources=retrieval.sources, memory_notes=retrieval.memory_notes)
            self._progress.proposal = await proposal_for_answer(
                user=self.user,
                request_id=self.request.request_id,
                question=self.request.question,
                compiled_query=retrieval.compiled_query,
                scope_chat_ids=self.request.scope.chat_ids
                if self.request.scope.mode == "strict_chat"
                else (),
                run_sync=run_db,
                grounds=grounds,
            )
            if self._progress.proposal is not None:
                return proposal_paragraph(self._progress.proposal, grounds=grounds)
        return ""

    async def _complete(
        self, *, finish_reason: FinishReason, provider: str, model: str, removed_citation_count: int
    ) -> AsyncGenerator[EngineEvent, None]:
        retrieval = self._progress.retrieval
        assert retrieval is not None
        # --- proposals: an action request ends in at most one approval-gated proposal.
        await self._proposal_shown()
        if self._progress.proposal is not None:
            yield ProposalEvent.of(self._progress.proposal)
        # --- end of proposals.
        yield StatusEvent(phase="saving")
        cited = answering.cited_in(self._progress.text, retrieval)
        actions = answering.actions_for(retrieval, cited)
        finalize_started = time.monotonic()
        finalized = await run_db(
            services.turn_finalize,
            user=self.user,
            assistant_turn_id=self.assistant_turn_id,
            outcome=TurnOutcome(
                status=TurnStatus.COMPLETED,
                text=self._progress.text,
                citations=[c.as_wire() for c in retrieval.citations if c.source_id in cited],
                actions=[action.as_wire() for action in actions],
                removed_citation_count=removed_citation_count,
                provider=provider,
                model=model,
                finish_reason=finish_reason,
                route=retrieval.route,
                compiled_query=retrieval.compiled_query,
                index_status=retrieval.index_status,
            ),
            settle=self._settlement("completed"),
        )
        self._trace.add(
            "turn.finalize",
            start=finalize_started,
            duration_ms=(time.monotonic() - finalize_started) * 1000,
        )
        self._final_status = str(finalized.turn.status)
        self._progress.is_ended = True
        if not finalized.was_finalized:
            # A Stop or an expiry ended the turn first; its stored outcome wins.
            for event in closing_events(finalized.turn, thread=finalized.thread):
                yield event
            return
        yield FinishEvent(
            finish_reason=finish_reason,
            provider=provider,
            model=model,
            status=TurnStatus.COMPLETED,
            thread=thread_summary_of(finalized.thread),
            cited_source_ids=cited,
            actions=actions,
            removed_citation_count=removed_citation_count,
            cost_micro_usd=self._progress.cost_micro_usd,
        )

    async def _fail(self, failure: StreamFailure) -> AsyncGenerator[EngineEvent, None]:
        status = TurnStatus.PARTIAL if self._progress.text else TurnStatus.FAILED
        finalized = await self._interrupt(status, code=failure.code)
        if self._progress.is_text_open:
            yield TextEndEvent(text_id=TEXT_ID)
            self._progress.is_text_open = False
        yield ErrorEvent(
            code=failure.code,
            message=failure.message,
            retryable=failure.retryable,
            status=finalized.turn.status if finalized is not None else status,
        )

    async def _end_cancelled(self) -> AsyncGenerator[EngineEvent, None]:
        finalized = await self._interrupt(TurnStatus.CANCELLED, code="cancelled")
        if finalized is not None:
            cost = self._progress.cost_micro_usd if finalized.was_finalized else None
            for event in closing_events(
                finalized.turn, thread=finalized.thread, cost_micro_usd=cost
            ):
                yield event

    def _settlement(self, ending: str) -> Callable[[], object] | None:
        """The billing write that commits with the turn's final state; it records the cost."""
        retrieval = self._progress.retrieval
        telemetry = answering.telemetry_for(
            retrieval=retrieval,
            generation=self._progress.generation,
            duration_ms=int((time.monotonic() - self._started) * 1000),
            error_class="" if ending == "completed" else ending,
        )
        generation = self._progress.generation

        def settle() -> object:
            if generation is not None:
                usage = generation.settle(ending=ending, telemetry=telemetry)
            else:
                usage = answering.usage_record_without_model(
                    user=self.user, request=self.request, telemetry=telemetry
                )
            self._progress.cost_micro_usd = usage.settled_micro_usd
            return usage

        return settle

    async def _interrupt(self, status: TurnStatus, *, code: str) -> FinalizedTurn | None:
        """Store the answer as it stands with ``status`` and settle; once per session."""
        if self._progress.is_ended:
            return None
        self._progress.is_ended = True
        retrieval = self._progress.retrieval
        cited = answering.cited_in(self._progress.text, retrieval) if retrieval else ()
        generation = self._progress.generation
        finalize_started = time.monotonic()
        try:
            finalized = await run_db(
                services.turn_finalize,
                user=self.user,
                assistant_turn_id=self.assistant_turn_id,
                outcome=TurnOutcome(
                    status=status,
                    text=self._progress.text,
                    citations=[c.as_wire() for c in retrieval.citations if c.source_id in cited]
                    if retrieval
                    else [],
                    actions=[],
                    error_code="" if status == TurnStatus.CANCELLED else code,
                    provider=generation.provider if generation else "",
                    model=generation.model if generation else "",
                    finish_reason="other" if status == TurnStatus.CANCELLED else "error",
                    route=retrieval.route if retrieval else "",
                    compiled_query=retrieval.compiled_query if retrieval else None,
                    index_status=retrieval.index_status if retrieval else None,
                ),
                settle=self._settlement(status),
            )
        except Exception:
            logger.exception(
                "assistant.interruption_not_recorded",
                extra={"assistant_turn_id": self.assistant_turn_id, "status": str(status)},
            )
            return None
        self._trace.add(
            "turn.finalize",
            start=finalize_started,
            duration_ms=(time.monotonic() - finalize_started) * 1000,
        )
        self._final_status = str(finalized.turn.status)
        logger.info(
            "assistant.answer_interrupted",
            extra={
                "assistant_turn_id": self.assistant_turn_id,
                "status": finalized.turn.status,
                "code": code,
                "answer_chars": len(self._progress.text),
            },
        )
        return finalized
