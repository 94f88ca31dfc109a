// Small DOM helpers. Every piece of untrusted text goes through text nodes, never innerHTML.

import { LOCALE } from "./i18n.js";

/**
 * h("div", {class: "x", onclick: fn, dataset: {a: 1}}, "text", child, [more])
 * Strings and numbers become text nodes; null/undefined/false children are skipped.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "dataset") Object.assign(el.dataset, value);
      else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
      else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
      else if (key === "text") el.textContent = String(value);
      else if (value === true) el.setAttribute(key, "");
      else el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Only http(s) and same-origin relative links are ever put into an href. */
export function safeHref(url) {
  if (typeof url !== "string") return null;
  const trimmed = url.trim();
  if (trimmed.startsWith("/") && !trimmed.startsWith("//")) return trimmed;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Accept only #RRGGBB / #RGB colours from artifact content. */
export function safeColor(value, fallback) {
  return typeof value === "string" && /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value) ? value : fallback;
}

/** A CSS font-family list from untrusted font names (quotes and backslashes removed). */
export function fontStack(...names) {
  const clean = names
    .filter((n) => typeof n === "string" && n.trim())
    .map((n) => `"${n.replace(/["\\;{}<>]/g, "").trim()}"`);
  return [...clean, '"WenQuanYi Zen Hei"', '"Noto Sans CJK SC"', "system-ui", "sans-serif"].join(", ");
}

export function formatBytes(n) {
  if (typeof n !== "number" || !isFinite(n)) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

export function formatTime(ts) {
  if (typeof ts !== "number") return "";
  const d = new Date(ts * 1000);
  const now = new Date();
  const sameDay = d.toDateString() === now.toDateString();
  return sameDay
    ? d.toLocaleTimeString(LOCALE, { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleDateString(LOCALE, { month: "2-digit", day: "2-digit" }) +
        " " +
        d.toLocaleTimeString(LOCALE, { hour: "2-digit", minute: "2-digit" });
}

// ------------------------------------------------------------------ markdown (small, safe subset)

/** Inline markdown: `code`, **bold**, *em*, [text](http-url). Returns an array of nodes. */
export function inlineMd(text) {
  const out = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  let m;
  const s = String(text ?? "");
  while ((m = re.exec(s))) {
    if (m.index > last) out.push(document.createTextNode(s.slice(last, m.index)));
    const tok = m[0];
    if (m[1]) out.push(h("code", null, tok.slice(1, -1)));
    else if (m[2]) out.push(h("strong", null, tok.slice(2, -2)));
    else if (m[3]) out.push(h("em", null, tok.slice(1, -1)));
    else {
      const mm = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(tok);
      const href = mm && safeHref(mm[2]);
      out.push(href ? h("a", { href, target: "_blank", rel: "noopener noreferrer" }, mm[1]) : document.createTextNode(tok));
    }
    last = m.index + tok.length;
  }
  if (last < s.length) out.push(document.createTextNode(s.slice(last)));
  return out;
}

/** Block markdown: headings, lists, fenced code, block quotes, tables (as text rows), paragraphs. */
export function renderMarkdown(text) {
  const root = h("div", { class: "md" });
  const lines = String(text ?? "").replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  let para = [];
  const flushPara = () => {
    // A line break stays a line break (as in GitHub comments): chat answers put one fact a line,
    // and joining Chinese lines with spaces would read wrong.
    if (para.length) root.append(h("p", null, para.flatMap((line, n) => (n ? [h("br"), ...inlineMd(line)] : inlineMd(line)))));
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if (/^```/.test(line)) {
      flushPara();
      const code = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
      i++;
      root.append(h("pre", { class: "code" }, h("code", null, code.join("\n"))));
      continue;
    }
    if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      flushPara();
      const level = Math.min(6, m[1].length + 2); // keep headings smaller than the page's
      root.append(h(`h${level}`, null, inlineMd(m[2])));
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      flushPara();
      const ordered = /^\s*\d+[.)]\s+/.test(line);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) {
        const item = lines[i].replace(/^\s*([-*+]|\d+[.)])\s+/, "");
        const check = /^\[( |x|X)\]\s+(.*)$/.exec(item);
        if (check) {
          list.append(h("li", { class: "task" }, h("input", { type: "checkbox", disabled: true, checked: check[1] !== " " }), " ", inlineMd(check[2])));
        } else {
          list.append(h("li", null, inlineMd(item)));
        }
        i++;
      }
      root.append(list);
      continue;
    }
    if (/^>\s?/.test(line)) {
      flushPara();
      const quote = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) quote.push(lines[i++].replace(/^>\s?/, ""));
      root.append(h("blockquote", null, inlineMd(quote.join(" "))));
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      flushPara();
      const rows = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(lines[i++]);
      const table = h("table", { class: "md-table" });
      rows
        .filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r))
        .forEach((r, idx) => {
          const cells = r.trim().slice(1, -1).split("|").map((c) => c.trim());
          table.append(h("tr", null, cells.map((c) => h(idx === 0 ? "th" : "td", null, inlineMd(c)))));
        });
      root.append(table);
      continue;
    }
    if (/^\s*(---+|\*\*\*+)\s*$/.test(line)) {
      flushPara();
      root.append(h("hr"));
      i++;
      continue;
    }
    if (!line.trim()) {
      flushPara();
      i++;
      continue;
    }
    para.push(line.trim());
    i++;
  }
  flushPara();
  return root;
}

export function jsonView(value) {
  let text;
  try {
    text = JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  return h("pre", { class: "json" }, h("code", null, text ?? "null"));
}
