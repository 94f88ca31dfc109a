"""The PPT flow with LLM_PROVIDER=openai against a local server speaking the OpenAI wire format."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from core.i18n import t
from core.llm.factory import endpoint_of
from tests.support.fake_openai import FakeOpenAI
from tests.support.ppt_responder import SLIDES, UNITS, Responder
from tests.test_cli import ROOT
from tests.test_ppt_socket import fetch_json

SECRET = "sk-never-shown-42"


async def test_the_whole_flow_takes_its_content_from_the_model_over_the_wire(start_server, connect):
    responder = Responder()
    async with FakeOpenAI(responder=responder) as fake:
        fake.malformed()  # the first answer is not JSON: the stage re-asks with the error and goes on
        server = await start_server(llm_provider="openai", llm_base_url=fake.base_url, llm_api_key="test-key",
                                    llm_concurrency=4)
        client = await connect(server.url)
        ack = await client.call("chat:message", {"flow": "ppt", "text": "Make a 10 minute deck about photosynthesis"})
        completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
        health = await fetch_json(f"{server.url}/healthz")

    assert completion["success"], completion
    deck = next(d["artifact"]["content"] for _, d in client.of(ack["threadId"], "tool:artifact")
                if d["artifact"]["type"] == "dsl")
    assert len(deck["slides"]) == SLIDES
    assert {s["title"] for s in deck["slides"]} >= {u["title"] for u in UNITS}, "slides come from the model's answers"
    assert "Invalid JSON" in str(fake.requests[1]["messages"]), "the re-ask carried the parse error"
    pages_asked = sum(1 for title, _ in responder.calls if title == "SlideSpec")
    assert pages_asked == SLIDES
    assert health["llm"]["provider"] == "openai" and "test-key" not in str(health), "a real model is named, its key never"


async def closed_endpoint() -> str:
    """The base URL of a server that has stopped: its port refuses connections."""
    async with FakeOpenAI() as stopped:
        return stopped.base_url


async def test_an_unreachable_model_endpoint_ends_the_run_with_a_sentence_naming_it(start_server, connect):
    base_url = await closed_endpoint()
    server = await start_server(llm_provider="openai", llm_base_url=base_url, llm_api_key=SECRET, llm_max_retries=0)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于欧姆定律的5分钟PPT"})
    completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)

    assert completion["success"] is False
    assert completion["error"] == t("llm.unreachable", endpoint=endpoint_of(base_url), attempts=1)
    assert completion["resumable"] is True, "once the server is up, the run continues"
    assert SECRET not in str(client.events)


async def test_a_model_endpoint_that_never_answers_ends_the_run_with_a_sentence_naming_it(start_server, connect):
    async with FakeOpenAI() as fake:
        fake.delay_s = 5.0
        server = await start_server(llm_provider="openai", llm_base_url=fake.base_url, llm_api_key=SECRET,
                                    llm_max_retries=0, llm_timeout_s=0.3)
        client = await connect(server.url)
        ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于欧姆定律的5分钟PPT"})
        completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)

    assert completion["error"] == t("llm.timed_out", endpoint=endpoint_of(fake.base_url), seconds="0.3", attempts=1)


def ng_ppt_against(base_url: str, tmp_path: Path, *flags: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "openai", "LLM_BASE_URL": base_url,
           "LLM_API_KEY": SECRET, "LLM_MAX_RETRIES": "0", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "app.cli", *flags, "ppt", "做一个关于欧姆定律的5分钟PPT"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


async def test_ng_ppt_against_an_unreachable_endpoint_says_so_in_one_sentence_and_fails(tmp_path):
    base_url = await closed_endpoint()

    result = ng_ppt_against(base_url, tmp_path)

    assert result.returncode == 1
    sentence = t("llm.unreachable", endpoint=endpoint_of(base_url), attempts=1)
    assert result.stdout.rstrip().splitlines()[-1].startswith(sentence)
    assert result.stderr == "", "no log lines, no traceback"
    assert SECRET not in result.stdout


async def test_ng_ppt_with_debug_shows_the_traceback_of_an_unreachable_endpoint(tmp_path):
    result = ng_ppt_against(await closed_endpoint(), tmp_path, "--debug")

    assert result.returncode == 1
    assert "Traceback" in result.stderr and "APIConnectionError" in result.stderr
