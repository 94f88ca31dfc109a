// Readable views of artifacts, one per ArtifactType (schemas/events.py). Unknown types → JSON.

import { h, safeHref, safeColor, fontStack, formatBytes, renderMarkdown, jsonView } from "./dom.js";
import { renderSlide, renderDeck } from "./slides.js";
import pptViews from "./views/ppt.js";
import { NOVEL_VIEWS } from "./views/novel.js";
import { LEGAL_VIEWS } from "./views/legal.js";
import { tr } from "./i18n.js";

export const TYPE_LABELS = {
  search_results: tr("type_search_results"),
  course_config: tr("type_course_config"),
  video_outline: tr("type_video_outline"),
  slide_scripts: tr("type_slide_scripts"),
  presentation_theme: tr("type_presentation_theme"),
  slide_preview: tr("type_slide_preview"),
  dsl: tr("type_dsl"),
  pptx: tr("type_pptx"),
  qa_report: tr("type_qa_report"),
  pdf: tr("type_pdf"),
  tool_plan: tr("type_tool_plan"),
  scene_memory_context: tr("type_scene_memory_context"),
  legal_answer: tr("type_legal_answer"),
  legal_document: tr("type_legal_document"),
  requirement_plan: tr("type_requirement_plan"),
  implementation_plan: tr("type_implementation_plan"),
  trace: tr("type_trace"),
  novel_status: tr("type_novel_status"),
  novel_chapter: tr("type_novel_chapter"),
  novel_answer: tr("type_novel_answer"),
};

/** What an artifact is called: its type's label, its own type name when the catalogue has none. */
export const typeLabel = (type) => TYPE_LABELS[type] || type;

/** Whether a title already says what kind of artifact it is ("Legal answer", "Slide preview ×7"): then the
 *  kind is not shown beside it a second time. */
export const titleNamesType = (title, type) => String(title ?? "").includes(typeLabel(type));

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);

// A value that is a sentence (a plan's summary), not a short fact, gets the whole row: in a half-width cell
// it stood as a narrow column of five-word lines beside an empty one.
const LONG_VALUE_CHARS = 24;

function field(label, value) {
  const wide = typeof value === "string" && value.length > LONG_VALUE_CHARS;
  return h("div", { class: `kv${wide ? " kv-wide" : ""}` }, h("dt", null, label), h("dd", null, value));
}

function courseConfig(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card course-config", dataset: { testid: "view-course_config" } },
    h("dl", { class: "kv-grid" },
      field(tr("narrative_style"), c.narrativeStyle ?? "—"),
      field(tr("target_audience"), c.targetAudience ?? "—"),
      field(tr("duration"), c.duration != null ? tr("minutes", { count: c.duration }) : "—")),
    h("h4", null, tr("objectives")),
    h("ol", { class: "objectives" }, list(c.objectives).map((o) => h("li", null, String(o)))));
}

function videoOutline(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card outline", dataset: { testid: "view-video_outline" } },
    h("h4", { class: "outline-theme" }, c.theme ?? ""),
    h("ol", { class: "outline-tree" },
      list(c.knowledgeUnits).map((u, i) =>
        h("li", { class: "outline-unit" },
          h("div", { class: "outline-unit-head" }, h("span", { class: "unit-no" }, tr("unit", { index: i + 1 })), h("strong", null, u?.title ?? "")),
          u?.description ? h("p", { class: "muted" }, String(u.description)) : null,
          h("ul", { class: "outline-points" }, list(u?.knowledgePoints).map((p) => h("li", null, String(p))))))));
}

function slideScripts(c) {
  const scripts = Array.isArray(c) ? c : list(c?.scripts);
  if (!scripts.length && !isObj(c)) return null;
  return h("div", { class: "table-wrap", dataset: { testid: "view-slide_scripts" } },
    h("table", { class: "scripts" },
      h("caption", { class: "sr-only" }, TYPE_LABELS.slide_scripts),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, tr("column_slide")), h("th", { scope: "col" }, tr("column_content")), h("th", { scope: "col" }, tr("column_visuals")), h("th", { scope: "col" }, tr("speaker_notes")))),
      h("tbody", null, scripts.map((s) =>
        h("tr", null,
          h("td", { class: "num" }, String(s?.slideIndex ?? "")),
          h("td", null, s?.title ? h("strong", null, String(s.title)) : null, h("ul", null, list(s?.contentDesign).map((x) => h("li", null, String(x))))),
          h("td", null, h("ul", null, list(s?.visualSuggestions).map((x) => h("li", null, String(x))))),
          h("td", { class: "narration" }, String(s?.narrationScript ?? "")))))));
}

function presentationTheme(c) {
  if (!isObj(c)) return null;
  const colors = isObj(c.colorScheme) ? c.colorScheme : {};
  const fonts = isObj(c.fontConfig) ? c.fontConfig : {};
  const names = {
    primary: tr("color_primary"), secondary: tr("color_secondary"), accent: tr("color_accent"),
    background: tr("color_background"), text: tr("color_text"),
  };
  return h("article", { class: "card theme", dataset: { testid: "view-presentation_theme" } },
    h("h4", null, c.themeName ?? ""),
    h("div", { class: "swatches" },
      Object.entries(colors).map(([k, v]) =>
        h("figure", { class: "swatch" },
          h("div", { class: "swatch-chip", style: { background: safeColor(v, "transparent") } }),
          h("figcaption", null, h("span", null, names[k] ?? k), h("code", null, String(v)))))),
    h("h4", null, tr("fonts")),
    h("dl", { class: "kv-grid" },
      field(tr("title_font"), h("span", { style: { fontFamily: fontStack(fonts.titleFont, fonts.eastAsianFont) } }, `${fonts.titleFont ?? "—"}  ${tr("title_sample")}`)),
      field(tr("body_font"), h("span", { style: { fontFamily: fontStack(fonts.bodyFont, fonts.eastAsianFont) } }, `${fonts.bodyFont ?? "—"}  ${tr("body_sample")}`)),
      field(tr("east_asian_font"), h("span", { style: { fontFamily: fontStack(fonts.eastAsianFont) } }, `${fonts.eastAsianFont ?? "—"}  ${tr("east_asian_sample")}`)),
      field(tr("font_size"), tr("font_sizes", { title: fonts.titleSize ?? "—", body: fonts.bodySize ?? "—" }))),
    list(c.masterSlides).length ? h("h4", null, tr("master_slides")) : null,
    h("ul", { class: "masters" }, list(c.masterSlides).map((m) =>
      h("li", null, h("strong", null, m?.name ?? ""), " ", h("span", { class: "tag" }, m?.layout ?? ""), m?.description ? h("span", { class: "muted" }, ` ${m.description}`) : null))),
    h("h4", null, tr("preview")),
    h("div", { class: "theme-preview" }, renderSlide({ index: 1, layout: "title", title: c.themeName ?? "Theme", subtitle: tr("theme_sample") }, c)));
}

function searchResults(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card search", dataset: { testid: "view-search_results" } },
    h("p", { class: "muted" }, tr("search_query", { query: c.query ?? "" }), c.engine ? ` · ${c.engine}` : ""),
    list(c.results).length === 0 ? h("p", { class: "muted" }, tr("no_results")) : null,
    h("ol", { class: "search-results" }, list(c.results).map((r) => {
      const href = safeHref(r?.url);
      return h("li", null,
        href ? h("a", { href, target: "_blank", rel: "noopener noreferrer" }, r?.title || href) : h("span", null, r?.title ?? ""),
        r?.url ? h("div", { class: "url" }, String(r.url)) : null,
        r?.snippet ? h("p", null, String(r.snippet)) : null);
    })));
}

function pptx(artifact, ctx) {
  const c = isObj(artifact.content) ? artifact.content : {};
  // This version's file, not the latest: the link names the version it was shown with.
  const href = `/artifacts/${encodeURIComponent(artifact.id)}/download?version=${encodeURIComponent(artifact.version ?? 1)}`;
  const deck = ctx.deckAt ? ctx.deckAt(artifact.version) : ctx.latestDeck?.();
  return h("div", { class: "pptx-view", dataset: { testid: "view-pptx" } },
    h("article", { class: "card pptx" },
      h("div", { class: "pptx-icon", "aria-hidden": "true" }, "P"),
      h("div", { class: "pptx-meta" },
        h("strong", null, c.fileName ?? artifact.title ?? "presentation.pptx"),
        h("span", { class: "muted" }, [c.slideCount != null ? tr("slide_count", { count: c.slideCount }) : null, c.aspectRatio, formatBytes(c.sizeBytes)].filter(Boolean).join(" · "))),
      h("a", { class: "btn btn-primary download", href, download: c.fileName || "", dataset: { testid: "download-pptx" } }, tr("download_pptx"))),
    deck ? renderDeck(deck) : null);
}

function slidePreview(artifact, ctx) {
  const spec = artifact.content;
  if (!isObj(spec)) return null;
  const deck = ctx.previewDeck?.();
  if (deck?.slides.length) {
    const start = Math.max(0, deck.slides.findIndex((s) => s?.index === spec.index));
    return h("div", { class: "slide-preview", dataset: { testid: "view-slide_preview" } }, renderDeck(deck, { start }));
  }
  return h("div", { class: "slide-preview", dataset: { testid: "view-slide_preview" } },
    h("div", { class: "deck-stage" }, renderSlide(spec, ctx.latestTheme?.())),
    spec.notes ? h("div", { class: "deck-notes" }, h("span", { class: "deck-notes-label" }, tr("speaker_notes")), h("p", null, String(spec.notes))) : null);
}

// An assumption's risk in the page's words; a level this page does not know is shown as sent.
const RISK_LABELS = { low: tr("plan_risk_low"), medium: tr("plan_risk_medium"), high: tr("plan_risk_high") };
const riskLabel = (level) => RISK_LABELS[level] || String(level);

/** The requirement plan (schema v1.0), as content `{round, max_rounds, plan, sources…}` or the bare plan. */
function requirementPlan(c) {
  const plan = isObj(c?.plan) ? c.plan : c;
  if (!isObj(plan) || !plan.status) return null;
  const ready = plan.status === "plan_ready";
  const items = (values) => h("ul", null, list(values).map((v) => h("li", null, String(v))));
  return h("article", { class: "card requirement-plan", dataset: { testid: "view-requirement_plan" } },
    h("dl", { class: "kv-grid" },
      field(tr("plan_status"), ready ? tr("plan_ready") : tr("plan_clarification")),
      c?.round != null ? field(tr("plan_round"), `${c.round}${c.max_rounds ? ` / ${c.max_rounds}` : ""}`) : null,
      field(tr("plan_summary"), plan.requirement_summary ?? "—")),
    list(plan.questions).length ? h("section", null, h("h4", null, tr("plan_questions")),
      h("ol", null, list(plan.questions).map((q) => h("li", null,
        h("strong", null, String(q?.question ?? q?.id ?? "")), q?.blocking ? h("span", { class: "badge" }, tr("plan_blocking")) : null,
        q?.fallback_assumption ? h("p", { class: "muted" }, tr("default_assumption", { value: q.fallback_assumption })) : null)))) : null,
    list(plan.stages).length ? h("section", null, h("h4", null, tr("plan_stages")),
      h("ol", null, list(plan.stages).map((st) => h("li", null,
        h("strong", null, String(st?.name ?? "")), st?.goal ? h("p", null, String(st.goal)) : null,
        list(st?.success_criteria).length ? h("details", null, h("summary", null, tr("plan_success_criteria")), items(st.success_criteria)) : null,
        list(st?.tasks).length ? h("details", null, h("summary", null, tr("plan_tasks")), items(st.tasks)) : null)))) : null,
    list(plan.assumptions).length ? h("section", null, h("h4", null, tr("plan_assumptions")),
      h("ul", null, list(plan.assumptions).map((a) => h("li", null, String(a?.text ?? ""),
        a?.risk_level ? h("span", { class: "badge", dataset: { risk: String(a.risk_level) } }, riskLabel(a.risk_level)) : null)))) : null,
    list(plan.scope).length ? h("section", null, h("h4", null, tr("plan_scope")), items(plan.scope)) : null,
    list(plan.out_of_scope).length ? h("section", null, h("h4", null, tr("plan_out_of_scope")), items(plan.out_of_scope)) : null,
    list(c?.sources).length ? h("section", null, h("h4", null, tr("plan_sources")),
      h("ul", null, list(c.sources).map((src) => h("li", null, h("code", null, String(src?.path ?? src)))))) : null,
    h("details", { class: "extra" }, h("summary", null, "JSON"), jsonView(c)));
}

/** Text-like artifacts: a string, or an object with one obvious markdown/text field. */
function markdownLike(c) {
  if (typeof c === "string") return renderMarkdown(c);
  if (isObj(c)) {
    for (const key of ["markdown", "content", "text", "answer", "body", "document"]) {
      if (typeof c[key] === "string" && c[key].trim()) {
        const rest = Object.entries(c).filter(([k, v]) => k !== key && v !== null && v !== undefined && v !== "");
        return h("div", null, renderMarkdown(c[key]),
          rest.length ? h("details", { class: "extra" }, h("summary", null, tr("other_fields")), jsonView(Object.fromEntries(rest))) : null);
      }
    }
  }
  return null;
}

/** The implementation plan: its markdown, with buttons to copy it and to download this version's file. */
function implementationPlan(artifact) {
  const c = isObj(artifact.content) ? artifact.content : {};
  const markdown = typeof c.markdown === "string" ? c.markdown : "";
  if (!markdown) return markdownLike(artifact.content);
  const status = h("span", { class: "muted", role: "status", dataset: { testid: "plan-copy-status" } });
  const copy = h("button", {
    type: "button", class: "btn btn-small", dataset: { testid: "plan-copy" },
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(markdown);
        status.textContent = tr("copied");
      } catch {
        status.textContent = tr("clipboard_failed");
      }
    },
  }, tr("copy"));
  const fileName = c.file_name || "IMPLEMENTATION_PLAN.md";
  const href = `/artifacts/${encodeURIComponent(artifact.id)}/download?version=${encodeURIComponent(artifact.version ?? 1)}`;
  return h("article", { class: "card implementation-plan", dataset: { testid: "view-implementation_plan" } },
    h("div", { class: "plan-actions" },
      copy,
      h("a", { class: "btn btn-small", href, download: fileName, dataset: { testid: "plan-download" } }, tr("download_file", { name: fileName })),
      status),
    renderMarkdown(markdown));
}

// One view per artifact type. A flow's own views live in their own module and join this table
// (`static/views/<flow>.js` exporting `{type: (artifact, ctx) => Node}`).
const VIEWS = {
  course_config: (a) => courseConfig(a.content),
  video_outline: (a) => videoOutline(a.content),
  slide_scripts: (a) => slideScripts(a.content),
  presentation_theme: (a) => presentationTheme(a.content),
  dsl: (a) => (isObj(a.content) ? renderDeck(a.content) : null),
  slide_preview: (a, ctx) => slidePreview(a, ctx),
  pptx: (a, ctx) => pptx(a, ctx),
  search_results: (a) => searchResults(a.content),
  requirement_plan: (a) => requirementPlan(a.content),
  implementation_plan: (a) => implementationPlan(a),
  ...pptViews,
  ...NOVEL_VIEWS,
  ...LEGAL_VIEWS,
};

export function renderArtifactBody(artifact, ctx = {}) {
  let view = null;
  try {
    const render = VIEWS[artifact?.type];
    view = render ? render(artifact, ctx) : null;
  } catch (err) {
    console.warn("artifact view failed, showing JSON", err);
    view = null;
  }
  return view ?? jsonView(artifact?.content);
}
