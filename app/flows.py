"""The one registry of flows: name → FlowDefinition. Nothing flow-specific lives in the runtime."""

from __future__ import annotations

import importlib

from core.i18n import catalogue, t
from graphs.base import FlowDefinition

FLOW_MODULES = ("graphs.ppt", "graphs.requirement", "graphs.novel.workflow", "graphs.novel", "graphs.legal")


def load_flows(modules: tuple[str, ...] = FLOW_MODULES) -> dict[str, FlowDefinition]:
    flows: dict[str, FlowDefinition] = {}
    for module_name in modules:
        flow = importlib.import_module(module_name).FLOW
        flows[flow.name] = flow
    return flows


def flow_text(flow: FlowDefinition, field: str) -> str:
    """The flow's title or description in the user's language; a flow not yet in flows.toml keeps its own."""
    key = f"flows.{flow.name}_{field}"
    return t(key) if key in catalogue() else getattr(flow, field)
