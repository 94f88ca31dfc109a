// Shared state of the page: DOM handles, the open thread's view model, labels, acked socket calls.

import { tr } from "./i18n.js";

export const STATUS_LABELS = {
  idle: tr("status_idle"),
  running: tr("status_running"),
  classifying: tr("status_classifying"),
  interrupted: tr("status_interrupted"),
  answered: tr("status_answered"),
  failed: tr("status_failed"),
  cancelled: tr("status_cancelled"),
  done: tr("status_done"),
  stopped: tr("status_stopped"),
  reconnecting: tr("status_reconnecting"),
};

export const ENTRY_STATE_LABELS = {
  pending: tr("step_pending"),
  running: tr("step_running"),
  waiting: tr("step_waiting"),
  done: tr("step_done"),
  failed: tr("step_failed"),
  stopped: tr("step_stopped"),
};

export const IDLE_STATUSES = new Set(["idle", "interrupted", "failed", "cancelled", "done", "stopped"]);
export const ACK_TIMEOUT_MS = 15000;

export const $ = (id) => document.getElementById(id);
export const els = {
  flowSelect: $("flow-select"),
  flowHint: $("flow-hint"),
  projectPicker: $("project-picker"),
  projectInput: $("project-input"),
  projectList: $("project-list"),
  newThread: $("new-thread"),
  threadsToggle: $("threads-toggle"),
  threadsPanel: $("threads-panel"),
  threadList: $("thread-list"),
  deleteDialog: $("delete-dialog"),
  deleteText: $("delete-dialog-text"),
  deleteError: $("delete-dialog-error"),
  deleteConfirm: $("delete-confirm"),
  provider: $("provider-badge"),
  conn: $("conn-status"),
  threadTitle: $("thread-title"),
  threadStatus: $("thread-status"),
  stop: $("stop-btn"),
  chatLog: $("chat-log"),
  empty: $("chat-empty"),
  emptyTitle: $("empty-title"),
  emptyExample: $("empty-example"),
  composer: $("composer"),
  input: $("message-input"),
  send: $("send-btn"),
  composerHint: $("composer-hint"),
  liveStatus: $("live-status"),
  tabs: $("artifact-tabs"),
  canvasHead: $("canvas-head"),
  canvasTitle: $("artifact-title"),
  canvasType: $("artifact-type"),
  versionWrap: $("version-wrap"),
  versionSelect: $("version-select"),
  followLive: $("follow-live"),
  canvasBody: $("canvas-body"),
};

export const app = {
  socket: null,
  flows: [],
  threads: [],
  view: null, // the open thread (see newView)
  pendingNew: null, // {buffer: [[name, ev]...]} while a new thread's first message awaits its ack
};

export function newView(threadId) {
  return {
    threadId,
    flow: null,
    title: "",
    status: "idle",
    lastSeq: 0,
    pending: new Map(), // seq -> [name, ev] received ahead of a gap
    gapTimer: null,
    resyncing: false,
    joinAckSeq: 0,
    serverStatus: null, // the thread's status in the last join's answer
    rejoining: false, // connected again, the re-join's replay not yet in
    serverPendingInterrupt: null,
    runs: new Map(), // runId -> run card
    entries: new Map(), // toolCallId -> timeline entry
    artifacts: new Map(), // id -> {artifact, versionCache: Map<version, artifact>}
    order: [], // artifact ids, first-seen order
    focusedId: null,
    followLive: true, // the canvas moves to each new artifact until the user picks one
    liveId: null, // what "follow live" shows: the newest artifact the run put forward
    stopRequested: false, // the user pressed stop: the run's end is shown as a neutral state
    pinnedVersion: null,
    interrupts: new Map(), // interruptId -> {el, open, seq}
    stream: null, // {runId, el, body, text}
    lastCompletion: null,
  };
}


/** Whether the socket is up now: before the first connect and while reconnecting nothing can be sent. */
export function isConnected() {
  return !!app.socket?.connected;
}

export function announce(text) {
  els.liveStatus.textContent = text;
}

export async function emitAck(event, payload) {
  if (!isConnected()) return { ok: false, error: { code: "disconnected", message: tr("not_connected") } };
  try {
    const ack = await app.socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload);
    return ack && typeof ack === "object" ? ack : { ok: false, error: { code: "bad_ack", message: tr("bad_ack") } };
  } catch {
    return { ok: false, error: { code: "timeout", message: tr("ack_timeout") } };
  }
}

export function errText(ack) {
  const e = ack?.error;
  // The code is for programs; a person reads the sentence.
  return e?.message || tr("error_generic");
}

// Display names come from GET /api/flows (the server's message catalogue, in its LOCALE): a node by
// its id (`toolName`), and the ids a flow shows in artifacts by kind (e.g. the legal `intent`).
// The thread's own flow is asked first; node ids name the same node in every flow.
function flowsFor(flow) {
  const own = app.flows.find((f) => f.name === flow);
  return own ? [own, ...app.flows.filter((f) => f !== own)] : app.flows;
}

export function nodeName(flow, id) {
  for (const f of flowsFor(flow)) if (f.nodes?.[id]) return f.nodes[id];
  return id || tr("step");
}

export function termName(flow, kind, id) {
  for (const f of flowsFor(flow)) if (f.terms?.[kind]?.[id]) return f.terms[kind][id];
  return id;
}


export function flowTitle(name) {
  return app.flows.find((f) => f.name === name)?.title || name || "";
}
