"""The novel chat agent's own data: ToolPlan, a cited answer, the intent of a message."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from schemas.novel import ProjectStatus

Intent = Literal["generate", "knowledge", "preference", "other"]


class ToolStep(BaseModel):
    tool: str = Field(description="Registered tool name, e.g. workflow.run, workflow.rollback, preferences.add")
    args: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments of the call")
    requires_confirmation: bool = Field(description="The user confirms before this step runs")
    summary: str = Field(default="", description="What the step does, in the user's language (set when the plan is shown)")


class ToolPlan(BaseModel):
    steps: list[ToolStep] = Field(min_length=1, description="Executed in order")


class Evidence(BaseModel):
    chapter_number: int = Field(ge=1)
    scene_number: int | None = Field(default=None, ge=1)
    quote: str = Field(min_length=1, description="Copied verbatim from the chapter's text")
    verified: bool = Field(description="The quote was found, character for character, in that chapter")


class NovelAnswer(BaseModel):
    question: str
    answer: str
    evidence: list[Evidence] = Field(default_factory=list)


class IntentDecision(BaseModel):
    """What a configured model says a message wants (the offline path decides by rules and embeddings)."""

    intent: Intent
    target_chapter: int | None = Field(default=None, ge=1, description="Chapter to generate up to, if named")


class QuoteClaim(BaseModel):
    chapter_number: int = Field(ge=1)
    quote: str = Field(min_length=1, description="Copied verbatim from that chapter's text")


class AnswerDraft(BaseModel):
    """A model's answer to a knowledge question and the quotes it cites (checked before anyone sees them)."""

    answer: str
    evidence: list[QuoteClaim] = Field(default_factory=list)


class NovelStatus(ProjectStatus):
    """The `novel_status` artifact: the project's status plus what the chat shows at start-up."""

    chapters_planned: int = Field(description="Chapter plans on disk (the protocol's name for chapter_plans)")
    preferences_top: list[dict[str, Any]] = Field(default_factory=list, description="The latest preferences")
    resumable: bool = Field(default=False, description="An unfinished run can be resumed")
    running: bool = Field(default=False, description="A run of this project is going on in another thread or process")
