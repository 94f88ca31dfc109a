"""The QA gate (prepare, render, check, repair) on a warm process pool, or on a thread.

Renders are pure Python: threads rendering at once take turns on one GIL, so a second core stays
idle. A process pool lets it work, at the price of shipping the DSL in (JSON) and the file out.
Workers are started once per process and reused; each builds the 16:9 template when it starts,
and its glyph-width and icon caches fill on its first deck. `RENDER_PROCESSES` chooses: 0 renders on
a thread (the default: bench/render_pool.py measures both side by side on the machine at hand).
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor

from core.i18n import current_locale, set_locale
from graphs.ppt.qa import GateOutcome, gate
from graphs.ppt.render import render_pptx
from graphs.ppt.render.document import widescreen_template
from schemas.ppt import QaReport, SlideDeck

_pools: dict[int, ProcessPoolExecutor] = {}
_lock = threading.Lock()


def _warm() -> None:
    widescreen_template()


def _gate_job(deck_json: str, duration_minutes: int | None, locale: str) -> tuple[str, bytes, str]:
    set_locale(locale)  # the repairs' sentences are in the run's language
    outcome = gate(SlideDeck.model_validate_json(deck_json), duration_minutes)
    return outcome.deck.model_dump_json(), outcome.pptx, outcome.report.model_dump_json()


def _render_job(deck_json: str) -> bytes:
    return render_pptx(SlideDeck.model_validate_json(deck_json))


def pool(processes: int) -> ProcessPoolExecutor:
    """The process's pool of `processes` workers, started on first use ("spawn": the server has threads)."""
    with _lock:
        if processes not in _pools:
            _pools[processes] = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                                                    initializer=_warm)
        return _pools[processes]


def warm(processes: int) -> None:
    """Start every worker now (each runs its initializer), so the first decks do not pay for it."""
    executor = pool(processes)
    for future in [executor.submit(_warm) for _ in range(processes)]:
        future.result()


@atexit.register
def shutdown() -> None:
    with _lock:
        for executor in _pools.values():
            executor.shutdown(wait=False, cancel_futures=True)
        _pools.clear()


async def gate_deck(deck: SlideDeck, duration_minutes: int | None, processes: int = 0) -> GateOutcome:
    """`gate` on a thread (processes == 0) or on the warm pool of that many processes."""
    if processes <= 0:
        return await asyncio.to_thread(gate, deck, duration_minutes)
    deck_json, pptx, report_json = await asyncio.get_running_loop().run_in_executor(
        pool(processes), _gate_job, deck.model_dump_json(), duration_minutes, current_locale())
    return GateOutcome(deck=SlideDeck.model_validate_json(deck_json), pptx=pptx,
                       report=QaReport.model_validate_json(report_json))


async def render_deck(deck: SlideDeck, processes: int = 0) -> bytes:
    """`render_pptx` on a thread or on the pool, as `gate_deck`."""
    if processes <= 0:
        return await asyncio.to_thread(render_pptx, deck)
    return await asyncio.get_running_loop().run_in_executor(pool(processes), _render_job, deck.model_dump_json())
