"""Who is asking: API-token users, thread ownership, the loopback rule for AUTH_MODE=none, allowed origins.

Tokens are `secrets.token_urlsafe(32)`, shown once by `ng users add`; only their SHA-256 is stored
(a 256-bit random token needs no slow hash: there is nothing to guess from the digest).
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
import time
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiosqlite

from app.errors import ConfigError, RequestError
from app.store import LOCAL_OWNER, Store
from core.i18n import t
from core.settings import Settings

TOKEN_COOKIE = "agent_canvas_token"
USER_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

USERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
);
"""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def owner_of(thread: dict) -> str:
    # Threads stored before owners existed belong to the local user.
    return thread.get("owner") or LOCAL_OWNER


def thread_not_found(thread_id: str) -> RequestError:
    # The runtime's sentence: one wording for an unknown thread, in the surface's word for it (会话 / 线程).
    return RequestError("not_found", t("runtime.no_thread", thread=thread_id))


async def owned_thread(store: Store, thread_id: str, user: str | None) -> dict[str, Any]:
    """The thread if `user` owns it; another user's thread is answered exactly as a missing one.

    `user=None` is the operator at the data directory (`ng threads`), who may touch every thread.
    """
    thread = await store.get_thread(thread_id)
    if thread is None or (user is not None and owner_of(thread) != user):
        raise thread_not_found(thread_id)
    return thread


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings, host: str) -> None:
    """AUTH_MODE=none trusts everyone who can reach the port, so it may only listen on loopback."""
    if settings.auth_mode == "none" and not is_loopback(host):
        raise ConfigError(t("server.auth_none_not_loopback", host=host or "0.0.0.0"))


class UserDirectory:
    """The `users` table beside the threads in DATA_DIR's SQLite file, on its own connection."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> UserDirectory:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path)
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.executescript(USERS_SCHEMA)
        await self._db.commit()
        return self

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def __aenter__(self) -> UserDirectory:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        assert self._db is not None, "UserDirectory.open() was not awaited"
        return self._db

    async def add(self, name: str) -> str | None:
        """Create the user and return its new token, or None when the name is taken."""
        token = secrets.token_urlsafe(32)
        try:
            await self.db.execute(
                "INSERT INTO users(name, token_sha256, created_at) VALUES (?,?,?)", (name, hash_token(token), time.time())
            )
        except aiosqlite.IntegrityError:
            return None
        await self.db.commit()
        return token

    async def remove(self, name: str) -> bool:
        cursor = await self.db.execute("DELETE FROM users WHERE name = ?", (name,))
        await self.db.commit()
        return cursor.rowcount > 0

    async def list(self) -> list[tuple[str, float]]:
        async with self.db.execute("SELECT name, created_at FROM users ORDER BY name") as cur:
            return [(row[0], row[1]) for row in await cur.fetchall()]

    async def user_for(self, token: object) -> str | None:
        if not isinstance(token, str) or not token or len(token) > 512:
            return None
        async with self.db.execute("SELECT name FROM users WHERE token_sha256 = ?", (hash_token(token),)) as cur:
            row = await cur.fetchone()
        return row[0] if row else None


def user_directory(settings: Any) -> UserDirectory:
    """Users beside the threads: in DATA_DIR's SQLite file, or in Postgres with STORE=postgres."""
    if settings.store == "postgres":
        from app.store import open_store
        from app.store_postgres import PostgresUserDirectory

        store = open_store(settings)  # checks the URL and the extra
        return PostgresUserDirectory(store.url, settings.files_dir)  # type: ignore[return-value]
    return UserDirectory(settings.store_path)


def valid_user_name(name: str) -> bool:
    return bool(USER_NAME.fullmatch(name)) and name != LOCAL_OWNER


def token_from_headers(authorization: str | None, cookie_header: str | None) -> str | None:
    """`Authorization: Bearer …` first, else the sign-in cookie."""
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip()
    if cookie_header:
        cookie = SimpleCookie()
        try:
            cookie.load(cookie_header)
        except Exception:  # a malformed Cookie header is simply no token
            return None
        if TOKEN_COOKIE in cookie:
            return cookie[TOKEN_COOKIE].value
    return None


class OriginPolicy:
    """Browser origins allowed to call this server: its own (as bound, plus loopback names) and ALLOWED_ORIGINS.

    Compared with the configured address, not the request's Host header: a page on a rebinding DNS
    name sends a matching Host, so trusting Host would let any site reach a localhost server.
    """

    def __init__(self, settings: Settings) -> None:
        self.host = settings.host
        self.extra = {_normal_origin(o) for o in settings.allowed_origins}

    def allows(self, origin: str | None, local_port: int | None) -> bool:
        if not origin:
            return True  # not a browser cross-origin request (CLI, tests, same-origin navigation)
        normal = _normal_origin(origin)
        if normal in self.extra:
            return True
        if local_port is None:
            return False
        hosts = {self.host, *LOOPBACK_NAMES} if is_loopback(self.host) else {self.host}
        own = {f"{scheme}://{host}:{local_port}" for host in hosts for scheme in ("http", "https")}
        return normal in own


def _normal_origin(origin: str) -> str:
    try:
        parts = urlsplit(origin.strip().lower())
    except ValueError:
        return origin
    if not parts.scheme or not parts.hostname:
        return origin
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    try:
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return origin
    return f"{parts.scheme}://{host}:{port}"
