"""The one registry of flows: name → FlowDefinition. Nothing flow-specific lives in the runtime."""

from __future__ import annotations

import importlib

from graphs.base import FlowDefinition

FLOW_MODULES = ("graphs.ppt", "graphs.requirement", "graphs.novel.workflow", "graphs.novel", "graphs.legal")


def load_flows(modules: tuple[str, ...] = FLOW_MODULES) -> dict[str, FlowDefinition]:
    flows: dict[str, FlowDefinition] = {}
    for module_name in modules:
        flow = importlib.import_module(module_name).FLOW
        flows[flow.name] = flow
    return flows
