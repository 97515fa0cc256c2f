// The Ask tab: thread list (newest first, keyset pages), the open thread's turns, and the ask
// box with its scope picker. The thread in view is in the address (?thread=<id>), so a reload
// shows the same thread as it is stored, including an answer that is still streaming.

import { fetchThreads } from "./stream.js";
import { Conversation, bindAskBox } from "./conversation.js";

const MAX_PREFERRED = 5;

const byId = (id) => document.getElementById(id);

function scopeFromPicker() {
  const mode = byId("scope-mode").value;
  if (mode === "strict_chat") return { mode, chatId: byId("scope-chat").value };
  if (mode === "preferred") {
    const chatIds = [...document.querySelectorAll("#scope-preferred input:checked")].map((box) => box.value);
    if (chatIds.length) return { mode, chatIds };
  }
  return { mode: "global" };
}

function showScope(scope) {
  const mode = scope && scope.mode ? scope.mode : "global";
  byId("scope-mode").value = mode;
  if (mode === "strict_chat") byId("scope-chat").value = String(scope.chatId);
  if (mode === "preferred") {
    const wanted = new Set((scope.chatIds || []).map(String));
    for (const box of document.querySelectorAll("#scope-preferred input")) box.checked = wanted.has(box.value);
  }
  syncScopeControls();
}

function syncScopeControls() {
  const mode = byId("scope-mode").value;
  byId("scope-chat-row").hidden = mode !== "strict_chat";
  byId("scope-preferred").hidden = mode !== "preferred";
  const boxes = [...document.querySelectorAll("#scope-preferred input")];
  const checked = boxes.filter((box) => box.checked).length;
  for (const box of boxes) box.disabled = !box.checked && checked >= MAX_PREFERRED;
  byId("scope-preferred-count").textContent = `${checked} of at most ${MAX_PREFERRED} chosen`;
}

class ThreadList {
  constructor({ list, moreButton, onOpen }) {
    this.list = list;
    this.moreButton = moreButton;
    this.onOpen = onOpen;
    this.cursor = null;
    this.items = new Map();
    moreButton.addEventListener("click", () => this.loadMore());
  }

  async loadMore() {
    let page;
    try {
      page = await fetchThreads({ before: this.cursor, limit: 20 });
    } catch (_) {
      this.moreButton.hidden = false;
      this.moreButton.textContent = "Threads could not be loaded: try again";
      return;
    }
    this.moreButton.textContent = "Load older threads";
    for (const thread of page.threads) this.put(thread, false);
    this.cursor = page.nextCursor || null;
    this.moreButton.hidden = !this.cursor;
    if (!this.list.children.length) this.list.append(Object.assign(document.createElement("li"), { className: "muted empty", textContent: "No threads yet." }));
  }

  // Add or update a thread; a thread with new activity moves to the top.
  put(thread, toTop) {
    this.list.querySelector(".empty")?.remove();
    let item = this.items.get(thread.threadId);
    if (!item) {
      item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/?thread=${encodeURIComponent(thread.threadId)}`;
      link.addEventListener("click", (event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        this.onOpen(thread.threadId, true);
      });
      const time = document.createElement("time");
      time.className = "muted";
      item.append(link, time);
      this.items.set(thread.threadId, item);
    }
    const link = item.querySelector("a");
    link.textContent = thread.title || "Untitled thread";
    if (thread.kind === "chat") link.prepend(Object.assign(document.createElement("span"), { className: "badge", textContent: "chat" }), " ");
    const time = item.querySelector("time");
    time.dateTime = thread.lastActivityAt;
    time.textContent = new Date(thread.lastActivityAt).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
    if (toTop) this.list.prepend(item);
    else if (!item.parentNode) this.list.append(item);
  }

  markCurrent(threadId) {
    for (const [id, item] of this.items) {
      const link = item.querySelector("a");
      if (id === threadId) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }
}

function mount() {
  const textarea = byId("question");
  const conversation = new Conversation({
    turnsElement: byId("turns"),
    statusElement: byId("status"),
    getScope: scopeFromPicker,
  });
  const threads = new ThreadList({
    list: byId("thread-list"),
    moreButton: byId("more-threads"),
    onOpen: (threadId, isUserAction) => openThread(threadId, isUserAction),
  });

  async function openThread(threadId, isUserAction) {
    if (conversation.isBusy) return;
    if (isUserAction) history.pushState({ threadId }, "", `/?thread=${encodeURIComponent(threadId)}`);
    threads.markCurrent(threadId);
    try {
      const thread = await conversation.load(threadId);
      byId("thread-title").textContent = thread.title || "Untitled thread";
      if (conversation.lastScope) showScope(conversation.lastScope);
    } catch (error) {
      byId("thread-title").textContent = error.status === 404 ? "This thread does not exist." : "The thread could not be loaded.";
    }
    if (isUserAction) textarea.focus();
  }

  function newThread() {
    if (conversation.isBusy) return;
    conversation.reset();
    threads.markCurrent(null);
    byId("thread-title").textContent = "New thread";
    history.pushState({ threadId: null }, "", "/");
    textarea.focus();
  }

  conversation.onThreadChange = (threadId, thread) => {
    if (!thread) {
      history.replaceState({ threadId }, "", `/?thread=${encodeURIComponent(threadId)}`);
      threads.markCurrent(threadId);
      return;
    }
    threads.put(thread, true);
    threads.markCurrent(threadId);
    byId("thread-title").textContent = thread.title || "Untitled thread";
  };
  bindAskBox({ form: byId("ask-form"), textarea, stopButton: byId("stop-button"), conversation });
  byId("new-thread").addEventListener("click", newThread);
  byId("scope-mode").addEventListener("change", syncScopeControls);
  byId("scope-preferred").addEventListener("change", syncScopeControls);
  window.addEventListener("popstate", () => {
    const threadId = new URLSearchParams(location.search).get("thread");
    if (threadId) openThread(threadId, false);
    else { conversation.reset(); threads.markCurrent(null); byId("thread-title").textContent = "New thread"; }
  });
  if (window.matchMedia("(min-width: 760px)").matches) byId("threads").open = true;
  syncScopeControls();
  threads.loadMore().then(() => {
    const threadId = new URLSearchParams(location.search).get("thread");
    if (threadId) openThread(threadId, false);
  });
}

mount();
