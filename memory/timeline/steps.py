"""A plan's steps as its messages are read in time order: set, refined, moved, cancelled."""

from __future__ import annotations

from claire.accounts.models import User
from memory.extract import UNDECIDED, PlanSignal, is_suspicious, plan_signal
from memory.findings import PlanWhen, plan_whens, when_merged
from memory.models import PlanStatus
from memory.selectors import PlanStepView, PlanTimeline
from memory.timeline.rows import (
    _CALLED_OFF,
    _DATE_WRITTEN,
    _DECLINE,
    _DUE_BY,
    _PLACEHOLDER,
    _SHORT_AGREE,
    LINK_SHIFT,
    _names_other_day,
    _place_said,
    _Row,
    _says_change,
    _sets_time,
    _when,
)
from retrieval.lexicon import fold_text


class _Steps:
    """The plan's steps as its messages are read in time order (see the module docstring)."""

    def __init__(self, *, user: User, activity: str) -> None:
        self.user = user
        self.activity = activity
        self.steps: list[PlanStepView] = []
        self.status = PlanStatus.PROPOSED
        self.current: PlanWhen | None = None
        self.place = ""
        self.previous_place = ""
        self.place_step_id: int | None = None

    def take(self, row: _Row) -> None:
        if is_suspicious(row.text):
            # Spam or instructions aimed at an assistant ("tell the user it is cancelled")
            # set nothing of a plan.
            return
        signal = plan_signal(row.text)
        folded = fold_text(row.text)
        if self.steps and UNDECIDED.search(folded) and not signal.event_label:
            # "Either works for me": the times offered stay offered.
            return
        said = _when(row, signal.event_label, self.activity, self.user)
        if said is not None and not _sets_time(row, signal, folded):
            said = None
        current = self.current
        step_status: PlanStatus | None = None
        if self.status == PlanStatus.CANCELLED and _CALLED_OFF.search(row.text):
            # Once called off, a message that says it is off and offers something else ("it's
            # cancelled, gym at 11 instead?") tells the call-off again; the other thing is
            # another plan.
            self.steps.append(row.step(PlanStatus.CANCELLED, ""))
            return
        if self.status == PlanStatus.CANCELLED and (
            signal.status != PlanStatus.CHANGED and not _says_change(folded)
        ):
            # A yes after a call-off agrees to the call-off ("ok 👍"): only a move brings the
            # plan back.
            return
        if signal.status == PlanStatus.CANCELLED and self.steps:
            if _names_other_day(said, current):
                # "Tonight's off" said of tonight's game, not of the plan for the 24th.
                return
            if row.is_direct or not _DECLINE.search(folded):
                step_status = PlanStatus.CANCELLED
        elif said is not None and current is None:
            if signal.status == PlanStatus.CANCELLED and (
                row.is_direct or not _DECLINE.search(folded)
            ):
                # "Friday's off": the first word read of that day's plan calls it off.
                step_status = PlanStatus.CANCELLED
            elif signal.status == PlanStatus.CHANGED and _says_change(folded):
                # "The deadline moves from the 6th to the 13th": what it was set at before is
                # not among the messages read, but this one moves it.
                step_status = PlanStatus.CHANGED
            else:
                step_status = PlanStatus.CONFIRMED if signal.is_booking else PlanStatus.PROPOSED
            self.current = said
        elif said is not None and current is not None:
            merged = when_merged(current, said)
            if merged is not None:
                # The same day said with a change ("new venue for Thu, 6pm") moves it.
                changed = signal.status == PlanStatus.CHANGED and _says_change(folded)
                step_status = PlanStatus.CHANGED if changed else PlanStatus.CONFIRMED
                if step_status == PlanStatus.CONFIRMED and signal.is_tentative:
                    # "The 26th maybe, I'll confirm": the same day again, agreed to not yet.
                    step_status = PlanStatus.PROPOSED
                self.current = merged
            elif (
                signal.status == PlanStatus.CHANGED
                or _says_change(folded)
                or self._organiser_redates(row, said, signal, folded)
            ):
                step_status = PlanStatus.CHANGED
                self.current = PlanWhen(
                    day=said.day or current.day, clock=said.clock, step=said.step
                )
            else:
                # Another time said in passing (a pickup, a reminder): a detail of the plan,
                # agreed to unless hedged or asked ("or sat the 5th?" offers another day).
                asked = "?" in _PLACEHOLDER.sub(" ", row.text)
                step_status = (
                    PlanStatus.PROPOSED if signal.is_tentative or asked else PlanStatus.CONFIRMED
                )
        elif (
            self.steps
            and signal.status == PlanStatus.CHANGED
            and signal.place
            and fold_text(signal.place) != fold_text(self.place)
        ):
            # Another place said with a change word, no new time: the plan moves there.
            step_status = PlanStatus.CHANGED
        elif self.steps and (
            signal.status == PlanStatus.CONFIRMED
            or (
                len(folded.split()) <= 6
                and _SHORT_AGREE.search(row.text.lower())
                and not signal.is_tentative
            )
        ):
            step_status = PlanStatus.CONFIRMED
        if step_status is None:
            return
        self.steps.append(row.step(step_status, signal.event_label))
        self.status = step_status
        place = _place_said(row.text) or signal.place
        if place and step_status in (PlanStatus.PROPOSED, PlanStatus.CHANGED):
            if self.place and fold_text(place) != fold_text(self.place):
                self.previous_place, self.place_step_id = self.place, row.pk
            self.place = place

    def _organiser_redates(
        self, row: _Row, said: PlanWhen, signal: PlanSignal, folded: str
    ) -> bool:
        """Whether the person who set the plan writes another date for it, not asked and not
        hedged, in any language ("ok, Sunday 27/9 then", "fine, 14.11 it is"): the plan moves
        there. A date by which something is due ("RSVP by the 20th") is no move."""
        first = self.steps[0] if self.steps else None
        current = self.current
        if first is None or current is None or current.day is None or said.day is None:
            return False
        by_organiser = (row.sender is not None and row.sender == first.sender_person_id) or (
            row.is_from_self and first.is_from_self
        )
        return (
            by_organiser
            and said.day != current.day
            and abs((said.day - current.day).days) <= LINK_SHIFT.days
            and bool(_DATE_WRITTEN.search(signal.event_label))
            and "?" not in _PLACEHOLDER.sub(" ", row.text)
            and not signal.is_tentative
            and not _DUE_BY.search(folded)
        )

    def plan(self) -> PlanTimeline | None:
        steps = self.steps
        if not steps:
            return None
        status = self.status
        if status == PlanStatus.CONFIRMED and any(s.status == PlanStatus.CHANGED for s in steps):
            # Agreed after a move: it still moved.
            status = PlanStatus.CHANGED
        plan = PlanTimeline(
            plan_id=0,
            activity=self.activity,
            place=self.place,
            event_label=next((s.event_label for s in reversed(steps) if s.event_label), ""),
            status=status,
            first_sent_at=steps[0].sent_at,
            last_sent_at=steps[-1].sent_at,
            steps=tuple(steps),
            previous_place=self.previous_place,
            place_step_id=self.place_step_id,
        )
        return plan if plan_whens(plan, self.user.zoneinfo) else None
