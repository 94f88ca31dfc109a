// Slide DSL (schemas/ppt.py SlideSpec / SlideDeck) → 16:9 HTML previews.
// Sizes are in container-query units (cqw), so one renderer serves the big view and thumbnails.

import { h, append, safeColor, fontStack } from "./dom.js";

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

const LAYOUTS = new Set(["title", "section", "bullets", "two_column", "closing"]);

function strList(v) {
  return Array.isArray(v) ? v.filter((x) => x !== null && x !== undefined).map(String) : [];
}

function callouts(visuals) {
  if (!visuals.length) return null;
  return h(
    "div",
    { class: "s-visuals" },
    visuals.map((v) => h("div", { class: "s-callout" }, h("span", { class: "s-callout-icon", "aria-hidden": "true" }, "▣"), h("span", null, v)))
  );
}

/** One slide as a 16:9 element. `opts.thumb` drops notes and simplifies for the thumbnail strip. */
export function renderSlide(spec, theme, opts = {}) {
  const s = spec && typeof spec === "object" ? spec : {};
  const layout = LAYOUTS.has(s.layout) ? s.layout : "bullets";
  const title = String(s.title ?? "");
  const subtitle = s.subtitle ? String(s.subtitle) : "";
  const bullets = strList(s.bullets);
  const visuals = strList(s.visuals);
  const index = Number.isFinite(Number(s.index)) ? Number(s.index) : null;

  const slide = h("div", {
    class: `slide slide-${layout}${opts.thumb ? " slide-thumb" : ""}`,
    role: opts.thumb ? null : "img",
    "aria-label": opts.thumb ? null : `幻灯片 ${index ?? ""}: ${title}`,
    dataset: { layout, index: index ?? "" },
  });
  applyVars(slide, themeVars(theme));
  const inner = h("div", { class: "slide-inner" });
  slide.append(inner);

  if (layout === "title" || layout === "closing") {
    inner.append(
      h("div", { class: "s-deco s-deco-bar" }),
      h("div", { class: "s-center" }, h("h3", { class: "s-title" }, title), subtitle ? h("p", { class: "s-subtitle" }, subtitle) : null,
        bullets.length ? h("ul", { class: "s-bullets s-bullets-center" }, bullets.map((b) => h("li", null, b))) : null),
      h("div", { class: "s-deco s-deco-corner" })
    );
  } else if (layout === "section") {
    append(inner, [
      h("div", { class: "s-section-band" },
        index !== null ? h("div", { class: "s-section-no" }, String(index).padStart(2, "0")) : null,
        h("div", null, h("h3", { class: "s-title" }, title), subtitle ? h("p", { class: "s-subtitle" }, subtitle) : null)),
      bullets.length ? h("ul", { class: "s-bullets" }, bullets.map((b) => h("li", null, b))) : null,
      callouts(visuals)
    ]);
  } else {
    let body;
    if (layout === "two_column") {
      const half = Math.ceil(bullets.length / 2);
      body = h("div", { class: "s-cols" },
        h("ul", { class: "s-bullets s-col" }, bullets.slice(0, half).map((b) => h("li", null, b))),
        h("ul", { class: "s-bullets s-col" }, bullets.slice(half).map((b) => h("li", null, b))));
    } else {
      body = h("ul", { class: "s-bullets" }, bullets.map((b) => h("li", null, b)));
    }
    inner.append(
      h("header", { class: "s-head" }, h("h3", { class: "s-title" }, title), subtitle ? h("p", { class: "s-subtitle" }, subtitle) : null),
      h("div", { class: `s-body${visuals.length ? " has-visuals" : ""}` }, body, callouts(visuals))
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
  const prev = h("button", { type: "button", class: "btn", "aria-label": "上一页 previous slide" }, "‹ 上一页");
  const next = h("button", { type: "button", class: "btn", "aria-label": "下一页 next slide" }, "下一页 ›");
  const thumbs = h("div", { class: "deck-thumbs", role: "tablist", "aria-label": "幻灯片缩略图 slide thumbnails", dataset: { testid: "deck-thumbs" } });

  const thumbButtons = slides.map((spec, i) => {
    const b = h("button", {
      type: "button", class: "deck-thumb", role: "tab",
      "aria-label": `第 ${i + 1} 页 ${spec?.title ?? ""}`,
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
    const n = slides[current]?.notes;
    notes.replaceChildren(...(n ? [h("span", { class: "deck-notes-label" }, "口播稿 Notes"), h("p", null, String(n))] : []));
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
    class: "deck", tabindex: "0", "aria-label": `幻灯片预览 ${deck?.title ?? ""}`,
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
  else stage.append(h("p", { class: "muted" }, "（没有幻灯片）"));
  return root;
}
