// The composer: flow picker, sending chat:message, errors shown under the input.

import { h, clear } from "./dom.js";
import { IDLE_STATUSES, els, app, emitAck, errText, flowTitle, isConnected } from "./state.js";
import { receive } from "./socket.js";
import { refreshThreadsSoon, openThread } from "./threads.js";
import { renderCanvas } from "./canvas.js";
import { afterSentence, tr } from "./i18n.js";

export async function loadFlows() {
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

// The empty chat's heading, for the chosen flow: a legal question or a novel is not "a topic".
const EMPTY_TITLES = {
  ppt: tr("page_empty_title"),
  requirement: tr("empty_title_requirement"),
  legal: tr("empty_title_legal"),
  novel: tr("empty_title_novel"),
  novel_workflow: tr("empty_title_novel_workflow"),
};

// The empty chat's example request, for the chosen flow.
const EMPTY_EXAMPLES = {
  ppt: tr("empty_example_ppt"),
  requirement: tr("empty_example_requirement"),
  legal: tr("empty_example_legal"),
  novel: tr("empty_example_novel"),
  novel_workflow: tr("empty_example_novel_workflow"),
};

// Flows that work on a named novel project take it as options.projectId.
const PROJECT_FLOWS = new Set(["novel", "novel_workflow"]);

/** The project field offers the projects that exist: a name typed from memory is easily wrong. */
export async function loadProjects() {
  let ids = [];
  try {
    const res = await fetch("/api/novel/projects");
    if (res.ok) ids = await res.json();
  } catch {
    // Offline or refused: the field still takes a typed name.
  }
  clear(els.projectList);
  for (const id of Array.isArray(ids) ? ids : []) els.projectList.append(h("option", { value: id }));
}

/**
 * An open novel thread keeps its project (a message to it sends none): the field shows that project,
 * fixed, instead of a blank or another name that would do nothing. A new thread's field is free again.
 */
function showThreadProject(view) {
  const continuing = view && (!view.flow || view.flow === els.flowSelect.value);
  const project = continuing ? view.options?.projectId : undefined;
  const input = els.projectInput;
  if (project) {
    input.value = project;
    input.readOnly = true;
    input.title = tr("project_of_thread");
    return;
  }
  if (input.readOnly) {
    input.readOnly = false;
    input.value = "";
  }
  // Only the generation flow creates a project it is given (from the world the message describes).
  const creates = els.flowSelect.value === "novel_workflow";
  input.placeholder = creates ? tr("page_project_placeholder_new") : tr("page_project_placeholder");
  input.size = fieldSizeFor(input.placeholder);
  input.title = creates ? tr("page_project_hint_new") : "";
}

// `size` counts average Latin letters, and a Chinese character is about two of them wide. A hint wider
// than its field is cut mid-word ("existing or new n"), so the field grows to show the whole hint.
const PROJECT_FIELD_MIN_SIZE = 12;
const WIDE_CHARACTER = /[\u3000-\u9fff\uff00-\uffef]/;

function fieldSizeFor(hint) {
  let width = 0;
  for (const ch of hint) width += WIDE_CHARACTER.test(ch) ? 2 : 1;
  return Math.max(PROJECT_FIELD_MIN_SIZE, width + 2);
}

let hintShownFor = null;

export function updateFlowHint() {
  const f = app.flows.find((x) => x.name === els.flowSelect.value);
  els.flowHint.textContent = f?.description || "";
  els.emptyTitle.textContent = (f && EMPTY_TITLES[f.name]) || tr("page_empty_title");
  els.emptyExample.textContent = afterSentence(tr("page_empty_hint"), (f && EMPTY_EXAMPLES[f.name]) || "");
  const wasHidden = els.projectPicker.hidden;
  els.projectPicker.hidden = !PROJECT_FLOWS.has(els.flowSelect.value);
  if (wasHidden && !els.projectPicker.hidden) loadProjects();
  const v = app.view;
  showThreadProject(v);
  // The hint under the composer is said again only when what it is about changes (another thread, its flow
  // known at last, another flow picked): a re-join on coming back to the page keeps an error said before.
  const hintFor = `${v?.threadId ?? ""}|${v?.flow ?? ""}|${els.flowSelect.value}`;
  if (hintFor !== hintShownFor) {
    hintShownFor = hintFor;
    els.composerHint.textContent = v && v.flow && v.flow !== els.flowSelect.value
      ? tr("flow_switch_hint", { current: flowTitle(v.flow), chosen: flowTitle(els.flowSelect.value) })
      : "";
  }
  if (!app.view?.focusedId) renderCanvas();  // the empty canvas says what the chosen flow will show
  updateSendButton();
}

export function showComposerError(text) {
  els.composerHint.textContent = text;
  els.composerHint.classList.add("error");
  setTimeout(() => els.composerHint.classList.remove("error"), 4000);
}

// What is typed in the composer and not yet sent outlives a reload (the box has autocomplete off, so the
// browser does not keep it): it is put back when the page loads, and forgotten once it is sent.
const UNSENT_KEY = "agentCanvas.unsent";

export function keepUnsent() {
  try {
    if (els.input.value.trim()) localStorage.setItem(UNSENT_KEY, els.input.value);
    else localStorage.removeItem(UNSENT_KEY);
  } catch {
    // Storage refused (private mode): the box still works, only unsaved.
  }
}

export function restoreUnsent() {
  try {
    const text = localStorage.getItem(UNSENT_KEY);
    if (text && !els.input.value) els.input.value = text;
  } catch {
    // see keepUnsent
  }
}

let sending = false;

/** Send is off while the open thread runs (a message would be refused), while one is on its way, and
 *  while the server is out of reach (the typed text stays in the box for when it is back). */
export function updateSendButton() {
  const v = app.view;
  const continuing = v && (!v.flow || v.flow === els.flowSelect.value);
  const busy = !!(continuing && v.status && !IDLE_STATUSES.has(v.status));
  const offline = !isConnected();
  els.send.disabled = sending || busy || offline;
  els.send.dataset.state = offline ? "offline" : busy ? "busy" : sending ? "sending" : "ready";
  els.send.title = offline ? tr("not_connected") : busy ? tr("send_busy") : "";
}

export async function send() {
  const text = els.input.value.trim();
  if (els.send.disabled) {
    // Enter on a Send that is off did nothing at all: say why where the person is looking, not only in
    // the button's tooltip or the corner's connection status.
    if (text && els.send.dataset.state === "offline") showComposerError(tr("send_when_connected"));
    else if (text && els.send.dataset.state === "busy") showComposerError(tr("send_busy"));
    return;
  }
  if (!text) {
    // A press that did nothing reads as broken: say what is missing.
    showComposerError(tr("empty_message"));
    els.input.focus();
    return;
  }
  const flow = els.flowSelect.value;
  if (!flow) {
    showComposerError(tr("pick_flow"));
    return;
  }
  localStorage.setItem("agentCanvas.flow", flow);
  const v = app.view;
  const continuing = v && (!v.flow || v.flow === flow);
  const payload = continuing ? { flow: v.flow || flow, text, threadId: v.threadId } : { flow, text };
  if (!continuing && PROJECT_FLOWS.has(flow)) {
    const projectId = els.projectInput.value.trim();
    if (!projectId) {
      // Said here in the page's words: the server's refusal names the wire field (options.projectId).
      showComposerError(tr("project_missing"));
      els.projectInput.focus();
      return;
    }
    payload.options = { projectId };
  }
  sending = true;
  updateSendButton();
  if (!continuing) app.pendingNew = { buffer: [] };
  const ack = await emitAck("chat:message", payload);
  sending = false;
  updateSendButton();
  if (!ack.ok) {
    app.pendingNew = null;
    showComposerError(tr("send_failed", { error: errText(ack) }));
    return;
  }
  els.input.value = "";
  keepUnsent();
  els.composerHint.textContent = "";
  if (!continuing) {
    const buffered = app.pendingNew?.buffer || [];
    app.pendingNew = null;
    openThread(ack.threadId);
    app.view.flow = flow;
    app.view.options = payload.options || {};
    updateFlowHint();
    for (const [n, e] of buffered) if (e.threadId === ack.threadId) receive(n, e);
    refreshThreadsSoon();
  }
}
