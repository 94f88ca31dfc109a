"""The LLM protocol over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, LiteLLM…).

Structured output uses JSON mode plus the schema in the system message rather than OpenAI's
strict `json_schema` mode, because most compatible servers only support `json_object`. Replies
are validated with pydantic and re-asked with the validation error; every failure reaches the
caller as an `LLMError` whose `user_message` is a plain sentence (no traceback, no API key).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any, TypeVar

import openai
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, ValidationError

from core.i18n import t
from core.llm.base import LLMError
from core.llm.factory import endpoint_of
from core.settings import Settings

M = TypeVar("M", bound=BaseModel)

# LangGraph's "messages" stream mode skips runs tagged "nostream": half-written JSON of a
# structured call is not something to show in the chat.
_NOSTREAM_TAG = "nostream"

_JSON_INSTRUCTIONS = (
    "\n\nReply with a single JSON object and nothing else (no prose, no code fences). "
    "It must validate against this JSON Schema:\n{schema}"
)
_RETRY_INSTRUCTIONS = (
    "Your previous reply could not be used: {problem}\n"
    "Reply again with only the corrected JSON object, valid against the JSON Schema given earlier."
)
_FENCE = re.compile(r"^```[a-zA-Z0-9_-]*\s*\n?(?P<body>.*?)\n?```$", re.DOTALL)


class OpenAICompatibleLLM:
    provider = "openai"

    def __init__(self, settings: Settings) -> None:
        if not settings.llm_base_url:
            raise ValueError(t("llm.needs_base_url"))
        self.settings = settings
        self.max_concurrency = settings.llm_concurrency
        # Local servers (Ollama, vLLM) accept any key, but the openai client refuses to start without one.
        self._api_key = settings.llm_api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self._chat_models: dict[str, ChatOpenAI] = {}  # by model name; roles sharing a model share one
        # One connection pool per instance, closed by aclose(). langchain-openai's default is a
        # process-wide pool cached by URL, which outlives the event loop that opened its connections.
        self._http_client: openai.DefaultAsyncHttpxClient | None = None

    # -- the LLM protocol --------------------------------------------------------------------

    async def structured(
        self,
        schema: type[M],
        *,
        role: str,
        system: str,
        prompt: str,
        facts: Mapping[str, Any] | None = None,  # already rendered into the prompt by the caller
    ) -> M:
        schema_json = json.dumps(schema.model_json_schema(), ensure_ascii=False)
        messages: list[BaseMessage] = [
            SystemMessage(system + _JSON_INSTRUCTIONS.format(schema=schema_json)),
            HumanMessage(prompt),
        ]
        attempts = 1 + self.settings.llm_validation_retries
        problem = ""
        for _ in range(attempts):
            reply = await self._ask(
                role, messages, tags=[_NOSTREAM_TAG], response_format={"type": "json_object"}
            )
            try:
                return schema.model_validate_json(_strip_fences(reply))
            except ValidationError as error:  # covers invalid JSON as well as schema mismatches
                problem = _describe_validation_error(error)
            # Keep the bad reply in the conversation so the model corrects it rather than starting over.
            messages += [AIMessage(reply), HumanMessage(_RETRY_INSTRUCTIONS.format(problem=problem))]
        raise LLMError(t("llm.bad_format", attempts=attempts), detail=f"{schema.__name__}: {problem}")

    async def complete(
        self, *, role: str, system: str, prompt: str, facts: Mapping[str, Any] | None = None
    ) -> str:
        return await self._ask(role, [SystemMessage(system), HumanMessage(prompt)])

    async def stream(
        self, *, role: str, system: str, prompt: str, facts: Mapping[str, Any] | None = None
    ) -> AsyncIterator[str]:
        model = self.chat_model(role)
        try:
            async for chunk in model.astream(
                [SystemMessage(system), HumanMessage(prompt)], config=_run_config(role)
            ):
                text = chunk.text
                if text:
                    yield text
        except Exception as error:  # mid-stream failures too: callers only ever see LLMError
            raise self._friendly_error(error, model.model_name) from error

    # -- helpers -----------------------------------------------------------------------------

    def chat_model(self, role: str) -> ChatOpenAI:
        """The ChatOpenAI for a role's model (`Settings.model_for`), created once per model name."""
        name = self.settings.model_for(role)
        model = self._chat_models.get(name)
        if model is None:
            if self._http_client is None:
                self._http_client = openai.DefaultAsyncHttpxClient(timeout=self.settings.llm_timeout_s)
            model = ChatOpenAI(
                model=name,
                base_url=self.settings.llm_base_url,
                api_key=self._api_key,
                timeout=self.settings.llm_timeout_s,
                max_retries=self.settings.llm_max_retries,
                # Pinned: some model names would otherwise switch to the Responses API,
                # which OpenAI-compatible servers mostly do not implement.
                use_responses_api=False,
                # A stream that goes silent counts against the same budget as one call.
                stream_chunk_timeout=self.settings.llm_timeout_s,
                http_async_client=self._http_client,
            )
            self._chat_models[name] = model
        return model

    async def aclose(self) -> None:
        """Close the connection pool; the instance can still be used afterwards (a new pool opens)."""
        client, self._http_client = self._http_client, None
        self._chat_models.clear()
        if client is not None:
            await client.aclose()

    async def _ask(
        self, role: str, messages: list[BaseMessage], *, tags: list[str] | None = None, **kwargs: Any
    ) -> str:
        model = self.chat_model(role)
        try:
            message = await model.ainvoke(messages, config=_run_config(role, tags), **kwargs)
        except Exception as error:
            raise self._friendly_error(error, model.model_name) from error
        return message.text

    def _friendly_error(self, error: Exception, model_name: str) -> LLMError:
        """Map a client/transport exception to a catalogue sentence a person can act on."""
        attempts = 1 + self.settings.llm_max_retries
        # host:port only: a base URL may carry credentials, and the sentence must never show the key.
        endpoint = endpoint_of(self.settings.llm_base_url or "")
        # APITimeoutError subclasses APIConnectionError, so it must be tested first.
        if isinstance(error, (openai.APITimeoutError, asyncio.TimeoutError)):
            message = t("llm.timed_out", endpoint=endpoint, seconds=f"{self.settings.llm_timeout_s:g}", attempts=attempts)
        elif isinstance(error, openai.APIConnectionError):
            message = t("llm.unreachable", endpoint=endpoint, attempts=attempts)
        elif isinstance(error, (openai.AuthenticationError, openai.PermissionDeniedError)):
            message = t("llm.bad_key")
        elif isinstance(error, openai.NotFoundError):
            message = t("llm.unknown_model", model=model_name)
        elif isinstance(error, openai.RateLimitError):
            message = t("llm.rate_limited", attempts=attempts)
        elif isinstance(error, openai.APIStatusError) and error.status_code >= 500:
            message = t("llm.server_error", status=error.status_code, attempts=attempts)
        elif isinstance(error, openai.APIStatusError):
            message = t("llm.refused", status=error.status_code)
        elif isinstance(error, openai.LengthFinishReasonError):
            message = t("llm.cut_off")
        elif isinstance(error, openai.ContentFilterFinishReasonError):
            message = t("llm.content_filter")
        else:
            message = t("llm.failed")
        return LLMError(message, detail=self._scrub(f"{type(error).__name__}: {error}"))

    def _scrub(self, text: str) -> str:
        # Error bodies from some servers echo the key back; never let it reach logs or the UI.
        text = text.replace(self._api_key, "***")
        return text[:500]


def _run_config(role: str, tags: list[str] | None = None) -> dict[str, Any]:
    return {"tags": list(tags or []), "metadata": {"llm_role": role}, "run_name": f"llm:{role}"}


def _strip_fences(reply: str) -> str:
    """Accept a ```json fenced reply, which many models send despite being told not to."""
    text = reply.strip()
    match = _FENCE.match(text)
    return match.group("body").strip() if match else text


def _describe_validation_error(error: ValidationError) -> str:
    """Field-by-field, without the input values (they can be long) or pydantic's doc URLs."""
    lines = []
    for item in error.errors(include_url=False, include_input=False):
        location = ".".join(str(part) for part in item["loc"])
        lines.append(f"{location}: {item['msg']}" if location else item["msg"])
    return "; ".join(lines)
