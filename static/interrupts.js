// Human-in-the-loop forms: clarification questions and confirmations, answered with run:resume.

import { h, append } from "./dom.js";
import { announce, emitAck, errText } from "./state.js";
import { appendChat, setStatus } from "./chat.js";
import { tr } from "./i18n.js";

// The answer (to a whole form, or to one of its questions) that keeps the default: docs/protocol.md.
const USE_DEFAULTS = "use defaults";

// What is typed into a form's fields is kept in the browser until the form is answered: a reload, a
// phone's browser dropping the tab, or a crash would otherwise lose answers that took a while to write.
// One entry per thread and question form, {questionId: text}; gone once the form is answered or closed.
const DRAFT_PREFIX = "agentCanvas.draft:";
const draftKey = (v, id) => `${DRAFT_PREFIX}${v.threadId}:${id}`;

function saveDraft(v, id, inputs) {
  const typed = {};
  for (const [qid, input] of inputs) if (input.value.trim()) typed[qid] = input.value;
  try {
    if (Object.keys(typed).length) localStorage.setItem(draftKey(v, id), JSON.stringify(typed));
    else localStorage.removeItem(draftKey(v, id));
  } catch {
    // Storage full or refused (private mode): the form still works, only unsaved.
  }
}

function dropDraft(v, id) {
  try {
    localStorage.removeItem(draftKey(v, id));
  } catch {
    // see saveDraft
  }
}

/** Every form's draft of a thread: the thread is gone. */
export function dropThreadDrafts(threadId) {
  try {
    const prefix = `${DRAFT_PREFIX}${threadId}:`;
    for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) localStorage.removeItem(key);
  } catch {
    // see saveDraft
  }
}

/**
 * The forms still waiting once a join's replay is in get back what was typed into them. Not before: a
 * replayed form may turn out answered a few events later, and its fields then show the answer.
 */
export function restoreDrafts(v) {
  for (const [id, it] of v.interrupts) {
    if (!it.open || !it.inputs) continue;
    let typed;
    try {
      typed = JSON.parse(localStorage.getItem(draftKey(v, id)) || "null");
    } catch {
      typed = null;
    }
    if (!typed || typeof typed !== "object") continue;
    for (const [qid, input] of it.inputs) {
      if (!input.value && typeof typed[qid] === "string") input.value = typed[qid];
    }
  }
}

/** A question's default assumption (docs/protocol.md: `default`); none for a plain question. */
function defaultOf(q) {
  return q?.default;
}

export function renderInterrupt(v, ev, open) {
  const id = ev.interruptId;
  if (!id || v.interrupts.has(id)) return;
  const payload = ev.payload && typeof ev.payload === "object" ? ev.payload : {};
  const errorEl = h("p", { class: "form-error", role: "alert" });
  const statusEl = h("p", { class: "interrupt-status", role: "status", tabindex: "-1" });
  const form = h("form", { class: "interrupt", dataset: { testid: "interrupt", interruptId: id, kind: ev.kind }, "aria-label": tr("interrupt_label") });
  const intro = payload.message || payload.title || payload.summary;

  // The form's "answered with …" line is the server's own wording of the answer (its user:message).
  const submit = async (answer) => {
    errorEl.textContent = "";
    // Show it answered at once (the run's next events follow quickly); undo if the server refuses.
    form.classList.add("answered");
    statusEl.textContent = tr("sending");
    // Disabled, the field or button with the focus would drop it to the page's start: the keyboard stays
    // at the form, on the line that says what became of the answer.
    const hadFocus = form.contains(document.activeElement);
    form.querySelectorAll("button, input, textarea").forEach((b) => (b.disabled = true));
    if (hadFocus) statusEl.focus();
    const ack = await emitAck("run:resume", { threadId: v.threadId, answer });
    if (ack.ok) {
      closeInterrupt(v, id, tr("sending"));
    } else if (v.interrupts.get(id)?.open) {
      form.classList.remove("answered");
      statusEl.textContent = "";
      form.querySelectorAll("button, input, textarea").forEach((b) => (b.disabled = false));
      errorEl.textContent = tr("send_failed", { error: errText(ack) });
    }
  };

  if (ev.kind === "confirmation") {
    const prompt = String(payload.prompt ?? tr("confirm_prompt"));
    append(form, [
      h("h3", null, tr("confirm_title")),
      h("p", { class: "interrupt-prompt" }, prompt),
      // An action the prompt already states is not said twice.
      payload.action !== undefined && payload.action !== null && !(typeof payload.action === "string" && prompt.includes(payload.action))
        ? (typeof payload.action === "string" ? h("p", { class: "interrupt-action" }, h("strong", null, tr("action")), payload.action)
          : h("details", { class: "interrupt-action" }, h("summary", null, tr("action_details")), h("pre", { class: "json" }, JSON.stringify(payload.action, null, 2))))
        : null,
      h("div", { class: "form-actions" },
        h("button", { type: "submit", class: "btn btn-primary", dataset: { testid: "confirm" } }, tr("confirm")),
        h("button", { type: "button", class: "btn", dataset: { testid: "cancel" }, onclick: () => submit(false) }, tr("cancel"))),
      errorEl, statusEl]);
    form.addEventListener("submit", (e) => { e.preventDefault(); submit(true); });
  } else {
    const questions = Array.isArray(payload.questions) ? payload.questions : [];
    const inputs = [];
    const fields = questions.map((q, i) => {
      const qid = String(q?.id ?? `q${i + 1}`);
      const inputId = `ans-${id}-${i}`.replace(/[^A-Za-z0-9_-]/g, "_");
      const dflt = defaultOf(q);
      const input = h("textarea", { id: inputId, rows: "2", name: qid, placeholder: dflt ? tr("answer_default_placeholder") : tr("answer_placeholder") });
      input.addEventListener("input", () => saveDraft(v, id, inputs));
      inputs.push([qid, input]);
      const options = Array.isArray(q?.options) ? q.options : [];
      return h("div", { class: "field" },
        // Which questions the plan cannot do without, as the plan itself marks them.
        h("label", { for: inputId }, String(q?.question ?? qid), q?.blocking ? h("span", { class: "badge" }, tr("plan_blocking")) : null),
        input,
        options.length ? h("div", { class: "chips" }, options.map((o) =>
          h("button", { type: "button", class: "chip", onclick: () => { input.value = String(o); saveDraft(v, id, inputs); input.focus(); } }, String(o)))) : null,
        dflt ? h("small", { class: "muted" }, tr("default_assumption", { value: dflt })) : null);
    });
    // "Keep every default" where there are none (a draft's missing facts) names nothing: those are skipped.
    const skipLabel = questions.some(defaultOf) ? tr("use_defaults_button") : tr("skip_questions_button");
    append(form, [
      h("h3", null, tr("clarify_title")),
      intro ? h("p", null, String(intro)) : null,
      ...fields,
      h("div", { class: "form-actions" },
        h("button", { type: "submit", class: "btn btn-primary", dataset: { testid: "answer" }, title: tr("submit_answer_keys"),
          "aria-keyshortcuts": "Control+Enter Meta+Enter" }, tr("submit_answer")),
        h("button", { type: "button", class: "btn", dataset: { testid: "use-defaults" }, onclick: () => submitTyped(true) }, skipLabel)),
      errorEl, statusEl]);
    // What was typed is the answer; the questions left empty are asked again, or — "use defaults" —
    // keep their default (skipped, without one). Defaults never overwrite what the user wrote.
    const submitTyped = (defaultTheRest) => {
      const answer = {};
      for (const [qid, input] of inputs) if (input.value.trim()) answer[qid] = input.value.trim();
      if (!Object.keys(answer).length) return submit(USE_DEFAULTS);
      if (defaultTheRest) for (const [qid] of inputs) answer[qid] ??= USE_DEFAULTS;
      submit(answer);
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      submitTyped(false);
    });
    // Enter starts a new line of an answer; Ctrl+Enter (⌘+Enter) sends the form, as in most chat and mail forms.
    form.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey) || e.isComposing || !e.target.matches("textarea")) return;
      e.preventDefault();
      form.requestSubmit();
    });
  }
  appendChat(form);
  const answerFields = [...form.querySelectorAll("textarea")].map((input) => [input.name, input]);
  v.interrupts.set(id, { el: form, open: true, seq: Number(ev.seq) || v.lastSeq, statusEl, inputs: answerFields });
  if (!open) closeInterrupt(v, id, tr("handled"));
  else {
    setStatus("interrupted");
    announce(tr("interrupt_label"));
  }
}

export function showAnswer(v, id, answer, text) {
  const it = v.interrupts.get(id);
  if (!it) return;
  if (answer && typeof answer === "object") {
    for (const input of it.el.querySelectorAll("textarea")) {
      if (typeof answer[input.name] === "string" && answer[input.name] !== USE_DEFAULTS) input.value = answer[input.name];
    }
  }
  closeInterrupt(v, id, tr("answered_with", { label: text.slice(0, 80) }));
  it.statusEl.textContent = tr("answered_with", { label: text.slice(0, 80) });
}

export function closeInterrupt(v, id, text) {
  const it = v.interrupts.get(id);
  if (!it || !it.open) return;
  it.open = false;
  dropDraft(v, id);
  it.el.classList.add("answered");
  it.el.querySelectorAll("button, input, textarea").forEach((b) => (b.disabled = true));
  it.statusEl.textContent = text;
}

export function closeAllInterrupts(v, text) {
  for (const id of v.interrupts.keys()) closeInterrupt(v, id, text);
}
