// PPT flow views beyond the six stages: the QA gate's report and the LibreOffice-rendered preview.

import { h } from "../dom.js";

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);

/** QaReport (schemas/ppt.py): passed, checks, issues[{check, slide, message}], repairs, rounds. */
function qaReport(artifact) {
  const c = artifact.content;
  if (!isObj(c)) return null;
  const issues = list(c.issues);
  return h("article", { class: "card qa-report", dataset: { testid: "view-qa_report", passed: c.passed ? "true" : "false" } },
    h("p", { class: c.passed ? "qa-ok" : "qa-bad" },
      c.passed ? `✓ 质检通过：${list(c.checks).length} 项检查全部合格 · QA passed`
        : `⚠ 修复后仍有 ${issues.length} 个问题 · ${issues.length} problem(s) remain`),
    issues.length ? h("ol", { class: "qa-issues", dataset: { testid: "qa-issues" } }, issues.map((i) =>
      h("li", null, h("span", { class: "tag" }, String(i?.check ?? "")), " ", String(i?.message ?? "")))) : null,
    list(c.repairs).length ? h("details", { class: "extra", open: true }, h("summary", null, "已做的调整 repairs"),
      h("ul", null, list(c.repairs).map((r) => h("li", null, String(r))))) : null,
    h("details", { class: "extra" }, h("summary", null, "检查项 checks"), h("p", { class: "muted" }, list(c.checks).join(" · "))));
}

/** DeckPreview: the PDF LibreOffice rendered (download) and its per-slide thumbnails. */
function pdfPreview(artifact) {
  const c = isObj(artifact.content) ? artifact.content : {};
  const href = `/artifacts/${encodeURIComponent(artifact.id)}/download`;
  const thumbs = list(c.thumbnails).filter((u) => typeof u === "string" && u.startsWith("data:image/"));
  return h("div", { class: "pdf-view", dataset: { testid: "view-pdf" } },
    h("article", { class: "card pptx" },
      h("div", { class: "pptx-icon", "aria-hidden": "true" }, "PDF"),
      h("div", { class: "pptx-meta" }, h("strong", null, c.fileName ?? artifact.title ?? "deck.pdf"),
        h("span", { class: "muted" }, `LibreOffice 实际渲染 · ${thumbs.length} 页`)),
      h("a", { class: "btn btn-primary download", href, download: c.fileName || "", dataset: { testid: "download-pdf" } }, "⬇ 下载 PDF")),
    h("div", { class: "deck-real", dataset: { testid: "real-thumbs" } }, thumbs.map((src, i) =>
      h("figure", null, h("img", { src, alt: `第 ${i + 1} 页 slide ${i + 1}`, loading: "lazy" }), h("figcaption", null, String(i + 1))))));
}

export default {
  qa_report: (a) => qaReport(a),
  pdf: (a) => pdfPreview(a),
};
