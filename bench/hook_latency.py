"""Hook → client latency over a live in-process server, against raw Socket.IO on the same server.

A real server (create_app + aiohttp AppRunner on 127.0.0.1:0, SQLite store in a temp DATA_DIR)
runs a `bench_latency` flow whose one @node emits K `progress` events through NodeContext.progress,
each carrying time.perf_counter_ns() in its `message`. A python-socketio AsyncClient (websocket
transport) in the same process — same clock — records arrival times. Every event travels
hook → stream writer → FlowRuntime._forward → EventLog.publish (pydantic validation, SQLite
append + commit) → Socket.IO room emit → websocket → client.

Baselines on the same server and connection:
  round trip   client emits `bench:ping`, a server handler emits `bench:pong` straight back (RTT)
  server push  a server task emits `bench:push` to the client directly, no runtime (one-way)

Two load shapes: `paced` (one event every --pace-ms, so each is measured alone) and `burst`
(all K back to back, so later events queue behind the store: this is throughput-bound).

    .venv/bin/python bench/hook_latency.py [--k 500] [--pace-ms 5] [--repeats 2]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from pathlib import Path
from typing import Any, TypedDict

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, percentile

import socketio
from aiohttp import web
from langgraph.graph import END, START, StateGraph

import app.server
import app.services
from core.settings import Settings
from graphs.base import FlowContext, FlowDefinition
from graphs.hooks import NodeContext, node

FLOW = "bench_latency"
WARMUP_EVENTS = 20


@node("emit_progress")
async def emit_progress(state: dict[str, Any], ctx: NodeContext) -> dict[str, Any]:
    k, pace = int(ctx.options["k"]), float(ctx.options["pace_ms"]) / 1000
    for i in range(1, k + 1):
        ctx.progress(i, k, f"{time.perf_counter_ns()} {time.time():.6f}")
        if pace:
            await asyncio.sleep(pace)
        elif i % 50 == 0:
            await asyncio.sleep(0)  # a real node awaits something now and then
    return {}


class LatencyState(TypedDict, total=False):
    request: str


def build_graph() -> StateGraph:
    graph = StateGraph(LatencyState, context_schema=FlowContext)
    graph.add_node("emit_progress", emit_progress)
    graph.add_edge(START, "emit_progress")
    graph.add_edge("emit_progress", END)
    return graph


BENCH_FLOW = FlowDefinition(
    name=FLOW,
    title="latency bench",
    description="emits K progress events",
    build_graph=build_graph,
    initial_input=lambda text, options: {"request": text},
)


class Server:
    """The app's own create_app with the bench flow registered and two raw Socket.IO handlers added."""

    def __init__(self, data_dir: Path) -> None:
        self.settings = Settings(data_dir=data_dir, llm_provider="offline", _env_file=None)
        self.sio: socketio.AsyncServer | None = None
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def __aenter__(self) -> Server:
        original_attach = app.server.attach_socketio

        def attach_and_keep(application, settings):
            self.sio = original_attach(application, settings)
            return self.sio

        app.server.attach_socketio = attach_and_keep
        app.services.load_flows = lambda: {FLOW: BENCH_FLOW}
        try:
            application = app.server.create_app(self.settings)
        finally:
            app.server.attach_socketio = original_attach
        sio = self.sio

        @sio.on("bench:ping")
        async def ping(sid: str, data: Any) -> None:
            await sio.emit("bench:pong", data, to=sid)

        @sio.on("bench:push")
        async def push(sid: str, data: Any) -> None:
            k, pace = int(data["k"]), float(data["pace_ms"]) / 1000

            async def pusher() -> None:
                for i in range(1, k + 1):
                    await sio.emit("bench:pushed", {"i": i, "t": time.perf_counter_ns()}, to=sid)
                    if pace:
                        await asyncio.sleep(pace)
                    elif i % 50 == 0:
                        await asyncio.sleep(0)

            asyncio.get_running_loop().create_task(pusher())

        self.runner = web.AppRunner(application, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


class Client:
    def __init__(self) -> None:
        self.sio = socketio.AsyncClient(reconnection=False)
        self.samples: dict[str, list[int]] = {"progress": [], "pong": [], "pushed": []}
        self.stages: list[tuple[float, float]] = []  # (hook → envelope ts, ts → client) in s, wall clock
        self.done = asyncio.Event()
        self.expected = 0
        self.pong = asyncio.Event()
        self.completions: set[str] = set()
        self.completed = asyncio.Event()

        @self.sio.on("progress")
        async def on_progress(data: dict[str, Any]) -> None:
            now, wall = time.perf_counter_ns(), time.time()
            sent_ns, sent_wall = data["message"].split()
            self.samples["progress"].append(now - int(sent_ns))
            self.stages.append((data["ts"] - float(sent_wall), wall - data["ts"]))
            self._count()

        @self.sio.on("completion")
        async def on_completion(data: dict[str, Any]) -> None:
            self.completions.add(data["threadId"])
            self.completed.set()

        @self.sio.on("bench:pong")
        async def on_pong(data: dict[str, Any]) -> None:
            self.samples["pong"].append(time.perf_counter_ns() - data["t"])
            self.pong.set()

        @self.sio.on("bench:pushed")
        async def on_pushed(data: dict[str, Any]) -> None:
            self.samples["pushed"].append(time.perf_counter_ns() - data["t"])
            self._count()

    def _count(self) -> None:
        self.expected -= 1
        if self.expected <= 0:
            self.done.set()

    def expect(self, n: int) -> None:
        self.expected, self.done = n, asyncio.Event()

    async def connect(self, url: str) -> Client:
        await self.sio.connect(url, transports=["websocket"], wait_timeout=10)
        return self


async def hook_run(client: Client, k: int, pace_ms: float) -> tuple[list[int], list[tuple[float, float]], float]:
    client.samples["progress"], client.stages = [], []
    client.expect(k)
    start = time.perf_counter()
    ack = await client.sio.call("chat:message", {"flow": FLOW, "text": "go", "options": {"k": k, "pace_ms": pace_ms}})
    assert ack["ok"], ack
    await asyncio.wait_for(client.done.wait(), timeout=120)
    elapsed = time.perf_counter() - start
    while ack["threadId"] not in client.completions:  # let the run end before the next measurement
        client.completed.clear()
        await asyncio.wait_for(client.completed.wait(), timeout=30)
    return client.samples["progress"], client.stages, elapsed


async def push_run(client: Client, k: int, pace_ms: float) -> tuple[list[int], float]:
    client.samples["pushed"] = []
    client.expect(k)
    start = time.perf_counter()
    await client.sio.emit("bench:push", {"k": k, "pace_ms": pace_ms})
    await asyncio.wait_for(client.done.wait(), timeout=120)
    return client.samples["pushed"], time.perf_counter() - start


async def ping_run(client: Client, k: int, pace_ms: float) -> list[int]:
    client.samples["pong"] = []
    for _ in range(k):
        client.pong.clear()
        await client.sio.emit("bench:ping", {"t": time.perf_counter_ns()})
        await asyncio.wait_for(client.pong.wait(), timeout=10)
        if pace_ms:
            await asyncio.sleep(pace_ms / 1000)
    return client.samples["pong"]


def ms_stats(samples_ns: list[int]) -> tuple[float, float]:
    values = [s / 1e6 for s in samples_ns]
    return percentile(values, 50), percentile(values, 99)


async def main(k: int, pace_ms: float, repeats: int) -> None:
    logging.getLogger("aiohttp").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        async with Server(Path(tmp) / "data") as server:
            client = await Client().connect(server.url)
            try:
                await hook_run(client, 50, 1)  # warm-up: imports, first thread, first commit
                await ping_run(client, 50, 1)
                await push_run(client, 50, 1)

                # Paced runs interleaved and pooled over --repeats, so a noisy moment hits all three alike.
                rtt_paced, push_paced, hook_paced, stages = [], [], [], []
                for _ in range(repeats):
                    rtt_paced += (await ping_run(client, k, pace_ms))[WARMUP_EVENTS:]
                    push_paced += (await push_run(client, k, pace_ms))[0][WARMUP_EVENTS:]
                    hook_samples, hook_stages, _ = await hook_run(client, k, pace_ms)
                    hook_paced += hook_samples[WARMUP_EVENTS:]
                    stages += hook_stages[WARMUP_EVENTS:]
                push_burst, push_burst_s = await push_run(client, k, 0)
                hook_burst, _, hook_burst_s = await hook_run(client, k, 0)
                push_burst, hook_burst = push_burst[WARMUP_EVENTS:], hook_burst[WARMUP_EVENTS:]
            finally:
                await client.sio.disconnect()

    rows = {
        f"raw round trip (ping→pong), paced {pace_ms:g} ms": ms_stats(rtt_paced),
        f"raw server push (one-way), paced {pace_ms:g} ms": ms_stats(push_paced),
        f"hook → client (one-way), paced {pace_ms:g} ms": ms_stats(hook_paced),
        "raw server push, burst": ms_stats(push_burst),
        "hook → client, burst": ms_stats(hook_burst),
    }
    print(f"Hook → client latency, K={k} events per run (first {WARMUP_EVENTS} of each run dropped), paced runs pooled "
          f"over {repeats} repeats; python-socketio websocket, client and server in one process\n")
    print(f"{'':50} {'p50 ms':>9} {'p99 ms':>9}")
    for label, (p50, p99) in rows.items():
        print(f"{label:50} {p50:9.3f} {p99:9.3f}")

    rt50, rt99 = rows[f"raw round trip (ping→pong), paced {pace_ms:g} ms"]
    pu50, pu99 = rows[f"raw server push (one-way), paced {pace_ms:g} ms"]
    hk50, hk99 = rows[f"hook → client (one-way), paced {pace_ms:g} ms"]
    print(f"\npaced hook vs raw round trip:   p50 {hk50 / rt50:.2f}×   p99 {hk99 / rt99:.2f}×")
    print(f"paced hook vs raw server push:  p50 {hk50 / pu50:.2f}×   p99 {hk99 / pu99:.2f}×")
    to_store = [a * 1000 for a, _ in stages]
    to_client = [b * 1000 for _, b in stages]
    print("paced hook split at the envelope's `ts` (stamped inside Store.append_event, before INSERT/COMMIT):")
    print(f"  hook → ts (stream writer, _forward, validation, lock, SELECT last_seq)  p50 {percentile(to_store, 50):.3f} ms"
          f"  p99 {percentile(to_store, 99):.3f} ms")
    print(f"  ts → client (INSERT, UPDATE, COMMIT, room emit, websocket)             p50 {percentile(to_client, 50):.3f} ms"
          f"  p99 {percentile(to_client, 99):.3f} ms")
    hb50, hb99 = rows["hook → client, burst"]
    print(f"\nburst throughput: hook path {k / hook_burst_s:,.0f} events/s (run incl. start/finish), "
          f"raw push {k / push_burst_s:,.0f} events/s; burst p99 hook {hb99:.1f} ms = time to drain the queue")

    emit_summary(
        "hook_latency",
        [
            {"metric": "hook→client p50 ms (vs raw RTT)", "value": f"{hk50:.2f}", "baseline": f"{rt50:.2f}",
             "ratio": f"{hk50 / rt50:.2f}x"},
            {"metric": "hook→client p99 ms (vs raw RTT)", "value": f"{hk99:.2f}", "baseline": f"{rt99:.2f}",
             "ratio": f"{hk99 / rt99:.2f}x"},
            {"metric": "hook→client p50 ms (vs raw one-way push)", "value": f"{hk50:.2f}", "baseline": f"{pu50:.2f}",
             "ratio": f"{hk50 / pu50:.2f}x"},
            {"metric": "burst events/s (hook vs raw push)", "value": f"{k / hook_burst_s:,.0f}",
             "baseline": f"{k / push_burst_s:,.0f}", "ratio": f"{(k / hook_burst_s) / (k / push_burst_s):.2f}x"},
        ],
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--k", type=int, default=500, help="events per run")
    parser.add_argument("--pace-ms", type=float, default=5.0, help="gap between events in the paced runs")
    parser.add_argument("--repeats", type=int, default=2, help="paced runs of each kind, pooled")
    args = parser.parse_args()
    asyncio.run(main(args.k, args.pace_ms, args.repeats))
