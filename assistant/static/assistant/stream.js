// The Ask Claire stream adapter: one request to POST /api/assistant/messages, read as the
// AI SDK UI message stream, folded into one answer state. The Ask tab and the in-chat surface
// both use it; neither parses the stream itself. Described in docs/CLIENT.md.

export const MESSAGES_URL = "/api/assistant/messages";

export function newRequestId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// The state of one answer. `status` follows the stored turn: streaming, completed,
// cancelled, partial or failed.
export function answerState({ requestId, question, scope, retryOfTurnId = null }) {
  return {
    requestId, question, scope, retryOfTurnId,
    status: "streaming",
    phase: null,
    threadId: null, userTurnId: null, assistantTurnId: null,
    citations: [], indexStatus: null,
    text: "", isTextOpen: false,
    proposals: [],
    finish: null,
    error: null,
  };
}

// Fold one chunk into the state and return the name of what changed (the event a view
// listens to), or null for chunks that change nothing visible.
export function applyChunk(state, chunk) {
  switch (chunk.type) {
    case "start":
      return null;
    case "data-status":
      state.phase = chunk.data.phase;
      return "status";
    case "data-thread":
      state.threadId = chunk.data.threadId;
      state.userTurnId = chunk.data.userTurnId;
      state.assistantTurnId = chunk.data.assistantTurnId;
      return "thread";
    case "data-sources":
      state.citations = chunk.data.citations || [];
      state.indexStatus = chunk.data.indexStatus || null;
      return "sources";
    case "text-start":
      state.isTextOpen = true;
      return null;
    case "text-delta":
      state.text += chunk.delta;
      return "text";
    case "text-end":
      state.isTextOpen = false;
      return "text-end";
    case "data-proposal":
      state.proposals = [...state.proposals.filter((p) => p.proposalId !== chunk.data.proposalId), chunk.data];
      return "proposal";
    case "data-finish":
      state.finish = chunk.data;
      state.status = chunk.data.status;
      state.phase = null;
      return "finish";
    case "data-error":
      state.error = { code: chunk.data.code, retryable: chunk.data.retryable, message: "" };
      state.status = chunk.data.status;
      state.phase = null;
      return null;
    case "error":
      state.error = { ...(state.error || { code: "internal_error", retryable: true }), message: chunk.errorText };
      if (state.status === "streaming") state.status = state.text ? "partial" : "failed";
      state.phase = null;
      return "error";
    default:
      // finish and parts this client does not know yet.
      return null;
  }
}

// The JSON chunks of a server-sent event stream, in order, until `data: [DONE]`.
export async function* readChunks(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let boundary;
      while ((boundary = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        for (const line of event.split("\n")) {
          if (!line.startsWith("data:")) continue;
          const payload = line.slice(5).trimStart();
          if (payload === "[DONE]") return;
          yield JSON.parse(payload);
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}

// Ask one question. `onChange(state, what)` runs after every visible change; the promise
// resolves with the final state (it never rejects: a failure is `state.error`). `signal`
// aborts the request (the server then stores the answer as cancelled).
export async function ask({ question, scope, threadId = null, retryOfTurnId = null, signal, onChange = () => {} }) {
  const state = answerState({ requestId: newRequestId(), question, scope, retryOfTurnId });
  const body = { requestId: state.requestId, question, scope };
  if (threadId) body.threadId = threadId;
  if (retryOfTurnId) body.retryOfTurnId = retryOfTurnId;
  let response;
  try {
    response = await fetch(MESSAGES_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
      credentials: "same-origin",
      signal,
    });
  } catch (error) {
    return endWithoutServer(state, error, onChange);
  }
  if (!response.ok) {
    let failure = { code: "http_" + response.status, message: `The request failed (${response.status}).` };
    try { failure = (await response.json()).error; } catch (_) { /* not an API error body */ }
    state.status = "failed";
    state.error = { code: failure.code, message: failure.message, retryable: response.status >= 500 || failure.code === "request_in_progress", isBeforeStart: true };
    onChange(state, "error");
    return state;
  }
  try {
    for await (const chunk of readChunks(response.body)) {
      const what = applyChunk(state, chunk);
      if (what) onChange(state, what);
      if (chunk.type === "error") break;
    }
  } catch (error) {
    return endWithoutServer(state, error, onChange);
  }
  if (state.status === "streaming") {
    // The connection ended without a finish: the stored turn says what happened.
    state.status = "interrupted";
    state.error = { code: "stream_interrupted", message: "The connection was lost.", retryable: true };
    onChange(state, "error");
  }
  return state;
}

function endWithoutServer(state, error, onChange) {
  if (error && error.name === "AbortError") {
    state.status = "cancelled";
    state.phase = null;
    onChange(state, "stopped");
    return state;
  }
  state.status = state.assistantTurnId ? "interrupted" : "failed";
  state.phase = null;
  state.error = { code: "network_error", message: "The connection was lost.", retryable: true, isBeforeStart: !state.assistantTurnId };
  onChange(state, "error");
  return state;
}

async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let payload = null;
  try { payload = await response.json(); } catch (_) { /* empty body */ }
  if (!response.ok) {
    const error = new Error((payload && payload.error && payload.error.message) || `The request failed (${response.status}).`);
    error.status = response.status;
    error.code = payload && payload.error ? payload.error.code : "";
    throw error;
  }
  return payload;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) {
    const error = new Error(`The request failed (${response.status}).`);
    error.status = response.status;
    throw error;
  }
  return response.json();
}

// Stop an answer on the server (any server process); idempotent.
export function stopTurn(assistantTurnId) {
  return postJson(`/api/assistant/turns/${encodeURIComponent(assistantTurnId)}/cancel`);
}

export function fetchThreads({ before = null, limit = 20 } = {}) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set("before", before);
  return getJson(`/api/assistant/threads?${query}`);
}

export function fetchThreadTurns(threadId, { before = null, limit = 50 } = {}) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set("before", before);
  return getJson(`/api/assistant/threads/${encodeURIComponent(threadId)}/turns?${query}`);
}

export function fetchTurn(turnId) {
  return getJson(`/api/assistant/turns/${encodeURIComponent(turnId)}`);
}

// Follow a stored turn that is still streaming (after a reload) until its status is final,
// or for at most `maxWaitMs` (the server expires a stream whose process died after its lease).
export async function followTurn(turnId, { intervalMs = 700, maxWaitMs = 330_000 } = {}) {
  const giveUpAt = Date.now() + maxWaitMs;
  for (;;) {
    const turn = await fetchTurn(turnId);
    if (turn.status !== "streaming" || Date.now() > giveUpAt) return turn;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

// Proposals: the card calls these; the server reloads and verifies the proposal itself.
export function proposalDecide(proposalId, decision, body) {
  return postJson(`/api/proposals/${encodeURIComponent(proposalId)}/${decision}`, body);
}

// The state of an answer read back from history (GET .../turns), in the stream's shape.
export function stateFromTurns(userTurn, assistantTurn) {
  const state = answerState({ requestId: userTurn.requestId, question: userTurn.text, scope: userTurn.scope, retryOfTurnId: assistantTurn && assistantTurn.retryOfTurnId });
  state.userTurnId = userTurn.turnId;
  if (!assistantTurn) return state;
  state.assistantTurnId = assistantTurn.turnId;
  state.status = assistantTurn.status;
  state.text = assistantTurn.text;
  state.citations = assistantTurn.citations || [];
  state.indexStatus = assistantTurn.indexStatus || null;
  if (assistantTurn.status === "completed" || assistantTurn.status === "cancelled") {
    state.finish = {
      status: assistantTurn.status, provider: assistantTurn.provider || "", model: assistantTurn.model || "",
      finishReason: assistantTurn.finishReason || "", actions: assistantTurn.actions || [],
      citedSourceIds: state.citations.map((c) => c.id),
    };
    if (assistantTurn.costMicroUsd !== undefined) state.finish.costMicroUsd = assistantTurn.costMicroUsd;
  } else if (assistantTurn.status === "failed" || assistantTurn.status === "partial") {
    state.error = { code: assistantTurn.errorCode || "internal_error", message: "This answer did not finish.", retryable: true };
  }
  return state;
}
