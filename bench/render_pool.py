"""The QA gate (render + check) for N decks at once: on threads vs on a warm process pool, same run.

The 15-slide offline deck of bench/pptx_render.py goes through graphs.ppt.render_pool.gate_deck N
times concurrently, as N PPT runs reaching check_deck together would: `threads` is asyncio.to_thread
(the default), `pool` a ProcessPoolExecutor of --processes workers started and warmed before timing
(template built, glyph and icon caches filled by one deck each), the DSL sent as JSON. The two
alternate for --rounds; the median batch wall time is reported per deck, with the CPU the process
and its workers used (from /proc) per core. Ratio = pool / threads: below 1 the pool is faster.

    .venv/bin/python bench/render_pool.py [--levels 1,10] [--rounds 3] [--processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, median
from pptx_render import make_deck

from graphs.ppt import render_pool

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except OSError:
            continue
    return total / TICKS


async def batch(deck, n: int, processes: int, pids: list[int]) -> tuple[float, float]:
    cpu, start = cpu_seconds(pids), time.perf_counter()
    outcomes = await asyncio.gather(*(render_pool.gate_deck(deck, 13, processes) for _ in range(n)))
    wall = time.perf_counter() - start
    assert all(o.report.passed for o in outcomes)
    return wall, cpu_seconds(pids) - cpu


async def main(levels: list[int], rounds: int, processes: int) -> None:
    deck = await make_deck("zh")
    render_pool.warm(processes)
    pids = [os.getpid(), *render_pool.pool(processes)._processes]  # the workers, for their CPU time
    for variant in (0, processes):  # warm-up: this process's caches and every worker's
        await batch(deck, max(processes, 2), variant, pids)
    cores = os.cpu_count() or 1
    rows = []
    print(f"QA gate, 15-slide zh deck, N at once; threads vs a warm pool of {processes} processes, median of {rounds}\n")
    for n in levels:
        results: dict[str, list[tuple[float, float]]] = {"threads": [], "pool": []}
        for _ in range(rounds):
            results["threads"].append(await batch(deck, n, 0, pids))
            results["pool"].append(await batch(deck, n, processes, pids))
        summary = {}
        for name, values in results.items():
            wall = median([w for w, _ in values])
            cpu = median([c / w for w, c in values]) / cores
            summary[name] = wall
            print(f"  {n:>3} at once, {name:7}: {wall:6.2f} s/batch  {wall / n * 1000:7.1f} ms/deck  CPU {cpu:4.0%}/core")
        ratio = summary["pool"] / summary["threads"]
        print(f"  {n:>3} at once: pool / threads = {ratio:.2f}\n")
        rows.append({"metric": f"QA gate, {n} decks at once: warm pool of {processes} processes vs threads (s/batch)",
                     "value": f"{summary['pool']:.2f}", "baseline": f"{summary['threads']:.2f}", "ratio": f"{ratio:.2f}x"})
    render_pool.shutdown()
    emit_summary("render_pool", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="1,10", help="comma-separated numbers of decks gated at once")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main([int(n) for n in args.levels.split(",")], args.rounds, args.processes))
