"""IMPLEMENTATION_PLAN.md rendering (the template the prompt describes to real models too).

Each stage follows the usual IMPLEMENTATION_PLAN template: `## Stage N: Name` with **Goal**,
**Success Criteria**, **Tests**, **Status**, plus tasks, risks and owner. The plan is written in
the language of the requirement, its headings too (`zh`): a Chinese plan reads 阶段、目标、成功标准….
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.language import CJK, clip


def _bullets(items: Iterable[str], prefix: str = "- ") -> list[str]:
    return [f"{prefix}{item}" for item in items if str(item).strip()]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


# The template's words, (English, Chinese): headings, labels and the risk levels shown in the table.
WORDS: dict[str, tuple[str, str]] = {
    "title": ("Implementation Plan: {title}", "实施计划：{title}"),
    "schema": ("Plan schema v{version} · status `{status}`", "计划 schema v{version} · 状态 `{status}`"),
    "summary": ("Summary", "概述"),
    "scope": ("Scope", "范围"),
    "out_of_scope": ("Out of Scope", "不在范围内"),
    "decisions": ("Decisions (from clarification)", "决定（来自澄清）"),
    "assumptions": ("Assumptions", "假设"),
    "assumptions_added": ("Assumptions added by the clarification loop", "澄清过程中补充的假设"),
    "table": ("| Assumption | Risk | Rollback |", "| 假设 | 风险 | 回滚 |"),
    "dependencies": ("Dependencies", "依赖"),
    "stage": ("Stage {number}: {name}", "阶段 {number}：{name}"),
    "goal": ("Goal", "目标"),
    "success_criteria": ("Success Criteria", "成功标准"),
    "tasks": ("Tasks", "任务"),
    "tests": ("Tests", "测试"),
    "risks": ("Risks", "风险"),
    "owner": ("Owner", "负责人"),
    "status": ("Status", "状态"),
    "not_started": ("Not Started", "未开始"),
    "open_questions": ("Open Questions", "待定问题"),
    "blocking": (" (blocking)", "（阻塞）"),
    "fallback": ("fallback", "默认假设"),
    "deliverables": ("Deliverables", "交付物"),
    "sources": ("Sources", "来源"),
    "low": ("low", "低"),
    "medium": ("medium", "中"),
    "high": ("high", "高"),
}


_FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n")


def plan_title(summary: str) -> str:
    """What the plan is called (its heading, the commit message): the summary's first sentence, cut
    between phrases with an ellipsis when long; not the whole requirement."""
    first = next((s.strip() for s in _FIRST_SENTENCE.split(summary.strip()) if s.strip()), summary.strip())
    return clip(first.rstrip("。.!！"), 20 if CJK.search(first) else 48, "…")


def word(key: str, zh: bool, **fields: Any) -> str:
    text = WORDS[key][1 if zh else 0]
    return text.format(**fields) if fields else text


def assumptions_table(assumptions: Sequence[Mapping[str, Any]], *, zh: bool = False) -> list[str]:
    lines = [word("table", zh), "|---|---|---|"]
    lines += [f"| {_cell(a['text'])} | {word(a['risk_level'], zh) if a['risk_level'] in WORDS else a['risk_level']} | "
              f"{_cell(a['rollback_hint'])} |" for a in assumptions]
    return lines


def render_markdown(
    plan: Mapping[str, Any],
    *,
    decisions: Sequence[tuple[str, str]] = (),
    sources: Sequence[str] = (),
    open_questions: Sequence[Mapping[str, Any]] = (),
    zh: bool = False,
    title: str | None = None,
) -> str:
    """Markdown for a plan dict (RequirementPlan fields). With no stages it renders the settled part only.
    `title`: what the plan is called, when the composer knows better than the summary's first sentence."""
    summary = plan["requirement_summary"]

    def heading(key: str) -> str:
        return f"## {word(key, zh)}"

    lines = [f"# {word('title', zh, title=title or plan_title(summary))}", "",
             f"> {word('schema', zh, version=plan.get('version', '1.0'), status=plan['status'])}", "",
             heading("summary"), "", summary, ""]
    if plan.get("scope"):
        lines += [heading("scope"), "", *_bullets(plan["scope"]), ""]
    if plan.get("out_of_scope"):
        lines += [heading("out_of_scope"), "", *_bullets(plan["out_of_scope"]), ""]
    if decisions:
        lines += [heading("decisions"), "", *_bullets(f"**{label}**: {text}" for label, text in decisions), ""]
    if plan.get("assumptions"):
        lines += [heading("assumptions"), "", *assumptions_table(plan["assumptions"], zh=zh), ""]
    if plan.get("dependencies"):
        lines += [heading("dependencies"), "", *_bullets(plan["dependencies"]), ""]
    for number, stage in enumerate(plan.get("stages") or [], start=1):
        lines += [
            f"## {word('stage', zh, number=number, name=stage['name'])}",
            "",
            f"**{word('goal', zh)}**: {stage['goal']}",
            "",
            f"**{word('success_criteria', zh)}**:",
            *_bullets(stage["success_criteria"]),
            "",
            f"**{word('tasks', zh)}**:",
            *_bullets(stage["tasks"], "- [ ] "),
            "",
            f"**{word('tests', zh)}**:",
            *_bullets(stage["validation"]),
            "",
        ]
        if stage.get("risks"):
            lines += [f"**{word('risks', zh)}**:", *_bullets(stage["risks"]), ""]
        if stage.get("owner_hint"):
            lines += [f"**{word('owner', zh)}**: {stage['owner_hint']}", ""]
        lines += [f"**{word('status', zh)}**: {word('not_started', zh)}", ""]
    if open_questions:
        lines += [heading("open_questions"), ""]
        lines += [f"- `{q['id']}`{word('blocking', zh) if q['blocking'] else ''}: {q['question']} — "
                  f"{word('fallback', zh)}: {q['fallback_assumption']}" for q in open_questions]
        lines += [""]
    if plan.get("deliverables"):
        lines += [heading("deliverables"), "", *_bullets(plan["deliverables"]), ""]
    if sources:
        lines += [heading("sources"), "", *_bullets(f"`{s}`" for s in sources), ""]
    return "\n".join(lines).rstrip() + "\n"
