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
  return fields ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name] ?? "") : whole)) : text;
}
