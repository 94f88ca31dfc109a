// Applying server events to the chat: run cards, the stage timeline, logs, progress, assistant text, completion.

import { h, clear, renderMarkdown } from "./dom.js";
import { TYPE_LABELS } from "./views.js";
import { STATUS_LABELS, ENTRY_STATE_LABELS, IDLE_STATUSES, els, app, announce, isConnected, emitAck, errText, nodeName, termName, flowTitle } from "./state.js";
import { appendChat, scrollChat, keepScrolled, setStatus } from "./chat.js";
import { renderInterrupt, closeAllInterrupts, showAnswer } from "./interrupts.js";
import { onArtifact, focusArtifact, followLive } from "./canvas.js";
import { setThreadTitle, firstLineTitle, renderThreadList } from "./threads.js";
import { showComposerError } from "./composer.js";
import { midSentence, tr } from "./i18n.js";

export function apply(v, name, ev) {
  switch (name) {
    case "user:message": return onUserMessage(v, ev);
    case "status": return onStatus(v, ev);
    case "agent-selected": return onAgentSelected(v, ev);
    case "tool:message:start": return entryState(v, ev, "pending", true);
    case "tool:start": return entryState(v, ev, "running", true);
    case "tool:update": return entryState(v, ev, ["running", "done", "failed"].includes(ev.status) ? ev.status : "running", false);
    case "tool:log": return onLog(v, ev);
    case "tool:artifact": return onArtifact(v, ev);
    case "tool:message:complete": return onMessageComplete(v, ev);
    case "progress": return onProgress(v, ev);
    case "message": return onMessage(v, ev);
    case "interrupt": return renderInterrupt(v, ev, true);
    case "completion": return onCompletion(v, ev);
    default: return undefined;
  }
}

export function onUserMessage(v, ev) {
  const text = String(ev.content ?? "");
  if (ev.interruptId && v.interrupts.has(ev.interruptId)) {
    // An answer to a form: shown in the form itself, also after a reload or in another tab.
    showAnswer(v, ev.interruptId, ev.answer, text);
    return;
  }
  if (!v.title && text) setThreadTitle(firstLineTitle(text));
  v.stream = null;
  closeAllInterrupts(v, tr("replied"));
  disableOldResumeButtons(v);
  appendChat(h("div", { class: "msg msg-user", dataset: { seq: ev.seq } },
    h("div", { class: "msg-role" }, tr("you")),
    h("div", { class: "msg-body" }, text)));
}

// The runId of the status a restart writes for a run it found cut short (docs/protocol.md, Envelope).
const RECOVERY_RUN_ID = "recovery";

// A step's states before it ends: a run that stops there leaves it stopped.
const UNFINISHED = new Set(["pending", "running", "waiting"]);

export function onStatus(v, ev) {
  const status = String(ev.status ?? "");
  setStatus(status, ev.message);
  // The thread list says what the badge says, without waiting for its next refresh from the server.
  const listed = app.threads.find((t) => t.threadId === v.threadId);
  if (listed && status && listed.status !== status) {
    listed.status = status;
    listed.waiting = status === "interrupted" ? [...v.interrupts.values()].some((it) => it.open) : undefined;
    renderThreadList();
  }
  // A restart's note belongs to the run it cut short: on a card of its own it read as a second run that failed.
  const run = ev.runId === RECOVERY_RUN_ID && v.runs.size ? [...v.runs.values()].at(-1) : getRun(v, ev.runId);
  run.setStatus(status, ev.message);
  if (!IDLE_STATUSES.has(status)) {
    closeAllInterrupts(v, tr("answered"));
    disableOldResumeButtons(v);
  } else if (status === "interrupted" && [...v.interrupts.values()].some((it) => it.open)) {
    // The step that asked waits on the person now, not on the machine: no spinner saying it works.
    for (const entry of v.entries.values()) if (entry.el.parentNode === run.timeline && entry.state === "running") entry.setState("waiting");
  } else if (status === "interrupted" && ev.message && !v.serverPendingInterrupt) {
    // Interrupted with no question pending (e.g. the server restarted mid-run): offer to resume.
    for (const entry of v.entries.values()) if (UNFINISHED.has(entry.state)) entry.setState("stopped");
    run.setStatus("stopped", ev.message);
    els.threadStatus.textContent = STATUS_LABELS.stopped;
    renderResumeBlock(v, run, String(ev.message), "run-stopped", { stopped: true });  // a stop, not a fault: the work is saved
  }
}

export function onAgentSelected(v, ev) {
  const run = getRun(v, ev.runId);
  const confidence = typeof ev.confidence === "number" ? tr("confidence", { percent: (ev.confidence * 100).toFixed(0) }) : "";
  const agent = ev.agent ? termName(v.flow, "agent", ev.agent) : "?";
  // One question in several fields of law gets one agent per field: the field tells the lines apart.
  const field = ev.category ? midSentence(termName(v.flow, "category", ev.category)) : "";
  const said = field ? tr("agent_selected_for_field", { agent, field, confidence }) : tr("agent_selected", { agent, confidence });
  // Said by the step that chose the agent (route): under it, not below the finished run after its last step.
  const choosing = [...v.entries.values()].filter((e) => e.state === "running" && run.timeline.contains(e.el)).at(-1);
  const line = h("li", { class: "log log-info", dataset: { testid: "agent-selected" } }, h("span", { class: "log-text" }, said));
  keepScrolled(() => (choosing ? choosing.logs : run.notes).append(line));
}

export function getRun(v, runId) {
  const key = runId || "_";
  let run = v.runs.get(key);
  if (run) return run;
  const statusEl = h("span", { class: "run-status badge" });
  const timeline = h("ol", { class: "timeline", "aria-label": tr("stages") });
  const pagesEl = h("span", { class: "progress-pages", dataset: { testid: "progress-pages" } });
  const msgEl = h("span", { class: "progress-msg" });
  const bar = h("div", { class: "progress-bar-fill" });
  const barWrap = h("div", { class: "progress-bar", role: "progressbar", "aria-valuemin": "0", "aria-label": tr("progress") }, bar);
  const progress = h("div", { class: "progress", hidden: true, dataset: { testid: "progress" } },
    h("div", { class: "progress-label", "aria-live": "polite" }, pagesEl, msgEl), barWrap);
  const notes = h("ul", { class: "run-notes" });
  const result = h("div", { class: "run-result" });
  const card = h("section", { class: "run-card", dataset: { runId: key }, "aria-label": tr("run_label") },
    h("header", { class: "run-head" }, h("span", { class: "run-title" }, tr("run")), statusEl),
    timeline, progress, notes, result);
  appendChat(card);
  run = {
    card, timeline, notes, result,
    status: null,
    message: "",  // the status event's note, e.g. why a run asked to stop finished anyway
    setStatus(status, message) {
      run.status = status;
      run.message = message ? String(message) : "";
      run.showStatus();
    },
    /** Cut off from the server, a running run's state is unknown (it may have ended meanwhile): the card
     *  says "reconnecting", as the header does, until the re-join's replay tells (chat.js `connectionChanged`). */
    showStatus() {
      const status = run.status;
      if (!status) return;
      const shown = !IDLE_STATUSES.has(status) && (!isConnected() || v.rejoining) ? "reconnecting" : status;
      statusEl.textContent = STATUS_LABELS[shown] || shown;
      statusEl.dataset.status = shown;
      statusEl.title = shown === "reconnecting" ? tr("not_connected") : run.message;
    },
    setProgress(ev) {
      const cur = Math.max(0, Number(ev.current) || 0);
      const total = Math.max(0, Number(ev.total) || 0);
      progress.hidden = false;
      const pageLike = /slide|page/i.test(String(ev.status || ""));
      pagesEl.textContent = total ? (pageLike ? tr("page_progress", { current: cur, total }) : `${cur}/${total}`) : "";
      const message = ev.message ? String(ev.message) : "";
      msgEl.textContent = total && message.includes(`${cur}/${total}`) && pageLike ? "" : message;
      const pct = total ? Math.min(100, (cur / total) * 100) : 0;
      bar.style.width = `${pct}%`;
      barWrap.setAttribute("aria-valuemax", String(total));
      barWrap.setAttribute("aria-valuenow", String(cur));
      barWrap.setAttribute("aria-valuetext", pagesEl.textContent || msgEl.textContent);
      progress.dataset.current = String(cur);
      progress.dataset.total = String(total);
      progress.classList.toggle("complete", !!total && cur >= total);
    },
    /** A finished run: its last "writing scene 2…" line is no longer true; the count and the bar stay. */
    endProgress() {
      msgEl.textContent = "";
      barWrap.setAttribute("aria-valuetext", pagesEl.textContent);
    },
  };
  for (const other of v.runs.values()) {
    if (other.status === "interrupted") other.setStatus("answered");  // its question was answered: this run goes on
    else if (other.status && !IDLE_STATUSES.has(other.status)) other.setStatus("stopped");
  }
  v.runs.set(key, run);
  updateRunTitles(v);
  return run;
}

export function updateRunTitles(view) {
  if (!view.flow) return;
  for (const run of view.runs.values()) {
    const title = run.card.querySelector(".run-title");
    if (title) title.textContent = tr("run_of_flow", { flow: flowTitle(view.flow) });
  }
}

export function entryState(v, ev, state, create) {
  const id = ev.toolCallId;
  if (!id) return;
  let entry = v.entries.get(id);
  if (!entry) {
    if (!create && state !== "failed" && state !== "done") return;
    entry = makeEntry(v, ev);
  }
  // A re-executed node (resume) keeps its toolCallId: move it into the run that executes it now.
  const run = getRun(v, ev.runId);
  if (entry.el.parentNode !== run.timeline) keepScrolled(() => run.timeline.append(entry.el));
  if (ev.toolName && !entry.toolName) entry.setName(ev.toolName);
  if (ev.input?.about && !entry.about) entry.setAbout(String(ev.input.about));
  entry.setState(state);
}

export function makeEntry(v, ev) {
  const icon = h("span", { class: "tl-icon", "aria-hidden": "true" });
  const label = h("span", { class: "tl-label" });
  const stateText = h("span", { class: "tl-state" });
  const actions = h("span", { class: "tl-actions" });
  const logs = h("ul", { class: "tl-logs" });
  const more = h("button", { type: "button", class: "link-btn tl-more", hidden: true, "aria-expanded": "false" });
  more.addEventListener("click", () => {
    const collapsed = logs.classList.toggle("collapsed");
    more.setAttribute("aria-expanded", String(!collapsed));
    more.textContent = collapsed ? tr("show_all_logs", { count: logs.children.length }) : tr("hide_logs");
  });
  const el = h("li", { class: "tl-entry", dataset: { testid: "timeline-entry", toolCallId: ev.toolCallId } },
    icon,
    h("div", { class: "tl-main" }, h("div", { class: "tl-head" }, label, stateText, actions), logs, more));
  const entry = {
    el, logs, actions, toolName: "", about: "", state: null, artifactId: null,
    setName(name) {
      entry.toolName = name;
      el.dataset.toolName = name;
      label.textContent = entry.label();
    },
    /** What this call works on (`tool:start.input.about`): one node run side by side for two fields reads apart. */
    setAbout(about) {
      entry.about = about;
      label.textContent = entry.label();
    },
    label: () => nodeName(v.flow, entry.toolName) + (entry.about ? ` · ${entry.about}` : ""),
    setState(state) {
      if (entry.state === "failed" && state === "done") return;
      entry.state = state;
      el.dataset.state = state;
      stateText.textContent = ENTRY_STATE_LABELS[state] || state;
      icon.textContent = { pending: "○", running: "", waiting: "?", done: "✓", failed: "✕", stopped: "■" }[state] ?? "";
      // Long logs of a finished step fold to their last lines; a running step shows everything.
      const finished = state === "done" || state === "stopped";
      if (finished && logs.children.length > 4) {
        logs.classList.add("collapsed");
        more.hidden = false;
        more.setAttribute("aria-expanded", "false");
        more.textContent = tr("show_all_logs", { count: logs.children.length });
      } else if (!finished) {
        logs.classList.remove("collapsed");
        more.hidden = true;
      }
    },
    setArtifact(artifactId) {
      if (!artifactId || entry.artifactId === artifactId) return;
      entry.artifactId = artifactId;
      if (logs.querySelector(`[data-artifact-id="${CSS.escape(artifactId)}"]`)) return clear(actions);
      clear(actions).append(h("button", {
        type: "button", class: "btn btn-small", dataset: { testid: "entry-view", artifactId },
        "aria-label": tr("view_artifact_of", { name: entry.label() }),
        onclick: () => focusArtifact(artifactId, { user: true }),
      }, tr("view")));
    },
  };
  entry.setName(ev.toolName || "");
  if (ev.input?.about) entry.setAbout(String(ev.input.about));
  v.entries.set(ev.toolCallId, entry);
  return entry;
}

export function onMessageComplete(v, ev) {
  entryState(v, ev, "done", true);
  const entry = v.entries.get(ev.toolCallId);
  if (entry && ev.artifactId) entry.setArtifact(ev.artifactId);
}

export function onLog(v, ev) {
  const entry = ev.toolCallId ? v.entries.get(ev.toolCallId) : null;
  const level = ["debug", "info", "warning", "error"].includes(ev.level) ? ev.level : "info";
  const line = h("li", { class: `log log-${level}`, dataset: { testid: "log-line" } },
    h("span", { class: "log-text" }, String(ev.message ?? "")),
    ev.artifactId ? h("button", {
      type: "button", class: "btn btn-small log-view", dataset: { testid: "log-view", artifactId: ev.artifactId },
      "aria-label": tr("view_artifact", { message: ev.message ?? "" }),
      onclick: () => focusArtifact(ev.artifactId, { user: true }),
    }, tr("view")) : null);
  keepScrolled(() => (entry ? entry.logs : getRun(v, ev.runId).notes).append(line));
  // The step's own "view" button would point at the same artifact as this line: keep only the line's.
  if (entry && ev.artifactId && entry.artifactId === ev.artifactId) clear(entry.actions);
}

export function onProgress(v, ev) {
  getRun(v, ev.runId).setProgress(ev);
  const total = Number(ev.total) || 0;
  if (total) announce(tr("page_progress", { current: ev.current, total }));
}

export function onMessage(v, ev) {
  const content = String(ev.content ?? "");
  let s = v.stream;
  if (!s || s.runId !== ev.runId) {
    const body = h("div", { class: "msg-body" });
    const el = appendChat(h("div", { class: "msg msg-assistant streaming", dataset: { testid: "assistant-message" } },
      h("div", { class: "msg-role" }, tr("assistant")), body));
    s = v.stream = { runId: ev.runId, el, body, text: "" };
  }
  if (ev.final) {
    s.text = content; // the final event holds the whole text: replace, never append again
    keepScrolled(() => s.body.replaceChildren(renderMarkdown(s.text)));
    s.el.classList.remove("streaming");
    v.stream = null;
  } else {
    // Chunks are deltas; tolerate a server that sends the text so far instead.
    s.text = s.text && content.startsWith(s.text) ? content : s.text + content;
    keepScrolled(() => (s.body.textContent = s.text));
  }
}

export function onCompletion(v, ev) {
  const run = getRun(v, ev.runId);
  v.stream = null;
  for (const entry of v.entries.values()) {
    if (entry.el.parentNode === run.timeline && UNFINISHED.has(entry.state) && !ev.success) entry.setState("stopped");
  }
  clear(run.result);
  if (ev.success) {
    const status = "done";
    // A stop that came during the last step: the `done` status says why the run finished anyway.
    const note = run.status === status ? run.message : "";
    setStatus(status, note);
    run.setStatus(status, note);
    run.endProgress();
    const fid = ev.finalArtifactId;
    run.result.append(h("div", { class: "completion completion-ok", role: "status", dataset: { testid: "completion" } },
      h("span", { class: "completion-icon", "aria-hidden": "true" }, "✓"),
      h("span", null, note || STATUS_LABELS.done),
      fid ? h("button", { type: "button", class: "btn btn-small", dataset: { testid: "completion-open" }, onclick: () => focusArtifact(fid, { user: true }) },
        tr("open_artifact", { type: midSentence(TYPE_LABELS[v.artifacts.get(fid)?.artifact?.type] || tr("final_artifact")) })) : null));
    if (fid) followLive(v, fid);
    announce(note || tr("run_done"));
  } else {
    // A stop the user asked for is not an error: shown neutral, with the same way to continue. Nor is a run
    // the server stopped between steps (a restart): its status was `interrupted`, the work is saved.
    const cancelled = v.stopRequested || v.status === "cancelled";
    const stopped = cancelled || run.status === "interrupted";
    const status = cancelled ? "cancelled" : stopped ? "stopped" : "failed";
    setStatus(status);
    run.setStatus(status);
    // `resumable: false`: a resume would fail the same way; the sentence asks for a changed request.
    renderResumeBlock(v, run, ev.error ? String(ev.error) : tr("run_incomplete"), "completion",
      { stopped, resumable: ev.resumable !== false });
  }
  v.stopRequested = false;
  scrollChat();
}

/** The error sentence with a "resume" button (run:resume without an answer), unless a resume cannot help. */
export function renderResumeBlock(v, run, text, testid = "completion", { stopped = false, resumable = true } = {}) {
  clear(run.result);
  {
    const resume = !resumable ? null : h("button", {
      type: "button", class: "btn btn-primary btn-small resume", dataset: { testid: "resume" },
      onclick: async () => {
        resume.disabled = true;
        const ack = await emitAck("run:resume", { threadId: v.threadId });
        if (!ack.ok) {
          resume.disabled = false;
          showComposerError(tr("resume_failed", { error: errText(ack) }));
        }
      },
    }, tr("resume"));
    run.result.append(h("div", {
      class: `completion ${stopped ? "completion-stopped" : "completion-error"}`, role: stopped ? "status" : "alert", dataset: { testid },
    },
      h("span", { class: "completion-icon", "aria-hidden": "true" }, stopped ? "■" : "!"),
      h("span", { class: "completion-text" }, text),
      resume));
    disableOldResumeButtons(v);
    v.lastCompletion = resume;
    announce(text);
  }
}

export function disableOldResumeButtons(v) {
  if (v.lastCompletion) {
    v.lastCompletion.disabled = true;
    v.lastCompletion = null;
  }
}
