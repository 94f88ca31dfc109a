"""The JSON every live event and stored row is written with (python-socketio's `json=` module)."""

from __future__ import annotations

import json

import pytest

from app import wire_json


def _strict(text: str):
    """Parse as a browser's JSON.parse would: NaN and Infinity are not JSON."""
    def refuse(constant: str):
        raise ValueError(constant)

    return json.loads(text, parse_constant=refuse)


def test_a_number_a_browser_cannot_parse_goes_out_as_null():
    text = wire_json.dumps({"values": [1.5, float("nan"), float("inf")]})
    assert _strict(text) == {"values": [1.5, None, None]}


def test_chinese_text_goes_out_as_utf8_not_escapes():
    text = wire_json.dumps({"message": "质检通过"})
    assert "质检通过" in text and "\\u" not in text


def test_what_orjson_refuses_still_goes_out():
    assert _strict(wire_json.dumps({"big": 10**30, 3: "int key"})) == {"big": 10**30, "3": "int key"}


def test_malformed_text_from_a_client_is_a_value_error():
    with pytest.raises(ValueError):
        wire_json.loads('{"event": ')
