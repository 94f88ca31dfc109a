// Readable views of artifacts, one per ArtifactType (schemas/events.py). Unknown types → JSON.

import { h, safeHref, safeColor, fontStack, formatBytes, renderMarkdown, jsonView } from "./dom.js";
import { renderSlide, renderDeck } from "./slides.js";
import pptViews from "./views/ppt.js";
import { NOVEL_VIEWS, NOVEL_LABELS } from "./views/novel.js";
import { LEGAL_VIEWS } from "./views/legal.js";

export const TYPE_LABELS = {
  search_results: "搜索结果",
  course_config: "课程配置",
  video_outline: "视频大纲",
  slide_scripts: "逐页脚本",
  presentation_theme: "主题风格",
  slide_preview: "单页预览",
  dsl: "幻灯片",
  pptx: "PPTX 文件",
  qa_report: "质检报告",
  pdf: "PDF 预览",
  tool_plan: "工具计划",
  scene_memory_context: "场景记忆",
  legal_answer: "法律解答",
  legal_document: "法律文书",
  requirement_plan: "需求计划",
  implementation_plan: "实施计划",
  trace: "执行轨迹",
  ...NOVEL_LABELS,
};

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);

function field(label, value) {
  return h("div", { class: "kv" }, h("dt", null, label), h("dd", null, value));
}

function courseConfig(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card course-config", dataset: { testid: "view-course_config" } },
    h("dl", { class: "kv-grid" },
      field("叙事风格", c.narrativeStyle ?? "—"),
      field("目标受众", c.targetAudience ?? "—"),
      field("时长", c.duration != null ? `${c.duration} 分钟` : "—")),
    h("h4", null, "教学目标"),
    h("ol", { class: "objectives" }, list(c.objectives).map((o) => h("li", null, String(o)))));
}

function videoOutline(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card outline", dataset: { testid: "view-video_outline" } },
    h("h4", { class: "outline-theme" }, c.theme ?? ""),
    h("ol", { class: "outline-tree" },
      list(c.knowledgeUnits).map((u, i) =>
        h("li", { class: "outline-unit" },
          h("div", { class: "outline-unit-head" }, h("span", { class: "unit-no" }, `单元 ${i + 1}`), h("strong", null, u?.title ?? "")),
          u?.description ? h("p", { class: "muted" }, String(u.description)) : null,
          h("ul", { class: "outline-points" }, list(u?.knowledgePoints).map((p) => h("li", null, String(p))))))));
}

function slideScripts(c) {
  const scripts = Array.isArray(c) ? c : list(c?.scripts);
  if (!scripts.length && !isObj(c)) return null;
  return h("div", { class: "table-wrap", dataset: { testid: "view-slide_scripts" } },
    h("table", { class: "scripts" },
      h("caption", { class: "sr-only" }, "逐页脚本"),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "页"), h("th", { scope: "col" }, "内容设计"), h("th", { scope: "col" }, "可视化建议"), h("th", { scope: "col" }, "口播稿"))),
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
  const names = { primary: "主色", secondary: "辅色", accent: "强调色", background: "背景", text: "文字" };
  return h("article", { class: "card theme", dataset: { testid: "view-presentation_theme" } },
    h("h4", null, c.themeName ?? ""),
    h("div", { class: "swatches" },
      Object.entries(colors).map(([k, v]) =>
        h("figure", { class: "swatch" },
          h("div", { class: "swatch-chip", style: { background: safeColor(v, "transparent") } }),
          h("figcaption", null, h("span", null, names[k] ?? k), h("code", null, String(v)))))),
    h("h4", null, "字体"),
    h("dl", { class: "kv-grid" },
      field("标题字体", h("span", { style: { fontFamily: fontStack(fonts.titleFont, fonts.eastAsianFont) } }, `${fonts.titleFont ?? "—"}  标题 Aa`)),
      field("正文字体", h("span", { style: { fontFamily: fontStack(fonts.bodyFont, fonts.eastAsianFont) } }, `${fonts.bodyFont ?? "—"}  正文 Aa`)),
      field("中文字体", h("span", { style: { fontFamily: fontStack(fonts.eastAsianFont) } }, `${fonts.eastAsianFont ?? "—"}  中文字体`)),
      field("字号", `标题 ${fonts.titleSize ?? "—"} pt · 正文 ${fonts.bodySize ?? "—"} pt`)),
    list(c.masterSlides).length ? h("h4", null, "母版") : null,
    h("ul", { class: "masters" }, list(c.masterSlides).map((m) =>
      h("li", null, h("strong", null, m?.name ?? ""), " ", h("span", { class: "tag" }, m?.layout ?? ""), m?.description ? h("span", { class: "muted" }, ` ${m.description}`) : null))),
    h("h4", null, "预览"),
    h("div", { class: "theme-preview" }, renderSlide({ index: 1, layout: "title", title: c.themeName ?? "Theme", subtitle: "标题 · 正文 · 强调" }, c)));
}

function searchResults(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card search", dataset: { testid: "view-search_results" } },
    h("p", { class: "muted" }, `查询：${c.query ?? ""}`, c.engine ? ` · ${c.engine}` : ""),
    list(c.results).length === 0 ? h("p", { class: "muted" }, "没有结果") : null,
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
        h("span", { class: "muted" }, [c.slideCount != null ? `${c.slideCount} 页` : null, c.aspectRatio, formatBytes(c.sizeBytes)].filter(Boolean).join(" · "))),
      h("a", { class: "btn btn-primary download", href, download: c.fileName || "", dataset: { testid: "download-pptx" } }, "⬇ 下载 PPTX")),
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
    spec.notes ? h("div", { class: "deck-notes" }, h("span", { class: "deck-notes-label" }, "口播稿"), h("p", null, String(spec.notes))) : null);
}

/** The requirement plan (schema v1.0), as content `{round, max_rounds, plan, sources…}` or the bare plan. */
function requirementPlan(c) {
  const plan = isObj(c?.plan) ? c.plan : c;
  if (!isObj(plan) || !plan.status) return null;
  const ready = plan.status === "plan_ready";
  const items = (values) => h("ul", null, list(values).map((v) => h("li", null, String(v))));
  return h("article", { class: "card requirement-plan", dataset: { testid: "view-requirement_plan" } },
    h("dl", { class: "kv-grid" },
      field("状态 status", ready ? "计划就绪 plan_ready" : "需要澄清 clarification_needed"),
      c?.round != null ? field("轮次 round", `${c.round}${c.max_rounds ? ` / ${c.max_rounds}` : ""}`) : null,
      field("概述 summary", plan.requirement_summary ?? "—")),
    list(plan.questions).length ? h("section", null, h("h4", null, "待澄清问题 questions"),
      h("ol", null, list(plan.questions).map((q) => h("li", null,
        h("strong", null, String(q?.question ?? q?.id ?? "")), q?.blocking ? h("span", { class: "badge" }, "阻断 blocking") : null,
        q?.fallback_assumption ? h("p", { class: "muted" }, `默认假设：${q.fallback_assumption}`) : null)))) : null,
    list(plan.stages).length ? h("section", null, h("h4", null, "阶段 stages"),
      h("ol", null, list(plan.stages).map((st) => h("li", null,
        h("strong", null, String(st?.name ?? "")), st?.goal ? h("p", null, String(st.goal)) : null,
        list(st?.success_criteria).length ? h("details", null, h("summary", null, "成功标准 success criteria"), items(st.success_criteria)) : null,
        list(st?.tasks).length ? h("details", null, h("summary", null, "任务 tasks"), items(st.tasks)) : null)))) : null,
    list(plan.assumptions).length ? h("section", null, h("h4", null, "假设 assumptions"),
      h("ul", null, list(plan.assumptions).map((a) => h("li", null, String(a?.text ?? ""),
        a?.risk_level ? h("span", { class: "badge" }, String(a.risk_level)) : null)))) : null,
    list(plan.scope).length ? h("section", null, h("h4", null, "范围 scope"), items(plan.scope)) : null,
    list(plan.out_of_scope).length ? h("section", null, h("h4", null, "不包含 out of scope"), items(plan.out_of_scope)) : null,
    list(c?.sources).length ? h("section", null, h("h4", null, "引用 sources"),
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
          rest.length ? h("details", { class: "extra" }, h("summary", null, "其他字段"), jsonView(Object.fromEntries(rest))) : null);
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
        status.textContent = "已复制到剪贴板";
      } catch {
        status.textContent = "无法访问剪贴板，请使用下载";
      }
    },
  }, "复制");
  const fileName = c.file_name || "IMPLEMENTATION_PLAN.md";
  const href = `/artifacts/${encodeURIComponent(artifact.id)}/download?version=${encodeURIComponent(artifact.version ?? 1)}`;
  return h("article", { class: "card implementation-plan", dataset: { testid: "view-implementation_plan" } },
    h("div", { class: "plan-actions" },
      copy,
      h("a", { class: "btn btn-small", href, download: fileName, dataset: { testid: "plan-download" } }, `下载 ${fileName}`),
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
