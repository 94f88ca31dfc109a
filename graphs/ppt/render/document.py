"""The .pptx document: a 16:9 template, the theme part (colours, fonts incl. East Asian), core properties."""

from __future__ import annotations

import copy
import functools
import io
import itertools
import re

from lxml import etree
from pptx import Presentation
from pptx.opc.constants import CONTENT_TYPE as CT
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.opc.packuri import PackURI
from pptx.parts.slide import NotesSlidePart
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


class SlideMaker:
    """New slides and their notes slides, the placeholders cloned once per layout and copied after.

    python-pptx clones each placeholder of the layout (and of the notes master) element by element
    for every slide, and looks for a free notes part name by walking the whole package: together a
    quarter of a render. The first slide of a layout and the first notes slide go through
    python-pptx; later ones get a copy of their untouched shape tree, so the XML is the same.
    """

    def __init__(self, prs) -> None:
        self.prs = prs
        self.slides = prs.slides
        self._trees: dict[int, etree._Element] = {}
        self._notes: etree._Element | None = None
        self._notes_number = 0
        self._notes_body = 0

    def add_slide(self, layout_index: int):
        layout = self.prs.slide_layouts[layout_index]
        tree = self._trees.get(layout_index)
        if tree is None:
            slide = self.slides.add_slide(layout)
            self._trees[layout_index] = copy.deepcopy(slide._element.cSld.spTree)
            return slide
        rId, slide = self.prs.part.add_slide(layout)
        old = slide._element.cSld.spTree
        old.getparent().replace(old, copy.deepcopy(tree))
        self.slides._sldIdLst.add_sldId(rId)
        return slide

    def notes_body(self, slide):
        """The (empty) text body of the notes placeholder of a new notes slide for `slide`."""
        if self._notes is None:
            notes = slide.notes_slide  # creates the notes master when the template has none
            self._notes = copy.deepcopy(notes._element)
            self._notes_number = int(re.search(r"(\d+)\.xml$", notes.part.partname).group(1))
            body = notes.notes_text_frame._txBody
            self._notes_body = list(notes._element.iter()).index(body)  # found again in copies by position
            return body
        self._notes_number += 1
        package, part = slide.part.package, slide.part
        notes_part = NotesSlidePart(PackURI(f"/ppt/notesSlides/notesSlide{self._notes_number}.xml"), CT.PML_NOTES_SLIDE,
                                    package, copy.deepcopy(self._notes))
        notes_part.relate_to(package.presentation_part.notes_master_part, RT.NOTES_MASTER)
        notes_part.relate_to(part, RT.SLIDE)
        part.relate_to(notes_part, RT.NOTES_SLIDE)
        return next(itertools.islice(notes_part._element.iter(), self._notes_body, None))
