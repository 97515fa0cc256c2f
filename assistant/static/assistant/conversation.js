// The shared answer UI: a conversation of turns (question, status, sources, answer, proposal,
// finish line, error with Retry) driven by the stream adapter. The Ask tab and the in-chat
// "Ask about this chat" surface both mount it.

import {
  answerState, ask, fetchThreadTurns, followTurn, proposalDecide, stateFromTurns, stopTurn,
} from "./stream.js";
import { finishedSentences, plainText, renderMarkdown } from "./markdown.js";

const PHASES = { retrieving: "Searching your conversations…", answering: "Writing the answer…", saving: "Saving the answer…" };
const PLATFORMS = {
  whatsapp: "WhatsApp", telegram: "Telegram", imessage: "iMessage", signal: "Signal", slack: "Slack",
  discord: "Discord", sms: "SMS", email: "Email",
};
// A Stop that the stream does not confirm within this time ends the request from this side.
const STOP_CONFIRM_MS = 2500;
// Turns per history page (a question and its answer are two).
const TURNS_PAGE = 100;

export function platformLabel(platform) {
  return PLATFORMS[platform] || platform || "";
}

export function formatCost(microUsd) {
  if (microUsd === undefined || microUsd === null) return "";
  if (microUsd === 0) return "no cost";
  const dollars = microUsd / 1e6;
  return dollars < 0.01 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`;
}

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// "Nov 24, 13:00" this year, "Nov 24, 2025, 13:00" before.
function formatTime(iso) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return "";
  const options = { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
  if (moment.getFullYear() !== new Date().getFullYear()) options.year = "numeric";
  return moment.toLocaleString(undefined, options);
}

let turnSequence = 0;

// One question and its answer.
export class TurnView {
  constructor({ onRetry }) {
    this.onRetry = onRetry;
    this.key = `turn-${++turnSequence}`;
    this.announcedChars = 0;
    this.renderScheduled = false;
    const article = make("article", "turn");
    article.setAttribute("aria-labelledby", `${this.key}-q`);
    this.element = article;
    this.question = make("h3", "question");
    this.question.id = `${this.key}-q`;
    this.question.tabIndex = -1;
    this.notice = make("p", "index-notice");
    this.notice.hidden = true;
    this.sources = make("section", "sources");
    this.sources.setAttribute("aria-label", "Sources");
    this.sources.hidden = true;
    this.sourceList = make("ol", "source-cards");
    this.sources.append(this.sourceList);
    this.answer = make("div", "answer");
    this.pending = make("p", "pending muted");
    this.pending.hidden = true;
    // Screen readers hear the answer a sentence at a time, not a token at a time.
    this.live = make("div", "visually-hidden");
    this.live.setAttribute("aria-live", "polite");
    this.proposals = make("div", "proposals");
    this.actions = make("div", "actions");
    this.meta = make("p", "finish-meta muted");
    this.meta.hidden = true;
    this.stopped = make("p", "stopped", "Stopped.");
    this.stopped.hidden = true;
    this.error = make("div", "error");
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    this.errorMessage = make("span", "message");
    this.retry = make("button", "retry", "Retry");
    this.retry.type = "button";
    this.retry.addEventListener("click", () => this.onRetry && this.onRetry(this));
    this.error.append(this.errorMessage, this.retry);
    article.append(this.question, this.notice, this.sources, this.pending, this.answer, this.live,
      this.proposals, this.actions, this.meta, this.stopped, this.error);
  }

  render(state, what) {
    this.state = state;
    if (what === "text") {
      // Tokens arrive faster than a screen refreshes: draw once per frame.
      if (!this.renderScheduled) {
        this.renderScheduled = true;
        requestAnimationFrame(() => { this.renderScheduled = false; this.drawText(false); });
      }
      return;
    }
    this.draw();
  }

  draw() {
    const state = this.state;
    this.question.textContent = state.question;
    this.element.dataset.status = state.status;
    if (state.assistantTurnId) this.element.dataset.turnId = state.assistantTurnId;
    this.drawNotice(state.indexStatus);
    this.drawSources();
    this.drawText(state.status !== "streaming");
    this.pending.hidden = !(state.status === "streaming" && state.isFollowing);
    this.pending.textContent = "Still answering… this turn will update when it ends.";
    this.drawProposals();
    this.drawFinish();
    this.stopped.hidden = state.status !== "cancelled";
    const failed = state.error && state.status !== "cancelled";
    this.error.hidden = !failed;
    if (failed) {
      this.errorMessage.textContent = state.error.message || "The answer failed.";
      this.retry.hidden = !(state.error.retryable || ["failed", "partial", "interrupted"].includes(state.status)) || !this.onRetry;
    }
  }

  drawNotice(indexStatus) {
    const incomplete = indexStatus && (indexStatus.state !== "ready" || indexStatus.pending > 0);
    this.notice.hidden = !incomplete;
    if (!incomplete) return;
    const { eligible = 0, embedded = 0 } = indexStatus;
    this.notice.textContent = eligible
      ? `Your messages are still being indexed (${embedded.toLocaleString()} of ${eligible.toLocaleString()} ready): this answer may miss some.`
      : "Your messages are still being indexed: this answer may miss some.";
  }

  citation(id) {
    return (this.state.citations || []).find((c) => c.id === id);
  }

  drawSources() {
    const state = this.state;
    let shown = state.citations || [];
    if (state.finish && state.finish.citedSourceIds) {
      const cited = new Set(state.finish.citedSourceIds);
      shown = shown.filter((c) => cited.has(c.id));
    }
    const signature = shown.map((c) => c.id).join(",");
    if (signature === this.sourcesSignature) return;
    this.sourcesSignature = signature;
    this.sourceList.replaceChildren(...shown.map((source) => this.sourceCard(source)));
    this.sources.hidden = shown.length === 0;
  }

  sourceCard(source) {
    const item = make("li", "source-card");
    item.id = `${this.key}-${source.id}`;
    const link = make("a", "source-link");
    link.href = source.navigation ? source.navigation.url : `/chats/${source.chatId}/?message=${source.messageId}`;
    link.append(make("span", "source-id", source.id), " ", make("span", "source-sender", source.sender));
    link.setAttribute("aria-label", `${source.id} ${source.sender}, in ${source.chat} on ${platformLabel(source.platform)}, ${formatTime(source.sentAt)}`);
    const where = make("span", "source-where muted", `${source.chat} · ${platformLabel(source.platform)} · `);
    const time = make("time", "source-time", formatTime(source.sentAt));
    time.dateTime = source.sentAt;
    where.append(time);
    const snippet = make("span", "source-snippet", source.snippet || "");
    item.append(link, where, snippet);
    return item;
  }

  citationLink(id) {
    const source = this.citation(id);
    if (!source) return null;
    const link = make("a", "cite", id);
    link.href = source.navigation ? source.navigation.url : `/chats/${source.chatId}/?message=${source.messageId}`;
    link.setAttribute("aria-label", `Source ${id}: ${source.sender} in ${source.chat}`);
    link.title = `${source.sender} · ${source.chat}`;
    return link;
  }

  drawText(isFinal) {
    const text = this.state.text;
    if (text !== this.drawnText) {
      this.drawnText = text;
      this.answer.replaceChildren(renderMarkdown(text, (id) => this.citationLink(id)));
    }
    // Announce what was not announced yet: whole sentences while streaming, the rest at the end.
    const unread = text.slice(this.announcedChars);
    const { sentences, rest } = finishedSentences(unread);
    this.announcedChars += unread.length - rest.length;
    if (isFinal && rest.trim()) {
      sentences.push(plainText(rest).trim());
      this.announcedChars = text.length;
    }
    if (sentences.length) this.live.append(make("p", "", sentences.join(" ")));
  }

  drawProposals() {
    for (const proposal of this.state.proposals || []) {
      if (this.proposals.querySelector(`[data-proposal-id="${CSS.escape(proposal.proposalId)}"]`)) continue;
      this.proposals.append(new ProposalCard(proposal).element);
    }
  }

  drawFinish() {
    const finish = this.state.finish;
    this.actions.replaceChildren();
    if (!finish) { this.meta.hidden = true; return; }
    for (const action of finish.actions || []) {
      let href = null;
      if (action.type === "open_conversation" && action.target) href = action.target.url;
      else if (action.type === "open_calendar") href = `/calendar/?date=${encodeURIComponent(action.date || "")}`;
      if (!href) continue;
      const link = make("a", "action", action.label);
      link.href = href;
      this.actions.append(link);
    }
    const parts = [];
    if (finish.model) parts.push(`Answered by ${finish.model}${finish.provider ? ` (${finish.provider})` : ""}`);
    else if (finish.status === "completed") parts.push("Answered from your messages without a model");
    const cost = formatCost(finish.costMicroUsd);
    if (cost) parts.push(cost === "no cost" ? cost : `cost ${cost}`);
    this.meta.textContent = parts.join(" · ");
    this.meta.hidden = parts.length === 0;
  }
}

// A proposed action (a drafted message) that waits for the user's decision. Nothing is sent
// unless the user approves the exact text the card shows: every decision names the card's
// payloadHash, and the server reloads and verifies the proposal (docs/PROPOSALS.md).
const PROPOSAL_STATUS = {
  proposed: "Nothing is sent until you approve.",
  approved: "Approved: your messaging bridge will send it.",
  queued: "Approved: your messaging bridge will send it.",
  outboxed: "Approved: your messaging bridge will send it.",
  sent: "Sent.",
  failed: "Sending failed.",
  rejected: "Rejected: Claire will not propose this again.",
  expired: "This proposal expired.",
};

export class ProposalCard {
  constructor(proposal) {
    this.proposalId = proposal.proposalId;
    this.payloadHash = proposal.payloadHash;
    const display = proposal.display || {};
    const card = make("section", "proposal-card");
    card.dataset.proposalId = proposal.proposalId;
    const titleId = `proposal-${proposal.proposalId}-title`;
    card.setAttribute("aria-labelledby", titleId);
    const recipient = display.recipientName || "someone";
    const title = make("h4", "proposal-title", `Draft to ${recipient}`);
    title.id = titleId;
    const where = make("p", "proposal-where muted", [display.chat, platformLabel(display.platform)].filter(Boolean).join(" · "));
    this.draft = make("textarea", "proposal-draft");
    this.draft.value = display.draftText || "";
    this.draft.readOnly = true;
    this.draft.setAttribute("aria-label", `Draft to ${recipient}`);
    this.status = make("p", "proposal-status");
    this.status.setAttribute("role", "status");
    const buttons = make("div", "proposal-buttons");
    this.approve = make("button", "", "Approve");
    this.edit = make("button", "secondary", "Edit");
    this.reject = make("button", "secondary", "Reject");
    for (const button of [this.approve, this.edit, this.reject]) button.type = "button";
    buttons.append(this.approve, this.edit, this.reject);
    card.append(title, where, this.draft, buttons, this.status);
    this.element = card;
    this.approve.addEventListener("click", () => this.decide("approve", { payloadHash: this.payloadHash }));
    this.reject.addEventListener("click", () => this.decide("reject", {}));
    this.edit.addEventListener("click", () => this.toggleEdit());
    this.show(proposal.status || "proposed");
  }

  toggleEdit() {
    if (this.draft.readOnly) {
      this.draft.readOnly = false;
      this.edit.textContent = "Save draft";
      this.approve.disabled = true;
      this.draft.focus();
      return;
    }
    this.decide("edit", { payloadHash: this.payloadHash, draftText: this.draft.value });
  }

  async decide(decision, body) {
    this.setBusy(true);
    let result;
    try {
      result = await proposalDecide(this.proposalId, decision, body);
    } catch (error) {
      this.status.textContent = error.message;
      this.setBusy(false);
      return;
    }
    if (decision === "edit") {
      // The edited text is a new version: approval must name its hash.
      this.payloadHash = result.payloadHash;
      this.draft.value = result.display ? result.display.draftText : this.draft.value;
      this.draft.readOnly = true;
      this.edit.textContent = "Edit";
      this.show(result.status || "proposed", "Draft saved.");
    } else if (decision === "approve") {
      // The answer is the receipt: queued until the bridge reports sent or failed.
      this.show(["sent", "failed"].includes(result.status) ? result.status : "approved");
    } else {
      this.show(result.status || "rejected");
    }
  }

  setBusy(isBusy) {
    for (const button of [this.approve, this.edit, this.reject]) button.disabled = isBusy;
  }

  show(status, note = "") {
    this.element.dataset.status = status;
    this.status.textContent = [note, PROPOSAL_STATUS[status] || status].filter(Boolean).join(" ");
    this.setBusy(status !== "proposed");
  }
}

// A list of turns with one answer streaming at a time.
export class Conversation {
  constructor({ turnsElement, statusElement, getScope, onThreadChange = () => {}, onBusyChange = () => {} }) {
    this.turnsElement = turnsElement;
    this.statusElement = statusElement;
    this.getScope = getScope;
    this.onThreadChange = onThreadChange;
    this.onBusyChange = onBusyChange;
    this.threadId = null;
    this.current = null;
    this.loadToken = 0;
  }

  get isBusy() {
    return this.current !== null;
  }

  setStatus(text) {
    this.statusElement.textContent = text;
  }

  reset() {
    this.loadToken++;
    this.threadId = null;
    this.turnsElement.replaceChildren();
    this.setStatus("");
  }

  // Show a stored thread: its turns oldest first; a turn still streaming is followed until
  // it ends. A failed turn that was retried shows only as its retry. Long threads show their
  // latest turns and a "Show earlier turns" button.
  async load(threadId) {
    const token = ++this.loadToken;
    this.threadId = threadId;
    const page = await fetchThreadTurns(threadId, { limit: TURNS_PAGE });
    if (token !== this.loadToken) return page.thread;
    this.turnsElement.replaceChildren();
    this.unpairedAnswers = new Map();
    this.retriedTurnIds = new Set();
    this.lastScope = null;
    this.insertStoredTurns(page.turns, null);
    this.showEarlierButton(page.nextCursor || null, token);
    this.setStatus("");
    return page.thread;
  }

  showEarlierButton(cursor, token) {
    this.earlierButton?.remove();
    this.earlierButton = null;
    if (!cursor) return;
    const button = make("button", "secondary earlier-turns", "Show earlier turns");
    button.type = "button";
    button.addEventListener("click", async () => {
      button.disabled = true;
      const page = await fetchThreadTurns(this.threadId, { limit: TURNS_PAGE, before: cursor });
      if (token !== this.loadToken) return;
      const first = this.turnsElement.querySelector(".turn");
      this.insertStoredTurns(page.turns, first);
      this.showEarlierButton(page.nextCursor || null, token);
      (first ? first.previousElementSibling : this.turnsElement.lastElementChild)?.querySelector(".question")?.focus();
    });
    this.earlierButton = button;
    this.turnsElement.prepend(button);
  }

  // Insert one history page (newest first) before `before` (null: at the end). An answer
  // whose question is on an older page waits for that page.
  insertStoredTurns(turns, before) {
    for (const turn of turns) {
      if (turn.role !== "assistant") continue;
      this.unpairedAnswers.set(turn.userTurnId, turn);
      if (turn.retryOfTurnId) this.retriedTurnIds.add(turn.retryOfTurnId);
    }
    const questions = turns.filter((t) => t.role === "user").reverse();
    if (!this.lastScope && questions.length) this.lastScope = questions[questions.length - 1].scope;
    for (const question of questions) {
      const answer = this.unpairedAnswers.get(question.turnId);
      this.unpairedAnswers.delete(question.turnId);
      if (answer && this.retriedTurnIds.has(answer.turnId)) continue;
      const state = stateFromTurns(question, answer);
      state.threadId = this.threadId;
      const view = new TurnView({ onRetry: (failed) => this.retry(failed) });
      this.turnsElement.insertBefore(view.element, before);
      view.render(state, "history");
      if (state.status === "streaming") this.follow(view, state);
    }
  }

  async follow(view, state) {
    state.isFollowing = true;
    view.render(state, "history");
    try {
      const turn = await followTurn(state.assistantTurnId);
      const question = { turnId: state.userTurnId, text: state.question, requestId: state.requestId, scope: state.scope };
      const final = stateFromTurns(question, turn);
      final.threadId = state.threadId;
      view.render(final, "history");
    } catch (_) {
      state.isFollowing = false;
      view.render(state, "history");
    }
  }

  newView() {
    const view = new TurnView({ onRetry: (failed) => this.retry(failed) });
    this.turnsElement.append(view.element);
    return view;
  }

  async ask(question, { scope = this.getScope(), view = null, retryOfTurnId = null } = {}) {
    if (this.current) return null;
    const turnView = view || this.newView();
    const controller = new AbortController();
    const current = { view: turnView, controller, state: null, stopRequested: false };
    this.current = current;
    this.onBusyChange(true);
    this.setStatus(PHASES.retrieving);
    // The question shows at once, before the server answers.
    turnView.render(answerState({ requestId: "", question, scope, retryOfTurnId }), "asked");
    turnView.element.scrollIntoView({ block: "nearest" });
    const state = await ask({
      question, scope, retryOfTurnId,
      threadId: retryOfTurnId ? null : this.threadId,
      signal: controller.signal,
      onChange: (changed, what) => {
        current.state = changed;
        if (what === "thread" && changed.threadId !== this.threadId) {
          this.threadId = changed.threadId;
          this.onThreadChange(changed.threadId, null);
        }
        if (what === "status" && changed.phase) this.setStatus(PHASES[changed.phase] || "");
        if (what === "thread" && current.stopRequested) this.sendStop(current);
        turnView.render(changed, what);
      },
    });
    clearTimeout(current.stopTimer);
    this.current = null;
    this.onBusyChange(false);
    turnView.render(state, "end");
    if (state.status === "cancelled") this.setStatus("Stopped.");
    else if (state.error) this.setStatus("The answer failed.");
    else this.setStatus("");
    if (state.finish && state.finish.thread) this.onThreadChange(state.threadId, state.finish.thread);
    else if (state.threadId) {
      // No finish (a failure): the thread exists all the same, titled by its question.
      this.onThreadChange(state.threadId, { threadId: state.threadId, title: question, kind: scope.mode === "strict_chat" ? "chat" : "global", lastActivityAt: new Date().toISOString() });
    }
    return state;
  }

  // Stop asks the server to end the answer (it confirms with a cancelled finish); the
  // request is dropped from this side only if no confirmation comes.
  stop() {
    const current = this.current;
    if (!current || current.stopRequested) return;
    current.stopRequested = true;
    this.setStatus("Stopping…");
    if (current.state && current.state.assistantTurnId) this.sendStop(current);
    current.stopTimer = setTimeout(() => current.controller.abort(), STOP_CONFIRM_MS);
  }

  sendStop(current) {
    stopTurn(current.state.assistantTurnId).catch(() => current.controller.abort());
  }

  retry(view) {
    const failed = view.state;
    if (!failed || this.current) return;
    const retryOf = failed.assistantTurnId;
    // The retry takes the failed turn's place, so the thread shows one turn for the question.
    const fresh = new TurnView({ onRetry: (next) => this.retry(next) });
    view.element.replaceWith(fresh.element);
    fresh.question.focus();
    if (failed.threadId) this.threadId = failed.threadId;
    return this.ask(failed.question, { scope: failed.scope || this.getScope(), view: fresh, retryOfTurnId: retryOf });
  }
}

// Wire an ask box (form, textarea, Ask and Stop buttons) to a conversation: Enter asks,
// Shift+Enter starts a new line.
export function bindAskBox({ form, textarea, stopButton, conversation, onAsk = () => {} }) {
  const submitButton = form.querySelector("[type=submit]");
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const question = textarea.value.trim();
    if (!question || conversation.isBusy) return;
    textarea.value = "";
    onAsk(question);
    conversation.ask(question);
  });
  stopButton.addEventListener("click", () => conversation.stop());
  const previous = conversation.onBusyChange;
  conversation.onBusyChange = (busy) => {
    submitButton.disabled = busy;
    stopButton.hidden = !busy;
    if (!busy && document.activeElement === stopButton) textarea.focus();
    previous(busy);
  };
}
