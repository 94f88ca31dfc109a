"""Slide DSL → .pptx: graphs.ppt.render.render_pptx vs bare python-pptx writing the same text.

The 15-slide deck is made by the real PPT graph on the offline model (a 13-minute request, so
slide_count_for(13) == 15), once; only rendering is timed.

  render_pptx  16:9 re-layout of master + layouts, theme colours/fonts into the theme part, per slide:
               background + accent bar, text budgeting (font shrink / truncation), run fonts incl. a:ea,
               notes with fonts; then save to bytes
  bare         Presentation() with the default 4:3 template, each slide on the "Title and Content"
               layout: title, bullets (plus visuals as bullets), notes text; save to bytes

Both run in this process, alternated, median of --runs; then render_pptx's phases are timed
separately (its private steps called in its own order).

    .venv/bin/python bench/pptx_render.py [--runs 20] [--lang zh|en]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import time

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, median

from pptx import Presentation

from core.llm.offline import OfflineLLM
from graphs.base import FlowContext
from graphs.ppt.graph import build_graph, initial_input
from graphs.ppt.render import render_pptx
from schemas.ppt import SlideDeck

REQUESTS = {
    "zh": "做一个关于光合作用的13分钟PPT，面向初中生",
    "en": "Make a 13 minute presentation about photosynthesis for high school students",
}


async def make_deck(language: str) -> SlideDeck:
    graph = build_graph().compile()  # no checkpointer: just the offline pipeline
    state = await graph.ainvoke(initial_input(REQUESTS[language], {}), context=FlowContext(llm=OfflineLLM()))
    return SlideDeck.model_validate(state["deck"])


def render_bare(deck: SlideDeck) -> bytes:
    prs = Presentation()
    layout = prs.slide_layouts[1]  # Title and Content
    for spec in deck.slides:
        slide = prs.slides.add_slide(layout)
        slide.shapes.title.text = spec.title
        body = slide.placeholders[1].text_frame
        items = spec.bullets + spec.visuals
        body.text = items[0] if items else ""
        for item in items[1:]:
            body.add_paragraph().text = item
        slide.notes_slide.notes_text_frame.text = spec.notes
    buffer = io.BytesIO()
    prs.save(buffer)
    return buffer.getvalue()


def timed(fn, deck: SlideDeck) -> tuple[float, int]:
    start = time.perf_counter()
    data = fn(deck)
    return time.perf_counter() - start, len(data)


def phase_times(deck: SlideDeck, runs: int) -> list[tuple[str, float]]:
    """Median seconds of render_pptx's phases, timed by calling its steps in its order (no profiler)."""
    from graphs.ppt import render

    def once() -> list[float]:
        marks = [time.perf_counter()]
        prs = Presentation()
        marks.append(time.perf_counter())
        render._widen_layouts(prs)
        marks.append(time.perf_counter())
        render._apply_theme(prs, deck)
        prs.core_properties.title = deck.title
        marks.append(time.perf_counter())
        for spec in deck.slides:
            render._render_slide(prs, deck, spec)
        marks.append(time.perf_counter())
        prs.save(io.BytesIO())
        marks.append(time.perf_counter())
        return [b - a for a, b in zip(marks, marks[1:])]

    samples = [once() for _ in range(runs)]
    labels = ["Presentation() (default template)", "_widen_layouts (master + 11 layouts)", "_apply_theme",
              f"_render_slide × {len(deck.slides)}", "save"]
    return [(label, median([sample[i] for sample in samples])) for i, label in enumerate(labels)]


def widened_template_open(runs: int) -> float:
    """What-if: open a template that was widened once and saved, instead of widening on every render."""
    from graphs.ppt import render

    prs = Presentation()
    render._widen_layouts(prs)
    buffer = io.BytesIO()
    prs.save(buffer)
    template = buffer.getvalue()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        Presentation(io.BytesIO(template))
        times.append(time.perf_counter() - start)
    return median(times)


def main(runs: int, language: str) -> None:
    deck = asyncio.run(make_deck(language))
    assert len(deck.slides) == 15, len(deck.slides)
    for _ in range(2):  # warm-up: imports, template parsing caches
        render_pptx(deck)
        render_bare(deck)
    ours, bare = [], []
    sizes = {}
    for _ in range(runs):
        t, sizes["render_pptx"] = timed(render_pptx, deck)
        ours.append(t)
        t, sizes["bare"] = timed(render_bare, deck)
        bare.append(t)
    ours_ms, bare_ms = median(ours) * 1000, median(bare) * 1000

    layouts = {}
    for spec in deck.slides:
        layouts[spec.layout] = layouts.get(spec.layout, 0) + 1
    print(f"DSL → PPTX, {len(deck.slides)} slides ({language}; layouts {layouts}), median of {runs}\n")
    print(f"  render_pptx      {ours_ms:8.2f} ms   min {min(ours) * 1000:7.2f}   {sizes['render_pptx'] / 1024:6.1f} KB")
    print(f"  bare python-pptx {bare_ms:8.2f} ms   min {min(bare) * 1000:7.2f}   {sizes['bare'] / 1024:6.1f} KB")
    print(f"  ratio            {ours_ms / bare_ms:8.2f}×   ({(ours_ms - bare_ms) / len(deck.slides):.2f} ms extra per slide)")

    print(f"\nrender_pptx by phase (median of {runs}, unprofiled):")
    for label, seconds in phase_times(deck, runs):
        print(f"  {label:40} {seconds * 1000:8.2f} ms")
    print(f"  what-if: open a once-widened template     {widened_template_open(runs) * 1000:8.2f} ms"
          " (instead of Presentation() + _widen_layouts)")

    emit_summary(
        "pptx_render",
        [{"metric": f"15-slide DSL→PPTX ms ({language}), render_pptx vs bare python-pptx", "value": f"{ours_ms:.1f}",
          "baseline": f"{bare_ms:.1f}", "ratio": f"{ours_ms / bare_ms:.2f}x"}],
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--lang", choices=sorted(REQUESTS), default="zh")
    args = parser.parse_args()
    main(args.runs, args.lang)
