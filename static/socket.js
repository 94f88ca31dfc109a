// Socket.IO connection, thread:join with afterSeq, and event intake: per-thread seq ordering, de-duplication, gap repair.

import { h } from "./dom.js";
import { els, app, emitAck, errText, IDLE_STATUSES } from "./state.js";
import { appendChat, setStatus, connectionChanged } from "./chat.js";
import { apply, updateRunTitles } from "./timeline.js";
import { renderInterrupt, closeInterrupt, restoreDrafts } from "./interrupts.js";
import { addArtifactRef } from "./canvas.js";
import { refreshThreadsSoon, refreshThreads, setThreadTitle, applyThreadUpdate, threadDeleted } from "./threads.js";
import { updateFlowHint } from "./composer.js";
import { signInAgain, storedToken } from "./signin.js";
import { tr } from "./i18n.js";
import { WireSocket } from "./wire.js";

export const SERVER_EVENTS = new Set([
  "status", "agent-selected", "tool:message:start", "tool:start", "tool:update", "tool:log", "tool:artifact",
  "tool:message:complete", "progress", "message", "interrupt", "completion", "user:message",
]);

export function setConn(state, text) {
  els.conn.dataset.state = state;
  els.conn.textContent = text;
}

export function connect() {
  const socket = new WireSocket({
    path: "/socket.io/",
    auth: (cb) => cb(storedToken() ? { token: storedToken() } : {}),
    reconnectionDelay: 500,
    reconnectionDelayMax: 4000,
  });
  app.socket = socket;
  setConn("connecting", tr("conn_connecting"));
  socket.connect();

  socket.on("connect", () => {
    setConn("up", tr("conn_up"));
    // Re-join with afterSeq = last seen seq; until its replay is in, a running thread stays "reconnecting".
    if (app.view) app.view.rejoining = true;
    connectionChanged();
    refreshThreads();
    if (app.view) joinThread(app.view);
  });
  socket.on("disconnect", (reason) => {
    setConn("down", tr("conn_lost"));
    connectionChanged();
    if (reason === "io server disconnect") socket.connect();
  });
  socket.on("connect_error", (err) => {
    setConn("down", tr("conn_failed"));
    if (err?.data?.code === "unauthorized") signInAgain(err.message);
  });
  socket.onAny((name, payload) => {
    if (SERVER_EVENTS.has(name)) receive(name, payload);
    else if (name === "thread:replay") receiveReplay(payload);
    else if (name === "thread:updated") applyThreadUpdate(payload);
    else if (name === "thread:deleted") threadDeleted(payload);
  });
}


export async function joinThread(view) {
  const ack = await emitAck("thread:join", { threadId: view.threadId, afterSeq: view.lastSeq });
  if (app.view !== view) return;
  view.resyncing = false;
  if (!ack.ok) {
    view.rejoining = false;
    connectionChanged();
    if (ack.error?.code === "not_found") {
      view.gone = true;  // said once: coming back to the page does not say it again
      appendChat(h("div", { class: "notice notice-error", role: "alert" }, tr("thread_missing", { thread_id: view.threadId })));
    } else if (ack.error?.code !== "disconnected") {
      appendChat(h("div", { class: "notice notice-error", role: "alert" }, tr("join_failed", { error: errText(ack) })));
    }
    return;
  }
  const t = ack.thread || {};
  view.flow = t.flow || view.flow;
  view.options = t.options || {};
  if (view.flow && app.flows.some((f) => f.name === view.flow)) els.flowSelect.value = view.flow;
  updateFlowHint();
  updateRunTitles(view);
  const known = app.threads.find((x) => x.threadId === view.threadId);
  if (known?.title && !view.title) setThreadTitle(known.title);
  view.joinAckSeq = Number(t.lastSeq) || 0;
  view.serverStatus = t.status || null;
  view.serverPendingInterrupt = t.status === "interrupted" && t.pendingInterrupt ? t.pendingInterrupt : null;
  for (const ref of Array.isArray(t.artifacts) ? t.artifacts : []) addArtifactRef(view, ref);
  // Events up to lastSeq are either replayed already or on their way; reconcile interrupts once they are in.
  reconcileAfterJoin(view);
  // Anything the server has that we still lack (should not happen: replay precedes live) → ask again.
  if (view.lastSeq < view.joinAckSeq) scheduleGapCheck(view, 1500);
}

export function reconcileAfterJoin(view) {
  if (view.lastSeq < view.joinAckSeq) {
    setTimeout(() => app.view === view && reconcileAfterJoin(view), 100);
    return;
  }
  // Status: trust the server's view of the thread when nothing newer arrived.
  const pi = view.serverPendingInterrupt;
  for (const [id, it] of view.interrupts) {
    if (it.open && (!pi || pi.interruptId !== id) && it.seq <= view.joinAckSeq) closeInterrupt(view, id, tr("handled"));
  }
  if (pi && !view.interrupts.has(pi.interruptId)) {
    renderInterrupt(view, { ...pi, threadId: view.threadId, seq: view.joinAckSeq }, true);
  }
  restoreDrafts(view);
  view.rejoining = false;
  if (pi) setStatus("interrupted");
  else if (serverDecidesStatus(view)) settleLastRun(view, view.serverStatus);
  connectionChanged();  // shown again: a "reconnecting" badge (header and run cards) gives way to what is known
}

/** The server's status, where nothing in the replay said it: the header's, and the last run card's when
 *  that card still says running (a run started elsewhere brings its own card with its events). */
function settleLastRun(view, status) {
  setStatus(status);
  const run = [...view.runs.values()].at(-1);
  if (run && isRunning(run.status) && !isRunning(status)) run.setStatus(status);
}

const isRunning = (status) => !!status && !IDLE_STATUSES.has(status);

/** After a re-join, whether the thread runs is the server's to say: a run may have ended (or started,
 *  from another tab) while this page was cut off, with nothing in the replay to tell it. A live event
 *  newer than the join (lastSeq past it) is newer than the server's answer and keeps its word. */
function serverDecidesStatus(view) {
  return !!view.serverStatus && view.lastSeq === view.joinAckSeq && isRunning(view.serverStatus) !== isRunning(view.status);
}


// A batch of a join's replay: the same events, in seq order, that would otherwise come one by one.
export function receiveReplay(batch) {
  if (!batch || !Array.isArray(batch.events)) return;
  for (const item of batch.events) {
    if (item && SERVER_EVENTS.has(item.event)) receive(item.event, item.data);
  }
}

export function receive(name, ev) {
  if (!ev || typeof ev !== "object") return;
  if (app.pendingNew && (!app.view || ev.threadId !== app.view.threadId)) {
    if (app.pendingNew.buffer.length < 5000) app.pendingNew.buffer.push([name, ev]);
  }
  if (name === "completion" || name === "status") refreshThreadsSoon();
  const v = app.view;
  if (!v || ev.threadId !== v.threadId) return;
  const seq = Number(ev.seq);
  if (!Number.isInteger(seq)) return apply(v, name, ev);
  if (seq <= v.lastSeq) return; // replayed or repeated: already shown
  if (seq > v.lastSeq + 1) {
    v.pending.set(seq, [name, ev]);
    scheduleGapCheck(v, 1200);
    return;
  }
  applySeq(v, name, ev);
  drainPending(v);
}

export function applySeq(v, name, ev) {
  v.lastSeq = Number(ev.seq);
  try {
    apply(v, name, ev);
  } catch (err) {
    console.error("failed to apply", name, ev, err);
  }
}

export function drainPending(v) {
  while (v.pending.has(v.lastSeq + 1)) {
    const [n, e] = v.pending.get(v.lastSeq + 1);
    v.pending.delete(v.lastSeq + 1);
    applySeq(v, n, e);
  }
  for (const s of [...v.pending.keys()]) if (s <= v.lastSeq) v.pending.delete(s);
}

export function scheduleGapCheck(v, delay) {
  if (v.gapTimer) return;
  v.gapTimer = setTimeout(() => {
    v.gapTimer = null;
    if (app.view !== v) return;
    const missing = v.pending.size > 0 || v.lastSeq < v.joinAckSeq;
    if (!missing) return;
    if (!v.resyncing) {
      // First try: ask the server to replay what we lack.
      v.resyncing = true;
      v.resyncedOnce = true;
      joinThread(v);
      scheduleGapCheck(v, 2500);
    } else if (v.pending.size) {
      // The server did not fill the hole: show what we have, in order, rather than nothing.
      const seqs = [...v.pending.keys()].sort((a, b) => a - b);
      for (const s of seqs) {
        const [n, e] = v.pending.get(s);
        v.pending.delete(s);
        if (s > v.lastSeq) applySeq(v, n, e);
      }
      v.resyncing = false;
    }
  }, delay);
}
