"""Pure rules of the PPT pipeline: slide budget from duration, request parsing, feedback routing."""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

STAGES = (
    "analyze_topic",
    "generate_course_config",
    "generate_video_outline",
    "generate_slide_scripts",
    "generate_presentation_theme",
    "generate_slides",
)

# Narration pace (spec: a lecture video): ~200 Chinese characters or ~150 English words a minute.
ZH_CHARS_PER_MINUTE = 200
EN_WORDS_PER_MINUTE = 150
MIN_SLIDES, MAX_SLIDES = 4, 40

CJK = re.compile(r"[\u3400-\u9fff]")


def language_of(text: str) -> str:
    return "zh" if CJK.search(text) else "en"


def slide_count_for(duration_minutes: int) -> int:
    """About one slide a minute, plus title and closing pages."""
    return max(MIN_SLIDES, min(MAX_SLIDES, duration_minutes + 2))


def narration_budget(duration_minutes: int, slides: int, language: str) -> int:
    """Narration per slide: characters (zh) or words (en), so the deck fills its duration."""
    per_minute = ZH_CHARS_PER_MINUTE if language == "zh" else EN_WORDS_PER_MINUTE
    return max(20, round(duration_minutes * per_minute / slides))


def narration_length(text: str, language: str) -> int:
    return len(CJK.findall(text)) if language == "zh" else len(text.split())


_DURATION = re.compile(r"(\d{1,3})\s*(分钟|分|min\b|mins\b|minutes?\b)", re.IGNORECASE)
_AUDIENCE_ZH = re.compile(r"(?:面向|给|针对)([^，,。；;\s]{2,20}?)(?:的|讲|介绍|，|,|。|$)")
_AUDIENCE_EN = re.compile(r"\bfor ([a-z][a-z \-]{2,40}?)(?:[,.;]|$| about| on)", re.IGNORECASE)
_FILLER_ZH = re.compile(
    r"(请|帮我|帮忙|给我|一下|做一个|做一份|做个|制作|生成|一份|一个|关于|介绍|讲解|的?PPT|的?课件|的?演示文稿|幻灯片|课程|\d+\s*分钟|(?:面向|针对)[^，,。的]{1,20}的?)",
    re.IGNORECASE,
)
# "给高中生讲解…" / "面向小学生的…": the audience is not part of the topic.
_AUDIENCE_SPAN_ZH = re.compile(r"(?:面向|针对|给|为)[^，,。；;\s的讲介]{2,12}(?:的|(?=讲|介绍))")
_FILLER_EN = re.compile(
    r"\b(please|make|create|generate|build|a|an|the|deck|slides?|presentation|ppt|course|about|on|lesson|"
    r"for [a-z \-]+|\d+\s*(?:min|mins|minutes?))\b",
    re.IGNORECASE,
)


def duration_hint(text: str) -> int | None:
    match = _DURATION.search(text)
    return max(1, min(180, int(match.group(1)))) if match else None


def audience_hint(text: str) -> str | None:
    match = (_AUDIENCE_ZH if language_of(text) == "zh" else _AUDIENCE_EN).search(text)
    return match.group(1).strip() if match else None


def core_topic(text: str) -> str:
    """The subject of a request with the asking words taken out ("做一个关于光合作用的PPT" → "光合作用")."""
    if language_of(text) == "zh":
        stripped = _AUDIENCE_SPAN_ZH.sub(" ", text)
        stripped = _FILLER_ZH.sub(" ", stripped)
        stripped = re.sub(r"[，,。.!！?？:：;；“”\"'《》()（）]", " ", stripped)
    else:
        stripped = _FILLER_EN.sub(" ", text)
        stripped = re.sub(r"[,.!?:;\"'()]", " ", stripped)
    stripped = re.sub(r"\s+", " ", stripped).strip(" 的")
    return stripped or text.strip()


MAX_TITLE = 40  # characters: the deck title, the cover and the file name
_SUBJECT_ZH = re.compile(
    r"(?:关于|有关|以)\s*(?P<subject>[^，,。；;！!？?\n]{1,30}?)\s*(?:为主题|为题|的?(?:PPT|课件|公开课|课程|一节课|一堂课|课|演示|幻灯片|讲座)|[，,。；;！!？?\n]|$)",
    re.IGNORECASE,
)
_SUBJECT_EN = re.compile(r"\b(?:about|on)\s+(?P<subject>[^,.;:!?\n]{2,60}?)(?:\s+for\b|\s+to\b|[,.;:!?\n]|$)", re.IGNORECASE)
_CLAUSE = re.compile(r"[，,。.；;！!？?\n]+")


def short_title(request: str) -> str:
    """The deck's title: the subject of the request, at most MAX_TITLE characters.

    A short request is its own topic; a long one (a teacher's paragraph of wishes) names its subject
    once ("关于浮力的公开课", "a lesson about volcanoes"), else its first clause stands for it."""
    topic = core_topic(request)
    if len(topic) <= MAX_TITLE:
        return topic
    match = (_SUBJECT_ZH if language_of(request) == "zh" else _SUBJECT_EN).search(request)
    subject = core_topic(match.group("subject")) if match else ""
    if not subject:
        subject = next((c.strip() for c in _CLAUSE.split(topic) if c.strip()), topic)
    return subject[:MAX_TITLE].strip()


_UNSAFE_IN_FILE_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def deck_file_name(title: str, extension: str) -> str:
    """A file name any system accepts: the title without path or reserved characters, capped."""
    stem = _UNSAFE_IN_FILE_NAMES.sub("-", title).strip(" .-")[:MAX_TITLE].strip() or "deck"
    return f"{stem}.{extension}"


def keywords_of(topic: str) -> list[str]:
    if language_of(topic) == "zh":
        parts = [p for p in re.split(r"[\s与和及、的]+", topic) if len(p) >= 2]
    else:
        parts = [p for p in re.split(r"[\s\-/]+", topic) if len(p) >= 3]
    seen: list[str] = []
    for part in parts or [topic]:
        if part not in seen:
            seen.append(part)
    return seen[:6]


# ------------------------------------------------------------ feedback routing


class FeedbackIntent(BaseModel):
    """How a message on a finished PPT thread is read (spec: Intent Classification Logic)."""

    intent: str = Field(description="INITIAL (a new topic) or REFINEMENT (change the current deck)")
    targetStage: str | None = Field(default=None, description="For REFINEMENT: the first stage to re-run")
    reason: str = Field(default="", description="Why, in a few words")


# First matching rule wins; ordered from the most specific to the most general.
REFINEMENT_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("generate_presentation_theme", ("主题", "配色", "颜色", "色调", "字体", "风格", "theme", "colour", "color", "font", "palette")),
    ("generate_slide_scripts", ("口播", "讲稿", "旁白", "解说", "narration", "script", "speaker notes", "voice-over")),
    ("generate_video_outline", ("大纲", "太复杂", "精简", "缩减", "简化", "内容", "结构", "知识点", "outline", "simplify", "too complex", "shorter", "structure", "content")),
    ("generate_slides", ("配图", "视觉", "图片", "排版", "版式", "美化", "页面", "visual", "image", "picture", "layout", "design", "slide")),
)

NEW_TOPIC_MARKERS = ("做一个", "做一份", "新的", "另一个", "换个主题", "new deck", "new topic", "another", "make a", "create a")


def classify_by_rules(text: str) -> FeedbackIntent | None:
    lowered = text.lower()
    if any(marker in lowered for marker in NEW_TOPIC_MARKERS):
        return FeedbackIntent(intent="INITIAL", reason="asks for a new deck")
    for stage_name, words in REFINEMENT_RULES:
        if any(word in lowered for word in words):
            return FeedbackIntent(intent="REFINEMENT", targetStage=stage_name, reason="feedback keyword")
    return None

