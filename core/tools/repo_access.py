"""Which directories a remote client may name as a flow's target repository (REPO_ROOTS)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


class RepoNotAllowed(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.user_message = message


class RepoAccess:
    """Allows a path only inside one of the configured roots (symlinks resolved)."""

    def __init__(self, roots: Iterable[Path]) -> None:
        self.roots = [Path(root).resolve() for root in roots]

    def check(self, repo: str | Path) -> Path:
        path = Path(repo).expanduser().resolve()
        if not self.roots:
            raise RepoNotAllowed(
                "This server accepts no target repository: its operator has not set REPO_ROOTS."
            )
        if not any(path == root or root in path.parents for root in self.roots):
            raise RepoNotAllowed(f"{repo} is outside the directories this server may read (REPO_ROOTS).")
        if not path.is_dir():
            raise RepoNotAllowed(f"{repo} is not a directory on the server.")
        return path
