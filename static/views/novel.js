// Views of the novel flows' artifacts: project status, a chapter with its scenes, the scene memory
// context, a tool plan and a cited answer. Content shapes: graphs/novel (see schemas/novel*.py).

import { h } from "../dom.js";

const isObj = (v) => v && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);
const num = (v) => (typeof v === "number" ? v.toLocaleString("zh-CN") : "—");
const STEP_LABELS = { world: "世界观", theme_conflict: "主题冲突", characters: "角色设定", outline: "小说大纲" };
// NovelGen's preference types (schemas/novel.py UserPreference); a type of the user's own shows as typed.
const PREF_LABELS = { writing_style: "文风", tone: "语气", character_development: "人物塑造", plot_preference: "情节" };

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
      field("章节计划", `${num(c.chapters_planned)} / ${num(c.outline_chapters)}`),
      field("已生成章节", `${num(c.chapters_generated)} / ${num(c.outline_chapters)}`),
      field("总字数", num(c.total_words)),
      field("章节记忆", num(c.chapter_memory_entries)),
      field("可恢复", c.resumable ? "是" : "否")),
    steps.length ? h("ul", { class: "novel-steps" }, steps.map((s) =>
      h("li", { class: s?.done ? "done" : "todo" }, s?.done ? "✔ " : "○ ", String(STEP_LABELS[s?.step] ?? s?.step ?? ""),
        h("span", { class: "muted" }, ` ${s?.file ?? ""}`)))) : null,
    chapters.length ? h("div", { class: "table-wrap" },
      h("table", { class: "scripts novel-chapters" },
        h("thead", null, h("tr", null,
          h("th", { scope: "col" }, "章"), h("th", { scope: "col" }, "标题"), h("th", { scope: "col" }, "场景"),
          h("th", { scope: "col" }, "字数"), h("th", { scope: "col" }, "状态"))),
        h("tbody", null, chapters.map((ch) => h("tr", null,
          h("td", { class: "num" }, String(ch?.chapter_number ?? "")),
          h("td", null, String(ch?.chapter_title ?? "")),
          h("td", { class: "num" }, ch?.generated ? String(ch?.scenes ?? "") : (ch?.planned ? `0/${ch?.planned_scenes ?? "?"}` : "—")),
          h("td", { class: "num" }, ch?.generated ? num(ch?.words) : "—"),
          h("td", null, ch?.generated ? "✔" : (ch?.planned ? "已计划" : "待生成"))))))) : null,
    list(c.problems).length ? h("ul", { class: "problems" }, list(c.problems).map((p) => h("li", { class: "badge warn" }, String(p)))) : null,
    prefs.length ? h("div", null, h("h4", null, "偏好"),
      h("ul", null, prefs.map((p) => h("li", null,
        p?.preference_type ? h("span", { class: "badge" }, String(PREF_LABELS[p.preference_type] ?? p.preference_type)) : null, " ",
        String(p?.content ?? p ?? ""))))) : null);
}

function novelChapter(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card novel-chapter", dataset: { testid: "view-novel_chapter" } },
    h("h4", null, `第 ${c.chapter_number ?? "?"} 章 ${c.chapter_title ?? ""}`),
    h("p", { class: "muted" }, `${num(c.total_words)} 字 · ${list(c.scenes).length} 场`),
    list(c.scenes).map((s) => h("section", { class: "novel-scene" },
      h("h5", null, `场景 ${s?.scene_number ?? ""}`, h("span", { class: "muted" }, ` · ${num(s?.word_count)} 字`)),
      String(s?.content ?? "").split(/\n+/).filter(Boolean).map((p) => h("p", null, p)))));
}

function sceneMemoryContext(c) {
  if (!isObj(c)) return null;
  const memories = list(c.relevant_memories);
  const states = list(c.entity_states);
  const reasons = [...list(c.degraded), ...list(c.warnings)];
  const degraded = reasons.length > 0 || c.degraded === true;
  return h("article", { class: "card scene-memory", dataset: { testid: "view-scene_memory_context" } },
    h("h4", null, `第 ${c.chapter_index ?? "?"} 章 第 ${c.scene_index ?? "?"} 场 · 记忆上下文`),
    degraded ? h("p", { class: "badge warn", dataset: { testid: "memory-degraded" } },
      "已降级：", reasons.map(String).join("；")) : null,
    h("h5", null, `相关记忆（${memories.length}）`),
    memories.length ? h("ol", { class: "memories" }, memories.map((m) => h("li", null,
      h("span", { class: "badge" }, `第 ${m?.chapter_index ?? "?"} 章${m?.scene_index != null ? ` 第 ${m.scene_index} 场` : ""}`),
      m?.score != null ? h("span", { class: "muted" }, ` 相关度 ${Number(m.score).toFixed(3)} `) : " ",
      String(m?.content ?? "")))) : h("p", { class: "muted" }, "无"),
    h("h5", null, `实体状态（${states.length}）`),
    states.length ? h("ul", null, states.map((s) => h("li", null,
      h("strong", null, String(s?.entity_id ?? "")), " ",
      h("span", { class: "muted" }, `${s?.entity_type ?? ""} · 第 ${s?.chapter_index ?? "?"} 章`), " ",
      h("code", null, JSON.stringify(s?.state_data ?? {}))))) : h("p", { class: "muted" }, "无"),
    c.timeline_context ? h("p", { class: "muted" }, "时间线：", typeof c.timeline_context === "string" ? c.timeline_context : JSON.stringify(c.timeline_context)) : null);
}

function toolPlan(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card tool-plan", dataset: { testid: "view-tool_plan" } },
    h("ol", null, list(c.steps).map((s) => h("li", null,
      h("code", null, String(s?.tool ?? "")), " ",
      h("span", { class: "muted" }, JSON.stringify(s?.args ?? {})),
      s?.requires_confirmation ? h("span", { class: "badge warn" }, " 需确认") : null))));
}

function novelAnswer(c) {
  if (!isObj(c)) return null;
  return h("article", { class: "card novel-answer", dataset: { testid: "view-novel_answer" } },
    h("p", { class: "muted" }, String(c.question ?? "")),
    h("p", null, String(c.answer ?? "")),
    list(c.evidence).length ? h("ul", { class: "evidence" }, list(c.evidence).map((e) => h("li", null,
      h("span", { class: "badge" }, `第 ${e?.chapter_number ?? "?"} 章${e?.scene_number != null ? ` 第 ${e.scene_number} 场` : ""}`), " ",
      h("q", null, String(e?.quote ?? "")), e?.verified ? " ✔" : null))) : null);
}

export const NOVEL_LABELS = {
  novel_status: "项目状态",
  novel_chapter: "章节正文",
  novel_answer: "问答",
};

export const NOVEL_VIEWS = {
  novel_status: (a) => novelStatus(a.content),
  novel_chapter: (a) => novelChapter(a.content),
  scene_memory_context: (a) => sceneMemoryContext(a.content),
  tool_plan: (a) => toolPlan(a.content),
  novel_answer: (a) => novelAnswer(a.content),
};
