// agent-canvas browser client: chat + stage timeline on the left, artifact canvas on the right.
// Speaks wire protocol v1 (docs/protocol.md) over the canvas's own Socket.IO client (wire.js).
// This module boots the page; each concern lives in its own module (state, socket, timeline, interrupts, canvas, threads, composer).

import { els, app, announce, emitAck, errText } from "./state.js";
import { connect, joinThread } from "./socket.js";
import { bindCanvas } from "./canvas.js";
import { refreshThreads, threadFromHash, openThread, resetView, startNewThread, bindThreadActions } from "./threads.js";
import { loadFlows, loadProjects, updateFlowHint, showComposerError, send, keepUnsent, restoreUnsent } from "./composer.js";
import { ensureSignedIn } from "./signin.js";
import { tr } from "./i18n.js";

async function loadProvider() {
  try {
    const res = await fetch("/healthz");
    const body = await res.json();
    const llm = body?.llm || {};
    const provider = String(llm.provider || "unknown");
    const model = llm.model ? ` · ${llm.model}` : "";
    els.provider.textContent = provider === "offline" ? tr("provider_offline") : tr("provider_live", { provider, model });
    els.provider.className = `badge provider ${provider === "offline" ? "provider-offline" : "provider-live"}`;
    els.provider.title = provider === "offline" ? tr("provider_offline_title") : tr("provider_live_title", { provider, model });
    els.provider.dataset.provider = provider;
  } catch {
    els.provider.textContent = tr("provider_unknown");
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
  els.input.addEventListener("input", keepUnsent);
  els.flowSelect.addEventListener("change", updateFlowHint);
  els.projectInput.addEventListener("focus", loadProjects);  // a run may have created one since
  els.newThread.addEventListener("click", startNewThread);
  els.threadsToggle.addEventListener("click", () => showThreadsPanel(els.threadsPanel.hidden));
  // Esc closes the open list, as a menu would, and gives focus back to its button (a rename's Esc
  // only cancels the rename: its handler stops the event).
  for (const el of [els.threadsPanel, els.threadsToggle]) {
    el.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || els.threadsPanel.hidden) return;
      e.preventDefault();
      showThreadsPanel(false);
      els.threadsToggle.focus();
    });
  }
  // Picking a thread is what the panel is for: it closes and the chat shows the thread.
  els.threadList.addEventListener("click", (e) => {
    if (e.target.closest("a.thread-link")) showThreadsPanel(false);
  });
  els.stop.addEventListener("click", async () => {
    const v = app.view;
    if (!v) return;
    els.stop.disabled = true;
    v.stopRequested = true;
    const ack = await emitAck("run:cancel", { threadId: v.threadId });
    if (!ack.ok) {
      v.stopRequested = false;
      els.stop.disabled = false;
      showComposerError(tr("stop_failed", { error: errText(ack) }));
    } else {
      announce(tr("stopping"));
    }
  });
  window.addEventListener("focus", catchUpOnReturn);
  document.addEventListener("visibilitychange", catchUpOnReturn);
  bindThreadActions();
  bindCanvas();
  window.addEventListener("hashchange", () => {
    const id = threadFromHash();
    if (id && id !== app.view?.threadId) openThread(id, { updateHash: false });
    else if (!id && app.view) startNewThread();
  });
}

/**
 * A run another process starts on the same DATA_DIR (`ng resume` in a terminal) after this page joined is
 * in the server's event log, but the server follows such a run live only for pages that join while it
 * runs: this page would go on offering to continue a finished thread. Coming back to the page joins
 * again: what the server has since, and the rest live if the run goes on.
 */
function catchUpOnReturn() {
  const v = app.view;
  if (!v || v.gone || v.catchingUp || v.rejoining || !app.socket?.connected || document.visibilityState !== "visible") return;
  v.catchingUp = true;  // focus and visibilitychange both fire on a return: one join is enough
  joinThread(v).finally(() => { v.catchingUp = false; });
  if (!els.threadsPanel.hidden) refreshThreads();
}

function showThreadsPanel(open) {
  els.threadsPanel.hidden = !open;
  els.threadsToggle.setAttribute("aria-expanded", String(open));
  if (open) refreshThreads();
}

async function main() {
  bindUi();
  restoreUnsent();
  resetView(null);
  await ensureSignedIn();
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
