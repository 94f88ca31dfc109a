// The artifact canvas: tabs, focus, lazy loading by version, the version switcher, rendering through VIEWS.

import { h, clear } from "./dom.js";
import { renderArtifactBody, TYPE_LABELS } from "./views.js";
import { els, app } from "./state.js";

export function onArtifact(v, ev) {
  const a = ev.artifact;
  if (!a || typeof a !== "object" || !a.id) return;
  const rec = upsertArtifact(v, a);
  const entry = ev.toolCallId ? v.entries.get(ev.toolCallId) : null;
  if (entry && a.type !== "slide_preview") entry.setArtifact(a.id);
  if (a.showInCanvas) focusArtifact(a.id);
  else if (v.focusedId === a.id || !v.focusedId) scheduleCanvas();
  return rec;
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

export function renderCanvas() {
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
