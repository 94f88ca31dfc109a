"""Search a repository's documentation (README*, docs/, *.md) by keywords, without a model.

Files are cut into chunks at markdown headings and every few dozen lines; the chunks are ranked by
the shared BM25 index (core/retrieval/bm25.py: jieba tokens over rank-bm25), so Chinese and English
docs are searched the same way as every other flow's text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from core.retrieval.bm25 import BM25Index
from core.tools.repo_paths import is_inside

_DOC_EXTENSIONS = {".md", ".markdown", ".rst", ".txt", ".adoc"}
_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "env", "__pycache__", "dist", "build",
              ".tox", ".mypy_cache", ".pytest_cache", "target", ".idea", ".vscode", "site-packages"}
_MAX_DOC_FILES = 400
_MAX_DOC_BYTES = 256_000
_CHUNK_LINES = 30


@dataclass(frozen=True)
class DocChunk:
    path: str
    start_line: int
    end_line: int
    text: str


@dataclass(frozen=True)
class KnowledgeHit:
    path: str
    start_line: int
    end_line: int
    score: float
    text: str

    @property
    def source(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "start_line": self.start_line, "end_line": self.end_line,
                "score": round(self.score, 4), "text": self.text, "source": self.source}


def _is_doc(rel: Path) -> bool:
    name = rel.name.lower()
    if name.startswith("readme"):
        return True
    if rel.suffix.lower() not in _DOC_EXTENSIONS:
        return False
    return rel.suffix.lower() in {".md", ".markdown"} or (rel.parts[0].lower() in {"docs", "doc"})


def _chunk_file(rel: str, text: str) -> list[DocChunk]:
    """Split at markdown headings and every _CHUNK_LINES lines; remember 1-based line numbers."""
    lines = text.splitlines()
    chunks: list[DocChunk] = []
    start = 0
    for index in range(len(lines) + 1):
        at_end = index == len(lines)
        heading = not at_end and lines[index].lstrip().startswith("#") and index > start
        if at_end or heading or index - start >= _CHUNK_LINES:
            body = "\n".join(lines[start:index]).strip()
            if body:
                chunks.append(DocChunk(rel, start + 1, index, body))
            start = index
    return chunks



class KnowledgeIndex:
    """BM25 over documentation chunks of one repository."""

    def __init__(self, chunks: list[DocChunk]) -> None:
        self.chunks = chunks
        # The path is indexed with the text: "where is the design doc" should find docs/design.md.
        self._bm25 = BM25Index([f"{c.path}\n{c.text}" for c in chunks])

    @classmethod
    def build(cls, root: Path) -> KnowledgeIndex:
        chunks: list[DocChunk] = []
        files = 0
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
            for filename in sorted(filenames):
                path = Path(dirpath) / filename
                rel = path.relative_to(root)
                if not _is_doc(rel):
                    continue
                real = path.resolve()
                # A symlinked doc is indexed only if it points inside the repository.
                if not is_inside(root, real) or not real.is_file():
                    continue
                try:
                    with open(real, "rb") as handle:
                        data = handle.read(_MAX_DOC_BYTES)
                except OSError:
                    continue
                if b"\x00" in data[:4096]:
                    continue
                chunks.extend(_chunk_file(rel.as_posix(), data.decode("utf-8", errors="replace")))
                files += 1
                if files >= _MAX_DOC_FILES:
                    return cls(chunks)
        return cls(chunks)


    @property
    def files(self) -> list[str]:
        return sorted({c.path for c in self.chunks})

    def search(self, query: str, top_k: int = 5, exclude_paths: frozenset[str] = frozenset()) -> list[KnowledgeHit]:
        ranked = self._bm25.search(query, top_k=len(self.chunks))
        kept = [(i, score) for i, score in ranked if self.chunks[i].path not in exclude_paths][: max(1, top_k)]
        return [
            KnowledgeHit(self.chunks[i].path, self.chunks[i].start_line, self.chunks[i].end_line, score,
                         self.chunks[i].text[:1500])
            for i, score in kept
        ]
