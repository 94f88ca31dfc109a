"""From the DSL as written to the DSL as shown: clean text, consistent layouts, fonts that cover
CJK, a theme that passes WCAG, one type scale, and pages split where text does not fit.

Nothing is dropped: design suggestions move to the notes, an over-full page becomes a page and its
continuation, an over-long item is split at a sentence boundary. Every change is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.i18n import t
from graphs.ppt.render import layouts
from graphs.ppt.render.base import BODY_FLOOR, TITLE_FLOOR, Style, TypeScale
from graphs.ppt.render.metrics import FALLBACK_REASONS, Fonts
from graphs.ppt.render.text import EAST_ASIAN, clean, plain
from graphs.ppt.render.theme import checked_theme
from schemas.ppt import ChartSeries, ChartSpec, Column, Quote, SlideDeck, SlideSpec, Stat, Step, Table

CJK_FONT_DEFAULT = "Microsoft YaHei"  # LibreOffice substitutes Noto Sans CJK SC; Windows/Mac Office have it
CJK_FONT_NAMES = ("yahei", "雅黑", "simhei", "黑体", "simsun", "宋体", "kaiti", "楷体", "fangsong", "仿宋", "pingfang",
                  "noto sans cjk", "noto serif cjk", "source han", "思源", "wenquanyi", "wqy", "hiragino", "malgun",
                  "dengxian", "等线", "heiti", "songti", "ms gothic", "meiryo", "yu gothic")
DESIGN_NOTE = {"zh": "【设计提示】", "en": "[Design notes] "}
# Lines that tell a designer what to draw, not what to say: they go to the notes.
INSTRUCTION = re.compile(
    r"^\s*(?:可视化建议|视觉建议|设计建议|配图|插图|示意图|图示|图片|动画|版式|visual(?: suggestions?)?|diagram|image|picture|"
    r"illustration|icon|animation|layout|photo)\s*[:：]|^\s*(?:此处|这里)(?:插入|放置|添加)|^\s*(?:insert|add|place|show) (?:an? )?"
    r"(?:image|picture|diagram|chart|icon|photo)\b|\b(?:placeholder|lorem ipsum|TODO)\b",
    re.IGNORECASE,
)
MAX_PAGES_PER_SLIDE = 6
MAX_ITEMS_PER_SLIDE = 8
MAX_CHARS_PER_SLIDE = 320  # CJK characters; a Latin character counts half


def is_instruction(text: str) -> bool:
    return bool(INSTRUCTION.search(text))


@dataclass
class Prepared:
    deck: SlideDeck
    style: Style
    changes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ cleaning


def _items(values: list[str]) -> list[str]:
    out = []
    for value in values:
        for line in clean(value).split("\n"):
            if plain(line):
                out.append(line)
    return out


def _one(value: str | None) -> str:
    return " ".join(clean(value).split("\n")).strip() if value else ""


def clean_spec(spec: SlideSpec, language: str) -> SlideSpec:
    """Markup, emoji and control characters out; design instructions to `visuals`; layout matched to its data."""
    visuals = [v for v in (_one(v) for v in spec.visuals) if v]
    bullets = []
    for item in _items(spec.bullets):
        (visuals if is_instruction(item) else bullets).append(item)
    title = _one(spec.title)
    if not plain(title) or is_instruction(title):
        if is_instruction(title):
            visuals.append(title)
        title = bullets.pop(0) if bullets else ""
    subtitle = _one(spec.subtitle) or None
    columns = [Column(heading=_one(c.heading), items=_items(c.items)) for c in spec.columns]
    columns = [c for c in columns if c.heading or c.items]
    table = None
    if spec.table:
        header = [_one(h) or "—" for h in spec.table.header]
        rows = [[_one(cell) or "—" for cell in row] for row in spec.table.rows]
        rows = [row for row in rows if any(cell != "—" for cell in row)]
        table = Table(header=header, rows=rows) if rows else None
    steps = [Step(label=_one(s.label), detail=_one(s.detail)) for s in spec.steps]
    steps = [s if s.label else Step(label=s.detail, detail="") for s in steps if s.label or s.detail]
    stat = Stat(value=_one(spec.stat.value), label=_one(spec.stat.label)) if spec.stat and _one(spec.stat.value) else None
    quote = Quote(text=_one(spec.quote.text), source=_one(spec.quote.source)) if spec.quote and _one(spec.quote.text) else None
    chart = None
    if spec.chart:
        chart = ChartSpec(kind=spec.chart.kind, categories=[_one(c) or "—" for c in spec.chart.categories],
                          series=[ChartSeries(name=_one(s.name) or "—", values=s.values) for s in spec.chart.series],
                          unit=_one(spec.chart.unit))
    layout = spec.layout
    # A layout without the data it draws becomes the closest one that has it.
    if layout == "comparison" and table is None:
        layout = "two_column" if len(columns) >= 2 else "bullets"
    if layout == "two_column":
        if len(columns) < 2:
            if len(columns) == 1:
                bullets = columns[0].items + bullets
            columns, layout = [], "bullets"
        elif bullets:
            shorter = min(columns[:2], key=lambda c: len(c.items))
            shorter.items.extend(bullets)
            bullets = []
        columns = columns[:2] if layout == "two_column" else columns
    if layout in ("process", "timeline") and len(steps) < 2:
        bullets = [s.label + (f"：{s.detail}" if s.detail else "") for s in steps] + bullets
        steps, layout = [], "bullets"
    if layout == "big_number" and stat is None:
        layout = "bullets"
    if layout == "chart" and chart is None:
        layout = "bullets"
    if layout == "quote" and quote is None:
        layout = "bullets"
    if layout not in ("two_column",) and columns:  # columns only a two_column page shows
        for column in columns:
            bullets.extend(([column.heading] if column.heading else []) + column.items)
        columns = []
    if layout not in ("process", "timeline", "agenda") and steps:
        bullets.extend(s.label + (f"：{s.detail}" if s.detail else "") for s in steps)
        steps = []
    has_content = bool(bullets or columns or table or steps or stat or chart or quote or subtitle)
    if not has_content and layout not in ("cover", "section", "qa"):
        layout = "section"  # a title alone is a section page, not an empty content page
    # Rebuilt from the narration and `visuals`, so cleaning a cleaned page changes nothing.
    notes = "\n".join(p for p in clean(narration_of(spec.notes), keep_bold=False).split("\n") if p)
    visuals = list(dict.fromkeys(visuals))
    if visuals:
        notes = (notes + "\n\n" if notes else "") + DESIGN_NOTE[language] + "；".join(visuals)
    return spec.model_copy(update={
        "layout": layout, "title": title, "subtitle": subtitle, "bullets": bullets, "columns": columns, "table": table,
        "steps": steps, "stat": stat, "chart": chart, "quote": quote, "icon": _one(spec.icon) or None,
        "visuals": visuals, "notes": notes,
    })


def narration_of(notes: str) -> str:
    """The spoken part of the notes: design notes appended after it are not narration."""
    for marker in DESIGN_NOTE.values():
        if marker in notes:
            return notes.split(marker)[0].strip()
    return notes.strip()


def density_units(text: str) -> float:
    cjk = len(EAST_ASIAN.findall(text))
    return cjk + (len(text) - cjk) * 0.5


def too_dense(spec: SlideSpec) -> bool:
    """Too many items or characters for one page (the paginator splits such pages)."""
    items = (len(spec.bullets) + sum(len(c.items) for c in spec.columns) + (len(spec.table.rows) if spec.table else 0)
             + len(spec.steps))
    return items > MAX_ITEMS_PER_SLIDE or density_units(" ".join(visible_items(spec))) > MAX_CHARS_PER_SLIDE


def visible_items(spec: SlideSpec) -> list[str]:
    """Every piece of text the DSL puts on the page (what must be found on the rendered slide)."""
    items = [spec.title, spec.subtitle or "", *spec.bullets]
    for column in spec.columns:
        items += [column.heading, *column.items]
    if spec.table:
        items += spec.table.header + [cell for row in spec.table.rows for cell in row]
    for step in spec.steps:
        items += [step.label, step.detail]
    if spec.stat:
        items += [spec.stat.value, spec.stat.label]
    if spec.quote:
        items += [spec.quote.text, spec.quote.source]
    return [plain(item) for item in items if plain(item)]



# ------------------------------------------------------------------ fonts and theme


def cjk_capable(name: str) -> bool:
    lowered = name.lower()
    return any(known in lowered for known in CJK_FONT_NAMES)


def style_for(deck: SlideDeck, changes: list[str]) -> tuple[SlideDeck, Style]:
    theme, palette, adjustments = checked_theme(deck.theme)
    changes.extend(adjustments)
    fonts = theme.fontConfig
    east_asian = fonts.eastAsianFont
    if not cjk_capable(east_asian):
        changes.append(t("ppt.font_east_asian", old=east_asian, new=CJK_FONT_DEFAULT))
        east_asian = CJK_FONT_DEFAULT
    latin_body = fonts.bodyFont if not cjk_capable(fonts.bodyFont) else "Arial"
    latin_title = fonts.titleFont if not cjk_capable(fonts.titleFont) else "Arial"
    theme = theme.model_copy(update={"fontConfig": fonts.model_copy(update={"eastAsianFont": east_asian})})
    style = Style(palette=palette, fonts=Fonts(latin_body, east_asian), title_fonts=Fonts(latin_title, east_asian),
                  scale=TypeScale.from_theme(fonts.titleSize, fonts.bodySize), language=deck.language)
    return deck.model_copy(update={"theme": theme}), style


# ------------------------------------------------------------------ fitting and splitting


def _with_scale(style: Style, title: int, body: int) -> Style:
    from dataclasses import replace

    return replace(style, scale=style.scale.with_sizes(title, body))


def _fits(spec: SlideSpec, style: Style) -> bool:
    return not too_dense(spec) and layouts.plan(spec, style).fits(style)


def choose_scale(slides: list[SlideSpec], style: Style) -> Style:
    """The largest (title, body) sizes at which every page that can fit at the floors does: one scale per deck."""
    floor = _with_scale(style, TITLE_FLOOR, BODY_FLOOR)
    fitting = [s for s in slides if _fits(s, floor)]
    for body in range(style.scale.body, BODY_FLOOR - 1, -2 if style.scale.body - BODY_FLOOR >= 2 else -1):
        for title in range(style.scale.title, TITLE_FLOOR - 1, -4):
            candidate = _with_scale(style, title, body)
            if all(_fits(s, candidate) for s in fitting):
                return candidate
    return floor


_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=[.!?;]) ")


def halve_text(text: str) -> tuple[str, str]:
    """Split a long item near its middle, at a sentence end if there is one, else at a space or comma."""
    middle = len(text) // 2
    cuts = [m.end() for m in _SENTENCE_END.finditer(text) if 0 < m.end() < len(text)]
    if not cuts:
        cuts = [m.end() for m in re.finditer(r"[，,、 ]", text) if 0 < m.end() < len(text)]
    cut = min(cuts, key=lambda c: abs(c - middle)) if cuts else middle
    return text[:cut].strip(), text[cut:].strip()


def _chunks(values: list, parts: int) -> list[list]:
    """`values` in `parts` consecutive runs of near-equal length (earlier runs one longer)."""
    size, extra = divmod(len(values), parts)
    out, start = [], 0
    for k in range(parts):
        end = start + size + (1 if k < extra else 0)
        out.append(values[start:end])
        start = end
    return out


def _split_notes(notes: str, parts: int) -> list[str]:
    """The narration shared out over the pages, at sentence ends; design notes stay with the first page."""
    narration = narration_of(notes)
    design = notes[len(narration):].strip()
    pieces = [narration]
    while len(pieces) < parts:
        longest = max(range(len(pieces)), key=lambda i: len(pieces[i]))
        a, b = halve_text(pieces[longest]) if len(pieces[longest]) > 1 else (pieces[longest], pieces[longest])
        pieces[longest : longest + 1] = [a, b]
    pieces[0] = pieces[0] + ("\n\n" + design if design else "")
    return pieces


def split_spec(spec: SlideSpec, language: str, parts: int = 2) -> list[SlideSpec] | None:
    """The page and its continuations, the list content shared out evenly; None when nothing can be split."""
    suffix = "（续）" if language == "zh" else " (cont.)"
    base_title = spec.title.removesuffix(suffix)
    empty = {"subtitle": None, "visuals": [], "stat": None, "chart": None, "quote": None, "table": None, "steps": [],
             "columns": [], "bullets": []}
    layout = spec.layout
    if spec.layout == "comparison" and spec.table and len(spec.table.rows) >= parts:
        fields = [{"table": Table(header=spec.table.header, rows=rows)} for rows in _chunks(spec.table.rows, parts)]
    elif spec.layout in ("process", "timeline") and len(spec.steps) >= 2 * parts:
        fields = [{"steps": steps} for steps in _chunks(spec.steps, parts)]
    elif spec.layout == "two_column" and all(len(c.items) >= parts for c in spec.columns):
        split_columns = [_chunks(c.items, parts) for c in spec.columns]
        fields = [{"columns": [Column(heading=c.heading, items=chunks[k]) for c, chunks in zip(spec.columns, split_columns)]}
                  for k in range(parts)]
    elif len(spec.bullets) >= parts:
        fields = [{"bullets": chunk} for chunk in _chunks(spec.bullets, parts)]
        layout = spec.layout if spec.layout in ("bullets", "image_text", "summary", "agenda", "qa") else "bullets"
    elif len(spec.bullets) == 1 and len(spec.bullets[0]) > 20 and parts == 2:
        fields = [{"bullets": [half]} for half in halve_text(spec.bullets[0])]
        layout = "bullets"
    else:
        return None
    notes = _split_notes(spec.notes, parts)
    pages = [spec.model_copy(update={**fields[0], "notes": notes[0]})]
    for k in range(1, parts):
        pages.append(spec.model_copy(update={**empty, **fields[k], "notes": notes[k], "title": base_title + suffix,
                                             "layout": layout if spec.layout not in ("comparison", "process", "timeline",
                                                                                     "two_column") else spec.layout,
                                             "continuationOf": spec.continuationOf or spec.index}))
    return pages


def paginate(slides: list[SlideSpec], style: Style, language: str, changes: list[str]) -> list[SlideSpec]:
    """Each page that does not fit becomes the fewest pages, content shared evenly, that do."""
    out: list[SlideSpec] = []
    for spec in slides:
        if _fits(spec, style):
            out.append(spec)
            continue
        pages = None
        for parts in range(2, MAX_PAGES_PER_SLIDE + 1):
            candidate = split_spec(spec, language, parts)
            if candidate is None:
                break
            pages = candidate
            if all(_fits(page, style) for page in candidate):
                break
        if pages is None and len(spec.bullets) == 1:
            pages = split_spec(spec, language, 2)
        out.extend(pages or [spec])  # what still does not fit, the QA gate reports
        if pages:
            changes.append(t("ppt.slide_split", title=plain(spec.title), pages=len(pages)))
    renumbered: list[SlideSpec] = []
    first_of: dict[int, int] = {}
    for number, page in enumerate(out, start=1):
        original = page.continuationOf if page.continuationOf is not None else page.index
        first_of.setdefault(original, number)
        renumbered.append(page.model_copy(update={
            "index": number, "continuationOf": first_of[original] if page.continuationOf is not None else None}))
    return renumbered


def prepare(deck: SlideDeck) -> Prepared:
    changes: list[str] = []
    FALLBACK_REASONS.clear()
    slides = [clean_spec(s, deck.language) for s in deck.slides]
    slides = _merge_empty(slides)
    deck, style = style_for(deck.model_copy(update={"slides": slides}), changes)
    style = choose_scale(slides, style)
    slides = paginate(slides, style, deck.language, changes)
    changes.extend(t("ppt.font_fallback", reason=reason) for reason in dict.fromkeys(FALLBACK_REASONS))
    deck = deck.model_copy(update={"slides": slides, "title": _one(deck.title) or (plain(slides[0].title) if slides else "")})
    fonts = deck.theme.fontConfig.model_copy(update={"titleSize": style.scale.title, "bodySize": style.scale.body})
    deck = deck.model_copy(update={"theme": deck.theme.model_copy(update={"fontConfig": fonts})})
    return Prepared(deck=deck, style=style, changes=changes)


def _merge_empty(slides: list[SlideSpec]) -> list[SlideSpec]:
    """A page with no title and nothing to show is not a page: its notes join the page before it."""
    out: list[SlideSpec] = []
    for spec in slides:
        if not plain(spec.title) and out:
            previous = out[-1]
            out[-1] = previous.model_copy(update={"notes": (previous.notes + "\n" + spec.notes).strip()})
            continue
        out.append(spec if plain(spec.title) else spec.model_copy(update={"title": "—"}))
    return out
