"""The one message catalogue: every sentence a user reads comes from here, in the user's language.

Catalogues are TOML files in `core/messages/`, one per domain (`runtime.toml`, `ppt.toml`, …); each
key is a table with one string per locale:

    [cancelled]
    zh = "已按你的要求停止。…"
    en = "Stopped at your request. …"

`t("runtime.cancelled", **fields)` formats the sentence for the current locale (`LOCALE`, Chinese by
default). A key missing from a catalogue is a programming error and raises, so a test can walk every
key; a locale missing for one key falls back to Chinese.

A sentence both surfaces say (the runtime's refusals reach `ng` and the canvas alike) names a thread by
`{thread_noun}`, which `t()` fills with the word of the surface the reader is on: 线程 in `ng`, 会话 in
the canvas. The entry point sets its surface once (`set_surface`); `ng` is the default.
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

SURFACES = ("cli", "canvas")
# Words a shared sentence takes from its reader's surface: `{thread_noun}` is `common.thread_noun_cli` in
# `ng` and `common.thread_noun_canvas` in the canvas. A context variable, like the locale: every task the
# server starts (a socket handler, a run and the events it emits) inherits the server's surface.
SURFACE_TERMS = ("thread_noun",)
_surface: contextvars.ContextVar[str] = contextvars.ContextVar("surface", default="cli")


def set_locale(locale: str) -> None:
    """Set the process-wide locale (the `LOCALE` setting); unknown values fall back to Chinese."""
    _locale.set(normalize_locale(locale))


def current_locale() -> str:
    return _locale.get()


def set_surface(surface: str) -> None:
    """Where this process's sentences are read: "cli" (`ng`, the default) or "canvas" (the server)."""
    if surface not in SURFACES:
        raise ValueError(f"unknown surface {surface!r}; one of {SURFACES}")
    _surface.set(surface)


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
    terms = _surface_terms(text, code)
    if not fields and not terms:
        return text
    if code == "en":
        return _COUNTED_EN.sub(_counted_en, _NUMBERED_EN.sub(_numbered_en, text.format(**terms, **fields)))
    return _spaced_at_fields(_FIELD.sub(lambda m: f"{_FIELD_OPEN}{m.group(0)}{_FIELD_CLOSE}", text).format(**terms, **fields))


# Chinese typesetting puts a space between Chinese and Latin text: a field that fills a Chinese sentence with English
# words ("面向{audience}" with "high school students", "{title}已生成" with "Fractions") is set off by one, "面向 high
# school students". Only where a field meets the sentence: the catalogue's own words and the user's are as written.
_FIELD = re.compile(r"(?<!\{)\{\w+\}(?!\})")  # a plain "{name}", not "{{" nor "{value!r}"
_FIELD_OPEN, _FIELD_CLOSE = "\ue020", "\ue021"
_GAP_AT_FIELD = re.compile(rf"(?<=[\u3400-\u9fff]){_FIELD_OPEN}(?=[A-Za-z])|(?<=[A-Za-z]){_FIELD_CLOSE}(?=[\u3400-\u9fff])")


def _spaced_at_fields(text: str) -> str:
    return _GAP_AT_FIELD.sub(" ", text).replace(_FIELD_OPEN, "").replace(_FIELD_CLOSE, "")


def _surface_terms(text: str, code: str) -> dict[str, str]:
    surface = _surface.get()
    return {term: t(f"common.{term}_{surface}", locale=code) for term in SURFACE_TERMS if f"{{{term}}}" in text}


# "{count} question(s)" in an English sentence: once the count is filled in, "1 question" or "5 questions".
_COUNTED_EN = re.compile(r"\b(\d+) ((?:[A-Za-z]+ )?[A-Za-z]+)\(s\)")  # "3 verified quote(s)" too


def _counted_en(match: re.Match[str]) -> str:
    number, noun = match.groups()
    return f"{number} {noun}" if number == "1" else f"{number} {noun}s"


# "slide(s) {pages}" in an English sentence: once the numbers are filled in, "slide 3" or "slides 3 and 4".
_NUMBERED_EN = re.compile(r"\b([A-Za-z]+)\(s\) (\d+(?:, \d+)*)")


def _numbered_en(match: re.Match[str]) -> str:
    noun, numbers = match.group(1), match.group(2).split(", ")
    if len(numbers) == 1:
        return f"{noun} {numbers[0]}"
    return f"{noun}s {', '.join(numbers[:-1])} and {numbers[-1]}"


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
