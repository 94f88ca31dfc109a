"""Runs per minute at 1/10/50 concurrent offline PPT runs, with the CPU the process used per core.

Each level starts that many `ppt` runs at once through FlowRuntime (offline model, no latency) and
waits for all of them; runs/min = runs / wall. CPU per core is the process's user+system time over
wall × cores (resource.getrusage of the process and its finished children, e.g. LibreOffice).
The baseline is the single-run level of the same invocation: a ratio above 1 means concurrency helps.
Every run must end `done`; a lost run is reported.

    .venv/bin/python bench/throughput.py [--levels 1,10,50]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time
import uuid
from pathlib import Path

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, run_to_end

from app.services import open_runtime
from core.settings import Settings

REQUEST = "做一个关于电路基础的5分钟PPT"


def cpu_seconds() -> float:
    # Children too: the LibreOffice preview runs as a subprocess.
    return sum(u.ru_utime + u.ru_stime for u in map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))


async def one_level(runs: int, tmp: Path) -> dict:
    settings = Settings(data_dir=tmp / f"r{runs}", llm_provider="offline", search_url=None, _env_file=None)
    async with open_runtime(settings) as runtime:
        threads = [uuid.uuid4().hex for _ in range(runs)]
        cpu, start = cpu_seconds(), time.perf_counter()
        await asyncio.gather(*(run_to_end(runtime, flow="ppt", text=REQUEST, thread_id=t) for t in threads))
        wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        statuses = [(await runtime.store.get_thread(t))["status"] for t in threads]
    return {"runs": runs, "wall": wall, "per_min": runs / wall * 60, "cores": cpu / wall,
            "cpu_per_core": cpu / wall / (os.cpu_count() or 1), "lost": sum(s != "done" for s in statuses)}


async def main(levels: list[int]) -> None:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for runs in levels:
            r = await one_level(runs, Path(tmp))
            results.append(r)
            print(f"  {runs:>3} concurrent runs: {r['wall']:6.2f} s, {r['per_min']:6.1f} runs/min, "
                  f"{r['cores']:.2f} of {os.cpu_count()} cores, {r['lost']} lost", flush=True)
    base = results[0]
    emit_summary("throughput", [
        {"metric": f"runs/min at {r['runs']} concurrent (vs {base['runs']}); CPU {r['cpu_per_core']:.0%}/core; lost {r['lost']}",
         "value": f"{r['per_min']:.1f}", "baseline": f"{base['per_min']:.1f}", "ratio": f"{r['per_min'] / base['per_min']:.2f}"}
        for r in results
    ])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="1,10,50", help="comma-separated numbers of concurrent runs")
    args = parser.parse_args()
    asyncio.run(main([int(n) for n in args.levels.split(",")]))
