"""The one registry of flows: name → FlowDefinition. Nothing flow-specific lives in the runtime."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from core.i18n import catalogue, t

if TYPE_CHECKING:  # `ng threads` and `ng --help` label nodes without loading LangGraph
    from langgraph.graph import StateGraph

    from graphs.base import FlowDefinition

FLOW_MODULES = ("graphs.ppt", "graphs.requirement", "graphs.novel.workflow", "graphs.novel", "graphs.legal")


def load_flows(modules: tuple[str, ...] = FLOW_MODULES) -> dict[str, FlowDefinition]:
    flows: dict[str, FlowDefinition] = {}
    for module_name in modules:
        flow = importlib.import_module(module_name).FLOW
        flows[flow.name] = flow
    return flows


def node_label(node_id: str) -> str:
    """A node's display name in the user's language (nodes.toml); a node the catalogue does not name keeps its id."""
    key = f"nodes.{node_id}"
    return t(key) if key in catalogue() else node_id


def node_names(graph: StateGraph) -> dict[str, str]:
    """{node id: display name} for every node of a flow's graph (`toolName` on the wire is the node id)."""
    return {node_id: node_label(node_id) for node_id in graph.nodes}


def flow_terms(flow: FlowDefinition) -> dict[str, dict[str, str]]:
    """The flow's terms ({kind: {id: name}}) in the user's language."""
    return {kind: {term: t(key) for term, key in keys.items()} for kind, keys in flow.terms.items()}


def flow_text(flow: FlowDefinition, field: str, locale: str | None = None) -> str:
    """The flow's title or description in the user's language; a flow not yet in flows.toml keeps its own."""
    key = f"flows.{flow.name}_{field}"
    return t(key, locale=locale) if key in catalogue() else getattr(flow, field)
