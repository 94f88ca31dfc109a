"""Runs per minute at 1/10/50/100 concurrent offline PPT runs, with the CPU used per core.

Each level starts that many `ppt` runs at once through FlowRuntime (offline model, no latency) and
waits for all of them; runs/min = runs / wall. CPU per core is user+system time over wall × cores:
this process, its finished children (resource.getrusage, e.g. LibreOffice) and, with
--render-processes, the live render workers (/proc). The baseline is the single-run level of the
same invocation: a ratio above 1 means concurrency helps. Every run must end `done`; a lost run is
reported. The quick default stops at 10; --full goes to 100.

    .venv/bin/python bench/throughput.py [--full] [--levels 1,10] [--render-processes 0]
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
from graphs.ppt import render_pool

REQUEST = "做一个关于电路基础的5分钟PPT"


def cpu_seconds() -> float:
    # Children too: the LibreOffice preview runs as a subprocess; render workers are alive, read from /proc.
    finished = sum(u.ru_utime + u.ru_stime for u in map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))
    return finished + sum(_proc_cpu(pid) for pool in render_pool._pools.values() for pid in pool._processes)


def _proc_cpu(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


async def one_level(runs: int, tmp: Path, render_processes: int) -> dict:
    settings = Settings(data_dir=tmp / f"r{runs}", llm_provider="offline", search_url=None,
                        render_processes=render_processes, _env_file=None)
    async with open_runtime(settings) as runtime:
        threads = [uuid.uuid4().hex for _ in range(runs)]
        cpu, start = cpu_seconds(), time.perf_counter()
        await asyncio.gather(*(run_to_end(runtime, flow="ppt", text=REQUEST, thread_id=t) for t in threads))
        wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        statuses = [(await runtime.store.get_thread(t))["status"] for t in threads]
    return {"runs": runs, "wall": wall, "per_min": runs / wall * 60, "cores": cpu / wall,
            "cpu_per_core": cpu / wall / (os.cpu_count() or 1), "lost": sum(s != "done" for s in statuses)}


async def main(levels: list[int], render_processes: int) -> None:
    results = []
    if render_processes:
        render_pool.warm(render_processes)  # a server's pool is warm after its first decks
    print(f"offline PPT runs, QA gate on {f'a warm pool of {render_processes} processes' if render_processes else 'threads'}")
    with tempfile.TemporaryDirectory() as tmp:
        for runs in levels:
            r = await one_level(runs, Path(tmp), render_processes)
            results.append(r)
            print(f"  {runs:>3} concurrent runs: {r['wall']:6.2f} s, {r['per_min']:6.1f} runs/min, "
                  f"{r['cores']:.2f} of {os.cpu_count()} cores, {r['lost']} lost", flush=True)
    base = results[0]
    gate_on = f"gate on {render_processes} processes" if render_processes else "gate on threads"
    emit_summary("throughput", [
        {"metric": f"runs/min at {r['runs']} concurrent (vs {base['runs']}), {gate_on}; CPU {r['cpu_per_core']:.0%}/core; lost {r['lost']}",
         "value": f"{r['per_min']:.1f}", "baseline": f"{base['per_min']:.1f}", "ratio": f"{r['per_min'] / base['per_min']:.2f}"}
        for r in results
    ])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="1,10", help="comma-separated numbers of concurrent runs")
    parser.add_argument("--full", action="store_true", help="levels 1,10,50,100")
    parser.add_argument("--render-processes", type=int, default=0, help="RENDER_PROCESSES (0: the QA gate on threads)")
    args = parser.parse_args()
    levels = [1, 10, 50, 100] if args.full else [int(n) for n in args.levels.split(",")]
    asyncio.run(main(levels, args.render_processes))
