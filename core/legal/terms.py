"""Everyday words → statute words, for the lexical statute search (data/legal_terms.toml).

`expand(question)` returns the terms to add to the search query and the laws to weigh first, in
the order the glossary names them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

TERMS_PATH = Path(__file__).with_name("data") / "legal_terms.toml"


@dataclass(frozen=True)
class Expansion:
    terms: str
    laws: tuple[str, ...]


# In a `when` pattern: what must stay as written (an escape such as \\d, a quantifier {0,6}, a character class,
# a named group's name), else a run of Latin letters or digits: a glossary key written in them.
_PATTERN_PIECE = re.compile(r"\\.|\{\d*,?\d*\}|\[(?:\\.|[^\]])*\]|\(\?P<\w+>|([A-Za-z0-9]+)")


def whole_words(pattern: str) -> str:
    """`pattern` with each Latin-script key (app, ktv, 996) matched as a whole word only: "app" is no key inside
    "happy", nor 996 inside 1996. Chinese has no spaces, so a key is bounded by any non-Latin character."""
    def bounded(piece: re.Match[str]) -> str:
        word = piece.group(1)
        return rf"(?<![A-Za-z0-9]){word}(?![A-Za-z0-9])" if word else piece.group(0)

    return _PATTERN_PIECE.sub(bounded, pattern)


@lru_cache(maxsize=1)
def _glossary() -> list[tuple[re.Pattern[str], str, str]]:
    entries = tomllib.loads(TERMS_PATH.read_text(encoding="utf-8"))["term"]
    return [(re.compile(whole_words(e["when"]), re.IGNORECASE), e["terms"], e.get("law", "")) for e in entries]


def expand(question: str) -> Expansion:
    terms: list[str] = []
    laws: list[str] = []
    for pattern, words, law in _glossary():
        if pattern.search(question or ""):
            terms += [w for w in words.split() if w not in terms]
            if law and law not in laws:
                laws.append(law)
    return Expansion(" ".join(terms), tuple(laws))
