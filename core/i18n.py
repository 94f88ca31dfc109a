"""The one message catalogue: every sentence a user reads comes from here, in the user's language.

Catalogues are TOML files in `core/messages/`, one per domain (`runtime.toml`, `ppt.toml`, …); each
key is a table with one string per locale:

    [cancelled]
    zh = "已按你的要求停止。…"
    en = "Stopped at your request. …"

`t("runtime.cancelled", **fields)` formats the sentence for the current locale (`LOCALE`, Chinese by
default). A key missing from a catalogue is a programming error and raises, so a test can walk every
key; a locale missing for one key falls back to Chinese.
"""

from __future__ import annotations

import contextvars
import functools
import re
import tomllib
from pathlib import Path
from collections.abc import Iterable
from typing import Any

DEFAULT_LOCALE = "zh"
LOCALES = ("zh", "en")
MESSAGES_DIR = Path(__file__).with_name("messages")

_locale: contextvars.ContextVar[str] = contextvars.ContextVar("locale", default=DEFAULT_LOCALE)


def set_locale(locale: str) -> None:
    """Set the process-wide locale (the `LOCALE` setting); unknown values fall back to Chinese."""
    _locale.set(normalize_locale(locale))


def current_locale() -> str:
    return _locale.get()


def normalize_locale(locale: str | None) -> str:
    code = (locale or DEFAULT_LOCALE).strip().lower().replace("-", "_").split("_")[0]
    return code if code in LOCALES else DEFAULT_LOCALE


@functools.cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every key of every domain file: `{"domain.key": {"zh": …, "en": …}}`."""
    entries: dict[str, dict[str, str]] = {}
    for path in sorted(MESSAGES_DIR.glob("*.toml")):
        with path.open("rb") as handle:
            for key, texts in tomllib.load(handle).items():
                entries[f"{path.stem}.{key}"] = texts
    return entries


def t(key: str, /, locale: str | None = None, **fields: Any) -> str:
    code = normalize_locale(locale) if locale else current_locale()
    texts = catalogue()[key]
    text = texts.get(code) or texts[DEFAULT_LOCALE]
    if not fields:
        return text
    text = text.format(**fields)
    return _COUNTED_EN.sub(_counted_en, text) if code == "en" else text


# "{count} question(s)" in an English sentence: once the count is filled in, "1 question" or "5 questions".
_COUNTED_EN = re.compile(r"\b(\d+) ((?:[A-Za-z]+ )?[A-Za-z]+)\(s\)")  # "3 verified quote(s)" too


def _counted_en(match: re.Match[str]) -> str:
    number, noun = match.groups()
    return f"{number} {noun}" if number == "1" else f"{number} {noun}s"


def language_name(code: str) -> str:
    """A language by its code ("zh", "en") as the reader calls it: 中文 / Chinese."""
    return t(f"common.language_{code}")


def join_items(items: Iterable[str]) -> str:
    """A list inside a sentence: "甲、乙" / "A, B"."""
    return t("validation.list_separator").join(items)


def join_clauses(items: Iterable[str]) -> str:
    """Clauses one after another: "甲；乙" / "A; B"."""
    return t("validation.separator").join(items)


def join_sentences(items: Iterable[str]) -> str:
    """Whole sentences in one message: Chinese runs them on after their 。, English puts a space between."""
    return t("validation.sentence_separator").join(items)


def domain_messages(domain: str, locale: str | None = None) -> dict[str, str]:
    """One domain's sentences in one locale, unformatted, keyed without the domain: what the canvas reads."""
    code = normalize_locale(locale) if locale else current_locale()
    prefix = f"{domain}."
    return {
        key.removeprefix(prefix): texts.get(code) or texts[DEFAULT_LOCALE]
        for key, texts in catalogue().items()
        if key.startswith(prefix)
    }
