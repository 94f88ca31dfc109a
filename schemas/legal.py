"""The legal flow's data (spec 002): classification, citations, answers, documents, traces."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

Intent = Literal["legal_consultation", "case_search", "regulation_query", "document_draft", "contract_review",
                 "general_chat"]
Category = Literal["labor_law", "contract_law", "consumer_rights", "civil_law", "tort_law", "marriage_family",
                   "company_law", "intellectual_property", "criminal_law", "administrative_law", "other"]
AgentName = Literal["legal_research", "case_analysis", "document_draft", "general"]
INTENTS: tuple[str, ...] = Intent.__args__  # type: ignore[attr-defined]
CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]


class IntentResult(BaseModel):
    intent: Intent = Field(description="The user's main intent")
    category: Category = Field(description="The main field of law")
    confidence: float = Field(ge=0, le=1, description="How sure the classifier is, 0-1")
    entities: list[str] = Field(default_factory=list, description="Key entities: laws, amounts, parties, dates")
    domains: list[Category] = Field(default_factory=list, description="Every field of law the question touches")
    via: Literal["rules", "model", "rules_over_model", "rules_model_failed"] = Field(
        default="model", description="Which layer decided: the rules alone (no model call), the model, the rules "
        "correcting the model's intent, or the rules because the model call failed")

    @field_validator("domains")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))


class Citation(BaseModel):
    law: str = Field(description="Full title of the law, e.g. 中华人民共和国劳动合同法")
    article: str = Field(description="Article number as digits, e.g. 39")
    excerpt: str = Field(default="", description="Start of the article's text (empty when not verified)")
    verified: bool = Field(description="True only when the corpus has this article of a law in force")
    status: Literal["in_force", "repealed", "law_not_found", "article_not_found", "bad_article_no"]
    replacement: str | None = Field(default=None, description="For a repealed law: what replaced it")
    asWritten: str = Field(default="", description="The citation as the agent wrote it")


class AgentRun(BaseModel):
    agent: AgentName
    domain: str | None = Field(default=None, description="The field of law this run covered")
    status: Literal["done", "failed", "timeout", "skipped"]
    durationMs: int = Field(ge=0)
    note: str = Field(default="", description="A sentence for the user when not done")


class LegalAnswer(BaseModel):
    intent: Intent
    category: Category
    domains: list[str]
    answer: str = Field(description="The answer in Markdown, citations checked")
    citations: list[Citation]
    removedCitations: list[Citation] = Field(default_factory=list, description="Citations taken out of the answer")
    agents: list[AgentRun]
    unavailable: list[str] = Field(default_factory=list, description="Parts temporarily unavailable, as sentences")
    disclaimer: str | None = Field(default=None, description="None on general chat")
    traceId: str


class LegalDocument(BaseModel):
    template: str = Field(description="Template id, e.g. labor_arbitration")
    title: str
    fields: dict[str, str]
    missingFields: list[str] = Field(default_factory=list, description="Required fields still unknown")
    missingLabels: list[str] = Field(default_factory=list,
                                     description="The same fields as the user reads them, in their language")
    markdown: str
    traceId: str


class TraceStep(BaseModel):
    kind: Literal["classification", "routing", "agent", "tool", "handover", "citations", "fallback"]
    name: str
    status: Literal["ok", "failed", "timeout", "skipped"] = "ok"
    input: Any = None
    output: Any = None
    durationMs: int = 0
    at: float = Field(description="Unix time in seconds")


class Trace(BaseModel):
    traceId: str
    threadId: str
    request: str
    steps: list[TraceStep]


class DraftFields(BaseModel):
    values: dict[str, str] = Field(default_factory=dict, description="Template field key → value the user gave")
