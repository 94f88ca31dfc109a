"""Everyday words → statute words, for the lexical statute search (data/legal_terms.toml).

`expand(question)` returns the terms to add to the search query and the laws to weigh first, in
the order the glossary names them.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

TERMS_PATH = Path(__file__).with_name("data") / "legal_terms.toml"


@dataclass(frozen=True)
class Expansion:
    terms: str
    laws: tuple[str, ...]
    # Each law's own entries' terms (with those of entries naming no law): the search of one law is not
    # led by another topic's words (an online shop's platform duties in the consumer law's search for a fake).
    by_law: dict[str, str] = field(default_factory=dict)
    # Regulations the topic needs that the corpus does not hold (the glossary's `beyond`, catalogue keys).
    beyond: tuple[str, ...] = ()
    # What the answer should say plainly beside the articles (the glossary's `note`, catalogue keys legal.note_<key>):
    # a word of the question that may mean things the law treats apart (deposit: 定金 or 押金).
    notes: tuple[str, ...] = ()

    def terms_for(self, law: str) -> str:
        return self.by_law.get(law, self.terms)


# In a `when` pattern: what must stay as written (an escape such as \\d, a quantifier {0,6}, a character class,
# a named group's name), else a run of Latin letters or digits: a glossary key written in them. A key's own
# quantifiers (an?, labou?r) are part of it: bounded apart, "an?" required "an" and never matched "a".
_PATTERN_PIECE = re.compile(r"\\.|\{\d*,?\d*\}|\[(?:\\.|[^\]])*\]|\(\?P<\w+>|((?:[A-Za-z0-9]+(?:[?*+]|\{\d*,?\d*\})?)+)")


def whole_words(pattern: str) -> str:
    """`pattern` with each Latin-script key (app, ktv, 996) matched as a whole word only: "app" is no key inside
    "happy", nor 996 inside 1996. Chinese has no spaces, so a key is bounded by any non-Latin character."""
    def bounded(piece: re.Match[str]) -> str:
        word = piece.group(1)
        return rf"(?<![A-Za-z0-9]){word}(?![A-Za-z0-9])" if word else piece.group(0)

    return _PATTERN_PIECE.sub(bounded, pattern)


def _structure(pattern: str) -> Iterator[tuple[int, str, int]]:
    """Each character of `pattern` that shapes it (outside escapes and character classes), with its index and the
    depth of parentheses after it."""
    depth, in_class, i = 0, False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        else:
            depth += (char == "(") - (char == ")")
            yield i, char, depth
        i += 1


def _top_level_alternatives(pattern: str) -> list[str]:
    """`pattern` cut at each | outside parentheses and character classes."""
    cuts = [i for i, char, depth in _structure(pattern) if char == "|" and depth == 0]
    return [pattern[start + 1:end] for start, end in zip([-1, *cuts], [*cuts, len(pattern)])]


def anchored_lookaheads(pattern: str) -> str:
    """`pattern` with each alternative made of lookaheads ((?=.*A)(?=.*B): A and B anywhere) tried at the text's
    start only. Unanchored, every character of the text began a scan to its end: a story of 2,000 characters took
    seconds per entry, ~8 s for the glossary. The start sees all that any later position sees, so what matches is
    the same."""
    anchored = []
    for piece in _top_level_alternatives(pattern):
        body = _whole_group_body(piece)
        if body is not None:  # (?:(?=.*A)(?=.*B)|…): a named word list read as one group is anchored inside it
            anchored.append(f"(?:{anchored_lookaheads(body)})")
        else:
            anchored.append("^" + piece if piece.startswith("(?=.*") else piece)
    return "|".join(anchored)


def _whole_group_body(piece: str) -> str | None:
    """What a non-capturing group that is the whole of `piece` holds ("(?:A|B)" → "A|B"), else None."""
    if not piece.startswith("(?:"):
        return None
    closed = next((i for i, char, depth in _structure(piece) if char == ")" and depth == 0), -1)
    return piece[3:-1] if closed == len(piece) - 1 else None


# A name in braces ({defect}) in a `when`: the `[words]` list of that name, written once for every entry that reads it.
# Letters never stand in a quantifier's braces ({0,6}), so the two cannot be confused.
_WORDS_NAME = re.compile(r"\{([a-z_]+)\}")


def with_named_words(pattern: str, words: dict[str, str]) -> str:
    """`pattern` with each {name} replaced by that list of words, as one group; a list may name another (a home sold
    twice is a home purchase), read in turn."""
    return _WORDS_NAME.sub(lambda name: f"(?:{with_named_words(words[name.group(1)], words)})", pattern)


@lru_cache(maxsize=1)
def _named_word_lists() -> dict[str, str]:
    return tomllib.loads(TERMS_PATH.read_text(encoding="utf-8")).get("words", {})


def named_words(name: str) -> str:
    """The glossary's `[words]` list `name` as a pattern (Latin keys whole words): another reader of a concept the
    glossary names (the intent's fields) reads the same words, written once."""
    return whole_words(with_named_words(_named_word_lists()[name], _named_word_lists()))


@lru_cache(maxsize=1)
def _glossary() -> list[tuple[re.Pattern[str], str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    entries = tomllib.loads(TERMS_PATH.read_text(encoding="utf-8"))["term"]
    words = _named_word_lists()
    # `law`: one law's name, or a list when a topic is governed by several (overtime: 劳动法 and 劳动合同法).
    # DOTALL: a question is read whole. A follow-up comes on a line of its own after the question it follows, and an
    # entry that reads from the start (^(?!.*双倍).*押金) saw the first line only.
    return [(re.compile(anchored_lookaheads(whole_words(with_named_words(e["when"], words))), re.IGNORECASE | re.DOTALL),
             e["terms"],
             tuple([e["law"]] if isinstance(e.get("law", []), str) else e.get("law", [])),
             tuple(e.get("beyond", ())), tuple(e.get("note", ()))) for e in entries]


def warm() -> None:
    """Compile the glossary (about a second): at start-up, not in the first question's answer."""
    _glossary()


def expand(question: str) -> Expansion:
    """Blocking (tens of milliseconds for a long story): async callers run it in a worker thread."""
    found = [(words.split(), named, beyond, notes) for pattern, words, named, beyond, notes in _glossary()
             if pattern.search(question or "")]
    matched = [(words, named) for words, named, *_ in found]
    laws = list(dict.fromkeys(law for _, named in matched for law in named))

    def joined(entries: list[tuple[list[str], tuple[str, ...]]]) -> str:
        return " ".join(dict.fromkeys(word for words, _ in entries for word in words))

    by_law = {law: joined([(words, named) for words, named in matched if law in named or not named]) for law in laws}
    return Expansion(joined(matched), tuple(laws), by_law, tuple(dict.fromkeys(key for _, _, beyond, _ in found for key in beyond)),
                     tuple(dict.fromkeys(key for *_, notes in found for key in notes)))
