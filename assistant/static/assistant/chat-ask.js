// "Ask about this chat": the same conversation UI inside a chat view, every question scoped to
// this one chat (strict_chat).

import { Conversation, bindAskBox } from "./conversation.js";

function mount() {
  const root = document.getElementById("chat-ask");
  if (!root) return;
  const chatId = root.dataset.chatId;
  const toggle = document.getElementById("chat-ask-toggle");
  const panel = document.getElementById("chat-ask-panel");
  const textarea = document.getElementById("chat-question");
  const conversation = new Conversation({
    turnsElement: document.getElementById("chat-turns"),
    statusElement: document.getElementById("chat-status"),
    getScope: () => ({ mode: "strict_chat", chatId }),
  });
  bindAskBox({ form: document.getElementById("chat-ask-form"), textarea, stopButton: document.getElementById("chat-stop-button"), conversation });
  toggle.addEventListener("click", () => {
    const isOpen = toggle.getAttribute("aria-expanded") === "true";
    toggle.setAttribute("aria-expanded", String(!isOpen));
    panel.hidden = isOpen;
    if (!isOpen) textarea.focus();
  });
}

mount();
