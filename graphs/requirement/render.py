"""IMPLEMENTATION_PLAN.md rendering (the template the prompt describes to real models too).

Each stage follows the usual IMPLEMENTATION_PLAN template: `## Stage N: Name` with **Goal**,
**Success Criteria**, **Tests**, **Status**, plus tasks, risks and owner.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def _bullets(items: Iterable[str], prefix: str = "- ") -> list[str]:
    return [f"{prefix}{item}" for item in items if str(item).strip()]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def assumptions_table(assumptions: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["| Assumption | Risk | Rollback |", "|---|---|---|"]
    lines += [f"| {_cell(a['text'])} | {a['risk_level']} | {_cell(a['rollback_hint'])} |" for a in assumptions]
    return lines


def render_markdown(
    plan: Mapping[str, Any],
    *,
    decisions: Sequence[tuple[str, str]] = (),
    sources: Sequence[str] = (),
    open_questions: Sequence[Mapping[str, Any]] = (),
) -> str:
    """Markdown for a plan dict (RequirementPlan fields). With no stages it renders the settled part only."""
    summary = plan["requirement_summary"]
    title = summary.split("\n", 1)[0]
    lines = [f"# Implementation Plan: {title[:90]}", "", f"> Plan schema v{plan.get('version', '1.0')} · "
             f"status `{plan['status']}`", "", "## Summary", "", summary, ""]
    if plan.get("scope"):
        lines += ["## Scope", "", *_bullets(plan["scope"]), ""]
    if plan.get("out_of_scope"):
        lines += ["## Out of Scope", "", *_bullets(plan["out_of_scope"]), ""]
    if decisions:
        lines += ["## Decisions (from clarification)", "", *_bullets(f"**{label}**: {text}" for label, text in decisions), ""]
    if plan.get("assumptions"):
        lines += ["## Assumptions", "", *assumptions_table(plan["assumptions"]), ""]
    if plan.get("dependencies"):
        lines += ["## Dependencies", "", *_bullets(plan["dependencies"]), ""]
    for number, stage in enumerate(plan.get("stages") or [], start=1):
        lines += [
            f"## Stage {number}: {stage['name']}",
            "",
            f"**Goal**: {stage['goal']}",
            "",
            "**Success Criteria**:",
            *_bullets(stage["success_criteria"]),
            "",
            "**Tasks**:",
            *_bullets(stage["tasks"], "- [ ] "),
            "",
            "**Tests**:",
            *_bullets(stage["validation"]),
            "",
        ]
        if stage.get("risks"):
            lines += ["**Risks**:", *_bullets(stage["risks"]), ""]
        if stage.get("owner_hint"):
            lines += [f"**Owner**: {stage['owner_hint']}", ""]
        lines += ["**Status**: Not Started", ""]
    if open_questions:
        lines += ["## Open Questions", ""]
        lines += [f"- `{q['id']}`{' (blocking)' if q['blocking'] else ''}: {q['question']} — fallback: "
                  f"{q['fallback_assumption']}" for q in open_questions]
        lines += [""]
    if plan.get("deliverables"):
        lines += ["## Deliverables", "", *_bullets(plan["deliverables"]), ""]
    if sources:
        lines += ["## Sources", "", *_bullets(f"`{s}`" for s in sources), ""]
    return "\n".join(lines).rstrip() + "\n"
