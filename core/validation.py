"""Pydantic's validation errors told in the user's language.

Pydantic writes its own English `msg` for every error; a user reads instead the catalogue sentence
(`core/messages/validation.toml`) for the error's `type`, naming the field by its name on the wire
(`threadId`, `options.repo`, `questions[0]`), with a generic sentence for types not listed here.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from core.i18n import join_clauses, join_items, t

MAX_DETAILS = 3  # errors told per refusal; one payload rarely has more worth reading

# What a `*_type` / `*_parsing` error expected, as a catalogue phrase.
EXPECTED_KINDS = {
    "string": "expected_text", "str": "expected_text",
    "int": "expected_integer", "float": "expected_number", "decimal": "expected_number",
    "bool": "expected_boolean", "list": "expected_list", "tuple": "expected_list", "set": "expected_list",
    "dict": "expected_object", "model": "expected_object", "model_attributes": "expected_object",
    "dataclass": "expected_object", "none": "expected_null",
    "datetime": "expected_datetime", "datetime_from_date": "expected_datetime", "date": "expected_datetime",
    "json": "expected_json",
}
KIND_ERROR = re.compile(r"(?P<kind>.+?)_(?:type|parsing|from_float|exact)$")
BOUNDS = {"greater_than": "gt", "greater_than_equal": "ge", "less_than": "lt", "less_than_equal": "le", "multiple_of": "multiple_of"}
# Pydantic lists literal/enum choices as "'a', 'b' or 'c'".
CHOICE = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^,\s]+")


def expected_kind(error_type: str) -> str | None:
    """The catalogue phrase for what a type error expected ("an integer"), or None for other errors."""
    if error_type == "int_from_float":
        return t("validation.expected_integer")
    match = KIND_ERROR.fullmatch(error_type)
    key = EXPECTED_KINDS.get(match["kind"]) if match else None
    return t(f"validation.{key}") if key else None


def field_path(loc: tuple[Any, ...], data: Any = None, *, missing: bool = False) -> str:
    """`loc` as the user wrote it: `options.repo`, `questions[0].text`.

    With the payload `data`, parts that index nothing in it are left out: pydantic adds the member
    type of a union (`str`, `int`, `list[str]`) to the location, and the user never wrote those.
    """
    parts: list[Any] = []
    current = data
    for index, part in enumerate(loc):
        if data is not None:
            last = index == len(loc) - 1
            if isinstance(current, dict) and (part in current or (missing and last)):
                current = current.get(part)
            elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
                current = current[part]
            else:
                continue
        parts.append(part)
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def describe_error(item: dict[str, Any], field: str) -> str:
    """One pydantic error (an item of `ValidationError.errors()`) as a catalogue phrase naming `field`."""
    kind, ctx = item["type"], item.get("ctx") or {}
    if kind in ("missing", "extra_forbidden", "json_invalid"):
        return t(f"validation.{kind}", field=field)
    if kind in ("string_too_short", "too_short"):
        if ctx.get("min_length") == 1:
            return t("validation.empty", field=field)
        return t(f"validation.{kind}", field=field, limit=ctx.get("min_length"))
    if kind in ("string_too_long", "too_long"):
        return t(f"validation.{kind}", field=field, limit=ctx.get("max_length"))
    if kind in BOUNDS:
        return t(f"validation.{kind}", field=field, limit=ctx.get(BOUNDS[kind]))
    if kind in ("literal_error", "enum"):
        choices = CHOICE.findall(str(ctx.get("expected", "")).replace(" or ", ", "))
        return t("validation.one_of", field=field, choices=join_items(choices))
    if (expected := expected_kind(kind)) is not None:
        return t("validation.wrong_type", field=field, expected=expected)
    return t("validation.invalid", field=field)


def describe_validation_error(error: ValidationError, data: Any = None, *, name=None) -> str:
    """Up to MAX_DETAILS of the errors, each a catalogue phrase; `name(path)` renames fields (e.g. to a setting's env name)."""
    phrases = []
    for item in error.errors(include_url=False)[:MAX_DETAILS]:
        path = field_path(tuple(item["loc"]), data, missing=item["type"] == "missing")
        field = t("validation.field", name=name(path) if name else path) if path else t("validation.the_payload")
        phrases.append(describe_error(item, field))
    return join_clauses(phrases)
