"""Requirement clarification flow (spec 004): the versioned plan protocol (schema v1.0) and its artifacts.

`RequirementPlan` has exactly the spec's top-level fields; the linkage rules between `status`,
`questions`, `stages` and `plan_markdown` are model validators, so every producer (offline
composer, a real model, the graph's own post-processing) is held to the same contract.
`docs/requirement-plan.schema.json` is `export_json_schema()` written to disk (regenerate with
`ng plan --schema > docs/requirement-plan.schema.json`); a test keeps it in sync.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

SCHEMA_VERSION = "1.0"
MAX_QUESTIONS_PER_ROUND = 5
MIN_STAGES = 3
MAX_STAGES = 5

PlanStatus = Literal["clarification_needed", "plan_ready"]
RiskLevel = Literal["low", "medium", "high"]


class _Strict(BaseModel):
    # Unknown keys are an error: the protocol is versioned, a stray field means a producer drifted.
    model_config = ConfigDict(extra="forbid")


class Assumption(_Strict):
    text: str = Field(min_length=1, description="What the plan takes as true without confirmation")
    risk_level: RiskLevel = Field(description="How costly it is if the assumption turns out wrong")
    rollback_hint: str = Field(min_length=1, description="How to undo or adjust if the assumption is wrong")


class Question(_Strict):
    id: str = Field(
        pattern=r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$",
        description="Stable id (e.g. q_target_users); the same question keeps its id across rounds",
    )
    question: str = Field(min_length=1, description="The question put to the human")
    why_needed: str = Field(min_length=1, description="Why the plan needs this answer")
    impact_if_unknown: str = Field(min_length=1, description="What goes wrong if it stays unanswered")
    fallback_assumption: str = Field(
        min_length=1, description="What the plan assumes if the human does not answer (becomes an assumption)"
    )
    blocking: bool = Field(description="True when no sound plan can be made without the answer")
    priority: int = Field(ge=1, le=5, description="1 = most urgent; questions are ordered by blocking, then priority")


class Stage(_Strict):
    name: str = Field(min_length=1, description="Short stage name")
    goal: str = Field(min_length=1, description="The specific deliverable of the stage")
    success_criteria: list[str] = Field(min_length=1, description="Testable outcomes (Gherkin welcome)")
    tasks: list[str] = Field(min_length=1, description="Minimal tasks, each a verb phrase")
    validation: list[str] = Field(
        min_length=1, description="How to verify the stage, preferring the repository's existing scripts"
    )
    risks: list[str] = Field(default_factory=list, description="Risks of the stage, each with its rollback")
    owner_hint: str = Field(default="", description="Who would typically own the stage")


class RequirementPlan(_Strict):
    """RequirementAgent output protocol, schema v1.0."""

    model_config = ConfigDict(
        extra="forbid",
        title="RequirementPlan",
        json_schema_extra={
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "description": "RequirementAgent output protocol v1.0: clarification questions or a staged plan.",
        },
    )

    version: Literal["1.0"] = Field(default=SCHEMA_VERSION, description="Protocol version of this JSON")
    status: PlanStatus = Field(description="clarification_needed (questions pending) or plan_ready")
    requirement_summary: str = Field(min_length=1, description="The requirement restated in 1–3 sentences")
    scope: list[str] = Field(default_factory=list, description="What the work includes")
    out_of_scope: list[str] = Field(default_factory=list, description="What the work explicitly leaves out")
    assumptions: list[Assumption] = Field(
        default_factory=list, description="Uncertainties the plan covers by assumption, with risk and rollback"
    )
    questions: list[Question] = Field(
        default_factory=list,
        max_length=MAX_QUESTIONS_PER_ROUND,
        description="Open questions of this round (at most 5, most blocking first); required when clarification_needed",
    )
    dependencies: list[str] = Field(default_factory=list, description="Internal and external dependencies")
    stages: list[Stage] = Field(
        default_factory=list, max_length=MAX_STAGES, description="3–5 stages; required when plan_ready"
    )
    deliverables: list[str] = Field(default_factory=list, description="What the work hands over")
    plan_markdown: str = Field(
        default="",
        description="IMPLEMENTATION_PLAN.md content; required when plan_ready, may hold only settled parts otherwise",
    )
    commit_message_suggestion: str = Field(default="", description="Suggested commit message for the plan")

    @model_validator(mode="after")
    def _linkage(self) -> RequirementPlan:
        ids = [q.id for q in self.questions]
        if len(ids) != len(set(ids)):
            raise ValueError("question ids must be unique within a round")
        if self.status == "clarification_needed":
            if not self.questions:
                raise ValueError("clarification_needed requires at least one question")
            if not any(q.blocking for q in self.questions):
                raise ValueError("clarification_needed requires at least one blocking question")
        else:
            if not MIN_STAGES <= len(self.stages) <= MAX_STAGES:
                raise ValueError(f"plan_ready requires {MIN_STAGES}–{MAX_STAGES} stages, got {len(self.stages)}")
            if not self.plan_markdown.strip():
                raise ValueError("plan_ready requires a non-empty plan_markdown")
        return self


def export_json_schema() -> dict[str, Any]:
    """The JSON Schema of the protocol, as `ng plan --schema` prints it and docs/ stores it."""
    return RequirementPlan.model_json_schema()


# ---------------------------------------------------------------- artifacts (content wrappers)


class SourceRef(BaseModel):
    path: str = Field(description="Repository-relative path of a file the flow read")
    start_line: int | None = Field(default=None, ge=1)
    end_line: int | None = Field(default=None, ge=1)
    via: str = Field(description="Which read-only tool produced it")


class ToolCallRecord(BaseModel):
    tool: str
    args: str
    ok: bool
    note: str = ""


class RoundRecord(BaseModel):
    round: int = Field(ge=1)
    status: PlanStatus
    question_ids: list[str]
    blocking: int = Field(ge=0, description="Blocking questions asked this round")
    assumptions: int = Field(ge=0)


class RequirementPlanArtifact(BaseModel):
    """Content of the `requirement_plan` artifact: the protocol JSON plus where it came from."""

    round: int = Field(ge=1, description="Planning round that produced this version")
    max_rounds: int = Field(ge=1, description="Clarification rounds allowed before unknowns become assumptions")
    plan: RequirementPlan
    answers: dict[str, str] = Field(default_factory=dict, description="Human answers merged so far, by question id")
    assumed_question_ids: list[str] = Field(
        default_factory=list, description="Questions settled by their fallback_assumption"
    )
    sources: list[SourceRef] = Field(default_factory=list, description="Repository files the plan drew on")
    tool_calls: list[ToolCallRecord] = Field(default_factory=list, description="Read-only tool calls of discovery")
    history: list[RoundRecord] = Field(default_factory=list)


class ImplementationPlanDoc(BaseModel):
    """Content of the `implementation_plan` artifact (the markdown is also attached as a file)."""

    file_name: str = "IMPLEMENTATION_PLAN.md"
    markdown: str = Field(min_length=1)
    rounds: int = Field(ge=1)
    written_to: str | None = Field(default=None, description="Path written in the target repository, if authorised")
    commit_message_suggestion: str = ""
