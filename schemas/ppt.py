"""PPT pipeline models (spec 001): one per stage, plus the slide-deck DSL the canvas and the .pptx share."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

HEX_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")


class TopicAnalysis(BaseModel):
    topic: str = Field(description="The topic as the user asked for it")
    language: Literal["zh", "en"] = Field(description="Language the deck is written in")
    keywords: list[str] = Field(min_length=1, description="Key terms of the topic")
    audienceHint: str | None = Field(default=None, description="Audience named in the request, if any")
    durationMinutesHint: int | None = Field(default=None, ge=1, le=180, description="Duration named in the request")
    slideCountHint: int | None = Field(default=None, ge=1, description="Number of slides (pages) the request asks for")


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
    request: str = Field(default="", description="The request as the user wrote it, kept whole however long")


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


SlideLayout = Literal[
    "cover", "agenda", "section", "bullets", "two_column", "comparison", "process", "timeline",
    "big_number", "chart", "image_text", "quote", "summary", "qa",
]
SLIDE_LAYOUTS: tuple[str, ...] = SlideLayout.__args__
# Names older decks and models use for the same pages.
LEGACY_LAYOUTS = {"title": "cover", "closing": "summary", "two-column": "two_column", "table": "comparison",
                  "steps": "process", "statement": "big_number", "image": "image_text", "diagram": "image_text"}


class MasterSlide(BaseModel):
    name: str
    layout: SlideLayout
    description: str = ""

    @field_validator("layout", mode="before")
    @classmethod
    def _legacy_layout(cls, value: object) -> object:
        return LEGACY_LAYOUTS.get(value, value) if isinstance(value, str) else value


class PresentationTheme(BaseModel):
    themeName: str
    colorScheme: ColorScheme
    fontConfig: FontConfig
    masterSlides: list[MasterSlide] = Field(min_length=1)


class Column(BaseModel):
    heading: str = Field(description="Column heading, e.g. 误区 / 正解")
    items: list[str] = Field(default_factory=list, description="Points of this column")


class Table(BaseModel):
    header: list[str] = Field(min_length=2, description="Column headings; the first names the compared aspect")
    rows: list[list[str]] = Field(min_length=1, description="One list of cells per row, as many as the header")

    @model_validator(mode="after")
    def _rectangular(self) -> Table:
        if any(len(row) != len(self.header) for row in self.rows):
            raise ValueError("every table row needs one cell per header column")
        return self


class Step(BaseModel):
    label: str = Field(description="Step name, or the date/period on a timeline")
    detail: str = Field(default="", description="One short sentence about the step")


class Stat(BaseModel):
    value: str = Field(description="The big figure or key phrase, e.g. 78% or 3 步")
    label: str = Field(description="What the figure means")


class ChartSeries(BaseModel):
    name: str
    values: list[float] = Field(min_length=1)


class ChartSpec(BaseModel):
    kind: Literal["column", "bar", "line", "pie"] = "column"
    categories: list[str] = Field(min_length=2)
    series: list[ChartSeries] = Field(min_length=1, max_length=4)
    unit: str = Field(default="", description="Unit of the values, shown in the axis title")

    @model_validator(mode="after")
    def _aligned(self) -> ChartSpec:
        if any(len(s.values) != len(self.categories) for s in self.series):
            raise ValueError("every chart series needs one value per category")
        return self


class Quote(BaseModel):
    text: str
    source: str = ""


class SlideSpec(BaseModel):
    """One page of the deck DSL. `layout` says which typed field carries the page's visual."""

    index: int = Field(ge=1)
    layout: SlideLayout = Field(description="cover, agenda, section, bullets, two_column, comparison (table), "
                                            "process, timeline, big_number, chart, image_text, quote, summary, qa")
    title: str
    subtitle: str | None = None
    bullets: list[str] = Field(default_factory=list, description="Short points shown on the page")
    columns: list[Column] = Field(default_factory=list, description="two_column: exactly two columns")
    table: Table | None = Field(default=None, description="comparison: the table")
    steps: list[Step] = Field(default_factory=list, description="process / timeline: 2-6 steps in order")
    stat: Stat | None = Field(default=None, description="big_number: the figure or key statement")
    chart: ChartSpec | None = Field(default=None, description="chart: data for a native chart")
    quote: Quote | None = Field(default=None, description="quote: the quotation")
    icon: str | None = Field(default=None, description="A keyword naming an icon for the page (e.g. leaf, atom)")
    visuals: list[str] = Field(default_factory=list,
                               description="Design suggestions: realised as the page's visual or kept in the notes, "
                                           "never printed on the slide")
    notes: str = Field(default="", description="Speaker notes: the narration script")
    continuationOf: int | None = Field(default=None, description="Set on a page split off a page too full to fit")

    @field_validator("layout", mode="before")
    @classmethod
    def _legacy_layout(cls, value: object) -> object:
        return LEGACY_LAYOUTS.get(value, value) if isinstance(value, str) else value


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
    qaPassed: bool | None = Field(default=None, description="Whether the QA gate passed the file")


class DeckPreview(BaseModel):
    """The deck as LibreOffice renders it: the PDF (the artifact's file) and one thumbnail per slide."""

    fileName: str
    pageCount: int
    thumbnails: list[str] = Field(default_factory=list, description="Per-slide JPEG thumbnails as data: URLs")


class QaIssue(BaseModel):
    check: str = Field(description="Which check failed, e.g. overflow, contrast, duplicate")
    slide: int | None = Field(default=None, description="1-based slide number, or none for the whole deck")
    message: str = Field(description="What is wrong, in the user's language")


class QaReport(BaseModel):
    """What the QA gate found in the .pptx after repair: an empty `issues` list means the deck passed."""

    passed: bool
    checks: list[str] = Field(description="Every check that was run")
    issues: list[QaIssue] = Field(default_factory=list)
    repairs: list[str] = Field(default_factory=list, description="What was changed to pass (split, shrink, colour)")
    rounds: int = Field(default=1, description="Check → repair rounds run")
