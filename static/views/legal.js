// Views of the legal flow's artifacts: the checked answer, a drafted document, the trace timeline.

import { h, renderMarkdown } from "../dom.js";
import { termName } from "../state.js";
import { tr } from "../i18n.js";

// The ids an answer carries (intent, field of law, agent), named by GET /api/flows.
const term = (kind, id) => termName("legal", kind, id);

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);

const STATUS_LABELS = {
  in_force: tr("cite_in_force"),
  repealed: tr("cite_repealed"),
  law_not_found: tr("cite_law_not_found"),
  article_not_found: tr("cite_article_not_found"),
  bad_article_no: tr("cite_bad_article_no"),
};

const AGENT_STATUS_LABELS = {
  done: tr("agent_done"),
  failed: tr("agent_failed"),
  timeout: tr("agent_timeout"),
  skipped: tr("agent_skipped"),
};

function citationBadge(c) {
  const kind = c.verified ? "verified" : c.status === "repealed" ? "repealed" : "unverified";
  return h("span", { class: `badge cite-badge cite-${kind}`, dataset: { testid: `cite-${kind}` } },
    STATUS_LABELS[c.status] ?? (c.verified ? STATUS_LABELS.in_force : tr("cite_unverified")));
}

function articleParts(c) {
  // An inserted article's id is its number and a suffix (\u4e4b, "of", then its rank): 133 + that suffix.
  const [, number, inserted] = /^(\d+)(\u4e4b.+)?$/.exec(String(c.article)) ?? [null, String(c.article), ""];
  return { law: c.law, article: number, inserted: inserted ?? "" };
}

function citationItem(c, removed = false) {
  return h("li", { class: `citation${removed ? " citation-removed" : ""}`, dataset: { testid: "citation" } },
    h("div", { class: "citation-head" },
      // An inserted article is written with its suffix after the article word, as the law prints it.
      h("strong", null, tr("citation", articleParts(c))), " ", citationBadge(c)),
    c.verified && c.excerpt ? h("blockquote", { class: "citation-excerpt" }, c.excerpt) : null,
    c.status === "repealed" && c.replacement ? h("p", { class: "muted" }, tr("citation_replacement", { replacement: c.replacement })) : null,
    removed ? h("p", { class: "muted" }, tr("citation_removed")) : null);
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
      tr("legal_meta", {
        intent: c.intent ? term("intent", c.intent) : "—",
        domains: (list(c.domains).length ? list(c.domains) : [c.category].filter(Boolean)).map((d) => term("category", d)).join(tr("separator_list")) || "—",
      })),
    list(c.unavailable).length
      ? h("div", { class: "notice legal-unavailable", dataset: { testid: "legal-unavailable" } },
        list(c.unavailable).map((s) => h("p", null, s)))
      : null,
    h("div", { class: "legal-body" }, renderMarkdown(stripDisclaimer(c.answer, c.disclaimer))),
    list(c.citations).length || list(c.removedCitations).length
      ? h("section", { class: "legal-citations" },
        h("h4", null, tr("citations_title")),
        h("ul", { class: "citation-list" },
          list(c.citations).map((x) => citationItem(x)),
          list(c.removedCitations).map((x) => citationItem(x, true))))
      : null,
    agents.length
      ? h("p", { class: "legal-agents muted" },
        agents.map((a) => tr("agent_line", {
          agent: term("agent", a.agent),
          domain: a.domain ? tr("agent_domain", { domain: term("category", a.domain) }) : "",
          status: AGENT_STATUS_LABELS[a.status] ?? a.status,
          ms: a.durationMs,
        })).join(" · "))
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
        dataset: { testid: "download-docx" } }, tr("download_docx"))),
    // Labels in the reader's language; ids (lessor, term) only for a document drafted before they were kept.
    list(c.missingLabels ?? c.missingFields).length
      ? h("p", { class: "notice" }, tr("missing_fields", { fields: list(c.missingLabels ?? c.missingFields).join(tr("separator_list")) }))
      : null,
    h("div", { class: "legal-doc-body" }, renderMarkdown(c.markdown ?? "")));
}

const STEP_KINDS = {
  classification: tr("trace_step_classification"),
  routing: tr("trace_step_routing"),
  agent: tr("trace_step_agent"),
  tool: tr("trace_step_tool"),
  handover: tr("trace_step_handover"),
  citations: tr("trace_step_citations"),
  fallback: tr("trace_step_fallback"),
};

// A trace step as its timeline says it: what kind of step, which specialist or tool, what it did, in words.
function stepName(s) {
  if (s.kind === "classification") return term("via", s.name);
  if (s.kind === "agent" || s.kind === "fallback") return term("agent", s.name);
  if (s.kind === "handover") return String(s.name).split("\u2192").map((a) => term("agent", a)).join(" \u2192 ");
  if (s.kind === "routing" || s.kind === "citations") return "";  // the kind says it all (the citation check named twice)
  return term("tool", s.name);
}

function stepOutput(s) {
  const o = s.output;
  if (o === null || o === undefined || o === "") return null;
  const sep = tr("separator_list");
  if (s.kind === "classification" && isObj(o)) {
    return tr("legal_meta", {
      intent: term("intent", o.intent),
      domains: (list(o.domains).length ? list(o.domains) : [o.category]).map((d) => term("category", d)).join(sep),
    });
  }
  if (s.kind === "routing" && Array.isArray(o)) {
    // "legal_research:labor_law:answer": the agent and the field it works on.
    return tr("trace_routed", {
      agents: o.map((x) => {
        const [agent, domain] = String(x).split(":");
        return term("agent", agent) + (domain && domain !== "-" ? tr("agent_domain", { domain: term("category", domain) }) : "");
      }).join(sep),
    });
  }
  if (s.kind === "citations" && isObj(o)) {
    return [tr("trace_citations", { kept: list(o.kept).length, removed: list(o.removed).length }),
      ...list(o.kept), ...list(o.removed).map((c) => `${c} \u2014 ${tr("citation_removed")}`)].join("\n");
  }
  if (Array.isArray(o)) return o.map(String).join(sep);
  return typeof o === "string" ? o : JSON.stringify(o).slice(0, 240);
}

function trace(c) {
  if (!isObj(c)) return null;
  const steps = list(c.steps);
  return h("article", { class: "card legal-trace", dataset: { testid: "view-trace" } },
    h("p", { class: "muted" }, tr("trace_request", { id: c.traceId ?? "" })),
    h("ol", { class: "trace-timeline" }, steps.map((s) => {
      const output = stepOutput(s);
      const name = stepName(s);
      return h("li", { class: `trace-step trace-${s.status}`, dataset: { testid: "trace-step", kind: s.kind, status: s.status } },
        h("span", { class: "trace-kind" }, STEP_KINDS[s.kind] ?? s.kind),
        name ? h("strong", null, ` ${name} `) : " ",
        h("span", { class: "muted" }, tr("trace_step_meta", { status: AGENT_STATUS_LABELS[s.status === "ok" ? "done" : s.status] ?? s.status, ms: s.durationMs ?? 0 })),
        output ? h("div", { class: "trace-output muted" }, output) : null);
    })));
}

export const LEGAL_VIEWS = {
  legal_answer: (a) => legalAnswer(a.content),
  legal_document: (a) => legalDocument(a),
  trace: (a) => trace(a.content),
};
