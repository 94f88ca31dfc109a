"""Slide DSL → .pptx with python-pptx: 16:9 layouts, theme colours and fonts, CJK-safe text, notes.

python-pptx's default template is 4:3; widening the slide does not move its placeholders, so the
master and every layout are re-laid for 16:9 before any slide is added. Text is budgeted by box
capacity (fit_text() needs font files and breaks on unbroken CJK strings).
"""

from __future__ import annotations

import functools
import io
import math
import re

from lxml import etree
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_SHAPE
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml.ns import qn
from pptx.util import Emu, Pt

from schemas.ppt import SlideDeck, SlideSpec

SLIDE_WIDTH = Emu(12192000)  # 13.333 in
SLIDE_HEIGHT = Emu(6858000)  # 7.5 in
LAYOUT_INDEX = {"title": 0, "bullets": 1, "section": 2, "two_column": 3, "closing": 1}
CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")
LINE_SPACING = 1.15
MIN_BODY_PT = 12


def _rgb(hex_color: str) -> RGBColor:
    return RGBColor.from_string(hex_color.lstrip("#").upper())


def _widen_layouts(prs) -> None:
    """Re-lay the 4:3 master and layouts across the 16:9 width, keeping their margins proportional.

    A layout placeholder without its own position reads its master's, so every geometry is read
    before any is written (else inherited ones widen twice), and all four values are written.
    """
    ratio = SLIDE_WIDTH / prs.slide_width
    geometry = [
        (shape, shape.left, shape.top, shape.width, shape.height)
        for holder in (prs.slide_master, *prs.slide_layouts)
        for shape in holder.shapes
        if None not in (shape.left, shape.top, shape.width, shape.height)
    ]
    prs.slide_width, prs.slide_height = SLIDE_WIDTH, SLIDE_HEIGHT
    for shape, left, top, width, height in geometry:
        shape.left, shape.top = int(left * ratio), top
        shape.width, shape.height = int(width * ratio), height


def _apply_theme(prs, deck: SlideDeck) -> None:
    """Write the deck's colours and fonts into the theme part, so PowerPoint's own UI offers them too."""
    theme_part = prs.slide_master.part.part_related_by(RT.THEME)
    root = etree.fromstring(theme_part.blob)
    ns = {"a": "http://schemas.openxmlformats.org/drawingml/2006/main"}
    colors = deck.theme.colorScheme
    slots = {"dk1": colors.text, "lt1": colors.background, "dk2": colors.primary, "lt2": "#F2F2F2",
             "accent1": colors.primary, "accent2": colors.secondary, "accent3": colors.accent}
    scheme = root.find(".//a:clrScheme", ns)
    scheme.set("name", deck.theme.themeName)
    for slot, value in slots.items():
        element = scheme.find(f"a:{slot}", ns)
        for child in list(element):
            element.remove(child)
        etree.SubElement(element, qn("a:srgbClr")).set("val", value.lstrip("#"))
    fonts = deck.theme.fontConfig
    for tag, latin in (("a:majorFont", fonts.titleFont), ("a:minorFont", fonts.bodyFont)):
        font = root.find(f".//{tag}", ns)
        font.find("a:latin", ns).set("typeface", latin)
        font.find("a:ea", ns).set("typeface", fonts.eastAsianFont)
    theme_part._blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _set_run_fonts(run, latin: str, east_asian: str, size_pt: float, color: str, bold: bool = False) -> None:
    font = run.font
    font.size = Pt(size_pt)
    font.bold = bold
    font.color.rgb = _rgb(color)
    font.name = latin  # writes <a:latin>
    rpr = run._r.get_or_add_rPr()
    latin_el = rpr.find(qn("a:latin"))
    for tag in ("a:cs", "a:ea"):  # schema order: latin, ea, cs
        existing = rpr.find(qn(tag))
        if existing is not None:
            rpr.remove(existing)
        element = etree.SubElement(rpr, qn(tag))
        element.set("typeface", east_asian)
        latin_el.addnext(element)


def _text_units(text: str) -> float:
    """Width of text in ems: CJK glyphs are square, Latin ones about half as wide."""
    cjk = len(CJK.findall(text))
    return cjk + (len(text) - cjk) * 0.55


def _lines_needed(text: str, box_width_pt: float, size_pt: float) -> int:
    per_line = max(1.0, box_width_pt / size_pt)
    return max(1, math.ceil(_text_units(text) / per_line))


def budget_text(items: list[str], box_width_pt: float, box_height_pt: float, size_pt: float) -> tuple[list[str], float]:
    """Shrink the font, then shorten items, until every line fits the box."""
    items = [item for item in items if item.strip()] or [""]
    size = size_pt
    while True:
        capacity = box_height_pt / (size * LINE_SPACING)
        needed = sum(_lines_needed(item, box_width_pt, size) for item in items) + 0.3 * (len(items) - 1)
        if needed <= capacity or size <= MIN_BODY_PT:
            break
        size -= 1
    capacity_lines = int(box_height_pt / (size * LINE_SPACING))
    kept: list[str] = []
    used = 0
    for item in items:
        lines = _lines_needed(item, box_width_pt, size)
        room = capacity_lines - used
        if room <= 0:
            break
        if lines > room:
            per_line = box_width_pt / size
            limit = max(1, int(room * per_line / (1.0 if CJK.search(item) else 0.55)) - 1)
            item = item[:limit].rstrip() + "…"
            lines = room
        kept.append(item)
        used += lines
    return kept, size


def _fill(frame, items: list[str], *, size_pt: float, fonts, color: str, bold: bool = False) -> None:
    frame.word_wrap = True
    shape = frame._parent
    box_w = Emu(shape.width).pt - 14.4  # default insets: 0.1 in left and right
    box_h = Emu(shape.height).pt - 7.2  # 0.05 in top and bottom
    kept, size = budget_text(items, box_w, box_h, size_pt)
    for i, text in enumerate(kept):
        paragraph = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
        paragraph.line_spacing = LINE_SPACING
        run = paragraph.add_run()
        run.text = text
        _set_run_fonts(run, fonts.bodyFont if not bold else fonts.titleFont, fonts.eastAsianFont, size, color, bold)


def _placeholder(slide, idx: int):
    for shape in slide.placeholders:
        if shape.placeholder_format.idx == idx:
            return shape
    return None


def _decorate(slide, deck: SlideDeck, spec: SlideSpec) -> None:
    colors = deck.theme.colorScheme
    background = slide.background.fill
    background.solid()
    background.fore_color.rgb = _rgb(colors.primary if spec.layout in ("title", "section") else colors.background)
    bar = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, 0, 0, SLIDE_WIDTH, Emu(91440))
    bar.fill.solid()
    bar.fill.fore_color.rgb = _rgb(colors.accent)
    bar.line.fill.background()
    # The bar is decoration: keep it behind the text in z-order.
    tree = slide.shapes._spTree
    tree.remove(bar._element)
    tree.insert(2, bar._element)


def _render_slide(prs, deck: SlideDeck, spec: SlideSpec) -> None:
    layout = prs.slide_layouts[LAYOUT_INDEX[spec.layout]]
    slide = prs.slides.add_slide(layout)
    _decorate(slide, deck, spec)
    fonts, colors = deck.theme.fontConfig, deck.theme.colorScheme
    on_dark = spec.layout in ("title", "section")
    title_color = "#FFFFFF" if on_dark else colors.primary
    text_color = "#FFFFFF" if on_dark else colors.text

    title = slide.shapes.title
    title.text_frame.clear()
    _fill(title.text_frame, [spec.title], size_pt=fonts.titleSize, fonts=fonts, color=title_color, bold=True)

    body = _placeholder(slide, 1)
    if spec.layout == "title":
        subtitle = spec.subtitle or (deck.title if deck.title != spec.title else "")
        lines = [subtitle] if subtitle else spec.bullets[:3]
        body.text_frame.clear()
        _fill(body.text_frame, lines, size_pt=fonts.bodySize, fonts=fonts, color=text_color)
    elif spec.layout == "section":
        body.text_frame.clear()
        _fill(body.text_frame, spec.bullets[:2], size_pt=fonts.bodySize, fonts=fonts, color=text_color)
    elif spec.layout == "two_column":
        body.text_frame.clear()
        _fill(body.text_frame, spec.bullets, size_pt=fonts.bodySize, fonts=fonts, color=text_color)
        right = _placeholder(slide, 2)
        right.text_frame.clear()
        heading = "可视化建议" if deck.language == "zh" else "Visual suggestions"
        _fill(right.text_frame, [heading, *spec.visuals], size_pt=fonts.bodySize - 2, fonts=fonts, color=colors.secondary)
    else:
        body.text_frame.clear()
        items = spec.bullets + ([f"▸ {v}" for v in spec.visuals] if spec.layout == "bullets" else [])
        _fill(body.text_frame, items, size_pt=fonts.bodySize, fonts=fonts, color=text_color)

    notes = slide.notes_slide.notes_text_frame
    notes.text = spec.notes
    for paragraph in notes.paragraphs:
        for run in paragraph.runs:
            _set_run_fonts(run, fonts.bodyFont, fonts.eastAsianFont, 12, "#000000")


@functools.lru_cache(maxsize=1)
def _widescreen_template() -> bytes:
    """The default template re-laid for 16:9 once per process (re-laying costs ~40% of a render)."""
    prs = Presentation()
    _widen_layouts(prs)
    buffer = io.BytesIO()
    prs.save(buffer)
    return buffer.getvalue()


def render_pptx(deck: SlideDeck) -> bytes:
    prs = Presentation(io.BytesIO(_widescreen_template()))
    _apply_theme(prs, deck)
    prs.core_properties.title = deck.title
    for spec in deck.slides:
        _render_slide(prs, deck, spec)
    buffer = io.BytesIO()
    prs.save(buffer)
    return buffer.getvalue()

