// Views of the legal flow's artifacts: the checked answer, a drafted document, the trace timeline.

import { h, renderMarkdown } from "../dom.js";

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);

const STATUS_LABELS = {
  in_force: "已核验",
  repealed: "已废止",
  law_not_found: "未核实：法律不存在",
  article_not_found: "未核实：条号不存在",
  bad_article_no: "未核实：条号无法识别",
};

function citationBadge(c) {
  const kind = c.verified ? "verified" : c.status === "repealed" ? "repealed" : "unverified";
  return h("span", { class: `badge cite-badge cite-${kind}`, dataset: { testid: `cite-${kind}` } },
    STATUS_LABELS[c.status] ?? (c.verified ? "已核验" : "未核实"));
}

function citationItem(c, removed = false) {
  return h("li", { class: `citation${removed ? " citation-removed" : ""}`, dataset: { testid: "citation" } },
    h("div", { class: "citation-head" },
      // An inserted article is written 第133条之一 (its id is 133之一).
      h("strong", null, `《${c.law}》第${String(c.article).replace(/(之.+)$/, "条$1").replace(/^(\d+)$/, "$1条")}`), " ",
      citationBadge(c)),
    c.verified && c.excerpt ? h("blockquote", { class: "citation-excerpt" }, c.excerpt) : null,
    c.status === "repealed" && c.replacement ? h("p", { class: "muted" }, `现行规定见${c.replacement}`) : null,
    removed ? h("p", { class: "muted" }, "已从回答中删除") : null);
}

// The answer text already ends with the disclaimer; the view shows it once, quietly, below.
function stripDisclaimer(answer, disclaimer) {
  if (!disclaimer || typeof answer !== "string") return answer ?? "";
  const at = answer.lastIndexOf(disclaimer);
  return at < 0 ? answer : answer.slice(0, at).replace(/\n-{3,}\s*$/, "").trimEnd();
}

function legalAnswer(c) {
  if (!isObj(c)) return null;
  const agents = list(c.agents);
  return h("article", { class: "card legal-answer", dataset: { testid: "view-legal_answer" } },
    h("p", { class: "legal-meta muted" },
      `意图：${c.intent ?? "—"} · 领域：${list(c.domains).join("、") || c.category || "—"}`),
    list(c.unavailable).length
      ? h("div", { class: "notice legal-unavailable", dataset: { testid: "legal-unavailable" } },
        list(c.unavailable).map((s) => h("p", null, s)))
      : null,
    h("div", { class: "legal-body" }, renderMarkdown(stripDisclaimer(c.answer, c.disclaimer))),
    list(c.citations).length || list(c.removedCitations).length
      ? h("section", { class: "legal-citations" },
        h("h4", null, "引用核验"),
        h("ul", { class: "citation-list" },
          list(c.citations).map((x) => citationItem(x)),
          list(c.removedCitations).map((x) => citationItem(x, true))))
      : null,
    agents.length
      ? h("p", { class: "legal-agents muted" },
        agents.map((a) => `${a.agent}${a.domain ? `(${a.domain})` : ""}: ${a.status} ${a.durationMs}ms`).join(" · "))
      : null,
    c.disclaimer ? h("p", { class: "legal-disclaimer", dataset: { testid: "legal-disclaimer" } }, c.disclaimer) : null);
}

function legalDocument(a) {
  const c = a.content;
  if (!isObj(c)) return null;
  const href = a.url || `/artifacts/${encodeURIComponent(a.id)}/download`;
  return h("article", { class: "card legal-document", dataset: { testid: "view-legal_document" } },
    h("div", { class: "legal-doc-actions" },
      h("a", { class: "btn btn-primary download", href, download: `${c.title || "document"}.docx`,
        dataset: { testid: "download-docx" } }, "⬇ 下载 Word 文件")),
    list(c.missingFields).length
      ? h("p", { class: "notice" }, `尚未提供：${list(c.missingFields).join("、")}`)
      : null,
    h("div", { class: "legal-doc-body" }, renderMarkdown(c.markdown ?? "")));
}

function trace(c) {
  if (!isObj(c)) return null;
  const steps = list(c.steps);
  return h("article", { class: "card legal-trace", dataset: { testid: "view-trace" } },
    h("p", { class: "muted" }, `traceId ${c.traceId ?? ""}`),
    h("ol", { class: "trace-timeline" }, steps.map((s) =>
      h("li", { class: `trace-step trace-${s.status}`, dataset: { testid: "trace-step", kind: s.kind } },
        h("span", { class: "trace-kind" }, s.kind),
        h("strong", null, ` ${s.name} `),
        h("span", { class: "muted" }, `${s.status} · ${s.durationMs ?? 0}ms`),
        s.output !== null && s.output !== undefined
          ? h("div", { class: "trace-output muted" }, typeof s.output === "string" ? s.output : JSON.stringify(s.output).slice(0, 240))
          : null))));
}

export const LEGAL_VIEWS = {
  legal_answer: (a) => legalAnswer(a.content),
  legal_document: (a) => legalDocument(a),
  trace: (a) => trace(a.content),
};
