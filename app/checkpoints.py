"""The LangGraph checkpointer chosen by settings: SQLite embedded, Postgres to scale out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.base import BaseCheckpointSaver

from core.settings import Settings


@asynccontextmanager
async def open_checkpointer(settings: Settings) -> AsyncIterator[BaseCheckpointSaver]:
    if settings.checkpointer == "postgres":
        if not settings.postgres_url:
            raise ValueError("CHECKPOINTER=postgres needs POSTGRES_URL")
        try:
            from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        except ImportError as error:  # the scale-out extra is optional
            raise ValueError("CHECKPOINTER=postgres needs: pip install -e '.[scale]'") from error
        async with AsyncPostgresSaver.from_conn_string(settings.postgres_url) as saver:
            await saver.setup()
            yield saver
        return
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(settings.checkpoint_path)) as saver:
        # Its other methods create the tables on first use; adelete_thread does not (ng threads delete
        # on a data directory that never ran a flow).
        await saver.setup()
        yield saver
