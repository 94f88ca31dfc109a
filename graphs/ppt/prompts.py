"""Prompts of the PPT stages. A real model reads everything from here; the JSON schema is added by the LLM layer."""

from __future__ import annotations

import json
from typing import Any

from schemas.ppt import CourseConfig, PresentationTheme, TopicAnalysis, VideoOutline

SYSTEM = (
    "You are an instructional designer who turns a topic into a short lecture video and its slide deck. "
    "Write in the language of the user's request. Answer with JSON only, matching the given schema."
)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def _feedback(feedback: str | None) -> str:
    return f"\nThe user reviewed the previous version and asks: “{feedback}”. Apply this feedback." if feedback else ""


def analyze(request: str) -> str:
    return (
        f"User request: “{request}”.\nExtract the topic (without words like 'make a PPT'), its language (zh or en), "
        "up to 6 keywords, and the audience and duration in minutes if the request names them."
    )


def course_config(analysis: TopicAnalysis, search: dict[str, Any] | None, feedback: str | None) -> str:
    context = f"\nWeb search results:\n{_json(search['results'][:5])}" if search else ""
    return (
        f"Topic analysis:\n{_json(analysis.model_dump())}{context}\n"
        "Design the course: narrativeStyle, targetAudience, duration (minutes; keep the requested one if given, "
        "else 10), and 3-5 measurable objectives." + _feedback(feedback)
    )


def video_outline(analysis: TopicAnalysis, config: CourseConfig, feedback: str | None) -> str:
    return (
        f"Topic: {analysis.topic}\nCourse config:\n{_json(config.model_dump())}\n"
        "Write the video outline: theme and knowledgeUnits (title, description, knowledgePoints), "
        f"sized for {config.duration} minutes." + _feedback(feedback)
    )


def slide_scripts(analysis: TopicAnalysis, config: CourseConfig, outline: VideoOutline, slide_count: int,
                  budget: int, feedback: str | None) -> str:
    unit = "Chinese characters" if analysis.language == "zh" else "words"
    return (
        f"Course config:\n{_json(config.model_dump())}\nVideo outline:\n{_json(outline.model_dump())}\n"
        f"Write exactly {slide_count} slide scripts (slideIndex 1..{slide_count}): page 1 is the cover, the last page "
        f"the summary. Each has title, contentDesign (2-5 short points), visualSuggestions and narrationScript of about "
        f"{budget} {unit}, so the deck fills {config.duration} minutes." + _feedback(feedback)
    )


def presentation_theme(analysis: TopicAnalysis, config: CourseConfig, feedback: str | None) -> str:
    return (
        f"Topic: {analysis.topic}; audience: {config.targetAudience}; style: {config.narrativeStyle}.\n"
        "Choose the presentation theme: themeName, colorScheme (#RRGGBB primary, secondary, accent, background, "
        "text with readable contrast), fontConfig (titleFont, bodyFont, eastAsianFont, titleSize 28-44, bodySize "
        "16-24) and masterSlides for the layouts title, section, bullets, two_column, closing." + _feedback(feedback)
    )


def slide_page(script: dict[str, Any], total: int, theme: PresentationTheme, feedback: str | None) -> str:
    return (
        f"Slide script (page {script['slideIndex']} of {total}):\n{_json(script)}\nTheme: {theme.themeName}.\n"
        "Lay out this page: index, layout (title for page 1, closing for the last page, otherwise bullets, "
        "section or two_column), title, bullets (at most 5, each under 40 characters), visuals (visual "
        "suggestions), and notes = the narration script unchanged." + _feedback(feedback)
    )


def feedback_intent(text: str, topic: str) -> str:
    return (
        f"The current deck is about “{topic}”. The user now writes: “{text}”.\n"
        "Is this a new request (intent INITIAL) or feedback on the current deck (intent REFINEMENT)? For "
        "REFINEMENT give targetStage: generate_slides for visuals/layout, generate_video_outline for structure "
        "or content, generate_presentation_theme for colours/fonts, generate_slide_scripts for narration."
    )
