"""Server memory with clients that join a large thread and then never read.

Ours: `ng serve` with the send cap (SEND_BUFFER_MAX_BYTES / SEND_STALL_S). Baseline, same run: the
same server with the cap set out of reach (what python-socketio does by itself: an unbounded queue
per client and a writer parked on a full socket). Prints RSS before, peak while N clients hang, and
after they are gone, for both; loopback only.

    .venv/bin/python bench/non_reading_clients.py --clients 20 --thread-mb 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import emit_summary  # noqa: E402
from app.eventlog import EventLog  # noqa: E402
from app.store import Store  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402
from tests.test_limits import raw_socketio_client, ws_text  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def big_thread(data_dir: Path, megabytes: int) -> str:
    store = await Store(data_dir / "agent_canvas.sqlite", data_dir / "files").open()
    try:
        await store.create_thread("big", "ppt", "big", {})
        events = EventLog(store)
        for _ in range(megabytes * 20):  # 20 events of ~51 KB (17k CJK characters) per MB
            await events.publish("big", "run", "tool:log", {"toolCallId": "x", "message": "字" * 17_000})
    finally:
        await store.close()
    return "big"


def hang_clients(port: int, thread_id: str, count: int) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        sock = raw_socketio_client(port)
        sock.recv(1024)
        sock.sendall(ws_text("40"))
        time.sleep(0.05)
        sock.sendall(ws_text("420" + json.dumps(["thread:join", {"threadId": thread_id}])))
        socks.append(sock)  # and never read again
    return socks


def measure(env: dict[str, str], clients: int, megabytes: int, hold_s: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp)
        thread_id = asyncio.run(big_thread(data_dir, megabytes))
        with ServerProcess(data_dir, env=env) as server:
            pid = server.process.pid
            before = rss_mb(pid)
            socks = hang_clients(server.port, thread_id, clients)
            peak, deadline = before, time.monotonic() + hold_s
            while time.monotonic() < deadline:
                peak = max(peak, rss_mb(pid))
                time.sleep(0.2)
            during_end = rss_mb(pid)
            for sock in socks:
                sock.close()
            time.sleep(2)
            after = rss_mb(pid)
    return {"before_mb": round(before), "peak_mb": round(peak), "held_mb": round(during_end), "after_close_mb": round(after)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--thread-mb", type=int, default=4)
    parser.add_argument("--hold-s", type=float, default=8.0)
    options = parser.parse_args()
    ours = measure({"SEND_STALL_S": "2"}, options.clients, options.thread_mb, options.hold_s)
    baseline = measure({"SEND_STALL_S": "100000", "SEND_BUFFER_MAX_BYTES": str(10**12)},
                       options.clients, options.thread_mb, options.hold_s)
    growth = lambda r: max(1, r["peak_mb"] - r["before_mb"])  # noqa: E731
    print(f"{options.clients} clients that never read, each joining a {options.thread_mb} MB thread")
    print(f"  ours (send cap):      {ours}")
    print(f"  baseline (no cap):    {baseline}")
    print(f"  peak growth ratio ours/baseline: {growth(ours) / growth(baseline):.2f}")
    emit_summary("non_reading_clients", [{
        "metric": f"server RSS growth, {options.clients} clients x {options.thread_mb} MB not reading (send cap vs none)",
        "value": f"{growth(ours)} MB", "baseline": f"{growth(baseline)} MB",
        "ratio": f"{growth(ours) / growth(baseline):.2f}x"}])
    return 0


if __name__ == "__main__":
    sys.exit(main())
