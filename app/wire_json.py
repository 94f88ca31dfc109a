"""JSON text for what leaves the process: the event log's rows and every Socket.IO packet.

orjson behind the standard library's `dumps`/`loads` interface (python-socketio's `json=` option
takes such a module). It is several times the standard library's speed on the per-event paths
(bench/), writes UTF-8 as is (Chinese text takes half the bytes of `\\u` escapes) and writes NaN as
null, where the standard library writes `NaN`, which a browser's JSON.parse refuses.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any, **_standard_options: Any) -> str:
    """Compact JSON; the standard library's options (separators, say) are what orjson does anyway."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson does not take (an int beyond 64 bits, say): the standard library's
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    """Raises ValueError (json.JSONDecodeError) on malformed text, as json.loads does."""
    return orjson.loads(text)
