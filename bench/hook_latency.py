"""Hook → client over a live in-process server with Socket.IO clients connected, against raw Socket.IO.

A real server (create_app + aiohttp AppRunner on 127.0.0.1:0, SQLite store in a temp DATA_DIR) and
python-socketio AsyncClients (websocket transport) in the same process — one clock. Every hook
event travels hook → stream writer → FlowRuntime's event writer → EventLog (validation, SQLite
append + commit) → Socket.IO room emit → websocket → client.

P1 with a socket — per-node orchestration overhead when a client watches the run. The linear graph
of bench/orchestration_overhead.py (N hooked nodes, 6 events each) is run three ways, interleaved:
  bare      the plain graph, astream on the runtime's own checkpointer (no hooks, no runtime)
  runtime   FlowRuntime.send_message → end of run, nobody in the room
  socket    a connected client sends chat:message and waits for the run's `completion` event
  process   the same from a client in a process of its own (this script with --p1-client), as a
            browser would be: its reading no longer shares the server's event loop
  deflate   the same, the client negotiating permessage-deflate as browsers do (every frame compressed)
Figures are median run time / N.

P2 — one-way latency of `progress` events (each carries time.perf_counter_ns()) at R concurrent runs
(one client per run, each run emitting --rate events/s), against, on the same server and clients:
  round trip   each client emits `bench:ping` at the same rate, a handler answers `bench:pong` (RTT)
  server push  a server task per client emits `bench:pushed` at the same rate, no runtime (one-way)

Also a burst (K events back to back, one run): throughput of the hook path against raw pushes.

    .venv/bin/python bench/hook_latency.py                   # quick: R=1,50 for 2 s each, 10 P1 runs
    .venv/bin/python bench/hook_latency.py --full            # the issue's sizes: 10 s per level, 30 P1 runs
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, TypedDict

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, percentile, run_to_end
from orchestration_overhead import bare_node, bench_flow, linear_graph, run_stream

import socketio
from aiohttp import web
from langgraph.graph import END, START, StateGraph

import app.server
import app.services
from core.settings import Settings
from graphs.base import FlowContext, FlowDefinition
from graphs.hooks import NodeContext, node

FLOW = "bench_latency"
N_NODES = 6
P1_FLOW = f"bench{N_NODES}"
SKIP = 3  # first events of each run/client: connection and run start-up, not the steady state


@node("emit_progress")
async def emit_progress(state: dict[str, Any], ctx: NodeContext) -> dict[str, Any]:
    k, pace = int(ctx.options["k"]), float(ctx.options["pace_ms"]) / 1000
    for i in range(1, k + 1):
        ctx.progress(i, k, str(time.perf_counter_ns()))
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


LATENCY_FLOW = FlowDefinition(
    name=FLOW,
    title="latency bench",
    description="emits K progress events",
    build_graph=build_graph,
    initial_input=lambda text, options: {"request": text},
)


class Server:
    """The app's own create_app with the bench flows registered and two raw Socket.IO handlers added."""

    def __init__(self, data_dir: Path) -> None:
        self.settings = Settings(data_dir=data_dir, llm_provider="offline", _env_file=None, rate_limit_per_s=1000,
                                 rate_limit_burst=1000)
        self.sio: socketio.AsyncServer | None = None
        self.application: web.Application | None = None
        self.runner: web.AppRunner | None = None
        self.url = ""

    @property
    def runtime(self):
        return self.application[app.server.RUNTIME_KEY]

    async def __aenter__(self) -> Server:
        app.services.load_flows = lambda: {FLOW: LATENCY_FLOW, P1_FLOW: bench_flow(N_NODES)}
        self.application = app.server.create_app(self.settings)
        sio = self.sio = self.application[app.server.SOCKETIO_KEY]

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

        self.runner = web.AppRunner(self.application, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


class Client:
    def __init__(self, deflate: bool = False) -> None:
        # Browsers ask for permessage-deflate and aiohttp grants it: each frame is then compressed with zlib.
        self.sio = socketio.AsyncClient(reconnection=False, websocket_extra_options={"compress": 15} if deflate else {})
        self.samples: dict[str, list[int]] = {"progress": [], "pong": [], "pushed": []}
        self.done = asyncio.Event()
        self.expected = 0
        self.pong = asyncio.Event()
        self.completions: dict[str, asyncio.Event] = {}

        @self.sio.on("progress")
        async def on_progress(data: dict[str, Any]) -> None:
            self.samples["progress"].append(time.perf_counter_ns() - int(data["message"]))
            self._count()

        @self.sio.on("completion")
        async def on_completion(data: dict[str, Any]) -> None:
            self.completion(data["threadId"]).set()

        @self.sio.on("bench:pong")
        async def on_pong(data: dict[str, Any]) -> None:
            self.samples["pong"].append(time.perf_counter_ns() - data["t"])
            self.pong.set()

        @self.sio.on("bench:pushed")
        async def on_pushed(data: dict[str, Any]) -> None:
            self.samples["pushed"].append(time.perf_counter_ns() - data["t"])
            self._count()

    def completion(self, thread_id: str) -> asyncio.Event:
        return self.completions.setdefault(thread_id, asyncio.Event())

    def _count(self) -> None:
        self.expected -= 1
        if self.expected <= 0:
            self.done.set()

    def expect(self, n: int) -> None:
        self.expected, self.done = n, asyncio.Event()

    async def connect(self, url: str) -> Client:
        await self.sio.connect(url, transports=["websocket"], wait_timeout=10)
        return self

    async def start(self, flow: str, options: dict[str, Any]) -> str:
        ack = await self.sio.call("chat:message", {"flow": flow, "text": "go", "options": options}, timeout=60)
        assert ack["ok"], ack
        return ack["threadId"]


async def hook_run(client: Client, k: int, pace_ms: float) -> tuple[list[int], float]:
    client.samples["progress"] = []
    client.expect(k)
    start = time.perf_counter()
    thread_id = await client.start(FLOW, {"k": k, "pace_ms": pace_ms})
    await asyncio.wait_for(client.done.wait(), timeout=300)
    elapsed = time.perf_counter() - start
    await asyncio.wait_for(client.completion(thread_id).wait(), timeout=60)  # the run ends before the next one
    return client.samples["progress"], elapsed


async def push_run(client: Client, k: int, pace_ms: float) -> tuple[list[int], float]:
    client.samples["pushed"] = []
    client.expect(k)
    start = time.perf_counter()
    await client.sio.emit("bench:push", {"k": k, "pace_ms": pace_ms})
    await asyncio.wait_for(client.done.wait(), timeout=300)
    return client.samples["pushed"], time.perf_counter() - start


async def ping_run(client: Client, k: int, pace_ms: float) -> list[int]:
    client.samples["pong"] = []
    for _ in range(k):
        client.pong.clear()
        await client.sio.emit("bench:ping", {"t": time.perf_counter_ns()})
        await asyncio.wait_for(client.pong.wait(), timeout=30)
        await asyncio.sleep(pace_ms / 1000)
    return client.samples["pong"]


def ms_stats(samples_ns: list[int]) -> tuple[float, float]:
    values = [s / 1e6 for s in samples_ns]
    return percentile(values, 50), percentile(values, 99)


async def p1_client(url: str, deflate: bool) -> None:
    """--p1-client: a watching client in its own process. Each line on stdin starts a run; it prints the seconds to `completion`."""
    client = await Client(deflate).connect(url)
    loop = asyncio.get_running_loop()
    lines = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(lines), sys.stdin)
    print("ready", flush=True)
    while await lines.readline():
        start = time.perf_counter()
        thread_id = await client.start(P1_FLOW, {})
        await asyncio.wait_for(client.completion(thread_id).wait(), timeout=60)
        print(time.perf_counter() - start, flush=True)
    await client.sio.disconnect()


async def p1_socket(server: Server, client: Client, runs: int) -> dict[str, float]:
    """Median ms per node of the bare graph, the runtime alone, and the runtime watched over a socket (in and out of process)."""
    runtime = server.runtime
    bare = linear_graph(N_NODES, lambda k: bare_node).compile(checkpointer=runtime.graphs[P1_FLOW].checkpointer)
    others = {
        kind: await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--p1-client", server.url, *extra,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )
        for kind, extra in (("process", ()), ("deflate", ("--deflate",)))
    }
    for other in others.values():
        assert (await other.stdout.readline()).strip() == b"ready"

    async def run_in_other_process(kind: str) -> float:
        others[kind].stdin.write(b"run\n")
        await others[kind].stdin.drain()
        return float(await others[kind].stdout.readline())

    times: dict[str, list[float]] = {"bare": [], "runtime": [], "socket": [], "process": [], "deflate": []}
    try:
        await interleave(runtime, bare, client, run_in_other_process, runs, times)
    finally:
        for other in others.values():
            other.stdin.close()
            await other.wait()
    return {kind: statistics.median(values) * 1000 / N_NODES for kind, values in times.items()}


async def interleave(runtime, bare, client: Client, run_in_other_process, runs: int, times: dict[str, list[float]]) -> None:
    for i in range(runs + 2):  # interleaved, the first two dropped (warm-up)
        t_bare = await run_stream(bare, None)
        start = time.perf_counter()
        await run_to_end(runtime, flow=P1_FLOW, text="bench", thread_id=uuid.uuid4().hex)
        t_runtime = time.perf_counter() - start
        start = time.perf_counter()
        thread_id = await client.start(P1_FLOW, {})
        await asyncio.wait_for(client.completion(thread_id).wait(), timeout=60)
        t_socket = time.perf_counter() - start
        t_process = await run_in_other_process("process")
        t_deflate = await run_in_other_process("deflate")
        if i >= 2:
            times["bare"].append(t_bare)
            times["runtime"].append(t_runtime)
            times["socket"].append(t_socket)
            times["process"].append(t_process)
            times["deflate"].append(t_deflate)


async def p2_level(clients: list[Client], k: int, pace_ms: float) -> dict[str, tuple[float, float]]:
    """R runs at once (one per client), then R raw pushers, then R pingers, each at the same rate."""
    hooks = await asyncio.gather(*(hook_run(c, k, pace_ms) for c in clients))
    pushes = await asyncio.gather(*(push_run(c, k, pace_ms) for c in clients))
    pings = await asyncio.gather(*(ping_run(c, k, pace_ms) for c in clients))
    return {
        "hook": ms_stats([s for samples, _ in hooks for s in samples[SKIP:]]),
        "push": ms_stats([s for samples, _ in pushes for s in samples[SKIP:]]),
        "rtt": ms_stats([s for samples in pings for s in samples[SKIP:]]),
    }


async def main(levels: list[int], seconds: float, rate: float, p1_runs: int, burst: int) -> None:
    logging.getLogger("aiohttp").setLevel(logging.WARNING)
    pace_ms = 1000 / rate
    k = max(SKIP + 5, round(seconds * rate))
    p2: dict[int, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        async with Server(Path(tmp) / "data") as server:
            clients = [await Client().connect(server.url) for _ in range(max(levels))]
            try:
                await hook_run(clients[0], 20, 1)  # warm-up: imports, first thread, first commit
                await push_run(clients[0], 20, 1)
                p1 = await p1_socket(server, clients[0], p1_runs)
                for level in levels:
                    p2[level] = await p2_level(clients[:level], k, pace_ms)
                push_burst, push_burst_s = await push_run(clients[0], burst, 0)
                hook_burst, hook_burst_s = await hook_run(clients[0], burst, 0)
            finally:
                for client in clients:
                    with contextlib.suppress(Exception):
                        await client.sio.disconnect()

    print(f"P1 with a socket: linear graph of {N_NODES} hooked nodes (6 events each), median of {p1_runs} runs, ms per node")
    print(f"  bare graph (runtime's checkpointer)   {p1['bare']:7.3f}")
    print(f"  runtime, nobody watching              {p1['runtime']:7.3f}   {p1['runtime'] / p1['bare']:.2f}× bare")
    print(f"  runtime, a client watching            {p1['socket']:7.3f}   {p1['socket'] / p1['bare']:.2f}× bare")
    print(f"  the same, client in its own process   {p1['process']:7.3f}   {p1['process'] / p1['bare']:.2f}× bare")
    print(f"  the same, permessage-deflate          {p1['deflate']:7.3f}   {p1['deflate'] / p1['bare']:.2f}× bare")
    print(f"\nP2: one-way latency at R concurrent runs, {rate:g} events/s each, {k} events per run "
          f"(first {SKIP} of each dropped), one client per run")
    print(f"{'R':>3} {'':28} {'p50 ms':>8} {'p99 ms':>8}")
    for level, rows in p2.items():
        for label, name in (("raw round trip (ping→pong)", "rtt"), ("raw server push (one-way)", "push"),
                            ("hook → client (one-way)", "hook")):
            p50, p99 = rows[name]
            print(f"{level:>3} {label:28} {p50:8.3f} {p99:8.3f}")
        print(f"{'':3} hook p99 = {rows['hook'][1] / rows['push'][1]:.2f}× raw push, "
              f"{rows['hook'][1] / rows['rtt'][1]:.2f}× raw round trip")
    hb50, hb99 = ms_stats(hook_burst[SKIP:])
    print(f"\nburst of {burst}: hook path {burst / hook_burst_s:,.0f} events/s (run incl. start/finish), "
          f"raw push {burst / push_burst_s:,.0f} events/s; burst p99 hook {hb99:.1f} ms = time to drain the queue")

    rows = [
        {"metric": f"P1 ms/node N={N_NODES}, client watching (vs bare graph)", "value": f"{p1['socket']:.2f}",
         "baseline": f"{p1['bare']:.2f}", "ratio": f"{p1['socket'] / p1['bare']:.2f}x"},
        {"metric": f"P1 ms/node N={N_NODES}, client in its own process (vs bare graph)", "value": f"{p1['process']:.2f}",
         "baseline": f"{p1['bare']:.2f}", "ratio": f"{p1['process'] / p1['bare']:.2f}x"},
        {"metric": f"P1 ms/node N={N_NODES}, own process, permessage-deflate (vs bare graph)",
         "value": f"{p1['deflate']:.2f}", "baseline": f"{p1['bare']:.2f}", "ratio": f"{p1['deflate'] / p1['bare']:.2f}x"},
        {"metric": f"P1 ms/node N={N_NODES}, nobody watching (vs bare graph)", "value": f"{p1['runtime']:.2f}",
         "baseline": f"{p1['bare']:.2f}", "ratio": f"{p1['runtime'] / p1['bare']:.2f}x"},
    ]
    for level, result in p2.items():
        hook99 = result["hook"][1]
        rows.append({"metric": f"P2 hook→client p99 ms, R={level} (vs raw one-way push)", "value": f"{hook99:.2f}",
                     "baseline": f"{result['push'][1]:.2f}", "ratio": f"{hook99 / result['push'][1]:.2f}x"})
        rows.append({"metric": f"P2 hook→client p99 ms, R={level} (vs raw round trip)", "value": f"{hook99:.2f}",
                     "baseline": f"{result['rtt'][1]:.2f}", "ratio": f"{hook99 / result['rtt'][1]:.2f}x"})
    rows.append({"metric": "burst events/s (hook vs raw push)", "value": f"{burst / hook_burst_s:,.0f}",
                 "baseline": f"{burst / push_burst_s:,.0f}",
                 "ratio": f"{(burst / hook_burst_s) / (burst / push_burst_s):.2f}x"})
    emit_summary("hook_latency", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="the issue's sizes: 10 s per level, 30 P1 runs, burst 1000")
    parser.add_argument("--levels", default="1,50", help="concurrent runs for P2, comma-separated")
    parser.add_argument("--seconds", type=float, default=None, help="length of each P2 measurement")
    parser.add_argument("--rate", type=float, default=10.0, help="events per second per run (P2)")
    parser.add_argument("--p1-runs", type=int, default=None, help="runs of each kind for P1")
    parser.add_argument("--burst", type=int, default=None, help="events of the burst run")
    parser.add_argument("--p1-client", metavar="URL", help=argparse.SUPPRESS)  # P1's out-of-process client
    parser.add_argument("--deflate", action="store_true", help=argparse.SUPPRESS)  # ... asking for permessage-deflate
    args = parser.parse_args()
    if args.p1_client:
        asyncio.run(p1_client(args.p1_client, args.deflate))
        sys.exit(0)
    asyncio.run(main(
        [int(level) for level in args.levels.split(",") if level],
        args.seconds or (10.0 if args.full else 2.0),
        args.rate,
        args.p1_runs or (30 if args.full else 10),
        args.burst or (1000 if args.full else 200),
    ))
