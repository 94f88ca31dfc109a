// Sign-in for AUTH_MODE=token: a token field shown when the server says sign-in is needed.
// The token is kept in localStorage (sent as the socket's `auth`) and exchanged once per page load
// for an HttpOnly cookie (POST /api/session), which fetches and download links then carry.

import { tr } from "./i18n.js";

const TOKEN_KEY = "agentCanvas.token";

export function storedToken() {
  return localStorage.getItem(TOKEN_KEY) || "";
}

async function postSession(token) {
  try {
    const res = await fetch("/api/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    const body = await res.json().catch(() => ({}));
    return res.ok ? { ok: true } : { ok: false, message: body?.error?.message || `HTTP ${res.status}` };
  } catch {
    return { ok: false, message: tr("cannot_reach_server") };
  }
}

function form() {
  return {
    root: document.getElementById("signin"),
    input: document.getElementById("signin-token"),
    error: document.getElementById("signin-error"),
  };
}

// Shows the form and resolves once a token has been accepted.
function askForToken(message) {
  const f = form();
  f.root.hidden = false;
  f.error.textContent = message || "";
  f.input.focus();
  return new Promise((resolve) => {
    f.root.onsubmit = async (e) => {
      e.preventDefault();
      const token = f.input.value.trim();
      if (!token) return;
      const answer = await postSession(token);
      if (!answer.ok) {
        f.error.textContent = answer.message;
        return;
      }
      localStorage.setItem(TOKEN_KEY, token);
      f.input.value = "";
      f.root.hidden = true;
      resolve();
    };
  });
}

// Resolves when the page may talk to the server: no auth, a valid stored token, or a token typed in.
export async function ensureSignedIn() {
  let health = {};
  try {
    health = await (await fetch("/healthz")).json();
  } catch {
    return;
  }
  if (health.auth !== "token" || health.signedIn) return;
  const token = storedToken();
  if (token) {
    const answer = await postSession(token);
    if (answer.ok) return;
    localStorage.removeItem(TOKEN_KEY);
    return askForToken(answer.message);
  }
  return askForToken("");
}

// The socket refused us (token removed or expired): ask again, then reload with the new token.
export async function signInAgain(message) {
  localStorage.removeItem(TOKEN_KEY);
  await askForToken(message);
  location.reload();
}
