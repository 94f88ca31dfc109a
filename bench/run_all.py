"""Run every benchmark (each in its own process) and print a compact summary table at the end.

    .venv/bin/python bench/run_all.py            # quick: smaller samples and a 0.5 s model delay
    .venv/bin/python bench/run_all.py --full     # the issue's sizes (2 s model, 100k-event replay): several minutes
    .venv/bin/python bench/run_all.py --only pptx_render,hook_latency

Each script prints its detailed figures (shown as they come) and one `BENCH-SUMMARY {json}` line,
which this runner collects. Nothing is asserted; a script that fails is reported in the table.
The whole output is also written to bench/results/last_run.txt (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SUMMARY_PREFIX = "BENCH-SUMMARY "

BENCHES = {
    "orchestration_overhead": ([], ["--runs", "10"]),
    "hook_latency": (["--full"], []),
    "pptx_render": ([], ["--runs", "8"]),
    "concurrent_slides": ([], ["--delay", "0.5"]),
    "non_reading_clients": ([], ["--clients", "10", "--thread-mb", "2"]),
    "novel_memory": ([], ["--sizes", "200", "--repeats", "1"]),
    "legal_classifier": ([], ["--searches", "10"]),
    # Needs Debian postgresql + redis-server and the scale extra; 100 runs: `bench/scale_out.py --runs 100`.
    "scale_out": ([], ["--runs", "10"]),
    "throughput": (["--full"], []),
    "render_pool": (["--rounds", "5"], ["--levels", "10", "--rounds", "2"]),
    "replay": (["--sizes", "1000,10000,100000"], ["--sizes", "1000,10000"]),
}


LOG: list[str] = []


def say(text: str = "", end: str = "\n") -> None:
    print(text, end=end, flush=True)
    LOG.append(text + end)


def run(name: str, args: list[str]) -> tuple[dict | None, float, int]:
    command = [sys.executable, str(HERE / f"{name}.py"), *args]
    say(f"\n=== {name} {' '.join(args)}".rstrip())
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    summary = None
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith(SUMMARY_PREFIX):
            summary = json.loads(line[len(SUMMARY_PREFIX):])
        else:
            say(line, end="")
    code = process.wait()
    return summary, time.perf_counter() - start, code


def table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append(" | ".join(cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]) for i, cell in enumerate(row)))
        if n == 0:
            lines.append("-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="the issue's sizes (slow); the default is quick")
    parser.add_argument("--only", default="", help="comma-separated subset of: " + ", ".join(BENCHES))
    options = parser.parse_args()
    chosen = [n for n in options.only.split(",") if n] or list(BENCHES)
    unknown = set(chosen) - set(BENCHES)
    if unknown:
        parser.error(f"unknown bench(es): {', '.join(sorted(unknown))}")

    rows = [["bench", "metric", "value", "baseline", "ratio"]]
    durations = []
    failed = False
    total_start = time.perf_counter()
    for name in chosen:
        full_args, quick_args = BENCHES[name]
        summary, seconds, code = run(name, full_args if options.full else quick_args)
        durations.append(f"{name} {seconds:.1f} s")
        if code != 0 or summary is None:
            failed = True
            rows.append([name, f"FAILED (exit {code})", "-", "-", "-"])
            continue
        for row in summary["rows"]:
            rows.append([name, row["metric"], row["value"], row["baseline"], row["ratio"]])

    say("\n=== summary" + ("" if options.full else " (quick; --full for the issue's sizes)"))
    say(table(rows))
    say(f"\ntimes: {', '.join(durations)}; total {time.perf_counter() - total_start:.1f} s")
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    (results / "last_run.txt").write_text("".join(LOG), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
