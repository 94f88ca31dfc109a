"""PPT pipeline models (spec 001): one per stage, plus the slide-deck DSL the canvas and the .pptx share."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field, field_validator

HEX_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")


class TopicAnalysis(BaseModel):
    topic: str = Field(description="The topic as the user asked for it")
    language: Literal["zh", "en"] = Field(description="Language the deck is written in")
    keywords: list[str] = Field(min_length=1, description="Key terms of the topic")
    audienceHint: str | None = Field(default=None, description="Audience named in the request, if any")
    durationMinutesHint: int | None = Field(default=None, ge=1, le=180, description="Duration named in the request")


class SearchResult(BaseModel):
    title: str
    url: str
    snippet: str = ""


class SearchResults(BaseModel):
    query: str
    engine: str = Field(description="Which search backend answered")
    results: list[SearchResult]


class CourseConfig(BaseModel):
    narrativeStyle: str = Field(description="叙事风格: how the course tells its story")
    targetAudience: str = Field(description="目标受众")
    duration: int = Field(ge=1, le=180, description="时长 in minutes; drives the slide count")
    objectives: list[str] = Field(min_length=1, max_length=8, description="教学目标")


class KnowledgeUnit(BaseModel):
    title: str
    description: str
    knowledgePoints: list[str] = Field(min_length=1)


class VideoOutline(BaseModel):
    theme: str = Field(description="主题 of the explanatory video")
    knowledgeUnits: list[KnowledgeUnit] = Field(min_length=1)


class SlideScript(BaseModel):
    slideIndex: int = Field(ge=1, description="1-based page number")
    title: str = Field(description="Slide title")
    contentDesign: list[str] = Field(min_length=1, description="内容设计: the points shown on the slide")
    visualSuggestions: list[str] = Field(default_factory=list, description="可视化建议")
    narrationScript: str = Field(min_length=1, description="口播稿: what the speaker says")


class SlideScripts(BaseModel):
    scripts: list[SlideScript] = Field(min_length=1)

    @field_validator("scripts")
    @classmethod
    def _pages_in_order(cls, scripts: list[SlideScript]) -> list[SlideScript]:
        if [s.slideIndex for s in scripts] != list(range(1, len(scripts) + 1)):
            raise ValueError("slideIndex must run 1, 2, 3… in order")
        return scripts


class ColorScheme(BaseModel):
    primary: str
    secondary: str
    accent: str
    background: str
    text: str

    @field_validator("*")
    @classmethod
    def _hex(cls, value: str) -> str:
        if not HEX_COLOR.match(value):
            raise ValueError(f"{value!r} is not a #RRGGBB colour")
        return value.upper()


class FontConfig(BaseModel):
    titleFont: str = Field(description="Latin font for titles")
    bodyFont: str = Field(description="Latin font for body text")
    eastAsianFont: str = Field(description="Font for CJK text (set as a:ea on every run)")
    titleSize: int = Field(ge=18, le=60)
    bodySize: int = Field(ge=12, le=32)


class MasterSlide(BaseModel):
    name: str
    layout: Literal["title", "section", "bullets", "two_column", "closing"]
    description: str = ""


class PresentationTheme(BaseModel):
    themeName: str
    colorScheme: ColorScheme
    fontConfig: FontConfig
    masterSlides: list[MasterSlide] = Field(min_length=1)


class SlideSpec(BaseModel):
    """One page of the deck DSL, as the LLM writes it for a script."""

    index: int = Field(ge=1)
    layout: Literal["title", "section", "bullets", "two_column", "closing"]
    title: str
    subtitle: str | None = None
    bullets: list[str] = Field(default_factory=list)
    visuals: list[str] = Field(default_factory=list, description="Visual suggestions shown as callouts")
    notes: str = Field(default="", description="Speaker notes: the narration script")


class SlideDeck(BaseModel):
    """The slide DSL (spec: AnyGenDocument): the single source for canvas previews and the .pptx."""

    version: Literal["1.0"] = "1.0"
    title: str
    language: Literal["zh", "en"]
    aspectRatio: Literal["16:9"] = "16:9"
    theme: PresentationTheme
    slides: list[SlideSpec] = Field(min_length=1)


class PptxSummary(BaseModel):
    fileName: str
    slideCount: int
    sizeBytes: int
    aspectRatio: str = "16:9"
