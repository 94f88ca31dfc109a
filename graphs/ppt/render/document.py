"""The .pptx document: a 16:9 template, the theme part (colours, fonts incl. East Asian), core properties."""

from __future__ import annotations

import functools
import io

from lxml import etree
from pptx import Presentation
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml.ns import qn
from pptx.util import Emu

from graphs.ppt.render.text import plain
from schemas.ppt import SlideDeck

SLIDE_WIDTH = Emu(12192000)  # 13.333 in
SLIDE_HEIGHT = Emu(6858000)  # 7.5 in
TITLE_ONLY_LAYOUT = 5
MAX_CORE_TITLE = 255  # python-pptx refuses longer core-properties titles


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


@functools.lru_cache(maxsize=1)
def widescreen_template() -> bytes:
    """The default template re-laid for 16:9 once per process (re-laying costs ~40% of a render)."""
    prs = Presentation()
    _widen_layouts(prs)
    buffer = io.BytesIO()
    prs.save(buffer)
    return buffer.getvalue()


def apply_theme(prs, deck: SlideDeck) -> None:
    """Write the deck's colours and fonts into the theme part, so PowerPoint's own UI offers them too."""
    theme_part = prs.slide_master.part.part_related_by(RT.THEME)
    root = etree.fromstring(theme_part.blob)
    ns = {"a": "http://schemas.openxmlformats.org/drawingml/2006/main"}
    colors = deck.theme.colorScheme
    slots = {"dk1": colors.text, "lt1": colors.background, "dk2": colors.primary, "lt2": "#F2F2F2",
             "accent1": colors.primary, "accent2": colors.secondary, "accent3": colors.accent}
    scheme = root.find(".//a:clrScheme", ns)
    scheme.set("name", plain(deck.theme.themeName)[:64] or "theme")
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


def new_presentation(deck: SlideDeck):
    prs = Presentation(io.BytesIO(widescreen_template()))
    apply_theme(prs, deck)
    title = plain(deck.title)
    prs.core_properties.title = title if len(title) <= MAX_CORE_TITLE else title[: MAX_CORE_TITLE - 1] + "…"
    prs.core_properties.language = "zh-CN" if deck.language == "zh" else "en-US"
    return prs
