"""P3: replay of N stored events to a reconnecting Socket.IO client, with the server's peak RSS.

The server (create_app, offline model) runs in this process on a loopback port; events are written
straight through the store. A python-socketio client joins the thread and the time from `thread:join`
to its ack (all events received: the replay precedes the ack) is measured. The baseline in the same
run is raw python-socketio sending the same payloads, 500 per message, with no store behind it.
Peak RSS is read from /proc/self/status (VmHWM) after each size, so it is the process high-water mark.

    .venv/bin/python bench/replay.py [--sizes 1000,10000,100000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  puts the repo on sys.path
import socketio
from aiohttp import web

from _common import emit_summary
from app.runtime import new_thread_id
from app.server import REPLAY_BATCH, RUNTIME_KEY, create_app
from core.settings import Settings


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def serve(app: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"


async def receive_all(url: str, thread_id: str | None, expected: int) -> float:
    client = socketio.AsyncClient(reconnection=False)
    received = 0
    done = asyncio.Event()

    @client.on("thread:replay")
    async def on_batch(data):
        nonlocal received
        received += len(data["events"])
        if received >= expected:
            done.set()

    await client.connect(url, transports=["websocket"])
    start = time.perf_counter()
    if thread_id is not None:
        await client.call("thread:join", {"threadId": thread_id}, timeout=600)
    else:
        await client.emit("go")
    await asyncio.wait_for(done.wait(), 600)
    seconds = time.perf_counter() - start
    await client.disconnect()
    return seconds


async def raw_baseline(payloads: list[dict]) -> float:
    """python-socketio alone: the same payloads, REPLAY_BATCH per message."""
    sio = socketio.AsyncServer(async_mode="aiohttp")
    app = web.Application()
    sio.attach(app)

    @sio.on("go")
    async def go(sid, _data=None):
        for i in range(0, len(payloads), REPLAY_BATCH):
            batch = [{"event": "tool:log", "data": p} for p in payloads[i : i + REPLAY_BATCH]]
            await sio.emit("thread:replay", {"threadId": "t", "events": batch}, to=sid)

    runner, url = await serve(app)
    try:
        return await receive_all(url, None, len(payloads))
    finally:
        await runner.cleanup()


async def one_size(size: int, tmp: Path) -> dict:
    settings = Settings(data_dir=tmp / f"n{size}", llm_provider="offline", search_url=None, _env_file=None)
    app = create_app(settings)
    runner, url = await serve(app)
    try:
        runtime = app[RUNTIME_KEY]
        thread_id = new_thread_id()
        await runtime.store.create_thread(thread_id, "ppt", "bench", {})
        payloads = []
        for n in range(size):
            payloads.append(await runtime.store.append_event(
                thread_id, "run", "tool:log", {"toolCallId": "x", "level": "info", "message": f"第 {n} 行 line {n}"}))
        replay_s = await receive_all(url, thread_id, size)
        rss = peak_rss_mb()
    finally:
        await runner.cleanup()
    raw_s = await raw_baseline(payloads)
    return {"size": size, "replay": replay_s, "raw": raw_s, "rss": rss}


async def main(sizes: list[int]) -> None:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            r = await one_size(size, Path(tmp))
            results.append(r)
            print(f"  {size:>7} events: replay {r['replay']:.3f} s, raw python-socketio {r['raw']:.3f} s, "
                  f"peak RSS {r['rss']:.0f} MB", flush=True)
    emit_summary("replay", [
        {"metric": f"replay of {r['size']} events s (vs raw python-socketio, {REPLAY_BATCH}/message); peak RSS {r['rss']:.0f} MB",
         "value": f"{r['replay']:.3f}", "baseline": f"{r['raw']:.3f}", "ratio": f"{r['replay'] / r['raw']:.2f}"}
        for r in results
    ])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated event counts (the issue's full set: 1000,10000,100000)")
    args = parser.parse_args()
    asyncio.run(main([int(s) for s in args.sizes.split(",")]))
