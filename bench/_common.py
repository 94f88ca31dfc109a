"""Shared helpers of the benchmarks: repo on sys.path, statistics, and the one-line summary run_all.py reads."""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SUMMARY_PREFIX = "BENCH-SUMMARY "


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def emit_summary(name: str, rows: list[dict]) -> None:
    """rows: [{"metric": str, "value": str, "baseline": str, "ratio": str}] — printed as one JSON line."""
    print(SUMMARY_PREFIX + json.dumps({"bench": name, "rows": rows}, ensure_ascii=False), flush=True)


async def run_to_end(runtime, *, flow: str, text: str, thread_id: str, options: dict | None = None) -> str:
    """Start a run on a new thread and return when its task has ended, final events stored.

    FlowRuntime.wait() returns when the thread is released, which _finish does *before* it
    publishes the last `status` and `completion` events; awaiting the run's task covers them.
    """
    run_id = await runtime.send_message(flow=flow, text=text, thread_id=thread_id, create=True, options=options)
    run = runtime.active.get(thread_id)
    if run is not None and run.task is not None:
        await run.task
    else:  # an older runtime without a task handle, or the run already ended
        await runtime.wait(thread_id)
    return run_id
