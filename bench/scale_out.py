"""Concurrent offline PPT runs on one worker and on two workers over PostgreSQL + Redis.

Starts a real PostgreSQL and Redis (tests/support/pg.py: Debian binaries, free loopback ports, temp
folders), then for each layout (1 worker, 2 workers, each an `ng serve` process with STORE=postgres,
CHECKPOINTER=postgres, SOCKETIO_REDIS_URL) sends --runs `chat:message`s at once, client i on worker
i mod W. Reports per layout: completions, lost events (stored in Postgres but never received by the
run's client), seq gaps in what a client received, p50/p99 event latency (receive time − the event's
`ts`, one clock), runs per minute (runs / wall from first send to last completion), and each
worker's peak RSS (VmHWM).

    .venv/bin/python bench/scale_out.py [--runs 20] [--workers 1,2]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the repo root on sys.path)
import psycopg
import socketio
from _common import emit_summary, percentile

from tests.support.pg import PostgresServer, RedisServer
from tests.support.server import ServerProcess

REQUEST = "做一个关于电路基础的5分钟PPT"


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def one_run(url: str, received: list[tuple[int, float, str]]) -> str | None:
    """Start a run from a client on `url`; record (seq, latency, event) until its completion."""
    client = socketio.AsyncClient(reconnection=False)
    done = asyncio.Event()
    seen: list[tuple[str, int, float, str]] = []  # the run's first events may arrive before its ack

    @client.on("*")
    async def record(event: str, data: dict) -> None:
        if isinstance(data, dict) and "seq" in data:
            seen.append((data["threadId"], data["seq"], time.time() - data["ts"], event))
            if event == "completion":
                done.set()

    await client.connect(url, transports=["websocket"], wait_timeout=30)
    try:
        ack = await client.call("chat:message", {"flow": "ppt", "text": REQUEST}, timeout=60)
        if not ack.get("ok"):
            return None
        await asyncio.wait_for(done.wait(), 600)
        received += [(seq, latency, event) for thread_id, seq, latency, event in seen if thread_id == ack["threadId"]]
        return ack["threadId"]
    finally:
        await client.disconnect()


async def layout(workers: int, runs: int, pg: PostgresServer, redis: RedisServer, tmp: Path) -> dict:
    db_url = await pg.new_database()
    env = {"STORE": "postgres", "CHECKPOINTER": "postgres", "POSTGRES_URL": db_url,
           "SOCKETIO_REDIS_URL": redis.url, "OFFICE_PREVIEW": "false", "RATE_LIMIT_PER_S": "1000"}
    servers = [ServerProcess(tmp / f"w{workers}", env={**env, "WORKER_ID": f"w{i}"}).start() for i in range(workers)]
    try:
        per_run: list[list[tuple[int, float, str]]] = [[] for _ in range(runs)]
        start = time.perf_counter()
        results = await asyncio.gather(
            *(one_run(servers[i % workers].url, per_run[i]) for i in range(runs)), return_exceptions=True
        )
        wall = time.perf_counter() - start
        rss = [peak_rss_mb(s.process.pid) for s in servers]
    finally:
        for server in servers:
            server.stop()
    threads = [r for r in results if isinstance(r, str)]
    async with await psycopg.AsyncConnection.connect(db_url) as conn:
        rows = await (await conn.execute(
            "SELECT thread_id, status, last_seq FROM threads WHERE thread_id = ANY(%s)", (threads,)
        )).fetchall()
    stored = {thread_id: (status, last_seq) for thread_id, status, last_seq in rows}
    lost = gaps = 0
    latencies: list[float] = []
    for thread_id, events in zip(results, per_run):
        if not isinstance(thread_id, str):
            continue
        seqs = sorted({seq for seq, _lat, _ev in events})
        # The client joined at its first event: anything stored but not received is lost.
        lost += stored[thread_id][1] - len(seqs)
        gaps += sum(1 for a, b in zip(seqs, seqs[1:]) if b != a + 1)
        latencies += [lat for _seq, lat, _ev in events]
    completed = sum(1 for status, _ in stored.values() if status == "done")
    return {
        "workers": workers, "runs": runs, "completed": completed, "lost": lost, "gaps": gaps,
        "p50_ms": percentile(latencies, 50) * 1000, "p99_ms": percentile(latencies, 99) * 1000,
        "runs_per_min": completed / wall * 60, "wall_s": wall, "events": len(latencies),
        "rss_mb": rss,
    }


async def main(runs: int, layouts: list[int]) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp_name:
        tmp = Path(tmp_name)
        pg, redis = PostgresServer().start(), RedisServer(tmp / "redis").start()
        try:
            results = [await layout(workers, runs, pg, redis, tmp) for workers in layouts]
        finally:
            redis.stop()
            pg.stop()
    print(f"{'workers':>7} {'runs':>5} {'done':>5} {'lost':>5} {'gaps':>5} {'p50 ms':>8} {'p99 ms':>8}"
          f" {'runs/min':>9} {'wall s':>7}  peak RSS MB per worker")
    for r in results:
        print(f"{r['workers']:>7} {r['runs']:>5} {r['completed']:>5} {r['lost']:>5} {r['gaps']:>5}"
              f" {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['runs_per_min']:>9.1f} {r['wall_s']:>7.1f}"
              f"  {', '.join(f'{m:.0f}' for m in r['rss_mb'])}")
    base = results[0]
    rows = []
    for r in results:
        rows += [
            {"metric": f"{r['workers']} worker(s): completed/lost/gaps", "value": f"{r['completed']}/{r['lost']}/{r['gaps']}",
             "baseline": f"{r['runs']} runs", "ratio": "-"},
            {"metric": f"{r['workers']} worker(s): runs/min", "value": f"{r['runs_per_min']:.1f}",
             "baseline": f"{base['runs_per_min']:.1f}", "ratio": f"{r['runs_per_min'] / base['runs_per_min']:.2f}"},
            {"metric": f"{r['workers']} worker(s): event p99 ms", "value": f"{r['p99_ms']:.0f}",
             "baseline": f"{base['p99_ms']:.0f}", "ratio": f"{r['p99_ms'] / base['p99_ms']:.2f}"},
        ]
    emit_summary("scale_out", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workers", default="1,2", help="layouts to run, e.g. 1,2")
    args = parser.parse_args()
    asyncio.run(main(args.runs, [int(w) for w in args.workers.split(",")]))
