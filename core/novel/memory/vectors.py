"""Story memory vectors in Qdrant: local mode under `DATA_DIR/novel_memory/qdrant` or a server (`QDRANT_URL`).

qdrant-client's local mode lets one client open a path, in any process: `QdrantOwner` holds the one
client per location for this process and closes them on shutdown (`close_all`, also at exit). A
second process finds the path locked; its searches then fall back to keyword search (degraded).
One collection per project and embedding size; a point's payload is the whole chunk, so a search
answers without the SQLite store.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import threading
import uuid
from collections.abc import Sequence
from typing import Any

from core.retrieval.embeddings import Embedder
from core.i18n import t
from core.settings import Settings
from schemas.novel import StoryMemoryChunk

log = logging.getLogger(__name__)


class VectorStoreUnavailable(Exception):
    """The vector store cannot be reached or used; callers fall back to keyword search."""


class QdrantOwner:
    """The process's Qdrant clients, one per location (server URL or local path)."""

    def __init__(self) -> None:
        self._clients: dict[str, Any] = {}
        self._lock = threading.Lock()

    def client(self, settings: Settings) -> Any:
        if settings.qdrant_url:
            key = settings.qdrant_url
        else:
            path = settings.novel_memory_dir / "qdrant"
            key = str(path.resolve())
        with self._lock:
            existing = self._clients.get(key)
            if existing is not None:
                return existing
            try:
                from qdrant_client import QdrantClient

                if settings.qdrant_url:
                    client = QdrantClient(
                        url=settings.qdrant_url,
                        api_key=settings.qdrant_api_key,
                        timeout=max(1, int(settings.qdrant_timeout_s)),
                        check_compatibility=False,  # a version probe per client start; a down server is reported on use
                    )
                else:
                    path.mkdir(parents=True, exist_ok=True)
                    client = QdrantClient(path=key)
            except Exception as error:  # locked by another process, unreadable storage, bad URL…
                raise VectorStoreUnavailable(_short(error)) from error
            self._clients[key] = client
            return client

    def close_all(self) -> None:
        with self._lock:
            clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            try:
                client.close()
            except Exception:  # closing at shutdown: nothing left to tell anyone
                log.debug("closing a Qdrant client failed", exc_info=True)


OWNER = QdrantOwner()
atexit.register(OWNER.close_all)


def collection_name(project_id: str, dim: int) -> str:
    # Project ids may be Chinese; collection names stay ASCII. The size is part of the name so a
    # change of embedder starts a fresh collection instead of failing on every upsert.
    digest = hashlib.sha256(project_id.encode()).hexdigest()[:16]
    return f"story_{digest}_{dim}"


def point_id(chunk_id: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, chunk_id))


class VectorIndex:
    """One project's collection on a given client."""

    def __init__(self, client: Any, project_id: str, embedder: Embedder) -> None:
        self.client = client
        self.embedder = embedder
        self.name = collection_name(project_id, embedder.dim)
        self._checked = False

    def _call(self, fn, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except VectorStoreUnavailable:
            raise
        except Exception as error:
            raise VectorStoreUnavailable(_short(error)) from error

    def ensure_collection(self) -> bool:
        """Create the collection if needed; True when it was just created (so everything needs vectors)."""
        if self._checked:
            return False
        from qdrant_client import models

        created = False
        if not self._call(self.client.collection_exists, self.name):
            self._call(
                self.client.create_collection,
                self.name,
                vectors_config=models.VectorParams(size=self.embedder.dim, distance=models.Distance.COSINE),
            )
            created = True
        self._checked = True
        return created

    def upsert(self, chunks: Sequence[StoryMemoryChunk], batch: int = 64) -> None:
        from qdrant_client import models

        self.ensure_collection()
        for start in range(0, len(chunks), batch):
            part = chunks[start : start + batch]
            vectors = self._call(self.embedder.embed_passages, [c.content for c in part])
            points = [
                models.PointStruct(
                    id=point_id(c.chunk_id),
                    vector=vector.tolist(),
                    payload=c.model_copy(update={"embedding_id": point_id(c.chunk_id)}).model_dump(mode="json"),
                )
                for c, vector in zip(part, vectors, strict=True)
            ]
            self._call(self.client.upsert, self.name, points=points, wait=True)

    def delete(self, chunk_ids: Sequence[str]) -> None:
        if not chunk_ids:
            return
        from qdrant_client import models

        self.ensure_collection()
        self._call(
            self.client.delete, self.name, points_selector=models.PointIdsList(points=[point_id(c) for c in chunk_ids])
        )

    def search(
        self,
        query: str,
        *,
        limit: int,
        entities: Sequence[str] | None = None,
        content_type: str | None = None,
        tags: Sequence[str] | None = None,
    ) -> list[tuple[StoryMemoryChunk, float]]:
        from qdrant_client import models

        self.ensure_collection()
        vector = self._call(self.embedder.embed_queries, [query])[0]
        conditions = []
        if entities:
            conditions.append(models.FieldCondition(key="entities_mentioned", match=models.MatchAny(any=list(entities))))
        if content_type:
            conditions.append(models.FieldCondition(key="content_type", match=models.MatchValue(value=content_type)))
        if tags:
            conditions.append(models.FieldCondition(key="tags", match=models.MatchAny(any=list(tags))))
        response = self._call(
            self.client.query_points,
            self.name,
            query=vector.tolist(),
            query_filter=models.Filter(must=conditions) if conditions else None,
            limit=limit,
            with_payload=True,
        )
        return [(StoryMemoryChunk.model_validate(p.payload), float(p.score)) for p in response.points]


def _short(error: BaseException) -> str:
    """The cause in the user's words; qdrant-client's own text (English) goes to the debug log."""
    text = str(error)
    log.debug("vector store error: %s", text)
    if "already accessed by another instance" in text:
        return t("novel.memory_vectors_in_use")
    if "closed" in text.lower():
        return t("novel.memory_vectors_closed")
    return t("novel.memory_vectors_error", kind=type(error).__name__)
