// The threads panel (open, rename, delete) and which thread is open (the URL hash names it).

import { h, clear, formatTime } from "./dom.js";
import { STATUS_LABELS, els, app, newView, emitAck, errText, flowTitle, announce } from "./state.js";
import { setStatus, appendChat } from "./chat.js";
import { joinThread } from "./socket.js";
import { renderTabs, renderCanvas } from "./canvas.js";
import { updateFlowHint } from "./composer.js";
import { tr } from "./i18n.js";
import { dropThreadDrafts } from "./interrupts.js";

let threadsTimer = null;
// The list a reply describes is as old as its request: one asked before the latest news of a run (a status, a
// completion: each asks for the list again) or before another request would put back what the page already shows
// changed (a stopped run listed as running again when a busy server answered the earlier request last).
let listNews = 0;
let listAsked = 0;
export function refreshThreadsSoon() {
  listNews += 1;
  clearTimeout(threadsTimer);
  threadsTimer = setTimeout(refreshThreads, 400);
}

export async function refreshThreads() {
  const asked = ++listAsked;
  const news = listNews;
  const ack = await emitAck("thread:list", {});
  if (!ack.ok || asked !== listAsked || news !== listNews) return;  // a newer list is on its way
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
    els.threadList.append(h("li", { class: "muted" }, tr("no_threads")));
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
        h("span", { class: `status-dot status-${t.status}` }, STATUS_LABELS[listedStatus(t)] || t.status),
        h("span", null, formatTime(t.updatedAt)))),
      h("div", { class: "thread-actions" },
        h("button", {
          type: "button", class: "btn btn-small thread-rename", "aria-label": tr("rename_thread", { title }),
          dataset: { testid: "thread-rename" }, onclick: () => startRename(item, t),
        }, tr("rename")),
        h("button", {
          type: "button", class: "btn btn-small btn-danger thread-delete", "aria-label": tr("delete_thread", { title }),
          dataset: { testid: "thread-delete" }, onclick: () => askDelete(t),
        }, tr("delete"))));
    els.threadList.append(item);
    // The server's title is the thread's name: the heading guessed from the first message gives way to it
    // (a flow may name a thread by its subject, or after a later message when the first had none).
    if (active && t.title && t.title !== app.view.title) setThreadTitle(t.title);
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
    "aria-label": tr("rename_input"), dataset: { testid: "thread-rename-input" },
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
  announce(tr("renamed", { title: ack.thread.title }));
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
  els.deleteText.textContent = tr("delete_warning", { title });
  els.deleteError.textContent = "";
  els.deleteConfirm.disabled = false;
  els.deleteDialog.returnValue = "";
  els.deleteDialog.showModal(); // focus goes to Cancel (autofocus): Enter right away keeps the thread
}

export function bindThreadActions() {
  els.deleteConfirm.addEventListener("click", async (e) => {
    e.preventDefault(); // the dialog closes once the server has deleted it, not before
    const { threadId, title } = els.deleteDialog.dataset;
    els.deleteConfirm.disabled = true;
    const ack = await emitAck("thread:delete", { threadId });
    els.deleteConfirm.disabled = false;
    if (!ack.ok) {
      els.deleteError.textContent = tr("delete_failed", { error: errText(ack) });
      return;
    }
    els.deleteDialog.close("delete");
    threadDeleted({ threadId, message: tr("thread_deleted", { title }) });
    announce(tr("thread_deleted_announce", { title }));
    (els.threadList.querySelector(".thread-link") || els.threadsToggle).focus();
  });
}

/** The thread is gone (`thread:deleted`, or this tab's own delete): out of the list, and out of view with a sentence. */
export function threadDeleted({ threadId, message } = {}) {
  if (!threadId) return;
  app.threads = app.threads.filter((t) => t.threadId !== threadId);
  dropThreadDrafts(threadId);
  if (editing?.threadId === threadId) editing = null;
  if (app.view?.threadId === threadId) {
    resetView(null);
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    appendChat(h("div", { class: "notice", role: "alert", dataset: { testid: "thread-deleted" } }, message || tr("this_thread_deleted")));
  }
  renderThreadList();
}

/** `interrupted` is "waiting for an answer" only while a question waits; a run a restart stopped is "stopped". */
function listedStatus(thread) {
  return thread.status === "interrupted" && thread.waiting === false ? "stopped" : thread.status;
}

// A thread title's longest form: schemas/events.py TITLE_MAX_CHARS, as the server names a new thread.
const TITLE_MAX_CHARS = 80;

// A line with words or numbers of its own, as graphs/base.py `says_something`: not "/help", not "😀" alone.
const saysSomething = (line) => !/^\s*\/\p{L}/u.test(line) && /[\p{L}\p{N}]/u.test(line);

/** A new thread's name until the server's arrives: its message's first line that says something, as graphs/base.py
 *  `first_line_title` makes it — at most TITLE_MAX_CHARS, a longer line cut between words with "…"; "" for a
 *  message that says nothing (the server names that thread by its flow). */
export function firstLineTitle(text) {
  const line = (String(text ?? "").trim().split("\n").find(saysSomething) ?? "").trim();
  if (line.length <= TITLE_MAX_CHARS) return line;
  let head = line.slice(0, TITLE_MAX_CHARS - 1);
  // Chinese may stop at any character; other text at the last whole word.
  if (!/[\u3400-\u9fff]/.test(head) && !/\s/.test(line[head.length]) && /\s/.test(head)) head = head.replace(/\s+\S*$/, "");
  return `${head.replace(/[\s,;:\uFF0C\u3001\uFF1B\uFF1A\u2014-]+$/, "")}…`;
}

export function setThreadTitle(title) {
  if (!app.view) return;
  app.view.title = title;
  els.threadTitle.textContent = title;
  els.threadTitle.title = title;  // whole on hover where the bar cuts it
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
  els.threadTitle.textContent = view ? "" : tr("new_thread_title");
  els.threadTitle.title = "";
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
