"""Edge limits: clean and bound what clients send before anything starts, and rate-limit each connection.

Text is cleaned so every accepted request can finish: a control character that XML (and so the
.pptx / .docx writers) refuses would otherwise fail the run at its last stage, on every resume.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from typing import Any

from app.errors import RequestError
from core.i18n import t
from core.settings import Settings
from schemas.events import MAX_SEQ, TITLE_MAX_CHARS

ANSI_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]")
# Everything XML 1.0 cannot hold (C0 controls but tab/newline, surrogates, U+FFFE/U+FFFF), plus
# DEL, C1 controls and the other non-characters, which no user means to send.
NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")
INVISIBLE_CATEGORIES = {"Cf", "Zs", "Zl", "Zp", "Cc", "Mn", "Me"}


def clean_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = ANSI_ESCAPE.sub("", text)
    text = NOT_TEXT.sub("", text)
    # Non-characters of the supplementary planes (U+1FFFE, U+1FFFF, …).
    return "".join(c for c in text if (ord(c) & 0xFFFE) != 0xFFFE)


def has_visible_text(text: str) -> bool:
    """False for text made only of spaces, zero-width and other format characters."""
    return any(unicodedata.category(c) not in INVISIBLE_CATEGORIES for c in text)


def clean_message(text: str, settings: Settings) -> str:
    cleaned = clean_text(text)
    if not has_visible_text(cleaned):
        raise RequestError("bad_request", t("server.text_blank"))
    if len(cleaned) > settings.message_max_chars:
        raise RequestError("bad_request", t("server.text_too_long", length=len(cleaned), limit=settings.message_max_chars))
    return cleaned


def clean_title(text: str) -> str:
    """A thread title: message text cleaned, on one line (runs of whitespace become one space), TITLE_MAX_CHARS at most."""
    cleaned = " ".join(clean_text(text).split())
    if not has_visible_text(cleaned):
        raise RequestError("bad_request", t("runtime.title_blank"))
    if len(cleaned) > TITLE_MAX_CHARS:
        raise RequestError("bad_request", t("runtime.title_too_long", length=len(cleaned), limit=TITLE_MAX_CHARS))
    return cleaned


def clean_json(value: Any) -> Any:
    """Every string in a JSON value (keys too) cleaned as message text."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [clean_json(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(str(k)): clean_json(v) for k, v in value.items()}
    return value


def bounded_json(name: str, value: Any, settings: Settings) -> Any:
    """The value cleaned, or bad_request when its JSON is larger than OPTIONS_MAX_BYTES."""
    try:
        size = len(json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        raise RequestError("bad_request", t("server.payload_too_large", name=name, size="?", limit=settings.options_max_bytes))
    if size > settings.options_max_bytes:
        raise RequestError("bad_request", t("server.payload_too_large", name=name, size=size, limit=settings.options_max_bytes))
    return clean_json(value)


def parse_query_int(raw: str | None, name: str, *, low: int, default: int | None = None) -> int | None:
    """An ASCII-digit integer in [low, MAX_SEQ] (SQLite's signed 64 bits) from a query string.

    `str.isdigit()` accepts "²" and other digits `int()` refuses, so match ASCII digits only.
    """
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]{1,19}", raw) or not low <= int(raw) <= MAX_SEQ:
        raise RequestError("bad_request", t("server.bad_integer", name=name, low=low, high=MAX_SEQ))
    return int(raw)


class TokenBucket:
    """`rate` events per second on average, `burst` at once; one per connection."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def rate_limited_error(settings: Settings) -> RequestError:
    rate = f"{settings.rate_limit_per_s:g}"
    return RequestError("rate_limited", t("server.rate_limited", rate=rate))
