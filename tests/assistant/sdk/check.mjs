// Feeds captured Ask Claire SSE bodies through the AI SDK's own client stack, for each pinned
// major version: DefaultChatTransport (fetch -> parseJsonEventStream + uiMessageChunkSchema)
// and readUIMessageStream (the state machine useChat runs). On top of what the SDK enforces,
// it checks the rules a client depends on but the parser tolerates: [DONE] at the end, every
// event closed by a blank line, no null values, text deltas only for an opened text id, the
// sources part before the first text, and an error chunk as the last chunk.
//
// Usage: node check.mjs FILE...   Prints one JSON report per file; exits 1 on any violation.
import { readFile } from "node:fs/promises";

const VERSIONS = ["ai-v5", "ai-v6", "ai"];

function protocolViolations(raw) {
  const violations = [];
  if (!raw.endsWith("data: [DONE]\n\n")) violations.push("stream does not end with data: [DONE]");
  const events = raw.split("\n\n");
  if (events[events.length - 1] !== "") violations.push("last event is not closed by a blank line");
  const chunks = [];
  for (const event of events.slice(0, -1)) {
    if (!event.startsWith("data: ")) {
      violations.push(`event is not a single data line: ${JSON.stringify(event.slice(0, 80))}`);
      continue;
    }
    if (event.includes("\n")) violations.push("event spans several lines");
    const payload = event.slice("data: ".length);
    if (payload === "[DONE]") continue;
    try {
      chunks.push(JSON.parse(payload));
    } catch {
      violations.push(`not JSON: ${payload.slice(0, 80)}`);
    }
  }
  const hasNull = (value) =>
    value === null ||
    (typeof value === "object" && Object.values(value).some((inner) => hasNull(inner)));
  const open = new Set();
  let sawText = false;
  let sawSources = false;
  chunks.forEach((chunk, index) => {
    if (hasNull(chunk)) violations.push(`null value in ${chunk.type} chunk`);
    if (chunk.type === "text-start") {
      open.add(chunk.id);
      sawText = true;
    }
    if ((chunk.type === "text-delta" || chunk.type === "text-end") && !open.has(chunk.id)) {
      violations.push(`${chunk.type} for unopened text id ${chunk.id}`);
    }
    if (chunk.type === "text-end") open.delete(chunk.id);
    if (chunk.type === "data-sources") {
      if (sawText) violations.push("data-sources after text");
      sawSources = true;
    }
    if (chunk.type === "error" && index !== chunks.length - 1) {
      violations.push("chunks after an error chunk");
    }
  });
  if (sawText && !sawSources) violations.push("text without a data-sources part");
  if (chunks[0]?.type !== "start") violations.push("first chunk is not start");
  return { chunks, violations };
}

function firstLine(error) {
  return String(error?.message ?? error).split("\n")[0].slice(0, 300);
}

async function throughSdk(version, raw) {
  const sdk = await import(version);
  const sentHeaders = [];
  const transport = new sdk.DefaultChatTransport({
    api: "/api/assistant/messages",
    headers: { Accept: "text/event-stream" },
    fetch: async (_url, init) => {
      sentHeaders.push(init.headers);
      return new Response(raw, {
        status: 200,
        headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" },
      });
    },
  });
  const errors = [];
  const stream = await transport.sendMessages({
    chatId: "conformance",
    trigger: "submit-message",
    messageId: undefined,
    messages: [{ id: "q1", role: "user", parts: [{ type: "text", text: "When is dinner?" }] }],
    abortSignal: undefined,
  });
  let message;
  try {
    for await (const state of sdk.readUIMessageStream({
      stream,
      terminateOnError: true,
      onError: (error) => errors.push(firstLine(error)),
    })) {
      message = state;
    }
  } catch (error) {
    errors.push(firstLine(error));
  }
  const parts = message?.parts ?? [];
  return {
    acceptSent: JSON.stringify(sentHeaders[0] ?? {}).includes("text/event-stream"),
    text: parts.filter((part) => part.type === "text").map((part) => part.text).join(""),
    dataParts: parts.filter((part) => part.type.startsWith("data-")).map((part) => part.type),
    messageId: message?.id ?? null,
    // With terminateOnError the same error reaches onError and the iterator: count it once.
    errors: [...new Set(errors)],
  };
}

let failed = false;
for (const file of process.argv.slice(2)) {
  const raw = await readFile(file, "utf8");
  const { chunks, violations } = protocolViolations(raw);
  // The one error a client may report is the server's own error chunk, shown to the user.
  const expectedErrors = chunks.filter((c) => c.type === "error").map((c) => c.errorText);
  const versions = {};
  for (const version of VERSIONS) {
    try {
      versions[version] = await throughSdk(version, raw);
    } catch (error) {
      versions[version] = { errors: [`transport: ${firstLine(error)}`] };
    }
    const errors = versions[version].errors;
    if (JSON.stringify(errors) !== JSON.stringify(expectedErrors)) {
      violations.push(`${version}: client errors ${JSON.stringify(errors)}`);
    }
    if (!versions[version].acceptSent) violations.push(`${version}: Accept header not sent`);
  }
  if (violations.length) failed = true;
  console.log(JSON.stringify({ file, ok: violations.length === 0, violations, versions }));
}
process.exit(failed ? 1 : 0);
