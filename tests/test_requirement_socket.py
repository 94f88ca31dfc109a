"""The requirement flow over a live Socket.IO server: two clarification rounds, a chat reply that
answers pending questions, and pending questions that survive a server restart (thread:join)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from app.server import create_app
from schemas.events import EVENT_MODELS, InterruptEvent
from schemas.requirement import ImplementationPlanDoc, Question, RequirementPlanArtifact

VAGUE = "Add a CSV export of orders to the shop."


@pytest.fixture()
async def live_server(start_server, tmp_path):
    # The target repository must sit under REPO_ROOTS for a socket client to name it.
    return await start_server(repo_roots=[tmp_path])


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    (path / "docs").mkdir(parents=True)
    (path / "README.md").write_text("# Shop\n\nA small shop backend.\n")
    (path / "Makefile").write_text("test:\n\tpytest -q\n")
    return path


async def start(client, text: str, **options: Any) -> dict[str, Any]:
    ack = await client.call("chat:message", {"flow": "requirement", "text": text, "options": options})
    assert ack["ok"], ack
    return ack


async def questions_of(client, thread_id: str, run_id: str) -> list[dict[str, Any]]:
    event = await client.wait_for("interrupt", lambda d: d["threadId"] == thread_id and d["runId"] == run_id)
    interrupt = InterruptEvent.model_validate(event)
    assert interrupt.kind == "clarification"
    for q in interrupt.payload["questions"]:  # the flow's Question, with the protocol's `default` beside it
        question = Question.model_validate({k: v for k, v in q.items() if k != "default"})
        assert q["default"] == question.fallback_assumption
    # The thread is resumable once its status says so (the interrupt event comes just before).
    await client.wait_for("status", lambda d: d["threadId"] == thread_id and d["runId"] == run_id
                          and d["status"] == "interrupted")
    return interrupt.payload["questions"]


async def completion_of(client, thread_id: str, run_id: str) -> dict[str, Any]:
    return await client.wait_for("completion", lambda d: d["threadId"] == thread_id and d["runId"] == run_id,
                                 timeout=20)


async def test_two_rounds_over_socketio(live_server, connect, repo):
    client = await connect(live_server.url)
    ack = await start(client, VAGUE, repo=str(repo))
    thread_id = ack["threadId"]
    questions = await questions_of(client, thread_id, ack["runId"])
    assert 1 <= len(questions) <= 5 and any(q["blocking"] for q in questions)

    answers = {q["id"]: f"socket answer {n}" for n, q in enumerate(questions)}
    resumed = await client.call("run:resume", {"threadId": thread_id, "answer": answers})
    assert resumed["ok"], resumed
    completion = await completion_of(client, thread_id, resumed["runId"])
    assert completion["success"] is True

    events = client.of(thread_id)
    assert [d["seq"] for _, d in events] == list(range(1, len(events) + 1))
    for name, data in events:
        if name in EVENT_MODELS:
            EVENT_MODELS[name].model_validate(data)
    plans = [d["artifact"] for n, d in events if n == "tool:artifact" and d["artifact"]["type"] == "requirement_plan"]
    assert len({a["id"] for a in plans}) == 1 and [a["version"] for a in plans] == [1, 2]
    last = RequirementPlanArtifact.model_validate(plans[-1]["content"])
    assert last.plan.status == "plan_ready" and last.answers == answers
    [final] = [d["artifact"] for n, d in events if n == "tool:artifact" and d["artifact"]["type"] == "implementation_plan"]
    assert completion["finalArtifactId"] == final["id"]
    doc = ImplementationPlanDoc.model_validate(final["content"])
    assert all(text in doc.markdown for text in answers.values())
    async with aiohttp.ClientSession() as session:  # every version stays retrievable
        async with session.get(f"{live_server.url}/artifacts/{plans[0]['id']}?version=1") as response:
            assert response.status == 200
            assert (await response.json())["content"]["plan"]["status"] == "clarification_needed"
    assert not (repo / "IMPLEMENTATION_PLAN.md").exists()


async def test_chat_message_answers_the_pending_questions(live_server, connect, repo):
    client = await connect(live_server.url)
    ack = await start(client, VAGUE, repo=str(repo), write=True)
    questions = await questions_of(client, ack["threadId"], ack["runId"])

    reply = await client.call("chat:message", {"flow": "requirement", "threadId": ack["threadId"], "text": "默认"})
    assert reply["ok"], reply
    assert (await completion_of(client, ack["threadId"], reply["runId"]))["success"] is True
    plan_file = repo / "IMPLEMENTATION_PLAN.md"
    assert plan_file.exists()  # authorised by options.write on the first message
    text = plan_file.read_text()
    assert all(q["fallback_assumption"] in text for q in questions)


async def test_pending_questions_survive_a_restart(make_settings, connect, repo, tmp_path):
    settings = make_settings(repo_roots=[tmp_path])

    async def serve() -> tuple[web.AppRunner, str]:
        runner = web.AppRunner(create_app(settings))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"

    runner, url = await serve()
    first = await connect(url)
    try:
        ack = await start(first, VAGUE, repo=str(repo))
        questions = await questions_of(first, ack["threadId"], ack["runId"])
    finally:
        await first.close()  # an open socket would hold the shutdown until its timeout
        await runner.cleanup()

    runner, url = await serve()  # a new server process on the same data directory
    client = await connect(url)
    try:
        joined = await client.call("thread:join", {"threadId": ack["threadId"]})
        assert joined["ok"], joined
        thread = joined["thread"]
        assert thread["status"] == "interrupted"
        assert [q["id"] for q in thread["pendingInterrupt"]["payload"]["questions"]] == [q["id"] for q in questions]

        resumed = await client.call("run:resume", {"threadId": ack["threadId"],
                                                   "answer": {q["id"]: "after the restart" for q in questions}})
        assert resumed["ok"], resumed
        assert (await completion_of(client, ack["threadId"], resumed["runId"]))["success"] is True
        events = client.of(ack["threadId"])
        assert [d["seq"] for _, d in events] == list(range(1, len(events) + 1))  # replay + live, no gap
    finally:
        await client.close()
        await runner.cleanup()


async def test_a_repository_outside_repo_roots_is_refused_before_anything_runs(start_server, connect, repo):
    server = await start_server()  # no REPO_ROOTS: a remote client may name no directory
    client = await connect(server.url)
    for target in (str(repo), "/", "/etc"):
        ack = await client.call("chat:message", {"flow": "requirement", "text": VAGUE, "options": {"repo": target}})
        assert ack["ok"] is False and ack["error"]["code"] == "bad_request"
        assert "REPO_ROOTS" in ack["error"]["message"]
    assert (await client.call("thread:list", {}))["threads"] == []


async def test_an_empty_answer_counts_as_use_defaults(live_server, connect, repo):
    client = await connect(live_server.url)
    ack = await start(client, VAGUE, repo=str(repo))
    await questions_of(client, ack["threadId"], ack["runId"])
    resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": {}})
    assert resumed["ok"], resumed
    events = [n for n, d in client.events if d.get("runId") == resumed["runId"]]
    outcome = await client.wait_for(
        "status", lambda d: d["runId"] == resumed["runId"] and d["status"] in ("interrupted", "done"), timeout=20)
    plans = [d["artifact"] for n, d in client.of(ack["threadId"], "tool:artifact")
             if d["runId"] == resumed["runId"] and d["artifact"]["type"] == "requirement_plan"]
    assert plans, f"the empty answer moved the flow on ({events}, {outcome})"
