"""The OpenAI-compatible provider, against a real HTTP server speaking the chat-completions format."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError

from core.i18n import t
from core.llm.base import LLMError
from core.llm.factory import describe_llm, endpoint_of, make_llm
from core.llm.offline import OfflineLLM
from core.llm.openai_provider import OpenAICompatibleLLM
from core.settings import Settings
from tests.support.fake_openai import Fail, FakeOpenAI, message_text

API_KEY = "sk-test-secret-123"


class Slide(BaseModel):
    title: str
    bullets: list[str] = Field(min_length=1)
    minutes: int


VALID = {"title": "Why tests", "bullets": ["they catch regressions"], "minutes": 3}


def settings_for(fake: FakeOpenAI, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "llm_provider": "openai",
        "llm_base_url": fake.base_url,
        "llm_api_key": API_KEY,
        "llm_model": "fake-model",
        "llm_timeout_s": 5.0,
        "llm_max_retries": 2,
        "llm_validation_retries": 2,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as server:
        yield server


@pytest.fixture
async def llm_for(fake: FakeOpenAI) -> AsyncIterator[Callable[..., OpenAICompatibleLLM]]:
    created: list[OpenAICompatibleLLM] = []

    def build(**overrides: Any) -> OpenAICompatibleLLM:
        llm = OpenAICompatibleLLM(settings_for(fake, **overrides))
        created.append(llm)
        return llm

    yield build
    for llm in created:
        await llm.aclose()


async def ask_slide(llm: OpenAICompatibleLLM, role: str = "writer") -> Slide:
    return await llm.structured(Slide, role=role, system="You write slides.", prompt="One slide about tests.")


def last_user_message(request: dict[str, Any]) -> str:
    return [m for m in request["messages"] if m["role"] == "user"][-1]["content"]


# -- structured output -------------------------------------------------------------------------


async def test_a_valid_structured_reply_parses_into_the_model(fake, llm_for):
    fake.reply(VALID)

    slide = await ask_slide(llm_for())

    assert slide == Slide(**VALID)
    assert len(fake.requests) == 1


async def test_a_structured_request_asks_for_json_mode_and_carries_the_schema(fake, llm_for):
    fake.reply(VALID)

    await ask_slide(llm_for())

    request = fake.requests[0]
    assert request["response_format"] == {"type": "json_object"}
    system = message_text(request, role="system")
    assert system.startswith("You write slides.")
    assert json.dumps(Slide.model_json_schema(), ensure_ascii=False) in system
    assert message_text(request, role="user") == "One slide about tests."


async def test_a_json_fenced_reply_is_accepted(fake, llm_for):
    fake.reply(f"```json\n{json.dumps(VALID)}\n```")

    assert await ask_slide(llm_for()) == Slide(**VALID)


async def test_a_malformed_reply_is_re_asked_with_the_validation_error(fake, llm_for):
    wrong_type = {**VALID, "minutes": "three"}
    fake.reply(wrong_type).reply(VALID)

    slide = await ask_slide(llm_for())

    assert slide == Slide(**VALID)
    assert len(fake.requests) == 2
    with pytest.raises(ValidationError) as expected:
        Slide.model_validate(wrong_type)
    retry = fake.requests[1]
    assert expected.value.errors()[0]["msg"] in last_user_message(retry)
    assert "minutes" in last_user_message(retry)
    # The bad reply stays in the conversation so the model can correct it.
    assert retry["messages"][-2] == {"role": "assistant", "content": json.dumps(wrong_type)}


async def test_invalid_json_is_re_asked_too(fake, llm_for):
    fake.malformed().reply(VALID)

    assert await ask_slide(llm_for()) == Slide(**VALID)
    assert "Invalid JSON" in last_user_message(fake.requests[1])


async def test_always_malformed_replies_give_up_after_the_validation_retries(fake, llm_for):
    fake.responder = lambda body: '{"title": 42'

    with pytest.raises(LLMError) as raised:
        await ask_slide(llm_for(llm_validation_retries=2))

    assert len(fake.requests) == 1 + 2
    assert raised.value.user_message == t("llm.bad_format", attempts=3)


# -- transport failures ------------------------------------------------------------------------


async def test_a_server_error_is_retried_over_http(fake, llm_for):
    fake.fail(500).reply(VALID)

    assert await ask_slide(llm_for(llm_max_retries=2)) == Slide(**VALID)
    assert len(fake.requests) == 2


async def test_a_persistent_server_error_becomes_a_friendly_llm_error(fake, llm_for):
    fake.fail(500, times=10)

    with pytest.raises(LLMError) as raised:
        await ask_slide(llm_for(llm_max_retries=1))

    assert len(fake.requests) == 1 + 1
    message = raised.value.user_message
    assert message == t("llm.server_error", status=500, attempts=2)
    assert "Traceback" not in str(raised.value)


async def test_a_reply_slower_than_the_timeout_is_reported_as_timed_out(fake, llm_for):
    fake.delay(3.0, VALID)

    with pytest.raises(LLMError) as raised:
        await ask_slide(llm_for(llm_timeout_s=0.5, llm_max_retries=0))

    assert len(fake.requests) == 1  # given up on, not retried
    assert raised.value.user_message == t("llm.timed_out", endpoint=endpoint_of(fake.base_url), seconds="0.5",
                                          attempts=1)


async def test_error_messages_never_contain_the_api_key(fake, llm_for):
    fake.enqueue(Fail(401, message=f"Incorrect API key provided: {API_KEY}"))

    with pytest.raises(LLMError) as raised:
        await ask_slide(llm_for())

    assert raised.value.user_message == t("llm.bad_key")
    assert API_KEY not in str(raised.value)
    assert fake.headers[0]["Authorization"] == f"Bearer {API_KEY}"


async def test_an_unreachable_endpoint_is_a_friendly_llm_error():
    async with FakeOpenAI() as stopped:
        base_url = stopped.base_url
    settings = Settings(_env_file=None, llm_provider="openai", llm_base_url=base_url, llm_max_retries=0)
    llm = OpenAICompatibleLLM(settings)
    try:
        with pytest.raises(LLMError) as raised:
            await ask_slide(llm)
    finally:
        await llm.aclose()

    assert raised.value.user_message == t("llm.unreachable", endpoint=endpoint_of(base_url), attempts=1)


# -- models, text and streaming ----------------------------------------------------------------


async def test_a_role_uses_its_model_override_from_the_environment(fake, llm_for, monkeypatch):
    monkeypatch.setenv("LLM_MODEL_WRITER", "writer-model")
    fake.reply(VALID).reply(VALID)
    llm = llm_for()

    await ask_slide(llm, role="writer")
    await ask_slide(llm, role="reviewer")

    assert [r["model"] for r in fake.requests] == ["writer-model", "fake-model"]


async def test_a_role_uses_its_model_override_from_settings(fake, llm_for):
    fake.reply("fine")

    await llm_for(llm_models={"critic": "critic-model"}).complete(role="critic", system="s", prompt="p")

    assert fake.requests[0]["model"] == "critic-model"


async def test_complete_returns_the_reply_text(fake, llm_for):
    fake.reply("A plain answer.")

    text = await llm_for().complete(role="writer", system="Be brief.", prompt="Say something.")

    assert text == "A plain answer."
    assert "response_format" not in fake.requests[0]


async def test_stream_yields_the_reply_text_in_chunks(fake, llm_for):
    answer = "Streaming arrives piece by piece, not all at once."
    fake.reply(answer)

    chunks = [c async for c in llm_for().stream(role="writer", system="Be brief.", prompt="Say something.")]

    assert "".join(chunks) == answer
    assert len(chunks) > 1
    assert fake.requests[0]["stream"] is True


async def test_a_failing_stream_raises_a_friendly_llm_error(fake, llm_for):
    fake.fail(503, times=5)

    with pytest.raises(LLMError) as raised:
        async for _ in llm_for(llm_max_retries=0).stream(role="writer", system="s", prompt="p"):
            pass

    assert raised.value.user_message == t("llm.server_error", status=503, attempts=1)


async def test_concurrent_calls_are_served_concurrently(llm_for, fake):
    fake.delay_s = 0.4
    fake.responder = lambda body: json.dumps(VALID)
    llm = llm_for()

    slides = await asyncio.gather(*(ask_slide(llm) for _ in range(4)))

    assert slides == [Slide(**VALID)] * 4
    assert fake.max_in_flight == 4  # all four were at the server at once
