// The chat column: appending with stick-to-bottom scrolling, and the thread status badge + stop button.

import { STATUS_LABELS, IDLE_STATUSES, els, app, announce } from "./state.js";
import { updateSendButton } from "./composer.js";

export function nearBottom(el) {
  return el.scrollHeight - el.scrollTop - el.clientHeight < 80;
}

export function appendChat(node) {
  const stick = nearBottom(els.chatLog);
  els.empty.hidden = true;
  els.chatLog.append(node);
  if (stick) scrollChat();
  return node;
}

let scrollPending = false;
export function scrollChat() {
  if (scrollPending) return;
  scrollPending = true;
  setTimeout(() => {
    scrollPending = false;
    els.chatLog.scrollTop = els.chatLog.scrollHeight;
  }, 0);
}

export function keepScrolled(fn) {
  const stick = nearBottom(els.chatLog);
  fn();
  if (stick) scrollChat();
}

export function setStatus(status, message) {
  const v = app.view;
  if (v && status) v.status = status;
  const s = status || "";
  els.threadStatus.textContent = s ? STATUS_LABELS[s] || s : "";
  els.threadStatus.dataset.status = s;
  els.threadStatus.hidden = !s;
  els.threadStatus.title = message || "";
  const running = !!s && !IDLE_STATUSES.has(s);
  els.stop.hidden = !running;
  els.stop.disabled = !running;
  updateSendButton();
  if (message) announce(message);
}
