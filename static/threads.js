// The threads panel and which thread is open (the URL hash names it).

import { h, clear, formatTime } from "./dom.js";
import { STATUS_LABELS, els, app, newView, emitAck, flowTitle } from "./state.js";
import { setStatus } from "./chat.js";
import { joinThread } from "./socket.js";
import { renderTabs, renderCanvas } from "./canvas.js";
import { updateFlowHint } from "./composer.js";

let threadsTimer = null;
export function refreshThreadsSoon() {
  clearTimeout(threadsTimer);
  threadsTimer = setTimeout(refreshThreads, 400);
}

export async function refreshThreads() {
  const ack = await emitAck("thread:list", {});
  if (!ack.ok) return;
  app.threads = Array.isArray(ack.threads) ? ack.threads : [];
  renderThreadList();
}

export function renderThreadList() {
  clear(els.threadList);
  if (!app.threads.length) {
    els.threadList.append(h("li", { class: "muted" }, "还没有会话"));
    return;
  }
  const sorted = [...app.threads].sort((a, b) => (b.updatedAt || 0) - (a.updatedAt || 0));
  for (const t of sorted) {
    const active = app.view?.threadId === t.threadId;
    els.threadList.append(
      h("li", null,
        h("a", {
          href: `#thread=${encodeURIComponent(t.threadId)}`,
          class: `thread-link${active ? " active" : ""}`,
          "aria-current": active ? "page" : null,
          dataset: { threadId: t.threadId },
        },
        h("span", { class: "thread-link-title" }, t.title || t.threadId),
        h("span", { class: "thread-link-meta" },
          h("span", { class: "tag" }, flowTitle(t.flow)),
          h("span", { class: `status-dot status-${t.status}` }, STATUS_LABELS[t.status] || t.status),
          h("span", null, formatTime(t.updatedAt))))));
    if (active && t.title && !app.view.title) setThreadTitle(t.title);
  }
}

export function setThreadTitle(title) {
  if (!app.view) return;
  app.view.title = title;
  els.threadTitle.textContent = title;
  document.title = `${title} · Agent Canvas`;
}

export function threadFromHash() {
  const m = /(?:^#|&)thread=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

export function openThread(threadId, { updateHash = true } = {}) {
  if (app.view?.threadId === threadId) return;
  resetView(newView(threadId));
  if (updateHash && threadFromHash() !== threadId) location.hash = `thread=${encodeURIComponent(threadId)}`;
  renderThreadList();
  if (app.socket?.connected) joinThread(app.view);
}

export function resetView(view) {
  if (app.view?.gapTimer) clearTimeout(app.view.gapTimer);
  app.view = view;
  clear(els.chatLog);
  els.chatLog.append(els.empty);
  els.empty.hidden = !!view;
  els.threadTitle.textContent = view ? "" : "新会话";
  document.title = "Agent Canvas";
  setStatus(view ? "idle" : null);
  renderTabs();
  renderCanvas();
  updateFlowHint();
}

export function startNewThread() {
  resetView(null);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  renderThreadList();
  els.input.focus();
}
