"""Pick the model behind the LLM protocol from settings, and describe it for /healthz."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from core.i18n import t
from core.llm.base import LLM
from core.settings import Settings

OFFLINE_MODEL_NAME = "offline-deterministic"


def make_llm(settings: Settings) -> LLM:
    if settings.llm_provider == "offline":
        from core.llm.offline import OfflineLLM

        return OfflineLLM(max_concurrency=settings.llm_concurrency, latency_s=settings.offline_latency_s)
    if settings.llm_provider == "openai":
        # Imported here so the offline path never loads langchain-openai / openai.
        from core.llm.openai_provider import OpenAICompatibleLLM

        return OpenAICompatibleLLM(settings)  # raises ValueError naming LLM_BASE_URL if it is missing
    raise ValueError(t("llm.unknown_provider", provider=settings.llm_provider))


def describe_llm(settings: Settings) -> dict[str, Any]:
    """Provider, model and endpoint — never the API key — for health checks and logs."""
    if settings.llm_provider == "offline":
        return {"provider": "offline", "model": OFFLINE_MODEL_NAME}
    described: dict[str, Any] = {
        "provider": settings.llm_provider,
        "model": settings.llm_model,
        "baseUrl": _public_url(settings.llm_base_url) if settings.llm_base_url else None,
    }
    if settings.llm_models:
        described["roleModels"] = dict(settings.llm_models)
    return described


def _host(url: str) -> tuple[str, int | None, str, str]:
    """(host, port, scheme, path) of a URL, without the credentials a base URL may carry (user:pass@host)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal: urlsplit drops the brackets
        host = f"[{host}]"
    return host, parts.port, parts.scheme, parts.path


def _public_url(url: str) -> str:
    # A base URL may carry credentials (user:pass@host, ?api-key=…); show only scheme, host and path.
    host, port, scheme, path = _host(url)
    return urlunsplit((scheme, f"{host}:{port}" if port else host, path, "", ""))


def endpoint_of(url: str) -> str:
    """host:port of a base URL (the scheme's default port when it names none): what a sentence may show."""
    host, port, scheme, _path = _host(url)
    port = port or {"http": 80, "https": 443}.get(scheme)
    return f"{host}:{port}" if port else host
