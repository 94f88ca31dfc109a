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
from tests.support.fake_openai import FakeOpenAI
from tests.support.ppt_responder import SLIDES, Responder

SEQUENTIAL_STAGES = 4  # analyze, course config, outline, scripts ‖ theme; then the page pool
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

    rows = [
        {"metric": f"12-slide run wall s, concurrency {r['concurrency']} (vs calls × {delay:g} s)",
         "value": f"{r['wall']:.2f}", "baseline": f"{r['sequential']:.1f}",
         "ratio": f"{r['wall'] / r['sequential']:.3f}"}
        for r in results
    ]
    serial = next((r for r in results if r["concurrency"] == 1), None)
    if serial is not None:
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
