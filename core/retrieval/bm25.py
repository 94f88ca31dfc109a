"""Keyword search for Chinese and English text: jieba tokens ranked by rank-bm25's BM25Okapi.

One index type for every flow (repository docs, statutes, cases, story memory); what a document is
stays with the caller, which gets back positions into the list it indexed.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Sequence

import jieba
from rank_bm25 import BM25Okapi

jieba.setLogLevel(logging.WARNING)

_WORD = re.compile(r"[\w\u4e00-\u9fff]+", re.UNICODE)
_HAN = re.compile(r"[\u4e00-\u9fff]")


@functools.lru_cache(maxsize=64)
def _kept_words(keep: tuple[str, ...]) -> re.Pattern | None:
    """A pattern splitting a Chinese run around the words of `keep`, longest first (林素素 before 素素)."""
    han = sorted({w.lower() for w in keep if w and _HAN.search(w)}, key=len, reverse=True)
    return re.compile("(" + "|".join(map(re.escape, han)) + ")") if han else None


def _dictionary_sub_words(word: str) -> list[str]:
    """The words of two or three characters inside `word` that jieba's dictionary has (素素 of 林素素), as its
    search mode gives for a long word."""
    jieba.dt.check_initialized()
    return [word[i:i + n] for n in (2, 3) for i in range(len(word) - n + 1)
            if word[i:i + n] != word and jieba.dt.FREQ.get(word[i:i + n])]


def tokenize(text: str, keep: Sequence[str] = ()) -> list[str]:
    """Lower-cased words; Chinese runs are cut by jieba's search mode (words and their sub-words). A word of
    `keep` (a book's character names) is one token wherever it stands, with its own sub-words: jieba cut
    "韩岚与仓书道了别" 仓 / 书道, so a search for 仓书 ranked every passage with a 书 and none with him. The
    words are the caller's, never added to jieba's dictionary, which every flow of the process shares."""
    kept = _kept_words(tuple(keep))
    tokens: list[str] = []
    for word in _WORD.findall(text.lower()):
        if not _HAN.search(word):
            tokens.append(word)
            continue
        for at, piece in enumerate(kept.split(word) if kept else [word]):
            if at % 2:  # a kept word: itself, and what a search by part of it (a given name) meets
                tokens.append(piece)
                tokens.extend(_dictionary_sub_words(piece))
            elif piece:
                tokens.extend(sub for sub in jieba.cut_for_search(piece) if sub.strip())
    return tokens


class BM25Index:
    """An immutable index over `documents`; `search` returns `(position, score)` best first, score > 0."""

    def __init__(self, documents: Sequence[str], keep: Sequence[str] = ()) -> None:
        """`keep`: words each cut whole, in the documents and in every query (see `tokenize`)."""
        self.size = len(documents)
        self._keep = tuple(keep)
        corpus = [tokenize(doc, self._keep) for doc in documents]
        # BM25Okapi divides by the corpus size; an empty corpus simply finds nothing.
        self._bm25 = BM25Okapi([tokens or [""] for tokens in corpus]) if corpus else None

    def search(self, query: str, top_k: int = 10) -> list[tuple[int, float]]:
        terms = tokenize(query, self._keep)
        if self._bm25 is None or not terms or top_k <= 0:
            return []
        scores = self._bm25.get_scores(terms)
        ranked = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
        return [(i, float(scores[i])) for i in ranked[:top_k] if scores[i] > 0]


LONG_QUERY_CHARS = 80  # longer than a question usually is: a story, bounded before searching
QUERY_TERMS = 20


def bounded_query(text: str, max_terms: int = QUERY_TERMS) -> str:
    """A long text as its `max_terms` most informative distinct words (TF-IDF), in the order written.

    BM25 scoring costs one pass over the corpus per query word, and a 2,000-character story has
    hundreds of them (repeats included): the search then outlasts any time limit. The few words that
    say what the story is about find the same articles.
    """
    if len(text) <= LONG_QUERY_CHARS:
        return text
    import jieba.analyse

    chosen = set(jieba.analyse.extract_tags(text, topK=max_terms))
    ordered = [word for word in dict.fromkeys(jieba.cut(text)) if word in chosen]
    return " ".join(ordered)
