// The artifact canvas: tabs, focus, lazy loading by version, the version switcher, rendering through VIEWS.

import { h, clear } from "./dom.js";
import { renderArtifactBody, TYPE_LABELS, titleNamesType, typeLabel } from "./views.js";
import { els, app } from "./state.js";
import { tr } from "./i18n.js";

export function onArtifact(v, ev) {
  const a = ev.artifact;
  if (!a || typeof a !== "object" || !a.id) return;
  const rec = upsertArtifact(v, a);
  const entry = ev.toolCallId ? v.entries.get(ev.toolCallId) : null;
  if (entry && a.type !== "slide_preview") entry.setArtifact(a.id);
  // Pages of the deck join the deck view as they are generated, like artifacts marked showInCanvas.
  if (a.showInCanvas || a.type === "slide_preview") followLive(v, a.id);
  // What is on screen may have changed (a new version, a new page of the deck) even when not followed.
  if (v.focusedId === a.id || !v.focusedId || isPreviewId(v, v.focusedId)) scheduleCanvas();
  return rec;
}

const isPreviewId = (v, id) => v.artifacts.get(id)?.artifact.type === "slide_preview";

/** The run puts an artifact forward: show it, unless the user has picked another one to read. */
export function followLive(v, id) {
  v.liveId = id;
  if (v.followLive) focusArtifact(id);
}

function showFollowState(v) {
  const on = !v || v.followLive;
  els.followLive.setAttribute("aria-pressed", String(on));
  els.followLive.textContent = on ? tr("follow_live") : tr("follow_live_paused");
}

export function setFollowLive(v, on) {
  v.followLive = on;
  showFollowState(v);
  if (on) {
    const latest = v.liveId ?? v.order[v.order.length - 1];
    if (latest) focusArtifact(latest);
  }
}

export function upsertArtifact(v, a) {
  let rec = v.artifacts.get(a.id);
  if (!rec) {
    rec = { artifact: a, versionCache: new Map() };
    v.artifacts.set(a.id, rec);
    v.order.push(a.id);
  } else if ((Number(a.version) || 0) >= (Number(rec.artifact.version) || 0) || rec.artifact.content === undefined) {
    rec.artifact = a;
  }
  // When its content last arrived: a page older than the deck it was left out of is not shown (see previewPages).
  rec.arrived = ++arrivals;
  // Only the latest content is kept from events; older versions are fetched on demand (?version=N).
  scheduleTabs();
  return rec;
}

export function addArtifactRef(v, ref) {
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

export function focusArtifact(id, { user = false } = {}) {
  const v = app.view;
  if (!v) return;
  if (!v.artifacts.has(id)) addArtifactRef(v, { id, type: "trace", title: tr("artifact"), version: 1 });
  if (user && v.followLive) setFollowLive(v, false);
  v.focusedId = id;
  v.pinnedVersion = null;
  scheduleTabs();
  scheduleCanvas();
  if (user) {
    // On narrow screens the canvas sits below the chat: bring it into view.
    setTimeout(() => {
      const pane = document.querySelector(".canvas-pane");
      if (pane && window.matchMedia("(max-width: 860px)").matches) pane.scrollIntoView({ behavior: "smooth", block: "start" });
      // A tab keeps focus so arrow keys go on moving between tabs; other buttons hand it to the canvas.
      if (!els.tabs.contains(document.activeElement)) els.canvasBody.focus({ preventScroll: true });
    }, 0);
  }
}

let arrivals = 0;

function previewPages(v) {
  // A deck that lost pages (a removed slide) keeps its old last pages' previews in the log: a page numbered
  // past the newest deck and not made since it was published is no longer one of its pages.
  const deck = latestOfType(v, "dsl");
  const size = Array.isArray(deck?.artifact.content?.slides) ? deck.artifact.content.slides.length : Infinity;
  return v.order
    .map((id) => v.artifacts.get(id))
    .filter(({ artifact: a }) => a.type === "slide_preview" && a.content && typeof a.content === "object")
    .filter((rec) => (Number(rec.artifact.content.index) || 0) <= size || (rec.arrived || 0) > (deck.arrived || 0))
    .map((rec) => rec.artifact.content)
    .sort((x, y) => (Number(x.index) || 0) - (Number(y.index) || 0));
}

export function latestOfType(v, type) {
  for (let i = v.order.length - 1; i >= 0; i--) {
    const rec = v.artifacts.get(v.order[i]);
    if (rec?.artifact.type === type) return rec;
  }
  return null;
}

let tabsTimer = null;
export function scheduleTabs() {
  if (tabsTimer) return;
  tabsTimer = setTimeout(() => { tabsTimer = null; renderTabs(); }, 0);
}

let canvasTimer = null;
export function scheduleCanvas() {
  if (canvasTimer) return;
  canvasTimer = setTimeout(() => { canvasTimer = null; renderCanvas(); }, 0);
}

export function tabGroups(v) {
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

export function renderTabs() {
  const v = app.view;
  // Tabs are rebuilt on every change; keep keyboard focus on the active one.
  const hadFocus = els.tabs.contains(document.activeElement);
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
    // The deck's pages, not every preview in the log (a removed page's stays there).
    const pageCount = isPreview ? previewPages(v).length : 0;
    const label = isPreview ? `${TYPE_LABELS.slide_preview}${pageCount > 1 ? ` ×${pageCount}` : ""}` : a.title || typeLabel(a.type);
    const namesType = titleNamesType(label, a.type);
    els.tabs.append(h("button", {
      type: "button", role: "tab", class: `tab${active ? " active" : ""}`,
      "aria-selected": active ? "true" : "false",
      tabindex: active ? "0" : "-1",
      dataset: { testid: "artifact-tab", artifactId: a.id, type: a.type },
      // The whole name on hover: a title too long for its tab is cut there.
      title: `${namesType ? label : `${typeLabel(a.type)} · ${label}`} · v${a.version ?? 1}`,
      onclick: () => focusArtifact(active ? a.id : last.id, { user: true }),
    }, namesType ? null : h("span", { class: "tab-type" }, typeLabel(a.type)),
      h("span", { class: "tab-title" }, label),
      (Number(a.version) || 1) > 1 ? h("span", { class: "tab-ver" }, `v${a.version}`) : null));
  }
  const activeTab = els.tabs.querySelector(".tab.active");
  if (activeTab) {
    revealTab(activeTab);
    if (hadFocus) activeTab.focus();
  } else if (hadFocus) {
    els.tabs.querySelector(".tab")?.focus();
  }
}

/** Scroll the tab row (only it: scrollIntoView would also scroll the page on a phone) so `tab` is whole and no
 *  tab is cut at the row's left edge: a tab cut in half there looks broken, not scrolled. */
function revealTab(tab) {
  const row = els.tabs;
  row.style.paddingRight = "";
  const style = getComputedStyle(row);
  const tabs = [...row.querySelectorAll(".tab")];
  // Positions in the row's scrolled content (offsetLeft counts from the page: the row is not positioned).
  const start = (el) => el.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
  // Where the row may stop: at its start, or where a tab begins just past the end of the tab before it.
  const stops = tabs.map((t, i) => (i === 0 ? 0 : start(t) - parseFloat(style.columnGap || "0")));
  const highest = stops[tabs.indexOf(tab)];
  const lowest = start(tab) + tab.offsetWidth + parseFloat(style.paddingRight) - row.clientWidth;
  const fitting = stops.filter((x) => x >= lowest && x <= highest);
  if (!fitting.length) {  // a tab wider than the row: its start
    row.scrollLeft = highest;
    return;
  }
  const scroll = fitting.reduce((best, x) => (Math.abs(x - row.scrollLeft) < Math.abs(best - row.scrollLeft) ? x : best));
  // Near the end the row cannot scroll that far: room after the last tab lets it stop at a tab.
  const short = scroll - (row.scrollWidth - row.clientWidth);
  if (short > 0) row.style.paddingRight = `${parseFloat(style.paddingRight) + short}px`;
  row.scrollLeft = scroll;
}

/** Arrow keys, Home and End move between artifact tabs (the WAI-ARIA tabs pattern). */
function onTabKey(e) {
  const tabs = [...els.tabs.querySelectorAll(".tab")];
  const at = tabs.indexOf(document.activeElement);
  if (at === -1) return;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const target = tabs[(to + tabs.length) % tabs.length];
  target.focus();
  target.click();
}

export function bindCanvas() {
  els.tabs.addEventListener("keydown", onTabKey);
  els.followLive.addEventListener("click", () => app.view && setFollowLive(app.view, !app.view.followLive));
  els.versionSelect.addEventListener("change", () => {
    const v = app.view;
    if (!v) return;
    const n = Number(els.versionSelect.value);
    const latest = Number(v.artifacts.get(v.focusedId)?.artifact.version);
    v.pinnedVersion = n === latest ? null : n;
    // Reading an older version is picking what to read: new artifacts must not take the canvas away.
    if (v.pinnedVersion && v.followLive) setFollowLive(v, false);
    renderCanvas();
  });
}

export async function fetchArtifact(id, version) {
  const url = `/artifacts/${encodeURIComponent(id)}${version ? `?version=${encodeURIComponent(version)}` : ""}`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

const loading = new Set();
export function ensureLoaded(v, id, version) {
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

// What the empty canvas promises depends on the flow: a novel makes no slides.
const CANVAS_EMPTY = {
  ppt: tr("canvas_empty_ppt"),
  novel: tr("canvas_empty_novel"),
  novel_workflow: tr("canvas_empty_novel_workflow"),
};

export function renderCanvas() {
  const v = app.view;
  const rec = v && v.focusedId ? v.artifacts.get(v.focusedId) : null;
  const body = els.canvasBody;
  showFollowState(v);
  if (!rec) {
    els.canvasHead.hidden = true;
    body.replaceChildren(h("div", { class: "canvas-empty" },
      h("div", { class: "canvas-empty-icon", "aria-hidden": "true" }, "◧"),
      h("p", null, v && v.order.length ? tr("canvas_empty_pick")
        : CANVAS_EMPTY[(v && v.flow) || els.flowSelect.value] || tr("canvas_empty"))));
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
  els.canvasTitle.textContent = latest.title || typeLabel(latest.type);
  els.canvasType.textContent = typeLabel(latest.type);
  els.canvasType.hidden = titleNamesType(els.canvasTitle.textContent, latest.type);
  // Version switcher: 1..latest plus whatever the server listed; versions that arrive after the
  // server's list was fetched still join it.
  const versions = [...new Set([
    ...Array.from({ length: Number(latest.version) || 1 }, (_, i) => i + 1),
    ...(Array.isArray(rec.versions) ? rec.versions.map(Number) : []),
  ])];
  if (versions.length > 1) {
    els.versionWrap.hidden = false;
    clear(els.versionSelect);
    for (const n of [...versions].sort((a, b) => b - a)) {
      els.versionSelect.append(h("option", { value: String(n) }, n === Number(latest.version) ? tr("version_latest", { version: n }) : `v${n}`));
    }
    els.versionSelect.value = String(pinned ?? latest.version);
  } else {
    els.versionWrap.hidden = true;
  }

  const pages = latest.type === "slide_preview" ? `@${previewPages(v).length}` : "";
  const canvasKey = `${latest.id}@${shown ? shown.version : "loading"}@${shown === latest ? latest.version : pinned}${pages}`;
  if (body.dataset.key === canvasKey && shown && body.dataset.rendered === "1" && latest.type !== "pptx") return;
  body.dataset.key = canvasKey;
  body.dataset.artifactId = latest.id;
  body.dataset.type = latest.type;
  body.dataset.rendered = shown ? "1" : "0";
  if (!shown) {
    body.replaceChildren(rec.error ? h("p", { class: "notice notice-error" }, tr("artifact_load_failed", { error: rec.error })) : h("p", { class: "muted loading" }, tr("loading")));
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
    // The deck rendered with a given version of the pptx (both are made by the same step).
    deckAt: (version) => {
      const d = latestOfType(v, "dsl");
      if (!d || !version || Number(version) === Number(d.artifact.version)) return ctx.latestDeck();
      const cached = d.versionCache.get(Number(version));
      if (!cached) ensureLoaded(v, d.artifact.id, version);
      return cached?.content ?? null;
    },
    // Every page generated so far, in page order: the deck as it is being built.
    previewDeck: () => ({ title: "", theme: ctx.latestTheme(), slides: previewPages(v) }),
  };
  const view = renderArtifactBody(shown, ctx);
  body.replaceChildren(...[
    pinned ? h("p", { class: "notice" }, tr("viewing_version", { version: pinned, latest: latest.version })) : null,
    view,
  ].filter(Boolean));
  body.scrollTop = 0;
}
