"""What every layout stands on: slide geometry, the deck's type scale, measured text blocks and
how they are written into the .pptx (runs with lang tags, a:ea fonts, real bullets, fixed insets).

A layout produces a `Plan`: text blocks placed in boxes at sizes from the deck's type scale, plus
drawers for its visual (shapes, pictures, charts, tables). The same plan is measured (does it
fit?) and drawn, so what the paginator decides is what the slide shows.
"""

from __future__ import annotations

import copy
import io
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from lxml import etree
from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.oxml.shapes.autoshape import CT_Shape
from pptx.oxml.text import CT_RegularTextRun
from pptx.shapes.autoshape import AutoShapeType, Shape
from pptx.text.text import TextFrame, _Paragraph, _Run
from pptx.util import Pt

from graphs.ppt.render.metrics import Fonts, line_height_pt, wrap
from graphs.ppt.render.text import LANG_OF_SCRIPT, runs, script_runs
from graphs.ppt.render.theme import Palette

SLIDE_W, SLIDE_H = 960.0, 540.0  # points: 13.333 × 7.5 in, 16:9
MARGIN = 48.0
INSET_X, INSET_Y = 7.2, 3.6  # text box insets (0.1 in, 0.05 in), written explicitly and measured
PARAGRAPH_GAP_EM = 0.35  # space before every paragraph after the first
BULLET_INDENT_EM = 1.1
BODY_FLOOR, TITLE_FLOOR = 18, 28
FOOTER_PT = 12
# Shape names tell the QA gate what a shape is: text it must measure, a visual it may count,
# or decoration it may ignore.
TEXT, TITLE, VISUAL, DECO, FOOTER = "text", "title", "visual", "deco", "footer"


@dataclass(frozen=True)
class TypeScale:
    """One scale per deck: every size on every slide is one of these."""

    title: int
    body: int
    heading: int
    label: int
    display: int
    hero: int  # cover, section and Q&A titles


    @classmethod
    def from_theme(cls, title_size: int, body_size: int) -> TypeScale:
        title = max(TITLE_FLOOR, min(44, title_size))
        body = max(BODY_FLOOR, min(28, body_size))
        return cls(title=title, body=body, heading=max(body + 4, 24), label=BODY_FLOOR, display=max(60, title * 2),
                   hero=min(title + 8, 48))

    def with_sizes(self, title: int, body: int) -> TypeScale:
        return replace(self, title=title, body=body, heading=max(body + 4, 24), hero=min(title + 8, 48))


@dataclass(frozen=True)
class Style:
    palette: Palette
    fonts: Fonts
    title_fonts: Fonts
    scale: TypeScale
    language: str


@dataclass
class TextBlock:
    """Paragraphs in a box. `floor` is the smallest size they may shrink to before the page splits."""

    x: float
    y: float
    w: float
    h: float
    paragraphs: list[str]
    size: float
    color: str
    bold: bool = False
    bullets: bool = False
    align: str = "left"
    anchor: str = "top"
    title: bool = False
    name: str = TEXT

    def inner_width(self) -> float:
        indent = BULLET_INDENT_EM * self.size if self.bullets else 0.0
        return self.w - 2 * INSET_X - indent

    def needed_height(self, fonts: Fonts, size: float | None = None) -> float:
        size = size or self.size
        indent = BULLET_INDENT_EM * size if self.bullets else 0.0
        width = self.w - 2 * INSET_X - indent
        total = 2 * INSET_Y
        for i, text in enumerate(self.paragraphs):
            plain_text = "".join(value for value, _ in runs(text))
            lines = len(wrap(plain_text, width, size, fonts, self.bold))
            total += lines * line_height_pt(plain_text, size, fonts, self.bold)
            if i:
                total += PARAGRAPH_GAP_EM * size
        return total

    def fits(self, fonts: Fonts) -> bool:
        return self.needed_height(fonts) <= self.h + 0.5

    def balance(self, fonts: Fonts) -> None:
        """A one-paragraph heading that wraps is narrowed to the least width that keeps its number of lines,
        so its lines come out near equal: no "…数据保 / 护" with one character alone on the last line.
        The box keeps its place (left, centre or right, as aligned) and its height (the same lines)."""
        if len(self.paragraphs) != 1:
            return
        text = "".join(value for value, _ in runs(self.paragraphs[0]))
        full = self.inner_width()
        count = len(wrap(text, full, self.size, fonts, self.bold))
        if count < 2:
            return
        low, high = full / count, full
        while high - low > 1.0:
            middle = (low + high) / 2
            if len(wrap(text, middle, self.size, fonts, self.bold)) > count:
                low = middle
            else:
                high = middle
        # An em of slack: a renderer that keeps "：" or "，" off a line start moves a character, not a line.
        narrowed = min(full, high + self.size)
        shrink = full - narrowed
        if shrink <= 0:
            return
        self.w -= shrink
        self.x += {"left": 0.0, "center": shrink / 2, "right": shrink}[self.align]


@dataclass
class Plan:
    """A laid-out slide: text blocks, drawers for everything else, and what does not fit (if anything)."""

    blocks: list[TextBlock] = field(default_factory=list)
    drawers: list[Callable] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    background: str | None = None

    def fits(self, style: Style) -> bool:
        return not self.problems and all(b.fits(style.title_fonts if b.title else style.fonts) for b in self.blocks)


# ------------------------------------------------------------------ writing into the .pptx


def rgb(hex_color: str) -> RGBColor:
    return RGBColor.from_string(hex_color.lstrip("#").upper())


def set_run_font(run, fonts: Fonts, size: float, color: str, bold: bool, lang: str) -> None:
    font = run.font
    font.size = Pt(size)
    font.bold = bold
    font.color.rgb = rgb(color)
    font.name = fonts.latin  # <a:latin>
    rpr = run._r.get_or_add_rPr()
    rpr.set("lang", lang)
    if lang != "en-US":
        rpr.set("altLang", "en-US")
    latin = rpr.find(qn("a:latin"))
    for tag in ("a:cs", "a:ea"):  # schema order: latin, ea, cs
        old = rpr.find(qn(tag))
        if old is not None:
            rpr.remove(old)
        element = etree.SubElement(rpr, qn(tag))
        element.set("typeface", fonts.east_asian)
        latin.addnext(element)


def write_paragraphs(frame, paragraphs: list[str], *, size: float, color: str, fonts: Fonts, bold: bool = False,
                     bullets: bool = False, align: str = "left", bullet_color: str | None = None) -> None:
    body = frame._txBody
    old = body.find(qn("a:bodyPr"))
    old.getparent().replace(old, copy.deepcopy(_frame_properties(etree.tostring(old))))
    first = body.find(qn("a:p"))
    for i, text in enumerate(paragraphs):
        p = first if i == 0 else etree.SubElement(body, qn("a:p"))  # a:p is txBody's last child kind
        _apply_ppr(p, _paragraph_properties(align, round(PARAGRAPH_GAP_EM * size, 1) if i else None,
                                            size if bullets else None, bullet_color or color))
        add_runs(p, [(piece, bold or is_bold, script) for value, is_bold in runs(text) for piece, script in script_runs(value)],
                 fonts, size, color)


def add_runs(p, pieces: list[tuple[str, bool, str]], fonts: Fonts, size: float, color: str) -> None:
    """(text, bold, script) runs appended to paragraph element `p`, each with its lang and fonts.

    The run properties are what `set_run_font` writes, built once per (fonts, size, colour, bold,
    lang) and copied: python-pptx's per-run proxies cost more than the rest of a slide.
    """
    end = p.find(qn("a:endParaRPr"))
    for piece, is_bold, script in pieces:
        r = etree.Element(qn("a:r"))
        r.append(copy.deepcopy(_run_properties(fonts, size, color, is_bold, LANG_OF_SCRIPT.get(script, "en-US"))))
        etree.SubElement(r, qn("a:t")).text = CT_RegularTextRun._escape_ctrl_chars(piece)
        if end is None:
            p.append(r)
        else:
            end.addprevious(r)


# Templates are per thread: an lxml tree is only read in the thread that built it.
_templates = threading.local()
MAX_TEMPLATES = 2048


def _template(kind: str, key: tuple, build: Callable[[], etree._Element]) -> etree._Element:
    cache = _templates.__dict__.setdefault(kind, {})
    element = cache.get(key)
    if element is None:
        if len(cache) >= MAX_TEMPLATES:  # every deck's colours add keys: a long-running server starts over
            cache.clear()
        element = cache[key] = build()
    return element


def _frame_properties(body_pr: bytes) -> etree._Element:
    """Word wrap, no autofit, fixed insets: what python-pptx makes of this a:bodyPr, worked out once per kind of box."""
    def build():
        frame = TextFrame(parse_xml(f"<a:txBody {nsdecls('a')}>{body_pr.decode()}<a:p/></a:txBody>"), None)
        frame.word_wrap = True
        frame.auto_size = MSO_AUTO_SIZE.NONE
        frame.margin_left = frame.margin_right = Pt(INSET_X)
        frame.margin_top = frame.margin_bottom = Pt(INSET_Y)
        return frame._txBody.bodyPr

    return _template("bodyPr", (body_pr,), build)


def _run_properties(fonts: Fonts, size: float, color: str, bold: bool, lang: str) -> etree._Element:
    def build():
        r = parse_xml(f"<a:r {nsdecls('a')}><a:t/></a:r>")
        set_run_font(_Run(r, None), fonts, size, color, bold, lang)
        return r.rPr

    return _template("rPr", (fonts, size, color, bold, lang), build)


def _paragraph_properties(align: str, space_before: float | None, bullet_size: float | None, bullet_color: str) -> etree._Element:
    def build():
        paragraph = _Paragraph(parse_xml(f"<a:p {nsdecls('a')}/>"), None)
        paragraph.line_spacing = 1.0
        paragraph.alignment = {"left": PP_ALIGN.LEFT, "center": PP_ALIGN.CENTER, "right": PP_ALIGN.RIGHT}[align]
        if space_before is not None:
            paragraph.space_before = Pt(space_before)
        if bullet_size is not None:
            _bullet(paragraph, bullet_size, bullet_color)
        return paragraph._p.get_or_add_pPr()

    return _template("pPr", (align, space_before, bullet_size, bullet_size and bullet_color), build)


def _bullet(paragraph, size: float, color: str) -> None:
    ppr = paragraph._p.get_or_add_pPr()
    indent = int(Pt(BULLET_INDENT_EM * size))
    ppr.set("marL", str(indent))
    ppr.set("indent", str(-indent))
    for tag in ("a:buClr", "a:buFont", "a:buChar", "a:buNone"):
        for old in ppr.findall(qn(tag)):
            ppr.remove(old)
    clr = etree.SubElement(ppr, qn("a:buClr"))
    etree.SubElement(clr, qn("a:srgbClr")).set("val", color.lstrip("#"))
    etree.SubElement(ppr, qn("a:buFont")).set("typeface", "Arial")
    etree.SubElement(ppr, qn("a:buChar")).set("char", "•")


def _apply_ppr(p, template: etree._Element) -> None:
    """The template's properties on `p`: a copy when it has none, else merged into its own (an autoshape's algn)."""
    ppr = p.find(qn("a:pPr"))
    if ppr is None:
        p.insert(0, copy.deepcopy(template))
        return
    for name, value in template.attrib.items():
        ppr.set(name, value)
    for child in template:
        ppr.append(copy.deepcopy(child))


def draw_block(slide, block: TextBlock, style: Style, bullet_color: str | None = None):
    """A text box; the slide's title goes into its title placeholder (outline view, screen readers)."""
    placeholder = slide.shapes.title if block.name == TITLE else None
    if placeholder is not None and not placeholder.text_frame.text:
        box = placeholder
        box.left, box.top, box.width, box.height = Pt(block.x), Pt(block.y), Pt(block.w), Pt(block.h)
        box.text_frame.clear()
        box.name = f"{block.name}:{len(slide.shapes)}"
        box.text_frame.vertical_anchor = ANCHORS[block.anchor]
    else:
        box = _add_textbox(slide, block)  # anchored already
    frame = box.text_frame
    write_paragraphs(frame, block.paragraphs, size=block.size, color=block.color,
                     fonts=style.title_fonts if block.title else style.fonts, bold=block.bold,
                     bullets=block.bullets, align=block.align, bullet_color=bullet_color)
    return box


ANCHORS = {"top": MSO_ANCHOR.TOP, "middle": MSO_ANCHOR.MIDDLE, "bottom": MSO_ANCHOR.BOTTOM}


def _add_textbox(slide, block: TextBlock):
    """What `slide.shapes.add_textbox` appends, anchored and named, from a copy of one built per anchor."""
    def build():
        sp = CT_Shape.new_textbox_sp(0, "", 0, 0, 0, 0)
        Shape(sp, None).text_frame.vertical_anchor = ANCHORS[block.anchor]
        return sp

    return _place(slide, _template("textbox", (block.anchor,), build), block.x, block.y, block.w, block.h, block.name)


def add_shape(slide, kind, x: float, y: float, w: float, h: float, fill: str, *, name: str = DECO, line: str | None = None):
    """What `slide.shapes.add_shape` appends, filled, outlined and named, from a copy of one built per look."""
    def build():
        sp = CT_Shape.new_autoshape_sp(0, "", AutoShapeType(kind).prst, 0, 0, 0, 0)
        sp.spPr.extend(copy.deepcopy(element) for element in _shape_look(fill, line))  # after a:prstGeom
        return sp

    return _place(slide, _template("autoshape", (kind, fill, line), build), x, y, w, h, name)


def _place(slide, template, x: float, y: float, w: float, h: float, name: str) -> Shape:
    """A copy of the `p:sp` template on the slide, with the next shape id, its position and `name:<count>`.

    python-pptx parses a new shape from text and finds its xfrm again for each coordinate it sets.
    """
    shapes = slide.shapes
    sp = copy.deepcopy(template)
    shape_id = shapes._next_shape_id
    off, ext = sp.spPr.xfrm
    off.set("x", str(Pt(x)))
    off.set("y", str(Pt(y)))
    ext.set("cx", str(Pt(w)))
    ext.set("cy", str(Pt(h)))
    shapes._spTree.insert_element_before(sp, "p:extLst")
    sp.nvSpPr.cNvPr.set("id", str(shape_id))
    sp.nvSpPr.cNvPr.set("name", f"{name}:{len(shapes)}")
    return Shape(sp, shapes)


def _shape_look(fill: str, line: str | None) -> etree._Element:
    """Fill, outline and no shadow as python-pptx writes them, built once per (fill, line)."""
    def build():
        scratch = Shape(parse_xml(
            f'<p:sp {nsdecls("a", "p")}><p:nvSpPr><p:cNvPr id="1" name=""/><p:cNvSpPr/><p:nvPr/></p:nvSpPr>'
            '<p:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:sp>'), None)
        scratch.fill.solid()
        scratch.fill.fore_color.rgb = rgb(fill)
        if line:
            scratch.line.color.rgb = rgb(line)
        else:
            scratch.line.fill.background()
        scratch.shadow.inherit = False
        look = etree.Element("look")
        look.extend(list(scratch._element.spPr)[1:])
        return look

    return _template("shape", (fill, line), build)


def add_picture(slide, png: bytes | None, x: float, y: float, w: float, h: float):
    """The icon as a picture; the image part is shared by every slide that shows it.

    python-pptx looks for an equal image by walking the whole package and re-reads the PNG's size
    for each picture: after the first, a picture is a copy of the first's element with its own id,
    position and relationship to the same part.
    """
    if not png:
        return None
    package = slide.part.package  # {png: (image part, first p:pic)}, living as long as the document
    known = package.__dict__.setdefault("_canvas_pictures", {})
    first = known.get(png)
    if first is None:
        picture = slide.shapes.add_picture(io.BytesIO(png), Pt(x), Pt(y), Pt(w), Pt(h))
        known[png] = (slide.part.related_part(picture._element.blipFill.blip.rEmbed), copy.deepcopy(picture._element))
    else:
        image_part, template = first
        pic = copy.deepcopy(template)
        shape_id = slide.shapes._next_shape_id
        pic.nvPicPr.cNvPr.set("id", str(shape_id))
        pic.nvPicPr.cNvPr.set("name", f"Picture {shape_id - 1}")
        pic.blipFill.blip.set(qn("r:embed"), slide.part.relate_to(image_part, RT.IMAGE))
        pic.x, pic.y, pic.cx, pic.cy = Pt(x), Pt(y), Pt(w), Pt(h)
        slide.shapes._spTree.insert_element_before(pic, "p:extLst")
        picture = slide.shapes._shape_factory(pic)
    picture.name = f"{VISUAL}:icon:{len(slide.shapes)}"
    return picture

