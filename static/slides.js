// Slide DSL (schemas/ppt.py SlideSpec / SlideDeck) → 16:9 HTML previews.
// Sizes are in container-query units (cqw), so one renderer serves the big view and thumbnails.

import { h, append, safeColor, fontStack } from "./dom.js";
import { tr } from "./i18n.js";

const DEFAULT_THEME = {
  themeName: "default",
  colorScheme: { primary: "#1F4E79", secondary: "#2E75B6", accent: "#F4B183", background: "#FFFFFF", text: "#222222" },
  fontConfig: { titleFont: "Arial", bodyFont: "Arial", eastAsianFont: "Microsoft YaHei", titleSize: 36, bodySize: 20 },
};

export function themeVars(theme) {
  const t = theme && typeof theme === "object" ? theme : DEFAULT_THEME;
  const c = { ...DEFAULT_THEME.colorScheme, ...(t.colorScheme || {}) };
  const f = { ...DEFAULT_THEME.fontConfig, ...(t.fontConfig || {}) };
  return {
    "--s-primary": safeColor(c.primary, DEFAULT_THEME.colorScheme.primary),
    "--s-secondary": safeColor(c.secondary, DEFAULT_THEME.colorScheme.secondary),
    "--s-accent": safeColor(c.accent, DEFAULT_THEME.colorScheme.accent),
    "--s-bg": safeColor(c.background, DEFAULT_THEME.colorScheme.background),
    "--s-text": safeColor(c.text, DEFAULT_THEME.colorScheme.text),
    "--s-title-font": fontStack(f.titleFont, f.eastAsianFont),
    "--s-body-font": fontStack(f.bodyFont, f.eastAsianFont),
    // titleSize/bodySize are points on a 13.33in wide slide (960pt): express as % of width.
    "--s-title-size": `${(clampNum(f.titleSize, 18, 60, 36) / 960) * 100}cqw`,
    "--s-body-size": `${(clampNum(f.bodySize, 12, 32, 20) / 960) * 100}cqw`,
  };
}

function clampNum(v, lo, hi, dflt) {
  const n = Number(v);
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : dflt;
}

function applyVars(el, vars) {
  for (const [k, v] of Object.entries(vars)) el.style.setProperty(k, v);
  return el;
}

const LAYOUTS = new Set(["cover", "agenda", "section", "bullets", "two_column", "comparison", "process", "timeline",
  "big_number", "chart", "image_text", "quote", "summary", "qa"]);
// Names older decks used for the same pages (schemas/ppt.py LEGACY_LAYOUTS).
const LEGACY = { title: "cover", closing: "summary", "two-column": "two_column", table: "comparison", steps: "process",
  statement: "big_number", image: "image_text", diagram: "image_text" };

function strList(v) {
  return Array.isArray(v) ? v.filter((x) => x !== null && x !== undefined && String(x).trim() !== "").map(String) : [];
}
const objList = (v) => (Array.isArray(v) ? v.filter((x) => x && typeof x === "object") : []);
// `**bold**` in the DSL is shown bold; no other markup is interpreted.
function rich(text) {
  const parts = String(text).split(/\*\*(.+?)\*\*/g);
  return parts.map((p, i) => (i % 2 ? h("strong", null, p) : p));
}
const ul = (items, cls = "s-bullets") => (items.length ? h("ul", { class: cls }, items.map((b) => h("li", null, rich(b)))) : null);

function chartView(chart) {
  const cats = strList(chart?.categories);
  const series = objList(chart?.series);
  const values = series.length ? (Array.isArray(series[0].values) ? series[0].values.map(Number) : []) : [];
  const max = Math.max(1, ...values.filter(Number.isFinite));
  return h("div", { class: "s-chart", role: "img", "aria-label": `${chart?.kind ?? "chart"}: ${cats.join(", ")}` },
    cats.map((c, i) => h("div", { class: "s-bar-wrap" },
      h("span", { class: "s-bar-value" }, `${values[i] ?? ""}${chart?.unit && chart.unit.length <= 2 ? chart.unit : ""}`),
      h("div", { class: "s-bar", style: { height: `${Math.max(2, ((values[i] || 0) / max) * 100)}%` } }),
      h("span", { class: "s-bar-label" }, c))));
}

function body(layout, s) {
  const bullets = strList(s.bullets);
  const steps = objList(s.steps);
  switch (layout) {
    case "agenda":
      return h("ol", { class: "s-agenda" }, (bullets.length ? bullets : steps.map((x) => String(x.label ?? ""))).map((b, i) =>
        h("li", null, h("span", { class: "s-badge" }, String(i + 1)), h("span", null, rich(b)))));
    case "two_column":
      return h("div", { class: "s-cols" }, objList(s.columns).slice(0, 2).map((c) =>
        h("div", { class: "s-card" }, h("h4", { class: "s-card-head" }, String(c.heading ?? "")), ul(strList(c.items)))));
    case "comparison": {
      const t = s.table || {};
      return h("table", { class: "s-table" },
        h("thead", null, h("tr", null, strList(t.header).map((x) => h("th", null, x)))),
        h("tbody", null, (Array.isArray(t.rows) ? t.rows : []).map((row) => h("tr", null, strList(row).map((x) => h("td", null, x))))));
    }
    case "process":
      return h("div", { class: "s-steps" }, steps.map((x, i) => [
        i ? h("span", { class: "s-arrow", "aria-hidden": "true" }, "→") : null,
        h("div", { class: "s-step" }, h("span", { class: "s-badge" }, String(i + 1)), h("strong", null, String(x.label ?? "")),
          x.detail ? h("p", null, String(x.detail)) : null)]).flat());
    case "timeline":
      return h("div", { class: "s-timeline" }, steps.map((x) =>
        h("div", { class: "s-tl-point" }, h("strong", null, String(x.label ?? "")), h("span", { class: "s-tl-dot" }),
          x.detail ? h("p", null, String(x.detail)) : null)));
    case "big_number":
      return h("div", { class: "s-stat-row" },
        h("div", { class: "s-stat" }, h("div", { class: "s-stat-value" }, String(s.stat?.value ?? "")),
          h("div", { class: "s-stat-label" }, String(s.stat?.label ?? ""))), ul(bullets));
    case "chart":
      return h("div", { class: "s-stat-row" }, chartView(s.chart), ul(bullets));
    case "image_text":
      return h("div", { class: "s-stat-row" }, h("div", { class: "s-picture", "aria-hidden": "true" }, "◆"), ul(bullets));
    case "quote":
      return h("div", null, h("blockquote", { class: "s-quote" }, String(s.quote?.text ?? "")),
        s.quote?.source ? h("p", { class: "s-quote-source" }, `— ${s.quote.source}`) : null, ul(bullets));
    case "summary":
      return ul(bullets, "s-bullets s-checklist");
    default:
      return ul(bullets);
  }
}

/**
 * A slide's notes → [narration, design note]. graphs/ppt/render/prepare.py appends what to draw (the
 * slide's `visuals`) as the notes' last paragraph, behind a marker: it is not to be read aloud.
 */
function splitDesignNote(notes, visuals) {
  const items = Array.isArray(visuals) ? visuals.map(String).filter(Boolean) : [];
  const at = notes.lastIndexOf("\n\n");
  if (!items.length || !notes.trimEnd().endsWith(items[items.length - 1])) return [notes.trim(), ""];
  return [at >= 0 ? notes.slice(0, at).trim() : "", items.join(tr("separator_semicolon"))];
}

/** One slide as a 16:9 element. `opts.thumb` drops notes and simplifies for the thumbnail strip.
 *  Design suggestions (`visuals`) are never drawn: they describe the visual, they are not text for the audience. */
export function renderSlide(spec, theme, opts = {}) {
  const s = spec && typeof spec === "object" ? spec : {};
  const named = LEGACY[s.layout] ?? s.layout;
  const layout = LAYOUTS.has(named) ? named : "bullets";
  const title = String(s.title ?? "");
  const subtitle = s.subtitle ? String(s.subtitle) : "";
  const index = Number.isFinite(Number(s.index)) ? Number(s.index) : null;

  const slide = h("div", {
    class: `slide slide-${layout}${opts.thumb ? " slide-thumb" : ""}`,
    role: opts.thumb ? null : "img",
    "aria-label": opts.thumb ? null : tr("slide_label", { index: index ?? "", title }),
    dataset: { layout, index: index ?? "" },
  });
  applyVars(slide, themeVars(theme));
  const inner = h("div", { class: "slide-inner" });
  slide.append(inner);

  if (layout === "cover" || layout === "qa") {
    inner.append(
      h("div", { class: "s-deco s-deco-bar" }),
      h("div", { class: "s-center" }, layout === "qa" ? h("div", { class: "s-qmark", "aria-hidden": "true" }, "?") : null,
        h("h3", { class: "s-title" }, title), subtitle ? h("p", { class: "s-subtitle" }, subtitle) : null,
        ul(strList(s.bullets), "s-bullets s-bullets-center")),
      h("div", { class: "s-deco s-deco-corner" })
    );
  } else if (layout === "section") {
    append(inner, [
      h("div", { class: "s-section-band" },
        index !== null ? h("div", { class: "s-section-no" }, String(index).padStart(2, "0")) : null,
        h("div", null, h("h3", { class: "s-title" }, title), subtitle ? h("p", { class: "s-subtitle" }, subtitle) : null)),
      ul(strList(s.bullets)),
    ]);
  } else {
    inner.append(
      h("header", { class: "s-head" }, h("h3", { class: "s-title" }, title), subtitle ? h("p", { class: "s-subtitle" }, subtitle) : null),
      h("div", { class: "s-body" }, body(layout, s))
    );
  }
  if (index !== null) inner.append(h("div", { class: "s-pageno" }, String(index)));
  return slide;
}

/**
 * A deck viewer: main slide, prev/next, page counter, speaker notes, thumbnails.
 * `deck` is a SlideDeck (title, theme, slides[]).
 */
export function renderDeck(deck, opts = {}) {
  const slides = Array.isArray(deck?.slides) ? deck.slides : [];
  const theme = deck?.theme;
  let current = Math.min(Math.max(0, opts.start ?? 0), Math.max(0, slides.length - 1));

  const stage = h("div", { class: "deck-stage" });
  const counter = h("span", { class: "deck-counter", "aria-live": "polite" });
  const notes = h("div", { class: "deck-notes" });
  const prev = h("button", { type: "button", class: "btn", "aria-label": tr("previous_slide_label") }, tr("previous_slide"));
  const next = h("button", { type: "button", class: "btn", "aria-label": tr("next_slide_label") }, tr("next_slide"));
  const thumbs = h("div", { class: "deck-thumbs", role: "tablist", "aria-label": tr("slide_thumbs"), dataset: { testid: "deck-thumbs" } });

  const thumbButtons = slides.map((spec, i) => {
    const b = h("button", {
      type: "button", class: "deck-thumb", role: "tab",
      "aria-label": tr("slide_thumb", { index: i + 1, title: spec?.title ?? "" }),
      dataset: { testid: "slide-thumb", index: i + 1 },
      onclick: () => show(i),
    }, renderSlide(spec, theme, { thumb: true }), h("span", { class: "deck-thumb-no" }, String(i + 1)));
    thumbs.append(b);
    return b;
  });

  function show(i) {
    if (!slides.length) return;
    current = (i + slides.length) % slides.length;
    stage.replaceChildren(renderSlide(slides[current], theme));
    counter.textContent = `${current + 1} / ${slides.length}`;
    const [said, design] = splitDesignNote(String(slides[current]?.notes ?? ""), slides[current]?.visuals);
    notes.replaceChildren(
      ...(said ? [h("span", { class: "deck-notes-label" }, tr("speaker_notes")), h("p", null, said)] : []),
      ...(design ? [h("span", { class: "deck-notes-label" }, tr("design_notes")), h("p", { class: "muted" }, design)] : []));
    thumbButtons.forEach((b, j) => {
      b.setAttribute("aria-selected", j === current ? "true" : "false");
      b.classList.toggle("active", j === current);
    });
    prev.disabled = slides.length < 2;
    next.disabled = slides.length < 2;
    thumbButtons[current]?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    if (opts.onChange) opts.onChange(current);
  }

  prev.addEventListener("click", () => show(current - 1));
  next.addEventListener("click", () => show(current + 1));

  const root = h("div", {
    class: "deck", tabindex: "0", "aria-label": tr("deck_label", { title: deck?.title ?? "" }),
    dataset: { testid: "deck", slides: slides.length },
    onkeydown: (e) => {
      if (e.key === "ArrowLeft") { show(current - 1); e.preventDefault(); }
      else if (e.key === "ArrowRight") { show(current + 1); e.preventDefault(); }
    },
  },
  stage,
  h("div", { class: "deck-nav" }, prev, counter, next),
  thumbs,
  notes);
  if (slides.length) show(current);
  else stage.append(h("p", { class: "muted" }, tr("no_slides")));
  return root;
}
