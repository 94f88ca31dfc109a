"""A fake model for the PPT flow over the OpenAI wire: answers each request with a valid instance of
the schema it asks for (OpenAICompatibleLLM puts that JSON Schema at the end of the system message).

Used by the OpenAI-path test of the whole flow and by bench/concurrent_slides.py.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from typing import Any

from graphs.ppt.planning import slide_count_for
from schemas.ppt import CourseConfig, PresentationTheme, SlideScripts, SlideSpec, TopicAnalysis, VideoOutline
from tests.support.fake_openai import message_text

SLIDES = 12
DURATION = 10
assert slide_count_for(DURATION) == SLIDES
SCHEMA_MARKER = "It must validate against this JSON Schema:\n"
PAGE = re.compile(r"page (\d+) of (\d+)")

TOPIC = "Photosynthesis"
UNITS = [
    {"title": "Light reactions", "description": "How chlorophyll captures light",
     "knowledgePoints": ["Chlorophyll absorbs red and blue light", "Water is split, oxygen released", "ATP and NADPH"]},
    {"title": "Calvin cycle", "description": "How carbon dioxide becomes sugar",
     "knowledgePoints": ["Carbon fixation by RuBisCO", "Reduction to G3P", "Regeneration of RuBP"]},
    {"title": "Why it matters", "description": "Photosynthesis in the biosphere",
     "knowledgePoints": ["Food chains start here", "The oxygen we breathe", "Limiting factors"]},
]


def slide_script(index: int) -> dict[str, Any]:
    unit = UNITS[(index - 2) % len(UNITS)]
    title = TOPIC if index == 1 else ("Summary" if index == SLIDES else unit["title"])
    return {
        "slideIndex": index,
        "title": title,
        "contentDesign": unit["knowledgePoints"][:3],
        "visualSuggestions": [f"Diagram of {unit['title'].lower()}"],
        "narrationScript": f"Page {index}. " + " ".join(f"{p}." for p in unit["knowledgePoints"]) * 4,
    }


def instance_for(title: str, user_prompt: str) -> dict[str, Any]:
    if title == "TopicAnalysis":
        return {"topic": TOPIC, "language": "en", "keywords": ["photosynthesis", "chlorophyll", "Calvin cycle"],
                "audienceHint": "high school students", "durationMinutesHint": DURATION}
    if title == "CourseConfig":
        return {"narrativeStyle": "Problem-driven, from simple to deep", "targetAudience": "High school students",
                "duration": DURATION, "objectives": ["Explain the light reactions", "Explain the Calvin cycle",
                                                     "Relate photosynthesis to food chains"]}
    if title == "VideoOutline":
        return {"theme": TOPIC, "knowledgeUnits": UNITS}
    if title == "SlideScripts":
        return {"scripts": [slide_script(i) for i in range(1, SLIDES + 1)]}
    if title == "PresentationTheme":
        return {
            "themeName": "Forest Notes",
            "colorScheme": {"primary": "#385723", "secondary": "#70AD47", "accent": "#FFC000",
                            "background": "#FBFCF8", "text": "#1F2A17"},
            "fontConfig": {"titleFont": "Arial", "bodyFont": "Arial", "eastAsianFont": "Arial",
                           "titleSize": 36, "bodySize": 20},
            "masterSlides": [{"name": n, "layout": n, "description": ""}
                             for n in ("title", "section", "bullets", "two_column", "closing")],
        }
    if title == "SlideSpec":
        match = PAGE.search(user_prompt)
        if match is None:
            raise ValueError("SlideSpec request without 'page N of M' in the prompt")
        index, total = int(match.group(1)), int(match.group(2))
        script = slide_script(index)
        layout = "title" if index == 1 else ("closing" if index == total else "bullets")
        return {"index": index, "layout": layout, "title": script["title"],
                "subtitle": "High school students · 10 min" if index == 1 else None,
                "bullets": script["contentDesign"], "visuals": script["visualSuggestions"],
                "notes": script["narrationScript"]}
    raise ValueError(f"the bench responder has no instance for schema {title!r}")


def schema_title(body: dict[str, Any]) -> str:
    """The name of the model a request asks for (the title of the schema ending its system message)."""
    system = message_text(body, "system")
    schema, _end = json.JSONDecoder().raw_decode(system.split(SCHEMA_MARKER, 1)[1])
    return schema["title"]


def pages_asked(requests: list[dict[str, Any]]) -> Counter[int]:
    """How many times each page was asked of the model (its SlideSpec requests, by page number)."""
    return Counter(int(PAGE.search(message_text(body, "user")).group(1))
                   for body in requests if schema_title(body) == "SlideSpec")


class Responder:
    """Builds the reply from the request's schema; records (schema, time the answer was sent)."""

    MODELS = {m.__name__: m for m in (TopicAnalysis, CourseConfig, VideoOutline, SlideScripts, PresentationTheme,
                                      SlideSpec)}

    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []

    def __call__(self, body: dict[str, Any]) -> str:
        title = schema_title(body)
        user = message_text(body, "user")
        instance = instance_for(title, user)
        self.MODELS[title].model_validate(instance)  # a bench bug should fail here, not as a re-ask
        self.calls.append((title, time.perf_counter()))
        return json.dumps(instance)
