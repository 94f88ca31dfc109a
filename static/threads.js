// The threads panel (open, rename, delete) and which thread is open (the URL hash names it).

import { h, clear, formatTime } from "./dom.js";
import { STATUS_LABELS, els, app, newView, emitAck, errText, flowTitle, announce } from "./state.js";
import { setStatus, appendChat } from "./chat.js";
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

// While a title is being edited the list is not redrawn under it; it is once the edit ends.
let editing = null; // {threadId, saving}

const FOCUSABLE_PARTS = ["thread-link", "thread-rename", "thread-delete"];

export function renderThreadList() {
  if (editing) return;
  // A redraw (a run's status, another tab's rename) keeps the keyboard where it was.
  const focused = els.threadList.contains(document.activeElement) ? document.activeElement : null;
  const keep = focused && {
    threadId: focused.closest("li")?.dataset.threadId,
    part: FOCUSABLE_PARTS.find((c) => focused.classList.contains(c)),
  };
  clear(els.threadList);
  if (!app.threads.length) {
    els.threadList.append(h("li", { class: "muted" }, "还没有会话"));
    return;
  }
  const sorted = [...app.threads].sort((a, b) => (b.updatedAt || 0) - (a.updatedAt || 0));
  for (const t of sorted) {
    const active = app.view?.threadId === t.threadId;
    const title = t.title || t.threadId;
    const item = h("li", { class: "thread-item", dataset: { threadId: t.threadId } },
      h("a", {
        href: `#thread=${encodeURIComponent(t.threadId)}`,
        class: `thread-link${active ? " active" : ""}`,
        "aria-current": active ? "page" : null,
        dataset: { threadId: t.threadId },
      },
      h("span", { class: "thread-link-title" }, title),
      h("span", { class: "thread-link-meta" },
        h("span", { class: "tag" }, flowTitle(t.flow)),
        h("span", { class: `status-dot status-${t.status}` }, STATUS_LABELS[t.status] || t.status),
        h("span", null, formatTime(t.updatedAt)))),
      h("div", { class: "thread-actions" },
        h("button", {
          type: "button", class: "btn btn-small thread-rename", "aria-label": `重命名会话「${title}」`,
          dataset: { testid: "thread-rename" }, onclick: () => startRename(item, t),
        }, "重命名"),
        h("button", {
          type: "button", class: "btn btn-small btn-danger thread-delete", "aria-label": `删除会话「${title}」`,
          dataset: { testid: "thread-delete" }, onclick: () => askDelete(t),
        }, "删除")));
    els.threadList.append(item);
    if (active && t.title && !app.view.title) setThreadTitle(t.title);
  }
  if (keep?.part) itemPart(keep.threadId, keep.part)?.focus();
}

function itemPart(threadId, cls) {
  return [...els.threadList.querySelectorAll(`li.thread-item .${cls}`)]
    .find((b) => b.closest("li").dataset.threadId === threadId) || null;
}

// ------------------------------------------------------------------ rename: inline, Enter saves, Esc cancels

function startRename(item, thread) {
  if (editing) return;
  editing = { threadId: thread.threadId, saving: false };
  const error = h("p", { class: "thread-rename-error", role: "alert" });
  const input = h("input", {
    type: "text", class: "thread-rename-input", value: thread.title || "",
    "aria-label": "会话名称（Enter 保存，Esc 取消）", dataset: { testid: "thread-rename-input" },
  });
  const form = h("div", { class: "thread-rename-form" }, input, error);
  item.replaceChildren(form);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      saveRename(thread.threadId, input, error);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      endRename(thread.threadId);
    }
  });
  // Leaving the field is not a save: only Enter saves.
  input.addEventListener("blur", () => {
    if (editing && !editing.saving) endRename(thread.threadId, { focus: false });
  });
  input.focus();
  input.select();
}

async function saveRename(threadId, input, error) {
  if (!editing || editing.saving) return;
  editing.saving = true;
  input.setAttribute("aria-busy", "true");
  const ack = await emitAck("thread:rename", { threadId, title: input.value });
  input.removeAttribute("aria-busy");
  if (!editing) return;
  editing.saving = false;
  if (!ack.ok) {
    error.textContent = errText(ack);
    input.focus();
    return;
  }
  applyThreadUpdate(ack.thread); // drawn by endRename: the field is still open
  endRename(threadId);
  announce(`已重命名为「${ack.thread.title}」`);
}

function endRename(threadId, { focus = true } = {}) {
  editing = null;
  renderThreadList();
  if (focus) itemPart(threadId, "thread-rename")?.focus();
}

/** A thread's new summary (`thread:updated`, or this tab's own rename). */
export function applyThreadUpdate(summary) {
  if (!summary?.threadId) return;
  const known = app.threads.findIndex((t) => t.threadId === summary.threadId);
  if (known >= 0) app.threads[known] = { ...app.threads[known], ...summary };
  else app.threads.push(summary);
  if (app.view?.threadId === summary.threadId && summary.title) setThreadTitle(summary.title);
  renderThreadList();
}

// ------------------------------------------------------------------ delete: a dialog asks first

function askDelete(thread) {
  const title = thread.title || thread.threadId;
  els.deleteDialog.dataset.threadId = thread.threadId;
  els.deleteDialog.dataset.title = title;
  els.deleteText.textContent = `会话「${title}」的消息和产物会一并删除，无法恢复。`;
  els.deleteError.textContent = "";
  els.deleteConfirm.disabled = false;
  els.deleteDialog.returnValue = "";
  els.deleteDialog.showModal(); // focus goes to 取消 (autofocus): Enter right away keeps the thread
}

export function bindThreadActions() {
  els.deleteConfirm.addEventListener("click", async (e) => {
    e.preventDefault(); // the dialog closes once the server has deleted it, not before
    const { threadId, title } = els.deleteDialog.dataset;
    els.deleteConfirm.disabled = true;
    const ack = await emitAck("thread:delete", { threadId });
    els.deleteConfirm.disabled = false;
    if (!ack.ok) {
      els.deleteError.textContent = `删除失败：${errText(ack)}`;
      return;
    }
    els.deleteDialog.close("delete");
    threadDeleted({ threadId, message: `会话「${title}」已删除。` });
    announce(`已删除会话「${title}」`);
    (els.threadList.querySelector(".thread-link") || els.threadsToggle).focus();
  });
}

/** The thread is gone (`thread:deleted`, or this tab's own delete): out of the list, and out of view with a sentence. */
export function threadDeleted({ threadId, message } = {}) {
  if (!threadId) return;
  app.threads = app.threads.filter((t) => t.threadId !== threadId);
  if (editing?.threadId === threadId) editing = null;
  if (app.view?.threadId === threadId) {
    resetView(null);
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    appendChat(h("div", { class: "notice", role: "alert", dataset: { testid: "thread-deleted" } }, message || "这个会话已删除。"));
  }
  renderThreadList();
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
