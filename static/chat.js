// The chat column: appending with stick-to-bottom scrolling, and the thread status badge + stop button.

import { STATUS_LABELS, IDLE_STATUSES, els, app, announce, isConnected } from "./state.js";
import { tr } from "./i18n.js";
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
  if (v && status) {
    v.status = status;
    v.statusMessage = message || "";
  }
  showStatus(status || "", message);
  if (message) announce(message);
}

/** The status badge and Stop for `s`. Cut off from the server, a running thread's state is unknown
 *  (it may have ended meanwhile) and Stop could not reach it: the badge says "reconnecting" instead,
 *  until the re-join's replay is in and tells the real status (socket.js `reconcileAfterJoin`). */
function showStatus(s, message) {
  const running = !!s && !IDLE_STATUSES.has(s);
  const reconnecting = running && (!isConnected() || !!app.view?.rejoining);
  const shown = reconnecting ? "reconnecting" : s;
  els.threadStatus.textContent = shown ? STATUS_LABELS[shown] || shown : "";
  els.threadStatus.dataset.status = shown;
  els.threadStatus.hidden = !shown;
  els.threadStatus.title = reconnecting ? tr("not_connected") : message || "";
  els.stop.hidden = !running || reconnecting;
  els.stop.disabled = !running || reconnecting;
  updateSendButton();
}

/** The connection went down or came back: the header, the run cards and Send follow at once. */
export function connectionChanged() {
  showStatus(app.view?.status || "", app.view?.statusMessage);
  for (const run of app.view?.runs.values() ?? []) run.showStatus();
}
