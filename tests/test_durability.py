"""kill -9 at every kind of storage boundary of a run, restart, resume: the run completes with one outcome per node.

The kills are real (SIGKILL of an `ng ppt` process at the N-th checkpoint write, task-writes save or
event append, before or after it; see tests/support/faulty_cli.py); the resume runs through the
same runtime a restarted server uses.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.runtime import new_thread_id
from core.i18n import t
from app.services import open_runtime
from core.settings import Settings
from graphs.ppt.graph import feedback_input
from graphs.ppt.planning import PIPELINE_NODES, STAGES
from schemas.events import ThreadStatus
from tests.support.server import ROOT

TOPIC = "做一个关于浮力的5分钟PPT"

# A 5-minute deck stores about 12 checkpoints, 10 task-writes saves and 58 node events.
FAULTS = [
    "checkpoint:before:1",  # killed before the first checkpoint: resume starts again from the stored input
    "checkpoint:after:4",  # at a stage boundary
    "writes:after:3",  # a node's writes saved, the next checkpoint not written yet
    "event:after:12",  # inside a stage, one of its events stored, the rest not
    "event:before:45",  # inside the long slide generation (page subgraph), before / after an event is stored
    "event:after:45",
]


def settings_for(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir, llm_provider="offline", _env_file=None)


def run_killed(data_dir: Path, fault: str) -> None:
    env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", "FAULT": fault}
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.faulty_cli", "ppt", TOPIC, "--out", str(data_dir / "deck.pptx")],
        cwd=ROOT, env=env, capture_output=True, timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr.decode(errors="replace")[-2000:]


async def resume_after_restart(data_dir: Path) -> tuple[str, list[tuple[str, dict]], list[dict]]:
    async with open_runtime(settings_for(data_dir)) as runtime:
        [thread] = await runtime.store.list_threads()
        assert thread["status"] == "interrupted", "start-up recovery makes the killed run resumable"
        await runtime.resume(thread["thread_id"])
        await runtime.wait(thread["thread_id"])
        events = await runtime.store.events_after(thread["thread_id"])
        artifacts = await runtime.store.latest_artifacts(thread["thread_id"])
    return thread["thread_id"], events, artifacts


@pytest.mark.parametrize("fault", FAULTS)
async def test_run_killed_at_a_storage_boundary_completes_with_one_outcome_per_stage(tmp_path, fault):
    data_dir = tmp_path / "data"
    run_killed(data_dir, fault)
    _thread_id, events, artifacts = await resume_after_restart(data_dir)

    assert [payload["seq"] for _, payload in events] == list(range(1, len(events) + 1)), "no seq gap or duplicate"
    completion = [payload for name, payload in events if name == "completion"][-1]
    assert completion["success"] is True, completion

    named = {payload["toolCallId"]: payload["toolName"] for name, payload in events if name == "tool:start"}
    assert Counter(named.values()) == Counter(PIPELINE_NODES), "one tool:start per node"
    done = Counter(named[p["toolCallId"]] for n, p in events if n == "tool:update" and p["status"] == "done")
    assert done == Counter(PIPELINE_NODES), "one tool:update done per node"
    completes = Counter(p["toolName"] for n, p in events if n == "tool:message:complete")
    assert completes == Counter(STAGES)

    announced = Counter(p["artifact"]["id"] for n, p in events if n == "tool:artifact")
    assert set(announced.values()) == {1}, "each artifact announced once"
    assert {a["id"]: a["version"] for a in artifacts} == {artifact_id: 1 for artifact_id in announced}
    kinds = Counter(a["type"] for a in artifacts)
    pages = Counter(p["current"] for n, p in events if n == "progress")
    assert kinds == Counter({"course_config": 1, "video_outline": 1, "slide_scripts": 1, "presentation_theme": 1,
                             "dsl": 1, "pptx": 1, "qa_report": 1, "slide_preview": len(pages)})
    assert set(pages.values()) == {1}, "each page reported once"
    assert completion["finalArtifactId"] == next(a["id"] for a in artifacts if a["type"] == "pptx")


async def test_a_run_killed_after_its_deck_was_made_names_the_deck_when_the_resume_completes(tmp_path):
    data_dir = tmp_path / "data"
    run_killed(data_dir, "writes:after:check_deck")  # the deck is made and saved; its preview is not
    _thread_id, events, artifacts = await resume_after_restart(data_dir)

    resumed = events[-1][1]["runId"]
    assert [p["toolName"] for n, p in events if n == "tool:start" and p["runId"] == resumed] == ["preview_deck"]
    completion = events[-1][1]
    assert events[-1][0] == "completion" and completion["success"] is True, completion
    assert completion["finalArtifactId"] == next(a["id"] for a in artifacts if a["type"] == "pptx")


async def test_a_message_killed_before_its_run_checkpointed_runs_again_on_resume(tmp_path):
    async with open_runtime(settings_for(tmp_path / "data")) as runtime:
        thread_id = new_thread_id()
        await runtime.send_message(flow="ppt", text=TOPIC, thread_id=thread_id, create=True)
        await runtime.wait(thread_id)
        # What a kill right after the ack of a second message leaves: its input stored, none of its checkpoints.
        await runtime.store.update_thread(thread_id, status=ThreadStatus.interrupted,
                                          start_input={"id": "killed-run", "input": feedback_input("增加配图，视觉优化一下")})

        run_id = await runtime.resume(thread_id)
        await runtime.wait(thread_id)
        events = await runtime.store.events_after(thread_id)

    rerun = [p["toolName"] for n, p in events if n == "tool:start" and p["runId"] == run_id]
    assert rerun == ["generate_slides", "check_deck", "preview_deck"]
    assert [p for n, p in events if n == "completion"][-1]["success"] is True


async def test_replay_of_a_log_longer_than_a_page_sends_every_event_once_in_order(tmp_path):
    async with open_runtime(settings_for(tmp_path / "data")) as runtime:
        thread_id = new_thread_id()
        await runtime.send_message(flow="ppt", text=TOPIC, thread_id=thread_id, create=True)
        await runtime.wait(thread_id)
        stored = await runtime.store.events_after(thread_id)
        pages = [page async for page in runtime.store.event_pages(thread_id, after_seq=3, page_size=7)]

    assert [p["seq"] for page in pages for _, p in page] == [p["seq"] for _, p in stored[3:]]
    assert len(pages) > 2 and all(len(page) <= 7 for page in pages)


async def test_seq_continues_when_another_process_wrote_to_the_thread_meanwhile(tmp_path):
    settings = settings_for(tmp_path / "data")
    async with open_runtime(settings) as server_side:
        thread_id = new_thread_id()
        await server_side.send_message(flow="ppt", text=TOPIC, thread_id=thread_id, create=True)
        await server_side.wait(thread_id)
        # `ng ppt`-style second process on the same DATA_DIR continues the thread meanwhile.
        async with open_runtime(settings) as terminal_side:
            await terminal_side.send_message(flow="ppt", text="增加配图，视觉优化一下", thread_id=thread_id, create=False)
            await terminal_side.wait(thread_id)
        await server_side.send_message(flow="ppt", text="换个主题颜色", thread_id=thread_id, create=False)
        await server_side.wait(thread_id)
        events = await server_side.store.events_after(thread_id)

    assert [p["seq"] for _, p in events] == list(range(1, len(events) + 1))
    assert [p["success"] for n, p in events if n == "completion"] == [True, True, True]


async def test_a_run_whose_events_cannot_be_stored_ends_failed_instead_of_hanging(tmp_path):
    async with open_runtime(settings_for(tmp_path / "data")) as runtime:
        append_events = runtime.store.append_events

        async def disk_gone(thread_id, run_id, items, **row):
            if any(item[2] is not None for item in items):  # a node's (keyed) events
                raise sqlite3.OperationalError("disk I/O error")
            return await append_events(thread_id, run_id, items, **row)

        runtime.store.append_events = disk_gone
        thread_id = new_thread_id()
        await runtime.send_message(flow="ppt", text=TOPIC, thread_id=thread_id, create=True)
        await asyncio.wait_for(runtime.wait(thread_id), timeout=60)
        events = await runtime.store.events_after(thread_id)
        thread = await runtime.store.get_thread(thread_id)

    assert thread["status"] == ThreadStatus.failed.value
    completions = [p for n, p in events if n == "completion"]
    assert len(completions) == 1 and events[-1][0] == "completion"
    assert (completions[0]["success"], completions[0]["error"]) == (False, t("runtime.run_failed"))
