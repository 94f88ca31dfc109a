"""People read names, not ids: `GET /api/flows` names every node of every flow, and the ids the legal flow
shows in its answer, from the message catalogue in the server's language."""

from __future__ import annotations

import pytest

from app.flows import load_flows
from core.i18n import set_locale, t
from schemas.legal import CATEGORIES, INTENTS
from tests.test_ppt_socket import fetch_json

GRAPH_NODES = {name: set(flow.build_graph().nodes) for name, flow in load_flows().items()}


@pytest.fixture
async def flows_in(start_server):
    async def load(locale: str) -> dict[str, dict]:
        server = await start_server(locale=locale)
        try:
            return {f["name"]: f for f in await fetch_json(f"{server.url}/api/flows")}
        finally:
            set_locale("zh")  # the server set the process locale; the next test starts in the default

    return load


@pytest.mark.parametrize("locale", ["zh", "en"])
async def test_every_node_of_every_flow_is_served_with_its_catalogue_name(flows_in, locale):
    flows = await flows_in(locale)

    assert set(flows) == set(GRAPH_NODES)
    for name, nodes in GRAPH_NODES.items():
        served = flows[name]["nodes"]
        assert set(served) == nodes, name
        unnamed = sorted(node for node, label in served.items() if label == node)
        assert unnamed == [], f"{name}: nodes without a catalogue name in {locale}"
        assert served == {node: t(f"nodes.{node}", locale=locale) for node in nodes}


@pytest.mark.parametrize("locale", ["zh", "en"])
async def test_the_legal_intents_and_fields_of_law_are_served_by_name(flows_in, locale):
    terms = (await flows_in(locale))["legal"]["terms"]

    assert terms["intent"] == {i: t(f"legal.intent_{i}", locale=locale) for i in INTENTS}
    assert terms["category"] == {c: t(f"legal.category_{c}", locale=locale) for c in CATEGORIES}
    assert not set(terms["intent"].values()) & set(INTENTS), "a name, never the id"

