"""Slide DSL → .pptx: `prepare` (clean, fit, split, theme) then draw each page with its layout's planner.

Modules: text (cleaning, scripts), metrics (real font metrics), theme (WCAG), icons (Font Awesome),
base (type scale, text blocks, runs), layouts (one planner per layout), visuals (charts, tables,
diagrams), prepare (pagination), document (template, theme part).
"""

from __future__ import annotations

import io

from graphs.ppt.render import layouts
from lxml import etree
from pptx.oxml.ns import qn

from graphs.ppt.render.base import Style, add_runs, draw_block, rgb
from graphs.ppt.render.document import TITLE_ONLY_LAYOUT, SlideMaker, new_presentation
from graphs.ppt.render.icons import CREDIT
from graphs.ppt.render.prepare import Prepared, prepare
from graphs.ppt.render.text import script_runs
from schemas.ppt import SlideDeck, SlideSpec

NOTES_PT = 12


def _draw_slide(maker: SlideMaker, spec: SlideSpec, style: Style, last: bool) -> None:
    slide = maker.add_slide(TITLE_ONLY_LAYOUT)
    slide._element.cSld.set("name", spec.layout)  # the QA gate reads which layout a page uses
    page = layouts.plan(spec, style)
    fill = slide.background.fill
    fill.solid()
    fill.fore_color.rgb = rgb(page.background or style.palette.background)
    for draw in page.drawers:
        draw(slide)
    for block in page.blocks:
        draw_block(slide, block, style, bullet_color=style.palette.secondary if block.bullets else None)
    notes = spec.notes + (f"\n\n{CREDIT}" if last else "")
    body = maker.notes_body(slide)
    for i, text in enumerate(notes.split("\n")):
        paragraph = body.find(qn("a:p")) if i == 0 else etree.SubElement(body, qn("a:p"))
        add_runs(paragraph, [(piece, False, script) for piece, script in script_runs(text)], style.fonts, NOTES_PT, "#000000")


def render_document(prepared: Prepared):
    """The .pptx bytes and the python-pptx document they were saved from (what the QA gate reads)."""
    deck, style = prepared.deck, prepared.style
    prs = new_presentation(deck)
    maker = SlideMaker(prs)
    for i, spec in enumerate(deck.slides):
        _draw_slide(maker, spec, style, last=i == len(deck.slides) - 1)
    buffer = io.BytesIO()
    prs.save(buffer)
    return buffer.getvalue(), prs


def render_prepared(prepared: Prepared) -> bytes:
    return render_document(prepared)[0]


def render_pptx(deck: SlideDeck) -> bytes:
    """Prepare and render in one call (the prepared DSL is what the slides show)."""
    return render_prepared(prepare(deck))


__all__ = ["prepare", "Prepared", "render_document", "render_prepared", "render_pptx"]
