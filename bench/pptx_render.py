"""Slide DSL → .pptx per slide: the QA-gated renderer vs bare python-pptx, in the same run.

The 15-slide deck is made by the real PPT graph on the offline model (a 13-minute request, so
slide_count_for(13) == 15), once; only rendering is timed.

  bare        Presentation() with the default 4:3 template, each slide on "Title and Content": title,
              bullets, notes; save to bytes (no layouts, no theme, no fitting, no icons)
  render      graphs.ppt.render.render_pptx: clean + measure with real font metrics + one type scale +
              split, WCAG theme, typed layouts (icons, tables, charts, diagrams), a:ea + lang on runs
  gated       graphs.ppt.qa.gate: render, then the QA gate re-reads the .pptx and checks it (19 checks)
              — what the pipeline's check_deck node does

All three alternate in this process, median of --runs, reported per slide. Icon PNGs and glyph
widths are cached per process (the warm-up fills the caches, as a running server's would be).

    .venv/bin/python bench/pptx_render.py [--runs 10] [--lang zh|en]
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
from graphs.ppt.qa import gate
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
        items = spec.bullets or [spec.title]
        body.text = items[0]
        for item in items[1:]:
            body.add_paragraph().text = item
        slide.notes_slide.notes_text_frame.text = spec.notes
    buffer = io.BytesIO()
    prs.save(buffer)
    return buffer.getvalue()


def render_gated(deck: SlideDeck) -> bytes:
    outcome = gate(deck, 13)
    assert outcome.report.passed, [i.message for i in outcome.report.issues]
    return outcome.pptx


def main(runs: int, language: str) -> None:
    deck = asyncio.run(make_deck(language))
    slides = len(deck.slides)
    assert slides == 15, slides
    variants = {"bare python-pptx": render_bare, "render (no gate)": render_pptx, "render + QA gate": render_gated}
    for fn in variants.values():  # warm-up: imports, template, icon and glyph caches
        fn(deck)
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(runs):
        for name, fn in variants.items():
            start = time.perf_counter()
            fn(deck)
            times[name].append(time.perf_counter() - start)
    per_slide = {name: median(values) * 1000 / slides for name, values in times.items()}
    layouts = sorted({s.layout for s in deck.slides})
    print(f"DSL → PPTX, {slides} slides ({language}; {len(layouts)} layouts: {', '.join(layouts)}), median of {runs}\n")
    base = per_slide["bare python-pptx"]
    for name, ms in per_slide.items():
        print(f"  {name:18} {ms:7.2f} ms/slide   {ms * slides:8.1f} ms/deck   {ms / base:5.2f}× bare")
    emit_summary(
        "pptx_render",
        [{"metric": f"ms per slide ({language}), render + QA gate vs bare python-pptx",
          "value": f"{per_slide['render + QA gate']:.1f}", "baseline": f"{base:.1f}",
          "ratio": f"{per_slide['render + QA gate'] / base:.2f}x"},
         {"metric": f"ms per slide ({language}), render without the gate vs bare python-pptx",
          "value": f"{per_slide['render (no gate)']:.1f}", "baseline": f"{base:.1f}",
          "ratio": f"{per_slide['render (no gate)'] / base:.2f}x"}],
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--lang", choices=sorted(REQUESTS), default="zh")
    args = parser.parse_args()
    main(args.runs, args.lang)
