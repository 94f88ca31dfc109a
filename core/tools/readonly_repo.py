"""The requirement flow's read-only tools over one target repository, bound together in `ReadOnlyRepo`.

- `retrieve_knowledge`: keyword search over the repository's docs (core/tools/repo_docs.py).
- `view_text_file`: a text file or a line range of it.
- `execute_shell_command`: one allow-listed read-only command (core/tools/shell_policy.py), run
  without a shell inside the repository (core/tools/capped_process.py).
- `write_text_file`: refused unless authorised, and then only `IMPLEMENTATION_PLAN.md` at the root.

Anything outside that policy raises `ToolRefused(reason)` (core/tools/repo_paths.py) before a
process is started or a file is touched.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from core.tools.capped_process import DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_S, ShellResult, run_capped
from core.tools.repo_docs import KnowledgeHit, KnowledgeIndex
from core.tools.repo_paths import ToolRefused, relative_to_root, resolve_inside, resolve_repo
from core.tools.shell_policy import parse_command

PLAN_FILE_NAME = "IMPLEMENTATION_PLAN.md"

MAX_VIEW_LINES = 400
MAX_VIEW_BYTES = 512_000
MAX_WRITE_BYTES = 1_000_000


@dataclass
class FileView:
    path: str
    start_line: int
    end_line: int
    total_lines: int
    text: str
    truncated: bool = False

    def numbered(self) -> str:
        return "\n".join(f"{self.start_line + k:>5}  {line}" for k, line in enumerate(self.text.splitlines()))


@dataclass
class ReadOnlyRepo:
    """The four tools bound to one repository; the knowledge index is built once, on first use."""

    repo: str | os.PathLike[str]
    allow_write: bool = False
    root: Path = field(init=False)
    _index: KnowledgeIndex | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.root = resolve_repo(self.repo)

    @property
    def index(self) -> KnowledgeIndex:
        if self._index is None:
            self._index = KnowledgeIndex.build(self.root)
        return self._index

    def retrieve_knowledge(self, query: str, top_k: int = 5, exclude_paths: Collection[str] = ()) -> list[KnowledgeHit]:
        """Docs passages (README*, docs/, *.md) that best match `query`, best first."""
        if not isinstance(query, str) or not query.strip():
            raise ToolRefused("empty query")
        return self.index.search(query[:2000], top_k=min(max(top_k, 1), 20), exclude_paths=frozenset(exclude_paths))

    def view_text_file(self, path: str, start_line: int = 1, end_line: int | None = None) -> FileView:
        """Lines `start_line..end_line` (1-based, inclusive) of a text file inside the repository."""
        if not isinstance(path, str) or not path:
            raise ToolRefused("no file path given")
        full = resolve_inside(self.root, path)
        if not full.is_file():
            raise ToolRefused(f"{path!r} is not a regular file in the repository")
        if start_line < 1 or (end_line is not None and end_line < start_line):
            raise ToolRefused(f"bad line range {start_line}..{end_line}")
        with open(full, "rb") as handle:
            data = handle.read(MAX_VIEW_BYTES + 1)
        if b"\x00" in data[:8192]:
            raise ToolRefused(f"{path!r} looks like a binary file")
        truncated = len(data) > MAX_VIEW_BYTES
        lines = data[:MAX_VIEW_BYTES].decode("utf-8", errors="replace").splitlines()
        last = len(lines) if end_line is None else min(end_line, len(lines))
        if last - start_line + 1 > MAX_VIEW_LINES:
            last = start_line + MAX_VIEW_LINES - 1
            truncated = True
        chosen = lines[start_line - 1 : last]
        return FileView(relative_to_root(self.root, full), start_line, start_line + max(len(chosen), 1) - 1, len(lines),
                        "\n".join(chosen), truncated)

    def execute_shell_command(
        self, command: str, *, timeout_s: float = DEFAULT_TIMEOUT_S, max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    ) -> ShellResult:
        """Run one allowed read-only command without a shell, inside the repository."""
        parsed = parse_command(self.root, command)
        code, out, err, truncated, timed_out = run_capped(parsed.argv, self.root, timeout_s, max_output_bytes)
        return ShellResult(command.strip(), code, out.decode("utf-8", errors="replace"),
                           err.decode("utf-8", errors="replace"), truncated, timed_out)

    def write_text_file(self, path: str, content: str) -> Path:
        """Write IMPLEMENTATION_PLAN.md at the repository root — only when authorised, and nothing else."""
        if not self.allow_write:
            raise ToolRefused("writing is disabled; it needs explicit authorisation (--write / options.write=true)")
        if not isinstance(content, str):
            raise ToolRefused("content must be text")
        encoded = content.encode("utf-8")
        if len(encoded) > MAX_WRITE_BYTES:
            raise ToolRefused(f"content larger than {MAX_WRITE_BYTES} bytes")
        if not isinstance(path, str) or not path:
            raise ToolRefused("no file path given")
        expected = self.root / PLAN_FILE_NAME
        lexical = Path(path) if Path(path).is_absolute() else self.root / path
        # Compare lexically first (so docs/IMPLEMENTATION_PLAN.md or ../ never qualify), then resolved
        # (so an IMPLEMENTATION_PLAN.md symlink pointing elsewhere does not either).
        if Path(os.path.normpath(lexical)) != expected:
            raise ToolRefused(f"only {PLAN_FILE_NAME} at the repository root may be written, not {path!r}")
        if expected.is_symlink() or resolve_inside(self.root, PLAN_FILE_NAME) != expected:
            raise ToolRefused(f"{PLAN_FILE_NAME} is a symlink; refusing to write through it")
        if expected.exists() and not expected.is_file():
            raise ToolRefused(f"{PLAN_FILE_NAME} exists and is not a regular file")
        # O_NOFOLLOW closes the gap between the check and the open.
        fd = os.open(expected, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(encoded)
        return expected


# Module-level forms (one call, one repository).


def retrieve_knowledge(
    repo: str | os.PathLike[str], query: str, top_k: int = 5, exclude_paths: Collection[str] = ()
) -> list[KnowledgeHit]:
    return ReadOnlyRepo(repo).retrieve_knowledge(query, top_k, exclude_paths)


def view_text_file(repo: str | os.PathLike[str], path: str, start_line: int = 1, end_line: int | None = None) -> FileView:
    return ReadOnlyRepo(repo).view_text_file(path, start_line, end_line)


def execute_shell_command(
    repo: str | os.PathLike[str], command: str, *, timeout_s: float = DEFAULT_TIMEOUT_S,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
) -> ShellResult:
    return ReadOnlyRepo(repo).execute_shell_command(command, timeout_s=timeout_s, max_output_bytes=max_output_bytes)


def write_text_file(repo: str | os.PathLike[str], path: str, content: str, *, authorised: bool = False) -> Path:
    return ReadOnlyRepo(repo, allow_write=authorised).write_text_file(path, content)
