"""The PPT flow with LLM_PROVIDER=openai against a local server speaking the OpenAI wire format."""

from __future__ import annotations

from tests.support.fake_openai import FakeOpenAI
from tests.support.ppt_responder import SLIDES, UNITS, Responder
from tests.test_ppt_socket import fetch_json


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
