// agent-canvas browser client: chat + stage timeline on the left, artifact canvas on the right.
// Speaks wire protocol v1 (shared/protocol.md) over the vendored socket.io client (window.io).

import { h, append, clear, renderMarkdown, formatTime } from "./dom.js";
import { renderArtifactBody, TYPE_LABELS } from "./views.js";

const STAGE_LABELS = {
  analyze_topic: "分析主题",
  generate_course_config: "课程配置",
  generate_video_outline: "视频大纲",
  generate_slide_scripts: "逐页脚本",
  generate_presentation_theme: "主题风格",
  generate_slides: "生成幻灯片",
};

const STATUS_LABELS = {
  idle: "空闲",
  running: "运行中",
  classifying: "意图识别中",
  interrupted: "等待回答",
  failed: "失败",
  cancelled: "已取消",
  done: "已完成",
  stopped: "已中断",
};

const ENTRY_STATE_LABELS = { pending: "等待中", running: "进行中", done: "完成", failed: "失败", stopped: "已中止" };

const SERVER_EVENTS = new Set([
  "status", "agent-selected", "tool:message:start", "tool:start", "tool:update", "tool:log", "tool:artifact",
  "tool:message:complete", "progress", "message", "interrupt", "completion", "user:message",
]);

const IDLE_STATUSES = new Set(["idle", "interrupted", "failed", "cancelled", "done", "stopped"]);
const ACK_TIMEOUT_MS = 15000;

const $ = (id) => document.getElementById(id);
const els = {
  flowSelect: $("flow-select"),
  flowHint: $("flow-hint"),
  projectPicker: $("project-picker"),
  projectInput: $("project-input"),
  newThread: $("new-thread"),
  threadsToggle: $("threads-toggle"),
  threadsPanel: $("threads-panel"),
  threadList: $("thread-list"),
  provider: $("provider-badge"),
  conn: $("conn-status"),
  threadTitle: $("thread-title"),
  threadStatus: $("thread-status"),
  stop: $("stop-btn"),
  chatLog: $("chat-log"),
  empty: $("chat-empty"),
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
  canvasBody: $("canvas-body"),
};

const app = {
  socket: null,
  flows: [],
  threads: [],
  view: null, // the open thread (see newView)
  pendingNew: null, // {buffer: [[name, ev]...]} while a new thread's first message awaits its ack
};

function newView(threadId) {
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
    serverPendingInterrupt: null,
    runs: new Map(), // runId -> run card
    entries: new Map(), // toolCallId -> timeline entry
    artifacts: new Map(), // id -> {artifact, versionCache: Map<version, artifact>}
    order: [], // artifact ids, first-seen order
    focusedId: null,
    pinnedVersion: null,
    interrupts: new Map(), // interruptId -> {el, open, seq}
    stream: null, // {runId, el, body, text}
    lastCompletion: null,
  };
}

// ------------------------------------------------------------------ helpers

function announce(text) {
  els.liveStatus.textContent = text;
}

function nearBottom(el) {
  return el.scrollHeight - el.scrollTop - el.clientHeight < 80;
}

function appendChat(node) {
  const stick = nearBottom(els.chatLog);
  els.empty.hidden = true;
  els.chatLog.append(node);
  if (stick) scrollChat();
  return node;
}

let scrollPending = false;
function scrollChat() {
  if (scrollPending) return;
  scrollPending = true;
  setTimeout(() => {
    scrollPending = false;
    els.chatLog.scrollTop = els.chatLog.scrollHeight;
  }, 0);
}

function keepScrolled(fn) {
  const stick = nearBottom(els.chatLog);
  fn();
  if (stick) scrollChat();
}

async function emitAck(event, payload) {
  if (!app.socket?.connected) return { ok: false, error: { code: "disconnected", message: "未连接到服务器，正在重连…" } };
  try {
    const ack = await app.socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload);
    return ack && typeof ack === "object" ? ack : { ok: false, error: { code: "bad_ack", message: "服务器返回了无法识别的应答" } };
  } catch {
    return { ok: false, error: { code: "timeout", message: "服务器没有及时应答" } };
  }
}

function errText(ack) {
  const e = ack?.error;
  return e ? `${e.message || "出错了"}${e.code ? ` (${e.code})` : ""}` : "出错了";
}

function stageLabel(name) {
  return STAGE_LABELS[name] || name || "步骤";
}

// ------------------------------------------------------------------ boot: flows, provider, socket

async function loadFlows() {
  try {
    const res = await fetch("/api/flows");
    const flows = await res.json();
    app.flows = Array.isArray(flows) ? flows : [];
  } catch {
    app.flows = [];
  }
  clear(els.flowSelect);
  for (const f of app.flows) {
    els.flowSelect.append(h("option", { value: f.name, title: f.description || "" }, f.title ? `${f.title}` : f.name));
  }
  const saved = localStorage.getItem("agentCanvas.flow");
  if (saved && app.flows.some((f) => f.name === saved)) els.flowSelect.value = saved;
  updateFlowHint();
}

// Flows that work on a named novel project take it as options.projectId.
const PROJECT_FLOWS = new Set(["novel", "novel_workflow"]);

function updateFlowHint() {
  const f = app.flows.find((x) => x.name === els.flowSelect.value);
  els.flowHint.textContent = f?.description || "";
  els.projectPicker.hidden = !PROJECT_FLOWS.has(els.flowSelect.value);
  const v = app.view;
  if (v && v.flow && v.flow !== els.flowSelect.value) {
    els.composerHint.textContent = `当前会话属于「${flowTitle(v.flow)}」；发送将以「${flowTitle(els.flowSelect.value)}」开始新会话。`;
  } else {
    els.composerHint.textContent = "";
  }
}

function flowTitle(name) {
  return app.flows.find((f) => f.name === name)?.title || name || "";
}

async function loadProvider() {
  try {
    const res = await fetch("/healthz");
    const body = await res.json();
    const llm = body?.llm || {};
    const provider = String(llm.provider || "unknown");
    const model = llm.model ? ` · ${llm.model}` : "";
    els.provider.textContent = provider === "offline" ? "LLM：离线模型 offline" : `LLM：${provider}${model}`;
    els.provider.className = `badge provider ${provider === "offline" ? "provider-offline" : "provider-live"}`;
    els.provider.title = provider === "offline" ? "离线模型：输出由规则生成，不是真实大模型" : `当前模型提供方：${provider}${model}`;
    els.provider.dataset.provider = provider;
  } catch {
    els.provider.textContent = "LLM：未知";
  }
}

function setConn(state, text) {
  els.conn.dataset.state = state;
  els.conn.textContent = text;
}

function connect() {
  if (typeof window.io !== "function") {
    setConn("down", "socket.io 客户端未加载");
    return;
  }
  const socket = window.io({
    path: "/socket.io/",
    transports: ["websocket", "polling"],
    tryAllTransports: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 4000,
  });
  app.socket = socket;
  setConn("connecting", "连接中…");

  socket.on("connect", () => {
    setConn("up", "已连接");
    refreshThreads();
    if (app.view) joinThread(app.view); // re-join with afterSeq = last seen seq
  });
  socket.on("disconnect", (reason) => {
    setConn("down", "连接已断开，正在重连…");
    if (reason === "io server disconnect") socket.connect();
  });
  socket.on("connect_error", () => setConn("down", "无法连接服务器，正在重试…"));
  socket.onAny((name, payload) => {
    if (SERVER_EVENTS.has(name)) receive(name, payload);
  });
}

// ------------------------------------------------------------------ threads

let threadsTimer = null;
function refreshThreadsSoon() {
  clearTimeout(threadsTimer);
  threadsTimer = setTimeout(refreshThreads, 400);
}

async function refreshThreads() {
  const ack = await emitAck("thread:list", {});
  if (!ack.ok) return;
  app.threads = Array.isArray(ack.threads) ? ack.threads : [];
  renderThreadList();
}

function renderThreadList() {
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

function setThreadTitle(title) {
  if (!app.view) return;
  app.view.title = title;
  els.threadTitle.textContent = title;
  document.title = `${title} · Agent Canvas`;
}

function threadFromHash() {
  const m = /(?:^#|&)thread=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

function openThread(threadId, { updateHash = true } = {}) {
  if (app.view?.threadId === threadId) return;
  resetView(newView(threadId));
  if (updateHash && threadFromHash() !== threadId) location.hash = `thread=${encodeURIComponent(threadId)}`;
  renderThreadList();
  if (app.socket?.connected) joinThread(app.view);
}

function resetView(view) {
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

function startNewThread() {
  resetView(null);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  renderThreadList();
  els.input.focus();
}

async function joinThread(view) {
  const ack = await emitAck("thread:join", { threadId: view.threadId, afterSeq: view.lastSeq });
  if (app.view !== view) return;
  view.resyncing = false;
  if (!ack.ok) {
    if (ack.error?.code === "not_found") {
      appendChat(h("div", { class: "notice notice-error", role: "alert" }, `找不到会话 ${view.threadId}。`));
    } else if (ack.error?.code !== "disconnected") {
      appendChat(h("div", { class: "notice notice-error", role: "alert" }, `加入会话失败：${errText(ack)}`));
    }
    return;
  }
  const t = ack.thread || {};
  view.flow = t.flow || view.flow;
  if (view.flow && app.flows.some((f) => f.name === view.flow)) els.flowSelect.value = view.flow;
  updateFlowHint();
  updateRunTitles(view);
  const known = app.threads.find((x) => x.threadId === view.threadId);
  if (known?.title && !view.title) setThreadTitle(known.title);
  view.joinAckSeq = Number(t.lastSeq) || 0;
  view.serverPendingInterrupt = t.status === "interrupted" && t.pendingInterrupt ? t.pendingInterrupt : null;
  for (const ref of Array.isArray(t.artifacts) ? t.artifacts : []) addArtifactRef(view, ref);
  // Events up to lastSeq are either replayed already or on their way; reconcile interrupts once they are in.
  reconcileAfterJoin(view);
  // Anything the server has that we still lack (should not happen: replay precedes live) → ask again.
  if (view.lastSeq < view.joinAckSeq) scheduleGapCheck(view, 1500);
}

function updateRunTitles(view) {
  if (!view.flow) return;
  for (const run of view.runs.values()) {
    const title = run.card.querySelector(".run-title");
    if (title) title.textContent = `运行 · ${flowTitle(view.flow)}`;
  }
}

function reconcileAfterJoin(view) {
  if (view.lastSeq < view.joinAckSeq) {
    setTimeout(() => app.view === view && reconcileAfterJoin(view), 100);
    return;
  }
  // Status: trust the server's view of the thread when nothing newer arrived.
  const pi = view.serverPendingInterrupt;
  for (const [id, it] of view.interrupts) {
    if (it.open && (!pi || pi.interruptId !== id) && it.seq <= view.joinAckSeq) closeInterrupt(view, id, "已处理");
  }
  if (pi && !view.interrupts.has(pi.interruptId)) {
    renderInterrupt(view, { ...pi, threadId: view.threadId, seq: view.joinAckSeq }, true);
  }
  if (pi) setStatus("interrupted");
}

// ------------------------------------------------------------------ event intake: ordering and de-duplication

function receive(name, ev) {
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

function applySeq(v, name, ev) {
  v.lastSeq = Number(ev.seq);
  try {
    apply(v, name, ev);
  } catch (err) {
    console.error("failed to apply", name, ev, err);
  }
}

function drainPending(v) {
  while (v.pending.has(v.lastSeq + 1)) {
    const [n, e] = v.pending.get(v.lastSeq + 1);
    v.pending.delete(v.lastSeq + 1);
    applySeq(v, n, e);
  }
  for (const s of [...v.pending.keys()]) if (s <= v.lastSeq) v.pending.delete(s);
}

function scheduleGapCheck(v, delay) {
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

// ------------------------------------------------------------------ applying events

function apply(v, name, ev) {
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

function onUserMessage(v, ev) {
  const text = String(ev.content ?? "");
  if (!v.title && text) setThreadTitle(text.split("\n")[0].slice(0, 60));
  v.stream = null;
  closeAllInterrupts(v, "已回复");
  disableOldResumeButtons(v);
  appendChat(h("div", { class: "msg msg-user", dataset: { seq: ev.seq } },
    h("div", { class: "msg-role" }, "你"),
    h("div", { class: "msg-body" }, text)));
}

function onStatus(v, ev) {
  const status = String(ev.status ?? "");
  setStatus(status, ev.message);
  const run = getRun(v, ev.runId);
  run.setStatus(status, ev.message);
  if (!IDLE_STATUSES.has(status)) {
    closeAllInterrupts(v, "已回答");
    disableOldResumeButtons(v);
  } else if (status === "interrupted" && ev.message && !v.serverPendingInterrupt && ![...v.interrupts.values()].some((it) => it.open)) {
    // Interrupted with no question pending (e.g. the server restarted mid-run): offer to resume.
    for (const entry of v.entries.values()) if (entry.state === "running" || entry.state === "pending") entry.setState("stopped");
    run.setStatus("stopped", ev.message);
    els.threadStatus.textContent = STATUS_LABELS.stopped;
    renderResumeBlock(v, run, String(ev.message), "run-stopped");
  }
}

function onAgentSelected(v, ev) {
  const run = getRun(v, ev.runId);
  const conf = typeof ev.confidence === "number" ? `（置信度 ${(ev.confidence * 100).toFixed(0)}%）` : "";
  keepScrolled(() => run.notes.append(h("li", null, `已选择智能体：${ev.agent ?? "?"}${conf}`)));
}

function setStatus(status, message) {
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
  if (message) announce(message);
}

// ---- run cards (one per runId) with the stage timeline, progress and the result

function getRun(v, runId) {
  const key = runId || "_";
  let run = v.runs.get(key);
  if (run) return run;
  const statusEl = h("span", { class: "run-status badge" });
  const timeline = h("ol", { class: "timeline", "aria-label": "阶段进度 stages" });
  const pagesEl = h("span", { class: "progress-pages", dataset: { testid: "progress-pages" } });
  const msgEl = h("span", { class: "progress-msg" });
  const bar = h("div", { class: "progress-bar-fill" });
  const barWrap = h("div", { class: "progress-bar", role: "progressbar", "aria-valuemin": "0", "aria-label": "生成进度" }, bar);
  const progress = h("div", { class: "progress", hidden: true, dataset: { testid: "progress" } },
    h("div", { class: "progress-label", "aria-live": "polite" }, pagesEl, msgEl), barWrap);
  const notes = h("ul", { class: "run-notes" });
  const result = h("div", { class: "run-result" });
  const card = h("section", { class: "run-card", dataset: { runId: key }, "aria-label": "运行 run" },
    h("header", { class: "run-head" }, h("span", { class: "run-title" }, "运行"), statusEl),
    timeline, progress, notes, result);
  appendChat(card);
  run = {
    card, timeline, notes, result,
    status: null,
    setStatus(status, message) {
      run.status = status;
      statusEl.textContent = STATUS_LABELS[status] || status;
      statusEl.dataset.status = status;
      statusEl.title = message || "";
    },
    setProgress(ev) {
      const cur = Math.max(0, Number(ev.current) || 0);
      const total = Math.max(0, Number(ev.total) || 0);
      progress.hidden = false;
      const pageLike = /slide|page/i.test(String(ev.status || "")) || /页/.test(String(ev.message || ""));
      pagesEl.textContent = total ? (pageLike ? `第 ${cur}/${total} 页` : `${cur}/${total}`) : "";
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
  };
  for (const other of v.runs.values()) if (other.status && !IDLE_STATUSES.has(other.status)) other.setStatus("stopped");
  v.runs.set(key, run);
  updateRunTitles(v);
  return run;
}

function entryState(v, ev, state, create) {
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
  entry.setState(state);
}

function makeEntry(v, ev) {
  const icon = h("span", { class: "tl-icon", "aria-hidden": "true" });
  const label = h("span", { class: "tl-label" });
  const code = h("code", { class: "tl-name" });
  const stateText = h("span", { class: "tl-state" });
  const actions = h("span", { class: "tl-actions" });
  const logs = h("ul", { class: "tl-logs" });
  const more = h("button", { type: "button", class: "link-btn tl-more", hidden: true, "aria-expanded": "false" });
  more.addEventListener("click", () => {
    const collapsed = logs.classList.toggle("collapsed");
    more.setAttribute("aria-expanded", String(!collapsed));
    more.textContent = collapsed ? `显示全部 ${logs.children.length} 条日志` : "收起日志";
  });
  const el = h("li", { class: "tl-entry", dataset: { testid: "timeline-entry", toolCallId: ev.toolCallId } },
    icon,
    h("div", { class: "tl-main" }, h("div", { class: "tl-head" }, label, code, stateText, actions), logs, more));
  const entry = {
    el, logs, actions, toolName: "", state: null, artifactId: null,
    setName(name) {
      entry.toolName = name;
      el.dataset.toolName = name;
      label.textContent = stageLabel(name);
      code.textContent = STAGE_LABELS[name] ? name : "";
    },
    setState(state) {
      if (entry.state === "failed" && state === "done") return;
      entry.state = state;
      el.dataset.state = state;
      stateText.textContent = ENTRY_STATE_LABELS[state] || state;
      icon.textContent = { pending: "○", running: "", done: "✓", failed: "✕", stopped: "■" }[state] ?? "";
      // Long logs of a finished step fold to their last lines; a running step shows everything.
      const finished = state === "done" || state === "stopped";
      if (finished && logs.children.length > 4) {
        logs.classList.add("collapsed");
        more.hidden = false;
        more.setAttribute("aria-expanded", "false");
        more.textContent = `显示全部 ${logs.children.length} 条日志`;
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
        "aria-label": `查看 ${stageLabel(entry.toolName)} 的产物`,
        onclick: () => focusArtifact(artifactId, { user: true }),
      }, "查看"));
    },
  };
  entry.setName(ev.toolName || "");
  v.entries.set(ev.toolCallId, entry);
  return entry;
}

function onMessageComplete(v, ev) {
  entryState(v, ev, "done", true);
  const entry = v.entries.get(ev.toolCallId);
  if (entry && ev.artifactId) entry.setArtifact(ev.artifactId);
}

function onLog(v, ev) {
  const entry = ev.toolCallId ? v.entries.get(ev.toolCallId) : null;
  const level = ["debug", "info", "warning", "error"].includes(ev.level) ? ev.level : "info";
  const line = h("li", { class: `log log-${level}`, dataset: { testid: "log-line" } },
    h("span", { class: "log-text" }, String(ev.message ?? "")),
    ev.artifactId ? h("button", {
      type: "button", class: "btn btn-small log-view", dataset: { testid: "log-view", artifactId: ev.artifactId },
      "aria-label": `查看产物：${ev.message ?? ""}`,
      onclick: () => focusArtifact(ev.artifactId, { user: true }),
    }, "查看") : null);
  keepScrolled(() => (entry ? entry.logs : getRun(v, ev.runId).notes).append(line));
  // The step's own "查看" would point at the same artifact as this line: keep only the line's.
  if (entry && ev.artifactId && entry.artifactId === ev.artifactId) clear(entry.actions);
}

function onProgress(v, ev) {
  getRun(v, ev.runId).setProgress(ev);
  const total = Number(ev.total) || 0;
  if (total) announce(`第 ${ev.current}/${total} 页`);
}

function onMessage(v, ev) {
  const content = String(ev.content ?? "");
  let s = v.stream;
  if (!s || s.runId !== ev.runId) {
    const body = h("div", { class: "msg-body" });
    const el = appendChat(h("div", { class: "msg msg-assistant streaming", dataset: { testid: "assistant-message" } },
      h("div", { class: "msg-role" }, "助手"), body));
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

function onCompletion(v, ev) {
  const run = getRun(v, ev.runId);
  v.stream = null;
  for (const entry of v.entries.values()) {
    if (entry.el.parentNode === run.timeline && (entry.state === "running" || entry.state === "pending") && !ev.success) entry.setState("stopped");
  }
  clear(run.result);
  if (ev.success) {
    const status = "done";
    setStatus(status);
    run.setStatus(status);
    const fid = ev.finalArtifactId;
    run.result.append(h("div", { class: "completion completion-ok", role: "status", dataset: { testid: "completion" } },
      h("span", { class: "completion-icon", "aria-hidden": "true" }, "✓"),
      h("span", null, "已完成"),
      fid ? h("button", { type: "button", class: "btn btn-small", dataset: { testid: "completion-open" }, onclick: () => focusArtifact(fid, { user: true }) },
        `打开${TYPE_LABELS[v.artifacts.get(fid)?.artifact?.type] || "最终产物"}`) : null));
    if (fid) focusArtifact(fid);
    announce("运行已完成");
  } else {
    const status = v.status === "cancelled" ? "cancelled" : "failed";
    setStatus(status);
    run.setStatus(status);
    renderResumeBlock(v, run, ev.error ? String(ev.error) : "运行没有完成。");
  }
  scrollChat();
}

/** The error sentence with a "resume" button (run:resume without an answer). */
function renderResumeBlock(v, run, text, testid = "completion") {
  clear(run.result);
  {
    const resume = h("button", {
      type: "button", class: "btn btn-primary btn-small resume", dataset: { testid: "resume" },
      onclick: async () => {
        resume.disabled = true;
        const ack = await emitAck("run:resume", { threadId: v.threadId });
        if (!ack.ok) {
          resume.disabled = false;
          showComposerError(`继续运行失败：${errText(ack)}`);
        }
      },
    }, "↻ 继续运行 resume");
    run.result.append(h("div", { class: "completion completion-error", role: "alert", dataset: { testid } },
      h("span", { class: "completion-icon", "aria-hidden": "true" }, "!"),
      h("span", { class: "completion-text" }, text),
      resume));
    disableOldResumeButtons(v);
    v.lastCompletion = resume;
    announce(text);
  }
}

function disableOldResumeButtons(v) {
  if (v.lastCompletion) {
    v.lastCompletion.disabled = true;
    v.lastCompletion = null;
  }
}

// ---- interrupts (human in the loop)

function renderInterrupt(v, ev, open) {
  const id = ev.interruptId;
  if (!id || v.interrupts.has(id)) return;
  const payload = ev.payload && typeof ev.payload === "object" ? ev.payload : {};
  const errorEl = h("p", { class: "form-error", role: "alert" });
  const statusEl = h("p", { class: "interrupt-status", role: "status" });
  const form = h("form", { class: "interrupt", dataset: { testid: "interrupt", interruptId: id, kind: ev.kind }, "aria-label": "需要你的回答" });
  const intro = payload.message || payload.title || payload.summary;

  const submit = async (answer, label) => {
    errorEl.textContent = "";
    // Show it answered at once (the run's next events follow quickly); undo if the server refuses.
    form.classList.add("answered");
    statusEl.textContent = "发送中…";
    form.querySelectorAll("button, input, textarea").forEach((b) => (b.disabled = true));
    const ack = await emitAck("run:resume", { threadId: v.threadId, answer });
    if (ack.ok) {
      closeInterrupt(v, id, `已回答：${label}`);
      const it = v.interrupts.get(id);
      if (it) it.statusEl.textContent = `已回答：${label}`;
    } else if (v.interrupts.get(id)?.open) {
      form.classList.remove("answered");
      statusEl.textContent = "";
      form.querySelectorAll("button, input, textarea").forEach((b) => (b.disabled = false));
      errorEl.textContent = `发送失败：${errText(ack)}`;
    }
  };

  if (ev.kind === "confirmation") {
    append(form, [
      h("h3", null, "请确认"),
      h("p", { class: "interrupt-prompt" }, String(payload.prompt ?? "是否继续？")),
      payload.action !== undefined && payload.action !== null
        ? (typeof payload.action === "string" ? h("p", { class: "interrupt-action" }, h("strong", null, "操作："), payload.action)
          : h("details", { class: "interrupt-action" }, h("summary", null, "操作详情"), h("pre", { class: "json" }, JSON.stringify(payload.action, null, 2))))
        : null,
      h("div", { class: "form-actions" },
        h("button", { type: "submit", class: "btn btn-primary", dataset: { testid: "confirm" } }, "确认"),
        h("button", { type: "button", class: "btn", dataset: { testid: "cancel" }, onclick: () => submit(false, "取消") }, "取消")),
      errorEl, statusEl]);
    form.addEventListener("submit", (e) => { e.preventDefault(); submit(true, "确认"); });
  } else {
    const questions = Array.isArray(payload.questions) ? payload.questions : [];
    const inputs = [];
    const fields = questions.map((q, i) => {
      const qid = String(q?.id ?? `q${i + 1}`);
      const inputId = `ans-${id}-${i}`.replace(/[^A-Za-z0-9_-]/g, "_");
      const dflt = q?.default ?? q?.fallback_assumption ?? q?.fallbackAssumption ?? q?.suggestion;
      const input = h("textarea", { id: inputId, rows: "2", name: qid, placeholder: dflt ? "留空则采用下方默认假设" : "你的回答" });
      inputs.push([qid, input]);
      const options = Array.isArray(q?.options) ? q.options : [];
      return h("div", { class: "field" },
        h("label", { for: inputId }, String(q?.question ?? qid)),
        input,
        options.length ? h("div", { class: "chips" }, options.map((o) =>
          h("button", { type: "button", class: "chip", onclick: () => { input.value = String(o); input.focus(); } }, String(o)))) : null,
        dflt ? h("small", { class: "muted" }, `默认假设：${dflt}`) : null);
    });
    append(form, [
      h("h3", null, "需要补充信息"),
      intro ? h("p", null, String(intro)) : null,
      ...fields,
      h("div", { class: "form-actions" },
        h("button", { type: "submit", class: "btn btn-primary", dataset: { testid: "answer" } }, "提交回答"),
        h("button", { type: "button", class: "btn", dataset: { testid: "use-defaults" }, onclick: () => submit("use defaults", "使用默认值") }, "使用默认值 use defaults")),
      errorEl, statusEl]);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const answer = {};
      for (const [qid, input] of inputs) if (input.value.trim()) answer[qid] = input.value.trim();
      if (!Object.keys(answer).length) submit("use defaults", "使用默认值");
      else submit(answer, Object.values(answer).join("；").slice(0, 80));
    });
  }
  appendChat(form);
  v.interrupts.set(id, { el: form, open: true, seq: Number(ev.seq) || v.lastSeq, statusEl });
  if (!open) closeInterrupt(v, id, "已处理");
  else {
    setStatus("interrupted");
    announce("需要你的回答");
  }
}

function closeInterrupt(v, id, text) {
  const it = v.interrupts.get(id);
  if (!it || !it.open) return;
  it.open = false;
  it.el.classList.add("answered");
  it.el.querySelectorAll("button, input, textarea").forEach((b) => (b.disabled = true));
  it.statusEl.textContent = text;
}

function closeAllInterrupts(v, text) {
  for (const id of v.interrupts.keys()) closeInterrupt(v, id, text);
}

// ------------------------------------------------------------------ artifacts and the canvas

function onArtifact(v, ev) {
  const a = ev.artifact;
  if (!a || typeof a !== "object" || !a.id) return;
  const rec = upsertArtifact(v, a);
  const entry = ev.toolCallId ? v.entries.get(ev.toolCallId) : null;
  if (entry && a.type !== "slide_preview") entry.setArtifact(a.id);
  if (a.showInCanvas) focusArtifact(a.id);
  else if (v.focusedId === a.id || !v.focusedId) scheduleCanvas();
  return rec;
}

function upsertArtifact(v, a) {
  let rec = v.artifacts.get(a.id);
  if (!rec) {
    rec = { artifact: a, versionCache: new Map() };
    v.artifacts.set(a.id, rec);
    v.order.push(a.id);
  } else if ((Number(a.version) || 0) >= (Number(rec.artifact.version) || 0) || rec.artifact.content === undefined) {
    rec.artifact = a;
  }
  // Only the latest content is kept from events; older versions are fetched on demand (?version=N).
  scheduleTabs();
  return rec;
}

function addArtifactRef(v, ref) {
  if (!ref?.id) return;
  const rec = v.artifacts.get(ref.id);
  if (!rec) {
    v.artifacts.set(ref.id, { artifact: { ...ref, content: undefined }, versionCache: new Map() });
    v.order.push(ref.id);
    scheduleTabs();
  } else if ((Number(ref.version) || 0) > (Number(rec.artifact.version) || 0)) {
    rec.artifact = { ...rec.artifact, ...ref, content: undefined };
    scheduleTabs();
  }
}

function focusArtifact(id, { user = false } = {}) {
  const v = app.view;
  if (!v) return;
  if (!v.artifacts.has(id)) addArtifactRef(v, { id, type: "trace", title: "产物", version: 1 });
  v.focusedId = id;
  v.pinnedVersion = null;
  scheduleTabs();
  scheduleCanvas();
  if (user) {
    // On narrow screens the canvas sits below the chat: bring it into view.
    setTimeout(() => {
      const pane = document.querySelector(".canvas-pane");
      if (pane && window.matchMedia("(max-width: 860px)").matches) pane.scrollIntoView({ behavior: "smooth", block: "start" });
      els.canvasBody.focus({ preventScroll: true });
    }, 0);
  }
}

function latestOfType(v, type) {
  for (let i = v.order.length - 1; i >= 0; i--) {
    const rec = v.artifacts.get(v.order[i]);
    if (rec?.artifact.type === type) return rec;
  }
  return null;
}

let tabsTimer = null;
function scheduleTabs() {
  if (tabsTimer) return;
  tabsTimer = setTimeout(() => { tabsTimer = null; renderTabs(); }, 0);
}

let canvasTimer = null;
function scheduleCanvas() {
  if (canvasTimer) return;
  canvasTimer = setTimeout(() => { canvasTimer = null; renderCanvas(); }, 0);
}

function tabGroups(v) {
  // All slide_preview pages share one tab (the latest page) so twelve pages do not flood the strip.
  const out = [];
  let previewIdx = -1;
  for (const id of v.order) {
    const rec = v.artifacts.get(id);
    if (rec.artifact.type === "slide_preview") {
      if (previewIdx === -1) { previewIdx = out.length; out.push({ ids: [id] }); }
      else out[previewIdx].ids.push(id);
    } else out.push({ ids: [id] });
  }
  return out;
}

function renderTabs() {
  const v = app.view;
  clear(els.tabs);
  if (!v || !v.order.length) {
    els.tabs.hidden = true;
    return;
  }
  els.tabs.hidden = false;
  for (const group of tabGroups(v)) {
    const ids = group.ids;
    const recs = ids.map((id) => v.artifacts.get(id));
    const last = recs[recs.length - 1].artifact;
    const active = ids.includes(v.focusedId);
    const a = active ? v.artifacts.get(v.focusedId).artifact : last;
    const isPreview = last.type === "slide_preview";
    const label = isPreview ? `${TYPE_LABELS.slide_preview}${ids.length > 1 ? ` ×${ids.length}` : ""}` : a.title || TYPE_LABELS[a.type] || a.type;
    els.tabs.append(h("button", {
      type: "button", role: "tab", class: `tab${active ? " active" : ""}`,
      "aria-selected": active ? "true" : "false",
      dataset: { testid: "artifact-tab", artifactId: a.id, type: a.type },
      title: `${TYPE_LABELS[a.type] || a.type} · v${a.version ?? 1}`,
      onclick: () => focusArtifact(active ? a.id : last.id, { user: true }),
    }, String(label).includes(TYPE_LABELS[a.type] || a.type) ? null : h("span", { class: "tab-type" }, TYPE_LABELS[a.type] || a.type),
      h("span", { class: "tab-title" }, label),
      (Number(a.version) || 1) > 1 ? h("span", { class: "tab-ver" }, `v${a.version}`) : null));
  }
  els.tabs.querySelector(".tab.active")?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

async function fetchArtifact(id, version) {
  const url = `/artifacts/${encodeURIComponent(id)}${version ? `?version=${encodeURIComponent(version)}` : ""}`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

const loading = new Set();
function ensureLoaded(v, id, version) {
  const rec = v.artifacts.get(id);
  if (!rec) return;
  const key = `${id}@${version ?? "latest"}`;
  if (loading.has(key)) return;
  loading.add(key);
  fetchArtifact(id, version)
    .then((a) => {
      if (!a || typeof a !== "object") return;
      if (version) rec.versionCache.set(Number(version), a);
      else upsertArtifact(v, { ...rec.artifact, ...a });
      if (Array.isArray(a.versions)) rec.versions = a.versions;
      if (rec.artifact.content === undefined && a.content !== undefined) rec.artifact = { ...rec.artifact, ...a };
    })
    .catch((err) => { rec.error = String(err.message || err); })
    .finally(() => { loading.delete(key); if (app.view === v) { scheduleCanvas(); scheduleTabs(); } });
}

function renderCanvas() {
  const v = app.view;
  const rec = v && v.focusedId ? v.artifacts.get(v.focusedId) : null;
  const body = els.canvasBody;
  if (!rec) {
    els.canvasHead.hidden = true;
    body.replaceChildren(h("div", { class: "canvas-empty" },
      h("div", { class: "canvas-empty-icon", "aria-hidden": "true" }, "◧"),
      h("p", null, v && v.order.length ? "点击左侧的「查看」或上方的标签查看产物。" : "产物会在这里实时显示：课程配置、大纲、脚本、主题、幻灯片和 PPTX 文件。")));
    return;
  }
  const latest = rec.artifact;
  const pinned = v.pinnedVersion && v.pinnedVersion !== Number(latest.version) ? v.pinnedVersion : null;
  let shown = latest;
  if (pinned) {
    shown = rec.versionCache.get(pinned);
    if (!shown) ensureLoaded(v, latest.id, pinned);
  } else if (latest.content === undefined) {
    ensureLoaded(v, latest.id);
    shown = null;
  }

  els.canvasHead.hidden = false;
  els.canvasTitle.textContent = latest.title || TYPE_LABELS[latest.type] || latest.type;
  els.canvasType.textContent = TYPE_LABELS[latest.type] || latest.type;
  // Version switcher: versions 1..latest (or the list the server gave).
  const versions = Array.isArray(rec.versions) && rec.versions.length ? rec.versions.map(Number) : Array.from({ length: Number(latest.version) || 1 }, (_, i) => i + 1);
  if (versions.length > 1) {
    els.versionWrap.hidden = false;
    clear(els.versionSelect);
    for (const n of [...versions].sort((a, b) => b - a)) {
      els.versionSelect.append(h("option", { value: String(n) }, `v${n}${n === Number(latest.version) ? "（最新）" : ""}`));
    }
    els.versionSelect.value = String(pinned ?? latest.version);
  } else {
    els.versionWrap.hidden = true;
  }

  const canvasKey = `${latest.id}@${shown ? shown.version : "loading"}@${shown === latest ? latest.version : pinned}`;
  if (body.dataset.key === canvasKey && shown && body.dataset.rendered === "1" && latest.type !== "pptx") return;
  body.dataset.key = canvasKey;
  body.dataset.artifactId = latest.id;
  body.dataset.type = latest.type;
  body.dataset.rendered = shown ? "1" : "0";
  if (!shown) {
    body.replaceChildren(rec.error ? h("p", { class: "notice notice-error" }, `无法加载产物：${rec.error}`) : h("p", { class: "muted loading" }, "加载中…"));
    return;
  }
  const ctx = {
    latestTheme: () => {
      const t = latestOfType(v, "presentation_theme");
      if (t && t.artifact.content === undefined) ensureLoaded(v, t.artifact.id);
      const d = latestOfType(v, "dsl");
      return t?.artifact.content ?? d?.artifact.content?.theme ?? null;
    },
    latestDeck: () => {
      const d = latestOfType(v, "dsl");
      if (d && d.artifact.content === undefined) ensureLoaded(v, d.artifact.id);
      return d?.artifact.content ?? null;
    },
  };
  const view = renderArtifactBody(shown, ctx);
  body.replaceChildren(...[
    pinned ? h("p", { class: "notice" }, `正在查看 v${pinned}（最新为 v${latest.version}）`) : null,
    view,
  ].filter(Boolean));
  body.scrollTop = 0;
}

// ------------------------------------------------------------------ composer and controls

function showComposerError(text) {
  els.composerHint.textContent = text;
  els.composerHint.classList.add("error");
  setTimeout(() => els.composerHint.classList.remove("error"), 4000);
}

async function send() {
  const text = els.input.value.trim();
  if (!text) return;
  const flow = els.flowSelect.value;
  if (!flow) {
    showComposerError("请选择一个流程。");
    return;
  }
  localStorage.setItem("agentCanvas.flow", flow);
  const v = app.view;
  const continuing = v && (!v.flow || v.flow === flow);
  const payload = continuing ? { flow: v.flow || flow, text, threadId: v.threadId } : { flow, text };
  if (!continuing && PROJECT_FLOWS.has(flow)) payload.options = { projectId: els.projectInput.value.trim() };
  els.send.disabled = true;
  if (!continuing) app.pendingNew = { buffer: [] };
  const ack = await emitAck("chat:message", payload);
  els.send.disabled = false;
  if (!ack.ok) {
    app.pendingNew = null;
    showComposerError(`发送失败：${errText(ack)}`);
    return;
  }
  els.input.value = "";
  els.composerHint.textContent = "";
  if (!continuing) {
    const buffered = app.pendingNew?.buffer || [];
    app.pendingNew = null;
    openThread(ack.threadId);
    app.view.flow = flow;
    for (const [n, e] of buffered) if (e.threadId === ack.threadId) receive(n, e);
    refreshThreadsSoon();
  }
}

function bindUi() {
  els.composer.addEventListener("submit", (e) => {
    e.preventDefault();
    send();
  });
  els.input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      send();
    }
  });
  els.flowSelect.addEventListener("change", updateFlowHint);
  els.newThread.addEventListener("click", startNewThread);
  els.threadsToggle.addEventListener("click", () => {
    const open = els.threadsPanel.hidden;
    els.threadsPanel.hidden = !open;
    els.threadsToggle.setAttribute("aria-expanded", String(open));
    if (open) refreshThreads();
  });
  els.stop.addEventListener("click", async () => {
    const v = app.view;
    if (!v) return;
    els.stop.disabled = true;
    const ack = await emitAck("run:cancel", { threadId: v.threadId });
    if (!ack.ok) {
      els.stop.disabled = false;
      showComposerError(`停止失败：${errText(ack)}`);
    } else {
      announce("正在停止…");
    }
  });
  els.versionSelect.addEventListener("change", () => {
    const v = app.view;
    if (!v) return;
    const n = Number(els.versionSelect.value);
    const latest = Number(v.artifacts.get(v.focusedId)?.artifact.version);
    v.pinnedVersion = n === latest ? null : n;
    renderCanvas();
  });
  window.addEventListener("hashchange", () => {
    const id = threadFromHash();
    if (id && id !== app.view?.threadId) openThread(id, { updateHash: false });
    else if (!id && app.view) startNewThread();
  });
}

async function main() {
  bindUi();
  resetView(null);
  await Promise.all([loadFlows(), loadProvider()]);
  const id = threadFromHash();
  if (id) openThread(id, { updateHash: false });
  connect();
  // Debug/test hook: read-only view of the client state.
  window.agentCanvas = {
    get socket() { return app.socket; },
    get threadId() { return app.view?.threadId ?? null; },
    get lastSeq() { return app.view?.lastSeq ?? 0; },
    get status() { return app.view?.status ?? null; },
  };
}

main();
