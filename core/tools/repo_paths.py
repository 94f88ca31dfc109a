"""Paths inside a target repository: resolve with symlinks followed, refuse anything that leaves it.

`ToolRefused` is the one error of the read-only repository tools: nothing ran, nothing was written.
"""

from __future__ import annotations

import os
from pathlib import Path


class ToolRefused(Exception):
    """A tool call outside the read-only policy; nothing was executed or written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        # Shown to the user by the node hooks if it ever escapes a node.
        self.user_message = f"Refused by the read-only repository tools: {reason}"



def resolve_repo(repo: str | os.PathLike[str]) -> Path:
    """The repository root, absolute with symlinks resolved; it must be an existing directory."""
    raw = os.fspath(repo)
    if not raw or "\x00" in raw:
        raise ToolRefused("no repository path given")
    path = Path(raw).expanduser()
    if not path.is_dir():
        raise ToolRefused(f"repository path {raw!r} is not a directory")
    return path.resolve(strict=True)



def is_inside(root: Path, candidate: Path) -> bool:
    return candidate == root or root in candidate.parents


def resolve_inside(root: Path, raw: str) -> Path:
    """Resolve `raw` (relative to the root, or absolute) following symlinks; refuse if it leaves the root."""
    if "\x00" in raw:
        raise ToolRefused("path contains a NUL byte")
    candidate = Path(raw)
    full = (candidate if candidate.is_absolute() else root / candidate).resolve(strict=False)
    if not is_inside(root, full):
        raise ToolRefused(f"path {raw!r} is outside the repository")
    return full


def relative_to_root(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix() or "."
