"""A 12-slide PPT run against an OpenAI-compatible fake with 2 s per call, at several LLM_CONCURRENCY values.

FakeOpenAI (tests/support/fake_openai.py) is a real aiohttp server on 127.0.0.1 that waits
--delay seconds per chat completion, then answers with a hand-built JSON instance of whichever
model the request asks for. OpenAICompatibleLLM puts that model's JSON Schema at the end of the
system message ("…It must validate against this JSON Schema:\\n{schema}"), so the responder reads
the schema's `title` — TopicAnalysis, CourseConfig, VideoOutline, SlideScripts, PresentationTheme,
SlideSpec — and for SlideSpec takes the page number from the user prompt ("page 7 of 12").
CourseConfig.duration is 10, so slide_count_for(10) == 12.

The whole `ppt` flow runs through FlowRuntime (open_runtime with LLM_PROVIDER=openai), exactly as
the server runs it, minus the socket. For each concurrency it prints the wall time, the model calls,
the sequential sum (calls × delay), wall/sequential, and the critical path the pipeline allows
(5 sequential stages + ceil(12 / concurrency) page batches, × delay) with the time left over.

    .venv/bin/python bench/concurrent_slides.py [--concurrency 1,4,12] [--delay 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import re
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, median, run_to_end

from app.services import open_runtime
from app.settings import Settings
from graphs.ppt.planning import slide_count_for
from schemas.ppt import CourseConfig, PresentationTheme, SlideScripts, SlideSpec, TopicAnalysis, VideoOutline
from tests.support.fake_openai import FakeOpenAI, message_text

SLIDES = 12
DURATION = 10
assert slide_count_for(DURATION) == SLIDES
SEQUENTIAL_STAGES = 5  # analyze, course config, outline, scripts, theme; then the page batches
REQUEST = "Make a 10 minute presentation about photosynthesis for high school students"
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


class Responder:
    """Builds the reply from the request's schema; records (schema, time the answer was sent)."""

    MODELS = {m.__name__: m for m in (TopicAnalysis, CourseConfig, VideoOutline, SlideScripts, PresentationTheme,
                                      SlideSpec)}

    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []

    def __call__(self, body: dict[str, Any]) -> str:
        system = message_text(body, "system")
        schema, _end = json.JSONDecoder().raw_decode(system.split(SCHEMA_MARKER, 1)[1])
        title = schema["title"]
        user = message_text(body, "user")
        instance = instance_for(title, user)
        self.MODELS[title].model_validate(instance)  # a bench bug should fail here, not as a re-ask
        self.calls.append((title, time.perf_counter()))
        return json.dumps(instance)


async def one_run(fake: FakeOpenAI, responder: Responder, concurrency: int, delay: float, tmp: Path) -> dict[str, Any]:
    settings = Settings(
        data_dir=tmp / f"c{concurrency}", llm_provider="openai", llm_base_url=fake.base_url, llm_api_key="x",
        llm_concurrency=concurrency, llm_validation_retries=0, search_url=None, _env_file=None,
    )
    async with open_runtime(settings) as runtime:
        requests_before, responder.calls = len(fake.requests), []
        fake.max_in_flight = 0
        thread_id = uuid.uuid4().hex
        start = time.perf_counter()
        await run_to_end(runtime, flow="ppt", text=REQUEST, thread_id=thread_id)
        wall = time.perf_counter() - start
        thread = await runtime.store.get_thread(thread_id)
        events = await runtime.store.events_after(thread_id)
    completion = next(data for name, data in reversed(events) if name == "completion")
    if thread["status"] != "done" or not completion.get("success"):
        raise RuntimeError(f"run at concurrency {concurrency} ended {thread['status']}: {completion}")
    slides = next(d["artifact"]["content"]["slideCount"] for n, d in events
                  if n == "tool:artifact" and d["artifact"]["type"] == "pptx")
    calls = len(fake.requests) - requests_before
    batches = math.ceil(SLIDES / concurrency)
    rounds = SEQUENTIAL_STAGES + batches
    # Gap between one sequential call's answer and the next call's arrival (= answer time − delay):
    # what the runtime spends between two model calls (node exit, checkpoint, events, next node).
    answered = [t for _title, t in responder.calls]
    firsts = [t for (title, t) in responder.calls if title != "SlideSpec"] + [
        min((t for title, t in responder.calls if title == "SlideSpec"), default=answered[-1])]
    gaps = [(b - delay) - a for a, b in zip(firsts, firsts[1:])]
    return {
        "concurrency": concurrency, "wall": wall, "calls": calls, "sequential": calls * delay,
        "rounds": rounds, "critical": rounds * delay, "max_in_flight": fake.max_in_flight, "slides": slides,
        "events": len(events), "gap_median_ms": median(gaps) * 1000, "gap_max_ms": max(gaps) * 1000,
        "head_ms": (answered[0] - delay - start) * 1000,
        "tail_ms": (wall - (answered[-1] - start)) * 1000,
    }


async def main(concurrencies: list[int], delay: float) -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    responder = Responder()
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-slides-") as tmp:
        async with FakeOpenAI(responder=responder, delay_s=delay) as fake:
            for concurrency in concurrencies:
                result = await one_run(fake, responder, concurrency, delay, Path(tmp))
                results.append(result)
                print(f"  concurrency {concurrency:>2}: {result['wall']:6.2f} s wall, {result['calls']} calls", flush=True)

    print(f"\n12-slide PPT through FlowRuntime, OpenAI-compatible fake at {delay:g} s per call "
          f"(pages generated in batches of LLM_CONCURRENCY)\n")
    print(f"{'conc':>4} {'wall s':>7} {'calls':>5} {'seq s':>6} {'wall/seq':>8} {'in flight':>9} "
          f"{'rounds':>6} {'critical s':>10} {'wall−critical':>13} {'slides':>6} {'events':>6}")
    for r in results:
        print(f"{r['concurrency']:>4} {r['wall']:7.2f} {r['calls']:>5} {r['sequential']:6.1f} "
              f"{r['wall'] / r['sequential']:8.3f} {r['max_in_flight']:>9} {r['rounds']:>6} {r['critical']:10.1f} "
              f"{r['wall'] - r['critical']:12.2f}s {r['slides']:>6} {r['events']:>6}")
    print("\nwhere wall − critical goes: send_message → first model request (head), answer → next request between"
          "\nsequential stages (gap), last answer → run finished (tail: pages → DSL → .pptx render → store → completion)")
    for r in results:
        print(f"  concurrency {r['concurrency']:>2}: head {r['head_ms']:6.1f} ms; gap median {r['gap_median_ms']:6.1f} ms,"
              f" max {r['gap_max_ms']:6.1f} ms; tail {r['tail_ms']:6.1f} ms")

    rows = [
        {"metric": f"12-slide run wall s, concurrency {r['concurrency']} (vs calls × {delay:g} s)",
         "value": f"{r['wall']:.2f}", "baseline": f"{r['sequential']:.1f}",
         "ratio": f"{r['wall'] / r['sequential']:.3f}"}
        for r in results
    ]
    rows += [
        {"metric": f"12-slide run wall s, concurrency {r['concurrency']} (vs critical path {r['rounds']} × {delay:g} s)",
         "value": f"{r['wall']:.2f}", "baseline": f"{r['critical']:.1f}", "ratio": f"{r['wall'] / r['critical']:.3f}"}
        for r in results if r["concurrency"] == max(x["concurrency"] for x in results)
    ]
    emit_summary("concurrent_slides", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", default="1,4,12", help="comma-separated LLM_CONCURRENCY values")
    parser.add_argument("--delay", type=float, default=2.0, help="seconds the fake takes per call")
    args = parser.parse_args()
    asyncio.run(main([int(c) for c in args.concurrency.split(",")], args.delay))
