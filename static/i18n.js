// The canvas's sentences: the `canvas` domain of the server's message catalogue (core/messages/canvas.toml),
// embedded in the page by the server in its LOCALE (app/server.py `index`), so they are here before anything renders.

const node = document.getElementById("canvas-messages");
const MESSAGES = (() => {
  try {
    return JSON.parse(node?.textContent || "{}");
  } catch {
    return {};
  }
})();

/** The page's language (`<html lang>`, set by the server): for numbers and dates. */
export const LOCALE = document.documentElement.lang || "zh-CN";

/** tr("send_failed", {error}) → the sentence with its `{fields}` filled in; an unknown key shows as itself. */
export function tr(key, fields) {
  const text = MESSAGES[key];
  if (text === undefined) {
    console.warn("canvas message missing:", key);
    return key;
  }
  if (!fields) return text;
  const filled = text.replace(/\{(\w+)\}/g, (whole, name, at) =>
    name in fields ? spacedAgainstHan(String(fields[name] ?? ""), text[at - 1], text[at + whole.length]) : whole);
  // "{count} problem(s)" once filled in: "1 problem", "3 problems" (core/i18n.py does the same for the server's).
  return filled.replace(/\b(\d+) ((?:[A-Za-z]+ )?[A-Za-z]+)\(s\)/g, (whole, number, noun) => `${number} ${noun}${number === "1" ? "" : "s"}`);
}

const HAN = /[\u3400-\u9fff]/;
const CJK_STOP = /[\u3000-\u303f\uff01-\uff1f]$/;  // the ideographic full stop and the full-width marks

/** Two sentences one after the other: a space after "Enter." in English, none after a Chinese full stop. */
export function afterSentence(sentence, next) {
  return next && !CJK_STOP.test(sentence) ? ` ${next}` : next;
}
const LATIN = /[A-Za-z]/;  // a number keeps its place: a statute is cited as the law prints it

/** A value filled in beside a Chinese character of the sentence, with the space the catalogue keeps between
 *  Chinese and a Latin word: zh "open_artifact" with the PPTX file's label reads "<open> PPTX <file>",
 *  with the outline's label no space is added (tests/test_canvas_messages.py runs this). */
function spacedAgainstHan(value, before, after) {
  const lead = before && HAN.test(before) && LATIN.test(value[0] ?? "") ? " " : "";
  const trail = after && HAN.test(after) && LATIN.test(value.at(-1) ?? "") ? " " : "";
  return lead + value + trail;
}

/** A label set inside a sentence ("Open {type}"): its first letter lowered, that capital being the label's
 *  own as a heading ("Project status" → "Open project status"); an acronym keeps its capitals ("PPTX file",
 *  "QA report"). The rule of core/language.py `mid_sentence`, for labels. */
export function midSentence(label) {
  const text = String(label ?? "");
  const first = text.match(/^[A-Za-z][A-Za-z'-]*/);
  if (!first || first[0] === "I" || first[0].slice(1) !== first[0].slice(1).toLowerCase()) return text;
  return text[0].toLowerCase() + text.slice(1);
}
