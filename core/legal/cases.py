"""Published cases from a directory of Markdown files (`LEGAL_CASES_DIR`), searched with BM25.

The format (see the corpus's SOURCE.md): `# <title>`, `<!-- INFO END -->`, often `## <case name>`,
then `##` sections whose names vary by publisher. We keep every section, and pick the holding
(裁判要点 or its synonyms) and the facts by name lists rather than by position.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.retrieval.bm25 import BM25Index
from core.retrieval.fusion import reciprocal_rank_fusion

HOLDING_SECTIONS = ("裁判要点", "裁判要旨", "关键词", "适用解析", "典型意义", "法官解读", "案例分析", "裁判理由")
FACT_SECTIONS = ("基本案情", "简要案情", "案情回顾", "申请人请求", "原告诉讼请求")
RESULT_SECTIONS = ("裁判结果", "处理结果", "法院裁判")
KNOWN_SECTIONS = set(HOLDING_SECTIONS + FACT_SECTIONS + RESULT_SECTIONS + ("司法解释相关法条",))


@dataclass(frozen=True)
class Case:
    case_id: str  # path relative to the corpus root
    title: str
    name: str  # the case name (## 某某诉某某案) when given
    collection: str  # first folder: 劳动人事, 民法典…
    sections: dict[str, str] = field(default_factory=dict)

    def section(self, names: tuple[str, ...]) -> str:
        for name in names:
            if self.sections.get(name):
                return self.sections[name]
        return ""

    @property
    def holding(self) -> str:
        return self.section(HOLDING_SECTIONS)

    @property
    def facts(self) -> str:
        return self.section(FACT_SECTIONS)

    @property
    def result(self) -> str:
        return self.section(RESULT_SECTIONS)

    @property
    def text(self) -> str:
        return "\n".join([self.title, self.name, *self.sections.values()])


def parse_case(text: str, case_id: str, collection: str) -> Case | None:
    """One Markdown case; None for files that are not cases (no `# title`)."""
    body = text.split("<!-- FORCE BREAK -->", 1)[0]
    title_match = re.search(r"^#\s+(.+?)\s*$", body, re.MULTILINE)
    if not title_match:
        return None
    sections: dict[str, str] = {}
    name = ""
    current: str | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            content = "\n".join(lines).strip()
            if content:
                sections[current] = (sections.get(current, "") + "\n" + content).strip()

    for line in body[title_match.end():].splitlines():
        heading = re.match(r"^##\s+(.+?)\s*$", line)
        if heading:
            close()
            label = heading.group(1).strip().strip("\u3000").strip()
            if label in KNOWN_SECTIONS:
                current, lines = label, []
            else:  # a case name heading (某某诉某某案): the text under it is the case itself
                name = name or label
                current, lines = "正文", []
            continue
        if line.strip().startswith("<!--"):
            continue
        lines.append(line)
    close()
    return Case(case_id=case_id, title=title_match.group(1).strip(), name=name, collection=collection,
                sections=sections)


def load_cases(root: Path) -> list[Case]:
    cases: list[Case] = []
    for path in sorted(root.rglob("*.md")):
        if path.name.startswith("_") or path.name.upper() == "SOURCE.MD":
            continue
        relative = path.relative_to(root)
        collection = relative.parts[0] if len(relative.parts) > 1 else ""
        case = parse_case(path.read_text(encoding="utf-8", errors="replace"), str(relative), collection)
        if case is not None:
            cases.append(case)
    return cases


@dataclass
class CaseLibrary:
    """The case corpus of `root` (None: no corpus configured); indexed on first search.

    With an `embedder` (core/retrieval/embeddings.py) the BM25 ranking is fused with embedding
    similarity (reciprocal rank fusion), which finds cases worded differently from the question.
    """

    root: Path | None
    embedder: Any = None
    _cases: list[Case] | None = field(default=None, repr=False)
    _index: BM25Index | None = field(default=None, repr=False)
    _vectors: Any = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def configured(self) -> bool:
        return self.root is not None and Path(self.root).is_dir()

    @property
    def ready(self) -> bool:
        return self._index is not None or not self.configured

    def warm(self) -> None:
        with self._lock:
            if self._index is not None or not self.configured:
                return
            self._cases = load_cases(Path(self.root))
            self._index = BM25Index([f"{c.title}\n{c.title}\n{c.name}\n{c.text}" for c in self._cases])
            if self.embedder is not None:
                self._vectors = self.embedder.embed_passages([f"{c.title}。{c.holding[:300]}" for c in self._cases])

    @property
    def size(self) -> int:
        self.warm()
        return len(self._cases or [])

    def search(self, query: str, top_k: int = 3) -> list[Case]:
        self.warm()
        if self._index is None or self._cases is None:
            return []
        lexical = [i for i, _score in self._index.search(query, max(top_k, 10))]
        if self._vectors is None:
            return [self._cases[i] for i in lexical[:top_k]]
        similarities = self._vectors @ self.embedder.embed_queries([query])[0]
        semantic = sorted(range(len(self._cases)), key=lambda i: -similarities[i])[:10]
        return [self._cases[i] for i in reciprocal_rank_fusion([lexical, semantic])[:top_k]]
