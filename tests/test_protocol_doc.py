"""docs/protocol.md is the contract a cloner reads: it must name every event, field, artifact type and
ack error code the code in schemas/ and app/ actually uses."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from aiohttp import web

from app.server import OriginPolicy, attach_socketio
from core.settings import Settings
from schemas import events

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "protocol.md"

# Models the doc describes in a table row of their own, keyed by the name in the row's first cell.
NAMED_MODELS = {
    "Envelope": events.Envelope,
    "ThreadInfo": events.ThreadInfo,
    "ArtifactRef": events.ArtifactRef,
    "ThreadSummary": events.ThreadSummary,
    "FlowInfo": events.FlowInfo,
}


def table_rows(markdown: str) -> dict[str, str]:
    """First cell (without backticks) → the whole row, for every markdown table row of the doc."""
    rows: dict[str, str] = {}
    for line in markdown.splitlines():
        if line.startswith("|") and not set(line) <= set("|-: "):
            first = line.split("|")[1].strip().strip("`")
            rows.setdefault(first, line)
    return rows


def fields_missing(row: str, model: type) -> list[str]:
    return [name for name in model.model_fields if not re.search(rf"`{re.escape(name)}\??`", row)]


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def rows(doc: str) -> dict[str, str]:
    return table_rows(doc)


# Events to a thread's room, history batches, and events to all of a user's connections.
SERVER_EVENT_MODELS = {**events.EVENT_MODELS, **events.BATCH_EVENT_MODELS, **events.USER_EVENT_MODELS}


@pytest.mark.parametrize("event", sorted(SERVER_EVENT_MODELS))
def test_every_server_event_and_each_of_its_fields_is_documented(rows: dict[str, str], event: str):
    assert event in rows, f"server event {event!r} has no row in docs/protocol.md"
    assert fields_missing(rows[event], SERVER_EVENT_MODELS[event]) == []


@pytest.mark.parametrize("event", sorted(events.CLIENT_EVENT_MODELS))
def test_every_client_event_and_each_of_its_fields_is_documented(rows: dict[str, str], event: str):
    assert event in rows, f"client event {event!r} has no row in docs/protocol.md"
    assert fields_missing(rows[event], events.CLIENT_EVENT_MODELS[event]) == []


@pytest.mark.parametrize("name", sorted(NAMED_MODELS))
def test_envelope_and_ack_bodies_list_every_field(rows: dict[str, str], name: str):
    assert name in rows
    assert fields_missing(rows[name], NAMED_MODELS[name]) == []


def test_artifact_fields_each_have_a_row(rows: dict[str, str]):
    assert [f for f in events.Artifact.model_fields if f not in rows] == []


def test_every_artifact_type_has_a_content_model_row(rows: dict[str, str]):
    assert [t.value for t in events.ArtifactType if t.value not in rows] == []


def test_every_thread_status_is_named(doc: str):
    assert [s.value for s in events.ThreadStatus if f"`{s.value}`" not in doc] == []


def ack_codes_used_in_code() -> set[str]:
    pattern = re.compile(r"(?:RequestError|error_ack|http_error)\(\s*(?:\d+,\s*)?\"([a-z_]+)\"")
    found: set[str] = set()
    for path in [*ROOT.joinpath("app").rglob("*.py"), *ROOT.joinpath("graphs").rglob("*.py")]:
        found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_ack_error_code_has_a_row(rows: dict[str, str]):
    allowed = set(typing.get_args(events.AckError.model_fields["code"].annotation))
    used = ack_codes_used_in_code()
    assert used, "the scan for error codes found none: the pattern no longer matches the code"
    assert used <= allowed, f"codes used but not allowed by AckError: {used - allowed}"
    assert sorted(c for c in allowed if c not in rows) == []


def test_server_handles_exactly_the_documented_client_events():
    settings = Settings(_env_file=None)
    sio = attach_socketio(web.Application(), settings, OriginPolicy(settings))
    # "*" answers any undocumented event with bad_request (see Transport).
    handled = {name for name in sio.handlers["/"] if name not in ("connect", "disconnect", "*")}
    assert handled == set(events.CLIENT_EVENT_MODELS)


def test_a_field_added_to_a_schema_without_a_doc_row_is_caught(rows: dict[str, str]):
    # The check above must be able to fail: a model with one undocumented field fails it.
    extended = type("Extended", (events.ProgressEvent,), {"__annotations__": {"etaSeconds": float}, "etaSeconds": 0.0})
    assert fields_missing(rows["progress"], extended) == ["etaSeconds"]


def test_doc_points_nowhere_outside_the_repository():
    for path in [ROOT / "README.md", ROOT / "schemas" / "events.py", *ROOT.joinpath("static").rglob("*.js")]:
        assert "shared/protocol.md" not in path.read_text(encoding="utf-8"), path


def test_every_option_a_flow_accepts_is_documented_and_a_flow_without_options_says_so(doc: str):
    from app.flows import load_flows

    options_table = doc.split("### Flow options", 1)[1].split("\n## ", 1)[0]
    for flow in load_flows().values():
        if flow.option_names is None:
            continue
        rows = [line for line in options_table.splitlines() if line.startswith(f"| `{flow.name}` |")]
        documented = {re.search(r"\| `[^`]+` \| (\S+)", row).group(1).strip("`") for row in rows}
        assert documented == (set(flow.option_names) or {"–"}), (flow.name, documented)
