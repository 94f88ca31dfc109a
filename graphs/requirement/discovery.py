"""Discovery: read-only exploration of the target repository before any question is asked.

Runs only the read-only tools (so its trace is evidence of "只读工具使用痕迹"), collects the
repository's own validation scripts (so stages prefer them) and retrieves doc passages per open
topic (so the planner never asks what the docs already answer). Synchronous on purpose: the node
runs it in a worker thread and reports the trace afterwards.
"""

from __future__ import annotations

import json
import re
from typing import Any

from core.tools import PLAN_FILE_NAME, ReadOnlyRepo, ToolRefused
from graphs.requirement.topics import TOPICS

MAX_HITS_PER_QUERY = 3
MAX_KNOWLEDGE = 14
_MAKE_TARGETS = ("test", "check", "lint", "typecheck", "build", "fmt", "format", "ci")


def empty_discovery() -> dict[str, Any]:
    return {"root": None, "top_level": [], "doc_files": [], "validation_commands": [], "knowledge": [],
            "readme_head": "", "tool_calls": [], "has_plan_file": False}


def explore(repo: str, requirement: str) -> dict[str, Any]:
    tools = ReadOnlyRepo(repo)
    found = empty_discovery()
    found["root"] = str(tools.root)
    calls: list[dict[str, Any]] = found["tool_calls"]

    def shell(command: str) -> str | None:
        try:
            result = tools.execute_shell_command(command)
        except ToolRefused as refused:
            calls.append({"tool": "execute_shell_command", "args": command, "ok": False, "note": refused.reason})
            return None
        calls.append({"tool": "execute_shell_command", "args": command, "ok": result.ok,
                      "note": "truncated" if result.truncated else ""})
        return result.stdout if result.ok else None

    listing = shell("ls -A") or ""
    top = [name for name in listing.splitlines() if name and name != ".git"]
    found["top_level"] = top
    found["has_plan_file"] = PLAN_FILE_NAME in top
    docs = shell('find . -maxdepth 3 -type f -name "*.md" -not -path "./.git/*" -not -path "*/node_modules/*"')
    found["doc_files"] = sorted(line[2:] if line.startswith("./") else line for line in (docs or "").splitlines())[:50]

    commands: list[str] = []
    if "Makefile" in top:
        targets = shell('grep -E "^[A-Za-z0-9_.-]+:" Makefile') or ""
        names = {line.split(":", 1)[0] for line in targets.splitlines()}
        commands += [f"make {t}" for t in _MAKE_TARGETS if t in names]
    if "package.json" in top:
        try:
            view = tools.view_text_file("package.json")
            calls.append({"tool": "view_text_file", "args": "package.json", "ok": True, "note": ""})
            scripts = json.loads(view.text).get("scripts", {})
            commands += [f"npm run {s}" for s in ("test", "lint", "typecheck", "build") if s in scripts]
        except (ToolRefused, ValueError, AttributeError):
            calls.append({"tool": "view_text_file", "args": "package.json", "ok": False, "note": "unreadable"})
    python_configs = [name for name in ("pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini") if name in top]
    if python_configs and not any(c.startswith("make test") for c in commands):
        if shell("grep -l pytest " + " ".join(python_configs)):
            commands.append("pytest")
    if "go.mod" in top:
        commands.append("go test ./...")
    if "Cargo.toml" in top:
        commands.append("cargo test")
    found["validation_commands"] = commands

    readme = next((name for name in top if re.fullmatch(r"(?i)readme(\.[a-z]+)?", name)), None)
    if readme:
        try:
            view = tools.view_text_file(readme, 1, 25)
            calls.append({"tool": "view_text_file", "args": f"{readme}:1-25", "ok": True, "note": ""})
            found["readme_head"] = view.text[:1500]
        except ToolRefused as refused:
            calls.append({"tool": "view_text_file", "args": readme, "ok": False, "note": refused.reason})

    # One query for the requirement itself, one per topic: a topic the docs settle must surface.
    # A plan written by an earlier run is our own output, not evidence: it is left out.
    hits: dict[tuple[str, int], dict[str, Any]] = {}
    for query in [requirement, *(topic.query for topic in TOPICS if topic.query)]:
        results = tools.retrieve_knowledge(query, top_k=MAX_HITS_PER_QUERY, exclude_paths={PLAN_FILE_NAME})
        calls.append({"tool": "retrieve_knowledge", "args": query[:80], "ok": True,
                      "note": ", ".join(hit.source for hit in results)})
        for hit in results:
            key = (hit.path, hit.start_line)
            if key not in hits and len(hits) < MAX_KNOWLEDGE:
                hits[key] = hit.as_dict()
    found["knowledge"] = list(hits.values())
    return found
