"""Every entry point goes through one runtime and one DATA_DIR; settings reach graphs from it."""

from __future__ import annotations

import argparse
import asyncio
import re
from pathlib import Path

from rich.console import Console

from app import cli, cli_plan
from core.i18n import t
from core.llm.offline import OfflineLLM
from core.settings import Settings

VAGUE = "Add a CSV export of orders to the shop."


def plan_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli_plan.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["plan", *argv])


async def test_an_ng_plan_session_is_listed_by_ng_threads_and_finishes_with_ng_resume(
    tmp_path, monkeypatch, capsys
):
    data_dir = tmp_path / "data"
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    monkeypatch.setenv("COLUMNS", "250")

    def walk_away(_prompt: str) -> str:
        raise KeyboardInterrupt  # the person leaves with the questions pending

    try:
        await cli_plan.run(plan_args(VAGUE), Settings(data_dir=data_dir, _env_file=None), llm=OfflineLLM(),
                           input_fn=walk_away, console=Console(quiet=True))
    except KeyboardInterrupt:
        pass
    capsys.readouterr()

    assert await _in_thread(cli.main, ["threads"]) == 0
    listed = capsys.readouterr().out
    [row] = [line for line in listed.splitlines() if t("flows.requirement_title") in line]
    assert t("cli.status_waiting") in row  # stopped at its question: waiting for the answer
    thread_id = re.search(r"\b[0-9a-f]{32}\b", row).group(0)

    assert await _in_thread(cli.main, ["resume", thread_id, "--answer", "use defaults"]) == 0
    capsys.readouterr()
    assert await _in_thread(cli.main, ["threads"]) == 0
    assert t("runtime.status_done") in next(line for line in capsys.readouterr().out.splitlines() if thread_id in line)


async def _in_thread(fn, argv):
    # `ng` commands run their own event loop, as they do from a terminal.
    return await asyncio.to_thread(fn, argv)


async def test_requirement_max_rounds_from_settings_limits_clarification(start_server, connect):
    server = await start_server(requirement_max_rounds=1)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "requirement", "text": VAGUE})
    asked = await client.wait_for("interrupt", lambda d: d["runId"] == ack["runId"])
    assert asked["payload"]["maxRounds"] == 1

    # Nothing answered: at the limit every open question becomes an assumption, no second round.
    resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": {}})
    completion = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=30)
    assert completion["success"] is True
    assert client.of(ack["threadId"], "interrupt") == [("interrupt", asked)]


def test_a_per_role_model_set_in_dotenv_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("LLM_MODEL_ROUTER", raising=False)
    monkeypatch.delenv("LLM_MODEL", raising=False)
    monkeypatch.chdir(tmp_path)
    Path(".env").write_text("LLM_MODEL=general-model\nLLM_MODEL_ROUTER=small-router-model\n")

    settings = Settings()

    assert settings.model_for("router") == "small-router-model"
    assert settings.model_for("ppt") == "general-model"


def test_the_process_environment_wins_over_dotenv_for_a_role_model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path(".env").write_text("LLM_MODEL_ROUTER=from-dotenv\n")
    monkeypatch.setenv("LLM_MODEL_ROUTER", "from-environment")

    assert Settings().model_for("router") == "from-environment"


async def test_a_node_waiting_on_a_human_reports_its_start_once_across_the_answer(start_server, connect):
    server = await start_server()
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "requirement", "text": VAGUE})
    await client.wait_for("interrupt", lambda d: d["runId"] == ack["runId"])
    resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": "use defaults"})
    assert (await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=30))["success"]

    starts = [d for _, d in client.of(ack["threadId"], "tool:start")]
    asked = [d for d in starts if d["toolName"] == "ask_human"]
    assert len(asked) == 1
    ends = [d["toolCallId"] for _, d in client.of(ack["threadId"], "tool:update") if d["status"] == "done"]
    assert sorted(ends) == sorted(d["toolCallId"] for d in starts), "one start and one done per tool call"
