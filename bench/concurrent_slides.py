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
(4 sequential calls — analyze, course config, outline, then scripts beside the theme — plus
ceil(12 / concurrency) rounds of the page pool, × delay) with the time left over, and each run's
ratio against the concurrency-1 run of the same invocation (the issue's P4 goal: ≤ 0.4× at the default).

From the stored events' timestamps it also prints, for concurrency 1 and the default LLM_CONCURRENCY, the
critical path the run took (each stage's start, end and wait, following the graph's own edges; the page
pool in rounds) and two ratios against concurrency 1: to the deck (the .pptx artifact published by the QA
gate) and to completion (after the LibreOffice preview, when OFFICE_PREVIEW is on and soffice installed).

    .venv/bin/python bench/concurrent_slides.py [--concurrency 1,4,12] [--delay 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, median, run_to_end

from app.services import open_runtime
from core.settings import Settings
from graphs.ppt.graph import build_graph
from tests.support.fake_openai import FakeOpenAI
from tests.support.ppt_responder import SLIDES, Responder

SEQUENTIAL_STAGES = 4  # analyze, course config, outline, scripts ‖ theme; then the page pool
DEFAULT_CONCURRENCY = Settings.model_fields["llm_concurrency"].default
REQUEST = "Make a 10 minute presentation about photosynthesis for high school students"


async def one_run(fake: FakeOpenAI, responder: Responder, concurrency: int, delay: float, tmp: Path) -> dict[str, Any]:
    settings = Settings(
        data_dir=tmp / f"c{concurrency}", llm_provider="openai", llm_base_url=fake.base_url, llm_api_key="x",
        llm_concurrency=concurrency, llm_validation_retries=0, search_url=None, _env_file=None,
    )
    async with open_runtime(settings) as runtime:
        requests_before, responder.calls = len(fake.requests), []
        fake.max_in_flight = 0
        thread_id = uuid.uuid4().hex
        start, start_ts = time.perf_counter(), time.time()
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
    timeline = timeline_of(events, start_ts)
    return {
        "concurrency": concurrency, "wall": wall, "timeline": timeline,
        "deck_ready": timeline["deck_ready"], "completed": timeline["completion"], "calls": calls, "sequential": calls * delay,
        "rounds": rounds, "critical": rounds * delay, "max_in_flight": fake.max_in_flight, "slides": slides,
        "events": len(events), "gap_median_ms": median(gaps) * 1000, "gap_max_ms": max(gaps) * 1000,
        "head_ms": (answered[0] - delay - start) * 1000,
        "tail_ms": (wall - (answered[-1] - start)) * 1000,
    }


def timeline_of(events: list[tuple[str, dict[str, Any]]], start_ts: float) -> dict[str, Any]:
    """When each stage ran and each page was written, in seconds from send_message, read from the
    events' own timestamps (`ts`: when the runtime stored them)."""
    stages: dict[str, list[float]] = {}
    names: dict[str, str] = {}
    pages: dict[int, list[float]] = {}
    deck_ready = completion = None
    for name, data in events:
        at = data["ts"] - start_ts
        if name == "tool:start":
            names[data["toolCallId"]] = data["toolName"]
            stages[data["toolName"]] = [at, at]
        elif name == "tool:update" and data["toolCallId"] in names and data["status"] == "done":
            stages[names[data["toolCallId"]]][1] = at
        elif name == "progress" and data.get("status") == "generating_slide":
            pages[data["current"]] = [at, at]
        elif name == "tool:artifact" and data["artifact"]["type"] == "slide_preview":
            pages[data["artifact"]["content"]["index"]][1] = at
        elif name == "tool:artifact" and data["artifact"]["type"] == "pptx":
            deck_ready = at
        elif name == "completion":
            completion = at
    return {"stages": stages, "pages": pages, "deck_ready": deck_ready, "completion": completion}


def predecessors() -> dict[str, list[str]]:
    """Each PPT node's predecessors in the graph as built (so the path follows the graph's edges)."""
    before: dict[str, list[str]] = {}
    for a, b in build_graph().edges:
        before.setdefault(b, []).append(a)
    return before


def critical_path(timeline: dict[str, Any]) -> list[str]:
    """From the last stage back: at each stage, the predecessor that finished last is what it waited for."""
    stages, before = timeline["stages"], predecessors()
    path = [max(stages, key=lambda n: stages[n][1])]
    while True:
        ran = [p for p in before.get(path[-1], []) if p in stages]
        if not ran:
            return path[::-1]
        path.append(max(ran, key=lambda n: stages[n][1]))


def print_critical_path(r: dict[str, Any], delay: float) -> None:
    timeline, stages, pages = r["timeline"], r["timeline"]["stages"], r["timeline"]["pages"]
    print(f"\ncritical path, concurrency {r['concurrency']} (seconds from send_message; model {delay:g} s a call):")
    print(f"  {'':<30} {'start':>6} {'end':>6} {'took':>6} {'waited':>6}")
    previous_end = 0.0
    for name in critical_path(timeline):
        begin, end = stages[name]
        print(f"  {name:<30} {begin:6.2f} {end:6.2f} {end - begin:6.2f} {begin - previous_end:6.2f}")
        if name == "generate_slides" and pages:
            # Pages in the order they started, in pool-sized rounds (a page starts when any other ends).
            ordered = sorted(pages, key=lambda i: pages[i][0])
            size = r["concurrency"]
            for n, at in enumerate(range(0, len(ordered), size), 1):
                group = ordered[at:at + size]
                first, last = min(pages[i][0] for i in group), max(pages[i][1] for i in group)
                label = f"page round {n} (pages {min(group)}–{max(group)})"
                print(f"    {label:<28} {first:6.2f} {last:6.2f} {last - first:6.2f}")
            last_page = max(end for _b, end in pages.values())
            print(f"    {'last page → DSL ready':<28} {last_page:6.2f} {end:6.2f} {end - last_page:6.2f}")
        previous_end = end
    print(f"  {'.pptx published (deck ready)':<30} {'':>6} {timeline['deck_ready']:6.2f}")
    print(f"  {'completion':<30} {'':>6} {timeline['completion']:6.2f}")


async def main(concurrencies: list[int], delay: float) -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    responder = Responder()
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-slides-") as tmp:
        async with FakeOpenAI(responder=responder, delay_s=0) as fake:
            # One unmeasured run first: the first render, QA check and LibreOffice start in a process are
            # slower (imports, fonts, disk cache), and would otherwise all land on whichever run is first.
            await one_run(fake, responder, max(concurrencies), 0, Path(tmp) / "warm-up")
            fake.delay_s = delay
            for concurrency in concurrencies:
                result = await one_run(fake, responder, concurrency, delay, Path(tmp))
                results.append(result)
                print(f"  concurrency {concurrency:>2}: {result['wall']:6.2f} s wall, {result['calls']} calls", flush=True)

    print(f"\n12-slide PPT through FlowRuntime, OpenAI-compatible fake at {delay:g} s per call "
          f"(a pool of LLM_CONCURRENCY pages)\n")
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

    for r in results:
        if r["concurrency"] in (1, DEFAULT_CONCURRENCY):
            print_critical_path(r, delay)

    serial = next((r for r in results if r["concurrency"] == 1), None)
    if serial is not None:
        print("\nagainst concurrency 1 (P4 goal: ≤ 0.4 at the default), to the deck (.pptx published) and to completion:")
        for r in results:
            print(f"  concurrency {r['concurrency']:>2}{' (default)' if r['concurrency'] == DEFAULT_CONCURRENCY else '':<10}"
                  f" deck {r['deck_ready']:6.2f} s = {r['deck_ready'] / serial['deck_ready']:.3f}×;"
                  f" completion {r['completed']:6.2f} s = {r['completed'] / serial['completed']:.3f}×;"
                  f" completion − deck {r['completed'] - r['deck_ready']:5.2f} s")

    rows = [
        {"metric": f"12-slide run wall s, concurrency {r['concurrency']} (vs calls × {delay:g} s)",
         "value": f"{r['wall']:.2f}", "baseline": f"{r['sequential']:.1f}",
         "ratio": f"{r['wall'] / r['sequential']:.3f}"}
        for r in results
    ]
    if serial is not None:
        rows += [
            {"metric": f"12-slide deck ready s (.pptx published), concurrency {r['concurrency']} (vs concurrency 1)",
             "value": f"{r['deck_ready']:.2f}", "baseline": f"{serial['deck_ready']:.2f}",
             "ratio": f"{r['deck_ready'] / serial['deck_ready']:.3f}"}
            for r in results if r["concurrency"] > 1
        ]
        rows += [
            {"metric": f"12-slide run wall s, concurrency {r['concurrency']} (vs concurrency 1, goal ≤ 0.4)",
             "value": f"{r['wall']:.2f}", "baseline": f"{serial['wall']:.2f}", "ratio": f"{r['wall'] / serial['wall']:.3f}"}
            for r in results if r["concurrency"] > 1
        ]
    rows += [
        {"metric": f"12-slide run wall s, concurrency {r['concurrency']} (vs critical path {r['rounds']} × {delay:g} s)",
         "value": f"{r['wall']:.2f}", "baseline": f"{r['critical']:.1f}", "ratio": f"{r['wall'] / r['critical']:.3f}"}
        for r in results if r["concurrency"] == max(x["concurrency"] for x in results)
    ]
    emit_summary("concurrent_slides", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", default="1,4,6,12", help="comma-separated LLM_CONCURRENCY values")
    parser.add_argument("--delay", type=float, default=2.0, help="seconds the fake takes per call")
    args = parser.parse_args()
    asyncio.run(main([int(c) for c in args.concurrency.split(",")], args.delay))
