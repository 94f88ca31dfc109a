// PPT flow views beyond the six stages: the QA gate's report and the LibreOffice-rendered preview.

import { h } from "../dom.js";
import { tr } from "../i18n.js";

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);

/** QaReport (schemas/ppt.py): passed, checks, issues[{check, slide, message}], repairs, rounds. */
function qaReport(artifact) {
  const c = artifact.content;
  if (!isObj(c)) return null;
  const issues = list(c.issues);
  return h("article", { class: "card qa-report", dataset: { testid: "view-qa_report", passed: c.passed ? "true" : "false" } },
    h("p", { class: c.passed ? "qa-ok" : "qa-bad" },
      c.passed ? tr("qa_passed", { count: list(c.checks).length }) : tr("qa_failed", { count: issues.length })),
    issues.length ? h("ol", { class: "qa-issues", dataset: { testid: "qa-issues" } }, issues.map((i) =>
      h("li", null, h("span", { class: "tag" }, String(i?.check ?? "")), " ", String(i?.message ?? "")))) : null,
    list(c.repairs).length ? h("details", { class: "extra", open: true }, h("summary", null, tr("qa_repairs")),
      h("ul", null, list(c.repairs).map((r) => h("li", null, String(r))))) : null,
    h("details", { class: "extra" }, h("summary", null, tr("qa_checks")), h("p", { class: "muted" }, list(c.checks).join(" · "))));
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
        h("span", { class: "muted" }, tr("pdf_meta", { count: thumbs.length }))),
      h("a", { class: "btn btn-primary download", href, download: c.fileName || "", dataset: { testid: "download-pdf" } }, tr("download_pdf"))),
    h("div", { class: "deck-real", dataset: { testid: "real-thumbs" } }, thumbs.map((src, i) =>
      h("figure", null, h("img", { src, alt: tr("pdf_page", { index: i + 1 }), loading: "lazy" }), h("figcaption", null, String(i + 1))))));
}

export default {
  qa_report: (a) => qaReport(a),
  pdf: (a) => pdfPreview(a),
};
