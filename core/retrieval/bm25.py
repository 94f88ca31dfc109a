"""Keyword search for Chinese and English text: jieba tokens ranked by rank-bm25's BM25Okapi.

One index type for every flow (repository docs, statutes, cases, story memory); what a document is
stays with the caller, which gets back positions into the list it indexed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence

import jieba
from rank_bm25 import BM25Okapi

jieba.setLogLevel(logging.WARNING)

_WORD = re.compile(r"[\w\u4e00-\u9fff]+", re.UNICODE)
_HAN = re.compile(r"[\u4e00-\u9fff]")


# How often jieba's dictionary is told a kept word occurs: as often as a common given name, so that the word
# outweighs the single characters it would be cut into in any context ("仓书奉命" not 仓 / 书奉命).
_KEPT_WORD_FREQ = 2000
_kept: set[str] = set()


def keep_whole(words: Iterable[str], tag: str = "nr") -> None:
    """Make jieba cut each of `words` as one word (a book's character names: 仓书 was cut 仓 / 书, so a search
    for him ranked every passage with a 书, and no passage held the word "仓书"). jieba's dictionary is the
    process's: a name added for one book stays for others, where it only matters if they write it too. A word
    the dictionary already has (小雨) keeps its frequency and tag."""
    new = [w for w in dict.fromkeys(words) if w and w not in _kept and _HAN.search(w)]
    if not new:
        return
    jieba.dt.check_initialized()
    for word in new:
        _kept.add(word)
        if not jieba.dt.FREQ.get(word):
            jieba.add_word(word, freq=_KEPT_WORD_FREQ, tag=tag)


def tokenize(text: str) -> list[str]:
    """Lower-cased words; Chinese runs are cut by jieba's search mode (words and their sub-words)."""
    tokens: list[str] = []
    for word in _WORD.findall(text.lower()):
        if _HAN.search(word):
            tokens.extend(piece for piece in jieba.cut_for_search(word) if piece.strip())
        else:
            tokens.append(word)
    return tokens


class BM25Index:
    """An immutable index over `documents`; `search` returns `(position, score)` best first, score > 0."""

    def __init__(self, documents: Sequence[str]) -> None:
        self.size = len(documents)
        corpus = [tokenize(doc) for doc in documents]
        # BM25Okapi divides by the corpus size; an empty corpus simply finds nothing.
        self._bm25 = BM25Okapi([tokens or [""] for tokens in corpus]) if corpus else None

    def search(self, query: str, top_k: int = 10) -> list[tuple[int, float]]:
        terms = tokenize(query)
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
