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


@lru_cache(maxsize=1)
def _glossary() -> list[tuple[re.Pattern[str], str, str]]:
    entries = tomllib.loads(TERMS_PATH.read_text(encoding="utf-8"))["term"]
    return [(re.compile(e["when"], re.IGNORECASE), e["terms"], e.get("law", "")) for e in entries]


def expand(question: str) -> Expansion:
    terms: list[str] = []
    laws: list[str] = []
    for pattern, words, law in _glossary():
        if pattern.search(question or ""):
            terms += [w for w in words.split() if w not in terms]
            if law and law not in laws:
                laws.append(law)
    return Expansion(" ".join(terms), tuple(laws))
