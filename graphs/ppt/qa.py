"""The QA gate: checks a rendered .pptx itself (no model) against what a teacher needs to present it.

Each check reads the file — shape geometry, run sizes and fonts, colours, notes, the layout name
the renderer stamps on each slide — and compares it with the DSL the slides were made from. The
stage repairs what it can (split, re-layout) and checks again; what still fails is reported.
"""

from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass

from pptx import Presentation
from pptx.oxml.ns import qn
from pptx.util import Emu

from core.i18n import join_sentences, t
from graphs.ppt.planning import EN_WORDS_PER_MINUTE, ZH_CHARS_PER_MINUTE
from graphs.ppt.render.base import BODY_FLOOR, DECO, FOOTER, PARAGRAPH_GAP_EM, VISUAL
from graphs.ppt.render.metrics import Fonts, line_height_pt, wrap
from graphs.ppt.render import Prepared, prepare, render_document
from graphs.ppt.render.prepare import cjk_capable, is_instruction, narration_of, split_spec, too_dense, visible_items
from graphs.ppt.render.text import EAST_ASIAN, HAN, HANGUL, KANA, MARKUP_LEAK, plain
from graphs.ppt.render.theme import contrast, required_contrast
from schemas.ppt import QaIssue, QaReport, SlideDeck

CHECKS = ("aspect_ratio", "overflow", "off_slide", "overlap", "min_font", "density", "notes", "duration",
          "slide_narration", "east_asian_font", "empty_placeholder", "contrast", "distinct_layouts", "duplicate",
          "visuals", "instruction_leak", "markup_leak", "truncation", "missing_content")
DURATION_TOLERANCE = 0.10
DURATION_FLOOR_S = 30
MAX_SLIDE_SECONDS, MIN_SLIDE_SECONDS = 180, 10
SPOKEN_EAST_ASIAN = re.compile(f"{HAN.pattern}|{KANA.pattern}|{HANGUL.pattern}")
NON_CONTENT = ("cover", "section", "agenda", "summary", "qa")
EPS = 1.0  # points


@dataclass
class Box:
    x: float
    y: float
    w: float
    h: float

    def overlaps(self, other: Box) -> bool:
        return (min(self.x + self.w, other.x + other.w) - max(self.x, other.x) > EPS
                and min(self.y + self.h, other.y + other.h) - max(self.y, other.y) > EPS)

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h


def _box(shape) -> Box:
    # The offset and extent elements read once (python-pptx finds the xfrm again for each coordinate).
    xfrm = shape._element.xfrm
    off = xfrm.find(qn("a:off")) if xfrm is not None else None
    ext = xfrm.find(qn("a:ext")) if xfrm is not None else None

    def pt(element, name: str) -> float:
        return Emu(int(element.get(name, 0))).pt if element is not None else 0.0

    return Box(pt(off, "x"), pt(off, "y"), pt(ext, "cx"), pt(ext, "cy"))


def _kind(shape) -> str:
    name = shape._element[0][0].get("name")  # nv*Pr/cNvPr: python-pptx's .name searches with XPath
    return (name or "").split(":", 1)[0]


def speech_seconds(narration: str) -> float:
    """Speaking time at the pipeline's pace: East Asian characters at 200 a minute, other words at 150."""
    east_asian = len(SPOKEN_EAST_ASIAN.findall(narration))  # characters, not punctuation
    words = len(re.findall(r"[A-Za-z0-9]+", EAST_ASIAN.sub(" ", narration)))
    return (east_asian / ZH_CHARS_PER_MINUTE + words / EN_WORDS_PER_MINUTE) * 60


def spoken_minutes(deck: SlideDeck) -> int:
    """How long the deck's narration takes, to the nearest minute: what a deck whose pages were added or
    removed now lasts (within the duration check's half-minute)."""
    seconds = sum(speech_seconds(narration_of(slide.notes)) for slide in deck.slides)
    return max(1, int(seconds / 60 + 0.5))


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _solid_fill(shape) -> str | None:
    try:
        if shape.fill.type == 1:  # MSO_FILL.SOLID
            return "#" + str(shape.fill.fore_color.rgb)
    except (AttributeError, TypeError, NotImplementedError):
        pass
    return None


@dataclass
class _ShapeView:
    """One shape as the checks read it, its proxy properties read once (python-pptx re-parses on each access)."""

    shape: object
    index: int
    kind: str
    box: Box
    fill: str | None
    text: str | None  # its text frame's text, None without a text frame


class _SlideView:
    """What the gate reads of one slide."""

    def __init__(self, slide, width: float, height: float) -> None:
        self.slide = slide
        self.layout = slide._element.cSld.get("name") or ""
        self.width, self.height = width, height
        self.shapes: list[_ShapeView] = []
        self.paragraph_texts: list[str] = []
        chart_texts = []
        for index, shape in enumerate(slide.shapes):
            text = shape.text_frame.text if shape.has_text_frame else None
            self.shapes.append(_ShapeView(shape, index, _kind(shape), _box(shape), _solid_fill(shape), text))
            if shape.has_text_frame:
                self.paragraph_texts += [p.text for p in shape.text_frame.paragraphs if p.text.strip()]
            if shape.has_table:
                for row in shape.table.rows:
                    for cell in row.cells:
                        self.paragraph_texts += [p.text for p in cell.text_frame.paragraphs if p.text.strip()]
            if shape.has_chart:
                chart_texts.append(" ".join(str(c) for c in shape.chart.plots[0].categories))
        self.text_shapes = [s for s in self.shapes if s.text is not None and s.text.strip()]
        self.chart_text = " ".join(chart_texts)
        self.text = " ".join(self.paragraph_texts)
        notes = slide.notes_slide.notes_text_frame.text if slide.has_notes_slide else ""
        self.notes = notes
        self.visuals = sum(1 for s in self.shapes if s.kind == VISUAL)

    @functools.cached_property
    def background(self) -> str:
        fill = self.slide.background.fill
        try:
            return "#" + str(fill.fore_color.rgb)
        except (AttributeError, TypeError):
            return "#FFFFFF"

    def fill_behind(self, target: _ShapeView) -> str:
        """The solid fill under the centre of `target`: the topmost filled shape below it, else the background."""
        if target.fill is not None:
            return target.fill
        box = target.box
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        color = self.background
        for shape in self.shapes[: target.index]:
            if shape.fill is not None and shape.box.contains(cx, cy):
                color = shape.fill
        return color


def _runs(shape):
    for paragraph in shape.text_frame.paragraphs:
        for run in paragraph.runs:
            yield paragraph, run


def _needed_height(view: _ShapeView) -> float:
    frame = view.shape.text_frame
    width = view.box.w - Emu(frame.margin_left).pt - Emu(frame.margin_right).pt
    total = Emu(frame.margin_top).pt + Emu(frame.margin_bottom).pt
    # Each run proxy is made once: python-pptx builds new ones (and searches the XML) on every access.
    with_runs = [(paragraph, paragraph.runs) for paragraph in frame.paragraphs]
    for i, (paragraph, runs) in enumerate((p, r) for p, r in with_runs if r):
        rpr = runs[0]._r.rPr
        latin = rpr.find(qn("a:latin")).get("typeface") if rpr is not None and rpr.find(qn("a:latin")) is not None else "Arial"
        ea = rpr.find(qn("a:ea")).get("typeface") if rpr is not None and rpr.find(qn("a:ea")) is not None else latin
        fonts_of_runs = [r.font for r in runs]
        size = max((f.size.pt for f in fonts_of_runs if f.size), default=18)
        bold = any(f.bold for f in fonts_of_runs)
        ppr = paragraph._p.pPr
        indent = Emu(int(ppr.get("marL"))).pt if ppr is not None and ppr.get("marL") else 0.0
        fonts = Fonts(latin, ea)
        text = paragraph.text
        total += len(wrap(text, width - indent, size, fonts, bold)) * line_height_pt(text, size, fonts, bold)
        if i:
            total += PARAGRAPH_GAP_EM * size
    return total


def check(pptx, deck: SlideDeck, duration_minutes: int | None) -> list[QaIssue]:
    """`pptx`: the file's bytes, or the document just saved to them (the gate's own render: not parsed again)."""
    prs = Presentation(io.BytesIO(pptx)) if isinstance(pptx, bytes | bytearray) else pptx
    width, height = Emu(prs.slide_width).pt, Emu(prs.slide_height).pt
    issues: list[QaIssue] = []

    def issue(check_name: str, slide: int | None, **fields) -> None:
        issues.append(QaIssue(check=check_name, slide=slide, message=t(f"ppt.qa_{check_name}", slide=slide or 0, **fields)))

    if abs(width / height - 16 / 9) > 0.01:
        issue("aspect_ratio", None, ratio=f"{width / height:.2f}")
    views = [_SlideView(slide, width, height) for slide in prs.slides]
    specs = deck.slides
    if len(views) != len(specs):
        issue("missing_content", None, item=f"{len(specs)} → {len(views)}")
    seconds_total = 0.0
    group_seconds: dict[int, float] = {}  # a page and its continuations are one stretch of talk
    seen_text: dict[str, int] = {}
    content_slides = visual_slides = 0
    for number, (view, spec) in enumerate(zip(views, specs), start=1):
        for shape in view.shapes:
            box = shape.box
            if box.x < -EPS or box.y < -EPS or box.x + box.w > width + EPS or box.y + box.h > height + EPS:
                issue("off_slide", number, shape=shape.shape.name)
        text_boxes = [s for s in view.text_shapes if s.kind not in (VISUAL, DECO)]
        for shape in text_boxes:
            if _needed_height(shape) > shape.box.h + EPS:
                issue("overflow", number, text=plain(shape.text)[:40])
        for i, a in enumerate(text_boxes):
            for b in text_boxes[i + 1:]:
                if a.box.overlaps(b.box):
                    issue("overlap", number, a=plain(a.text)[:20], b=plain(b.text)[:20])
        for shape in view.text_shapes:
            background = view.fill_behind(shape)
            for paragraph, run in _runs(shape.shape):
                size = run.font.size.pt if run.font.size else 18
                if size < BODY_FLOOR and shape.kind != FOOTER:
                    issue("min_font", number, size=f"{size:g}", text=run.text[:20])
                rpr = run._r.rPr
                if rpr is None or not rpr.get("lang"):
                    issue("east_asian_font", number, text=run.text[:20])
                elif EAST_ASIAN.search(run.text):
                    ea = rpr.find(qn("a:ea"))
                    if ea is None or not cjk_capable(ea.get("typeface", "")) or rpr.get("lang") == "en-US":
                        issue("east_asian_font", number, text=run.text[:20])
                try:
                    color = "#" + str(run.font.color.rgb)
                except AttributeError:
                    continue
                ratio = contrast(color, background)
                if ratio < required_contrast(size) - 0.01:
                    issue("contrast", number, text=run.text[:20], ratio=f"{ratio:.1f}")
                    break
        for shape in view.slide.placeholders:
            if not shape.has_text_frame or not shape.text_frame.text.strip():
                issue("empty_placeholder", number, shape=shape.name)
        if too_dense(spec):
            issue("density", number, count=len(view.paragraph_texts))
        narration = narration_of(view.notes)
        if not narration.strip():
            issue("notes", number)
        seconds = speech_seconds(narration)
        seconds_total += seconds
        group = spec.continuationOf or spec.index
        group_seconds[group] = group_seconds.get(group, 0.0) + seconds
        if narration.strip() and seconds > MAX_SLIDE_SECONDS:
            issue("slide_narration", number, seconds=round(seconds))
        squashed = _squash(view.text)
        if squashed in seen_text:
            issue("duplicate", number, other=seen_text[squashed])
        seen_text.setdefault(squashed, number)
        if view.layout not in NON_CONTENT:
            content_slides += 1
            visual_slides += view.visuals > 0
        items = visible_items(spec)
        dsl_items = {_squash(item) for item in items}
        for text in view.paragraph_texts:
            if is_instruction(text):
                issue("instruction_leak", number, text=text[:30])
            if MARKUP_LEAK.search(text):
                issue("markup_leak", number, text=text[:30])
            if text.rstrip().endswith(("…", "...")) and _squash(text) not in dsl_items:
                issue("truncation", number, text=text[:30])
        haystack = squashed + _squash(view.chart_text)
        for item in items:
            if _squash(item) not in haystack:
                issue("missing_content", number, item=item[:30])
        if spec.chart and any(_squash(c) not in _squash(view.chart_text) for c in spec.chart.categories):
            issue("missing_content", number, item="chart")
    for first, seconds in group_seconds.items():
        if 0 < seconds < MIN_SLIDE_SECONDS:
            issue("slide_narration", first, seconds=round(seconds))
    if duration_minutes:
        target = duration_minutes * 60
        # A course lasts whole minutes: a short one cannot be held to less than half of one.
        if abs(seconds_total - target) > max(DURATION_TOLERANCE * target, DURATION_FLOOR_S):
            issue("duration", None, minutes=f"{seconds_total / 60:.1f}", target=duration_minutes)
    layouts = {view.layout for view in views}
    if len(views) >= 8 and len(layouts) < 6:
        issue("distinct_layouts", None, count=len(layouts))
    if content_slides and visual_slides * 2 < content_slides:
        issue("visuals", None, count=visual_slides, total=content_slides)
    return issues


def report(issues: list[QaIssue], repairs: list[str], rounds: int) -> QaReport:
    return QaReport(passed=not issues, checks=list(CHECKS), issues=issues, repairs=repairs, rounds=rounds)


# ------------------------------------------------------------------ gate: check, repair, check again

MAX_ROUNDS = 3
SPLIT_ON = ("overflow", "density", "overlap", "off_slide")
# A page whose narration runs over 3 minutes is split so each part is spoken over its own content.
SPLIT_LONG_NARRATION = "slide_narration"


@dataclass
class GateOutcome:
    deck: SlideDeck
    pptx: bytes
    report: QaReport




def _repair(deck: SlideDeck, issues: list[QaIssue], repairs: list[str]) -> SlideDeck | None:
    """A deck with the failing pages re-laid out or split, or None when nothing can be repaired."""
    slides = list(deck.slides)
    changed = False
    too_long = {i.slide for i in issues if i.check == SPLIT_LONG_NARRATION and i.slide
                and speech_seconds(narration_of(slides[i.slide - 1].notes)) > MAX_SLIDE_SECONDS}
    to_split = sorted({i.slide for i in issues if i.check in SPLIT_ON and i.slide} | too_long, reverse=True)
    for number in to_split:
        halves = split_spec(slides[number - 1], deck.language)
        if halves:
            slides[number - 1 : number] = halves
            repairs.append(t("ppt.qa_repair_split", slide=number))
            changed = True
    if any(i.check in ("visuals", "distinct_layouts") for i in issues):
        for k, spec in enumerate(slides):
            if spec.layout == "bullets":
                slides[k] = spec.model_copy(update={"layout": "image_text"})
                repairs.append(t("ppt.qa_repair_relayout", slide=spec.index))
                changed = True
                if any(i.check == "distinct_layouts" for i in issues):
                    break
    if not changed:
        return None
    renumbered = [s.model_copy(update={"index": n}) for n, s in enumerate(slides, start=1)]
    return deck.model_copy(update={"slides": renumbered})


def gate(deck: SlideDeck, duration_minutes: int | None) -> GateOutcome:
    """Prepare, render, check; repair and re-check up to MAX_ROUNDS; the last file and what still fails."""
    repairs: list[str] = []
    prepared = prepare(deck)
    repairs += prepared.changes
    rounds = 0
    while True:
        rounds += 1
        pptx, document = render_document(prepared)
        issues = check(document, prepared.deck, duration_minutes)
        if not issues or rounds >= MAX_ROUNDS:
            break
        repaired = _repair(prepared.deck, issues, repairs)
        if repaired is None:
            break
        prepared = Prepared(deck=repaired, style=prepared.style, changes=[])
    return GateOutcome(deck=prepared.deck, pptx=pptx, report=report(issues, repairs, rounds))


def qa_summary(result: QaReport, file_name: str, slides: int) -> str:
    """The closing sentence of a run: the file, and what the QA gate still found, if anything."""
    if result.passed:
        return t("ppt.done_passed", name=file_name, slides=slides, checks=len(result.checks))
    listed = join_sentences(i.message for i in result.issues[:5])  # each issue is a sentence of its own
    return t("ppt.done_with_issues", name=file_name, slides=slides, count=len(result.issues), issues=listed)
