"""Per-node orchestration overhead: our hooks + FlowRuntime (event log, SQLite store) vs the bare graph.

The same N-node linear graph of trivial nodes is run three ways, interleaved, on fresh threads:

  bare     plain `async def node(state)`; graph.astream(..., durability="sync") on an AsyncSqliteSaver
  hooked   the nodes wrapped with @stage, each publishing one artifact + one log (6 events per
           node), streamed with graph.astream the same way and the chunks dropped: the hooks' own cost
  runtime  the hooked graph run by FlowRuntime (open_runtime with a `bench` flow): every chunk is
           validated, sequenced and committed to the SQLite event log, the artifact stored — no socket

All three stream with stream_mode=["custom", "updates"], subgraphs=True, durability="sync" (the
runtime's own arguments), so the only difference is the hooks and the runtime. Figures are the
median wall time of a run divided by N ("ms per node"); the fixed per-run cost (thread row, status
and completion events) is separated from the per-node slope by also running N=1 and N=12.

    .venv/bin/python bench/orchestration_overhead.py [--runs 30] [--ablation]

`--ablation` also times the runtime with parts of its event path switched off (a measurement only:
validation skipped, the node events' store write replaced by numbering them in memory), each
against the bare graph in the same loop: what is left when a part costs nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, TypedDict

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, median, run_to_end

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph

import app.eventlog
import app.services
from core.llm.offline import OfflineLLM
from app.services import open_runtime
from core.settings import Settings
from graphs.base import FlowContext, FlowDefinition
from graphs.hooks import NodeContext, stage
from schemas.events import ArtifactType

NODE_COUNTS = (1, 6, 12)
HEADLINE_N = 6
PARALLEL = (1, 2, 4, 8)
STREAM_ARGS = {"stream_mode": ["custom", "updates"], "subgraphs": True, "durability": "sync"}


class BenchState(TypedDict, total=False):
    i: int


async def bare_node(state: BenchState) -> dict[str, Any]:
    return {"i": state.get("i", 0) + 1}


def hooked_node(k: int):
    @stage(f"bench_node_{k}")
    async def node(state: BenchState, ctx: NodeContext) -> dict[str, Any]:
        artifact_id = ctx.artifact(
            key=f"node_{k}", type=ArtifactType.trace, title=f"Node {k}", content={"node": k, "i": state.get("i", 0)}
        )
        ctx.log(f"node {k} done", artifact_id=artifact_id)
        return {"i": state.get("i", 0) + 1}

    return node


def linear_graph(n: int, make_node) -> StateGraph:
    graph = StateGraph(BenchState, context_schema=FlowContext)
    names = [f"n{k}" for k in range(n)]
    for k, name in enumerate(names):
        graph.add_node(name, make_node(k))
    graph.add_edge(START, names[0])
    for before, after in zip(names, names[1:]):
        graph.add_edge(before, after)
    graph.add_edge(names[-1], END)
    return graph


def bench_flow(n: int) -> FlowDefinition:
    return FlowDefinition(
        name=f"bench{n}",
        title=f"bench {n} nodes",
        description="orchestration benchmark",
        build_graph=lambda: linear_graph(n, hooked_node),
        initial_input=lambda text, options: {"i": 0},
    )


async def run_stream(graph, context: FlowContext | None) -> float:
    config = {"configurable": {"thread_id": uuid.uuid4().hex}, "recursion_limit": 500}
    start = time.perf_counter()
    stream = graph.astream({"i": 0}, config, context=context, **STREAM_ARGS)
    async with contextlib.aclosing(stream):
        async for _chunk in stream:
            pass
    return time.perf_counter() - start


async def run_runtime(runtime, flow: str) -> tuple[float, int]:
    thread_id = uuid.uuid4().hex
    start = time.perf_counter()
    await run_to_end(runtime, flow=flow, text="bench", thread_id=thread_id)  # incl. final status + completion
    elapsed = time.perf_counter() - start
    thread = await runtime.store.get_thread(thread_id)
    assert thread["status"] == "done", thread
    return elapsed, thread["last_seq"]


class Attribution:
    """Wraps the runtime's event log, store and checkpointer coroutines to sum the time spent in each."""

    TARGETS = (
        ("events", "publish_many", "EventLog.publish_many (validate + append + fan-out)"),
        ("store", "append_events", "  Store.append_events (one transaction, on the loop's thread)"),
        ("checkpointer", "aput", "checkpointer.aput"),
        ("checkpointer", "aput_writes", "checkpointer.aput_writes"),
    )

    def __init__(self, runtime, flow: str) -> None:
        owners = {"events": runtime.events, "store": runtime.store, "checkpointer": runtime.graphs[flow].checkpointer}
        self.totals: dict[str, list[float]] = {}
        self.restore: list[tuple[Any, str, Any]] = []
        for owner_name, attribute, label in self.TARGETS:
            owner = owners[owner_name]
            original = getattr(owner, attribute)
            self.totals[label] = [0, 0.0]
            setattr(owner, attribute, self._timed(original, self.totals[label]))
            self.restore.append((owner, attribute, original))

    @staticmethod
    def _timed(fn, total: list[float]):
        async def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                total[0] += 1
                total[1] += time.perf_counter() - start

        return timed

    def close(self) -> None:
        for owner, attribute, original in self.restore:
            setattr(owner, attribute, original)


async def attribute(runtime, n: int, runs: int) -> list[str]:
    """Time the event log / store / checkpointer calls of `runs` runtime runs."""
    flow = f"bench{n}"
    attribution = Attribution(runtime, flow)
    wall = 0.0
    try:
        for _ in range(runs):
            elapsed, _seqs = await run_runtime(runtime, flow)
            wall += elapsed
    finally:
        attribution.close()
    lines = [f"\nwhere a runtime run's time goes (N={n}, {runs} instrumented runs, {wall / runs * 1000:.2f} ms/run wall;"
             " calls overlap, so rows do not add up):"]
    for label, (calls, seconds) in attribution.totals.items():
        if calls:
            lines.append(f"  {label:60} {calls / runs:5.1f} calls/run  {seconds / calls * 1000:6.3f} ms/call  "
                         f"{seconds / runs * 1000:7.2f} ms/run")
    return lines


async def scaling(runtime, bare_graph, n: int, reps: int) -> list[str]:
    """P runs at once on P threads: does the wall time stay flat (they overlap) or grow with P (they queue)?"""
    lines = [f"\nP concurrent runs on P threads (N={n}, median of {reps}): wall of the batch and events stored per second",
             f"{'P':>3} {'runtime ms':>11} {'× P=1':>6} {'events/s':>9} {'bare ms':>8} {'× P=1':>6}"]
    base: dict[str, float] = {}
    for parallel in PARALLEL:
        walls_runtime, walls_bare, events = [], [], 0
        for _ in range(reps):
            start = time.perf_counter()
            done = await asyncio.gather(*[run_runtime(runtime, f"bench{n}") for _ in range(parallel)])
            walls_runtime.append(time.perf_counter() - start)
            events = sum(seqs for _t, seqs in done)
            start = time.perf_counter()
            await asyncio.gather(*[run_stream(bare_graph, None) for _ in range(parallel)])
            walls_bare.append(time.perf_counter() - start)
        wall_runtime, wall_bare = median(walls_runtime), median(walls_bare)
        base.setdefault("runtime", wall_runtime)
        base.setdefault("bare", wall_bare)
        lines.append(f"{parallel:>3} {wall_runtime * 1000:11.1f} {wall_runtime / base['runtime']:6.2f} "
                     f"{events / wall_runtime:9.0f} {wall_bare * 1000:8.1f} {wall_bare / base['bare']:6.2f}")
    return lines


def _skip_validation(runtime) -> None:
    app.eventlog._validated = lambda event, fields: fields


def _number_node_events_in_memory(runtime) -> None:
    """The node events' transaction replaced by numbering them: the run's start and end still go to SQLite."""
    store = runtime.store
    append_events = store.append_events

    async def numbered(thread_id, run_id, items, *, row=None):
        if row is not None:
            return await append_events(thread_id, run_id, items, row=row)
        seq = store._last_seq[thread_id]
        payloads = []
        for item in items:
            seq += 1
            payloads.append({"threadId": thread_id, "runId": run_id, "seq": seq, **item.fields})
        store._last_seq[thread_id] = seq
        return payloads

    store.append_events = numbered


ABLATIONS = {
    "as built": (),
    "validation skipped": (_skip_validation,),
    "node events not stored": (_number_node_events_in_memory,),
    "both": (_skip_validation, _number_node_events_in_memory),
}


async def ablation(runtime, bare_graph, n: int, runs: int) -> list[str]:
    """The runtime vs the bare graph with parts of the event path switched off, interleaved pairs."""
    lines = [f"\nablation (N={n}, median of {runs} interleaved pairs): the runtime with a part costing nothing",
             f"  {'variant':26} {'runtime ms/run':>15} {'bare ms/run':>12} {'ratio':>7}"]
    validated, append_events = app.eventlog._validated, runtime.store.append_events
    for name, switches in ABLATIONS.items():
        for switch in switches:
            switch(runtime)
        try:
            walls_runtime, walls_bare = [], []
            for _ in range(runs):
                walls_bare.append(await run_stream(bare_graph, None))
                walls_runtime.append((await run_runtime(runtime, f"bench{n}"))[0])
        finally:
            app.eventlog._validated, runtime.store.append_events = validated, append_events
        wall_runtime, wall_bare = median(walls_runtime) * 1000, median(walls_bare) * 1000
        lines.append(f"  {name:26} {wall_runtime:15.2f} {wall_bare:12.2f} {wall_runtime / wall_bare:6.2f}×")
    return lines


async def main(runs: int, warmup: int, with_ablation: bool = False) -> None:
    flows = {f"bench{n}": bench_flow(n) for n in NODE_COUNTS}
    app.services.load_flows = lambda: flows  # the runtime's flow registry, for this process only
    context = FlowContext(llm=OfflineLLM())
    results: dict[tuple[str, int], list[float]] = {}
    events_per_run: dict[int, int] = {}
    with tempfile.TemporaryDirectory(prefix="bench-orch-") as tmp:
        settings = Settings(data_dir=Path(tmp) / "data", llm_provider="offline", _env_file=None)
        async with open_runtime(settings) as runtime, AsyncSqliteSaver.from_conn_string(
            str(Path(tmp) / "bare-checkpoints.sqlite")
        ) as saver:
            for n in NODE_COUNTS:
                bare = linear_graph(n, lambda k: bare_node).compile(checkpointer=saver)
                hooked = linear_graph(n, hooked_node).compile(checkpointer=saver)
                for i in range(warmup + runs):
                    # Interleaved so that drift (page cache, WAL growth, CPU frequency) hits all three alike.
                    # process_time counts every thread of the process: aiosqlite's worker threads too.
                    c0 = time.process_time()
                    t_bare = await run_stream(bare, None)
                    c1 = time.process_time()
                    t_hooked = await run_stream(hooked, context)
                    c2 = time.process_time()
                    t_runtime, seqs = await run_runtime(runtime, f"bench{n}")
                    c3 = time.process_time()
                    if i >= warmup:
                        results.setdefault(("bare", n), []).append(t_bare)
                        results.setdefault(("hooked", n), []).append(t_hooked)
                        results.setdefault(("runtime", n), []).append(t_runtime)
                        results.setdefault(("cpu bare", n), []).append(c1 - c0)
                        results.setdefault(("cpu hooked", n), []).append(c2 - c1)
                        results.setdefault(("cpu runtime", n), []).append(c3 - c2)
                        events_per_run[n] = seqs
            scaling_lines = await scaling(
                runtime, linear_graph(HEADLINE_N, lambda k: bare_node).compile(checkpointer=saver), HEADLINE_N,
                max(3, runs // 6),
            )
            attribution_lines = await attribute(runtime, HEADLINE_N, max(10, runs // 2))
            ablation_lines = await ablation(
                runtime, linear_graph(HEADLINE_N, lambda k: bare_node).compile(checkpointer=saver), HEADLINE_N, runs
            ) if with_ablation else []

    def ms(kind: str, n: int) -> float:
        return median(results[(kind, n)]) * 1000

    print(f"Orchestration overhead — linear graph of trivial nodes, median of {runs} runs (+{warmup} warm-up)")
    print("each hooked node publishes 1 artifact + 1 log → 6 events (tool:message:start, tool:start, tool:artifact,")
    print("tool:log, tool:update, tool:message:complete); runtime adds user:message + 2 status + completion per run\n")
    header = (f"{'N':>3} {'bare ms/run':>12} {'hooked ms/run':>14} {'runtime ms/run':>15} {'events/run':>11}"
              f"   {'CPU ms/run: bare':>16} {'hooked':>7} {'runtime':>8}")
    print(header)
    for n in NODE_COUNTS:
        print(f"{n:>3} {ms('bare', n):>12.2f} {ms('hooked', n):>14.2f} {ms('runtime', n):>15.2f} {events_per_run[n]:>11}"
              f"   {ms('cpu bare', n):>16.2f} {ms('cpu hooked', n):>7.2f} {ms('cpu runtime', n):>8.2f}")

    n = HEADLINE_N
    per_node = {kind: ms(kind, n) / n for kind in ("bare", "hooked", "runtime")}
    print(f"\nN={n}: ms per node (run time / N)")
    print(f"  bare     {per_node['bare']:8.3f} ms/node")
    print(f"  hooked   {per_node['hooked']:8.3f} ms/node   ({per_node['hooked'] / per_node['bare']:.2f}× bare)")
    print(f"  runtime  {per_node['runtime']:8.3f} ms/node   ({per_node['runtime'] / per_node['bare']:.2f}× bare)")
    print(f"  overhead of hooks + runtime: {per_node['runtime'] - per_node['bare']:.3f} ms/node")

    # Slope between N=1 and N=12: the marginal cost of one more node, without the fixed per-run cost.
    lo, hi = NODE_COUNTS[0], NODE_COUNTS[-1]
    slope = {kind: (ms(kind, hi) - ms(kind, lo)) / (hi - lo) for kind in ("bare", "hooked", "runtime")}
    fixed = {kind: ms(kind, lo) - slope[kind] * lo for kind in slope}
    print(f"\nmarginal cost per extra node (slope N={lo}→{hi}) and fixed cost per run (intercept):")
    for kind in ("bare", "hooked", "runtime"):
        print(f"  {kind:8} {slope[kind]:8.3f} ms/node   fixed {fixed[kind]:7.2f} ms/run")
    print(f"  marginal ratio runtime/bare: {slope['runtime'] / slope['bare']:.2f}×")
    extra_events = (events_per_run[hi] - events_per_run[lo]) / (hi - lo)
    per_event = (slope["runtime"] - slope["hooked"]) / extra_events
    print(f"  runtime − hooked per node: {slope['runtime'] - slope['hooked']:.3f} ms over {extra_events:.0f} events "
          f"→ {per_event:.3f} ms per stored+published event")

    print("\n".join(scaling_lines))
    print("\n".join(attribution_lines))
    print("\n".join(ablation_lines))

    emit_summary(
        "orchestration_overhead",
        [
            {"metric": f"ms/node, N={n} (runtime vs bare)", "value": f"{per_node['runtime']:.2f}",
             "baseline": f"{per_node['bare']:.2f}", "ratio": f"{per_node['runtime'] / per_node['bare']:.2f}x"},
            {"metric": f"ms/node, N={n} (hooks only vs bare)", "value": f"{per_node['hooked']:.2f}",
             "baseline": f"{per_node['bare']:.2f}", "ratio": f"{per_node['hooked'] / per_node['bare']:.2f}x"},
            {"metric": f"marginal ms/node N={lo}→{hi} (runtime vs bare)", "value": f"{slope['runtime']:.2f}",
             "baseline": f"{slope['bare']:.2f}", "ratio": f"{slope['runtime'] / slope['bare']:.2f}x"},
        ],
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--ablation", action="store_true", help="also time the runtime with parts of its event path off")
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.warmup, args.ablation))
