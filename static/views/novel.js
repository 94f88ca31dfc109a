// Views of the novel flows' artifacts: project status, a chapter with its scenes, the scene memory
// context, a tool plan and a cited answer. Content shapes: graphs/novel (see schemas/novel*.py).

import { h } from "../dom.js";
import { tr, LOCALE } from "../i18n.js";

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);
const num = (v) => (typeof v === "number" ? v.toLocaleString(LOCALE) : "—");
// A title that names its own chapter ("Chapter 1: The Harbour") is shown beside the number already:
// without the label (graphs/novel/understanding.bare_chapter_title does the same on the server).
const CHAPTER_LABEL = new RegExp(`^\\s*(?:${tr("chapter_label_pattern")})\\s*`, "i");
const bareTitle = (title) => String(title ?? "").replace(CHAPTER_LABEL, "").trim() || String(title ?? "");
const STEP_LABELS = {
  world: tr("novel_world"), theme_conflict: tr("novel_theme_conflict"), characters: tr("novel_characters"), outline: tr("novel_outline"),
};
// NovelGen's preference types (schemas/novel.py UserPreference); a type of the user's own shows as typed.
const PREF_LABELS = {
  writing_style: tr("pref_writing_style"), tone: tr("pref_tone"), character_development: tr("pref_character_development"),
  plot_preference: tr("pref_plot_preference"),
};

function field(label, value) {
  return h("div", { class: "kv" }, h("dt", null, label), h("dd", null, value));
}

function novelStatus(c) {
  if (!isObj(c)) return null;
  const steps = list(c.steps);
  const chapters = list(c.chapters);
  const prefs = list(c.preferences_top);
  return h("article", { class: "card novel-status", dataset: { testid: "view-novel_status" } },
    h("h4", null, c.project_name || c.project_id || ""),
    h("dl", { class: "kv-grid" },
      field(tr("chapters_planned"), `${num(c.chapters_planned)} / ${num(c.outline_chapters)}`),
      field(tr("chapters_generated"), `${num(c.chapters_generated)} / ${num(c.outline_chapters)}`),
      field(tr("total_words"), num(c.total_words)),
      field(tr("chapter_memory"), num(c.chapter_memory_entries)),
      field(tr("resumable"), c.resumable ? tr("yes") : tr("no"))),
    steps.length ? h("ul", { class: "novel-steps" }, steps.map((s) =>
      h("li", { class: s?.done ? "done" : "todo" }, s?.done ? "✔ " : "○ ", String(STEP_LABELS[s?.step] ?? s?.step ?? ""),
        h("span", { class: "muted" }, ` ${s?.file ?? ""}`)))) : null,
    chapters.length ? h("div", { class: "table-wrap" },
      h("table", { class: "scripts novel-chapters" },
        h("thead", null, h("tr", null,
          h("th", { scope: "col" }, tr("column_chapter")), h("th", { scope: "col" }, tr("column_title")), h("th", { scope: "col" }, tr("column_scenes")),
          h("th", { scope: "col" }, tr("column_words")), h("th", { scope: "col" }, tr("column_status")))),
        h("tbody", null, chapters.map((ch) => h("tr", null,
          h("td", { class: "num" }, String(ch?.chapter_number ?? "")),
          h("td", null, bareTitle(ch?.chapter_title)),
          h("td", { class: "num" }, ch?.generated ? String(ch?.scenes ?? "") : (ch?.planned ? `0/${ch?.planned_scenes ?? "?"}` : "—")),
          h("td", { class: "num" }, ch?.generated ? num(ch?.words) : "—"),
          h("td", null, ch?.generated ? "✔" : (ch?.planned ? tr("chapter_planned") : tr("chapter_pending")))))))) : null,
    list(c.problems).length ? h("ul", { class: "problems" }, list(c.problems).map((p) => h("li", { class: "badge warn" }, String(p)))) : null,
    prefs.length ? h("div", null, h("h4", null, tr("preferences")),
      h("ul", null, prefs.map((p) => h("li", null,
        p?.preference_type ? h("span", { class: "badge" }, String(PREF_LABELS[p.preference_type] ?? p.preference_type)) : null, " ",
        String(p?.content ?? p ?? ""))))) : null);
}

function novelChapter(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card novel-chapter", dataset: { testid: "view-novel_chapter" } },
    h("h4", null, tr("chapter_heading", { chapter: c.chapter_number ?? "?", title: bareTitle(c.chapter_title) })),
    h("p", { class: "muted" }, tr("chapter_stats", { words: num(c.total_words), scenes: list(c.scenes).length })),
    list(c.scenes).map((s) => h("section", { class: "novel-scene" },
      h("h5", null, tr("scene_heading", { scene: s?.scene_number ?? "" }), h("span", { class: "muted" }, tr("scene_words", { words: num(s?.word_count) }))),
      String(s?.content ?? "").split(/\n+/).filter(Boolean).map((p) => h("p", null, p)))));
}

function sceneMemoryContext(c) {
  if (!isObj(c)) return null;
  const memories = list(c.relevant_memories);
  const states = list(c.entity_states);
  const reasons = [...list(c.degraded), ...list(c.warnings)];
  const degraded = reasons.length > 0 || c.degraded === true;
  return h("article", { class: "card scene-memory", dataset: { testid: "view-scene_memory_context" } },
    h("h4", null, tr("memory_heading", { chapter: c.chapter_index ?? "?", scene: c.scene_index ?? "?" })),
    degraded ? h("p", { class: "badge warn", dataset: { testid: "memory-degraded" } },
      tr("degraded"), reasons.map(String).join(tr("separator_semicolon"))) : null,
    h("h5", null, tr("related_memories", { count: memories.length })),
    memories.length ? h("ol", { class: "memories" }, memories.map((m) => h("li", null,
      h("span", { class: "badge" }, tr("chapter_ref", { chapter: m?.chapter_index ?? "?" }) + (m?.scene_index != null ? tr("scene_ref", { scene: m.scene_index }) : "")),
      m?.score != null ? h("span", { class: "muted" }, tr("relevance", { score: Number(m.score).toFixed(3) })) : " ",
      String(m?.content ?? "")))) : h("p", { class: "muted" }, tr("none")),
    h("h5", null, tr("entity_states", { count: states.length })),
    states.length ? h("ul", null, states.map((s) => h("li", null,
      h("strong", null, String(s?.entity_id ?? "")), " ",
      h("span", { class: "muted" }, tr("entity_meta", { type: s?.entity_type ?? "", chapter: s?.chapter_index ?? "?" })), " ",
      h("code", null, JSON.stringify(s?.state_data ?? {}))))) : h("p", { class: "muted" }, tr("none")),
    c.timeline_context ? h("p", { class: "muted" }, tr("timeline"), typeof c.timeline_context === "string" ? c.timeline_context : JSON.stringify(c.timeline_context)) : null);
}

function toolPlan(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card tool-plan", dataset: { testid: "view-tool_plan" } },
    h("ol", null, list(c.steps).map((s) => h("li", null,
      // The step in words; a plan saved before steps had a summary falls back to its tool call.
      s?.summary ? h("span", null, String(s.summary))
        : [h("code", null, String(s?.tool ?? "")), " ", h("span", { class: "muted" }, JSON.stringify(s?.args ?? {}))],
      " ",
      s?.requires_confirmation ? h("span", { class: "badge warn" }, tr("needs_confirmation")) : null))));
}

function novelAnswer(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card novel-answer", dataset: { testid: "view-novel_answer" } },
    h("p", { class: "muted" }, String(c.question ?? "")),
    h("p", { class: "answer-text" }, String(c.answer ?? "")),
    list(c.evidence).length ? h("ul", { class: "evidence" }, list(c.evidence).map((e) => h("li", null,
      h("span", { class: "badge" }, tr("chapter_ref", { chapter: e?.chapter_number ?? "?" }) + (e?.scene_number != null ? tr("scene_ref", { scene: e.scene_number }) : "")), " ",
      h("q", null, String(e?.quote ?? "")), e?.verified ? " ✔" : null))) : null);
}

export const NOVEL_VIEWS = {
  novel_status: (a) => novelStatus(a.content),
  novel_chapter: (a) => novelChapter(a.content),
  scene_memory_context: (a) => sceneMemoryContext(a.content),
  tool_plan: (a) => toolPlan(a.content),
  novel_answer: (a) => novelAnswer(a.content),
};
