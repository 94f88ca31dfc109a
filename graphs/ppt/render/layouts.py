"""One planner per slide layout: where the text goes, at which size of the deck's scale, and what
the page's visual is (icon, badges, cards, table, steps, timeline, chart, big number).

`plan(spec, style)` returns a `Plan` that is both measured (paginate) and drawn (render).
"""

from __future__ import annotations

from pptx.enum.shapes import MSO_SHAPE

from graphs.ppt.render import visuals
from graphs.ppt.render.base import (
    DECO, FOOTER, FOOTER_PT, MARGIN, SLIDE_H, SLIDE_W, TITLE, VISUAL, Plan, Style, TextBlock, add_shape,
)
from graphs.ppt.render.icons import icon_for
from graphs.ppt.render.metrics import text_width_pt, wrap
from graphs.ppt.render.theme import mix
from schemas.ppt import SlideSpec

CONTENT_W = SLIDE_W - 2 * MARGIN
BOTTOM = SLIDE_H - 40  # the footer (page number) lives below
TITLE_TOP = 26.0
GAP = 18.0
ROW_MAX = 84.0  # agenda/summary rows: spread, but not so far apart that they stop reading as a list


def _title(spec: SlideSpec, style: Style, *, w: float = CONTENT_W, x: float = MARGIN) -> tuple[TextBlock, float]:
    """The title box, as tall as the title needs at the deck's title size: the body starts below it."""
    block = TextBlock(x, TITLE_TOP, w, 0, [spec.title], style.scale.title, style.palette.title, bold=True, title=True,
                      anchor="bottom", name=TITLE)
    block.h = max(block.needed_height(style.title_fonts), style.scale.title * 1.5)
    return block, TITLE_TOP + block.h


def _underline(plan: Plan, style: Style, y: float) -> None:
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.RECTANGLE, MARGIN + 7, y + 4, 72, 5, style.palette.accent))


def _subtitle_block(spec: SlideSpec, style: Style, y: float, w: float = CONTENT_W) -> TextBlock | None:
    if not spec.subtitle:
        return None
    block = TextBlock(MARGIN, y, w, 0, [spec.subtitle], style.scale.body, style.palette.muted)
    block.h = block.needed_height(style.fonts)
    return block


def _icon_name(spec: SlideSpec, *fallbacks: str) -> str:
    return icon_for(spec.icon, spec.title, *spec.bullets[:2], *fallbacks)


def _page_body(spec: SlideSpec, style: Style) -> tuple[Plan, float]:
    """Title (+ subtitle) and accent rule; returns the plan and where the body starts."""
    plan = Plan()
    title, bottom = _title(spec, style)
    plan.blocks.append(title)
    _underline(plan, style, bottom)
    top = bottom + GAP
    sub = _subtitle_block(spec, style, top)
    if sub:
        plan.blocks.append(sub)
        top += sub.h + 6
    return plan, top


# ------------------------------------------------------------------ layouts


def cover(spec: SlideSpec, style: Style) -> Plan:
    p = style.palette
    plan = Plan(background=p.primary)
    text_w = 560.0
    size = style.scale.hero
    title = TextBlock(64, 0, text_w, 0, [spec.title], size, p.on_primary, bold=True, title=True, anchor="bottom",
                      name=TITLE)
    title.h = title.needed_height(style.title_fonts)
    if title.h > 250:  # a long cover title steps down to the deck's title size, not to a size of its own
        title.size = style.scale.title
        title.h = title.needed_height(style.title_fonts)
    title.y = max(40.0, 250 - title.h)
    plan.blocks.append(title)
    y = title.y + title.h + 24
    plan.drawers.append(lambda slide, y=y: add_shape(slide, MSO_SHAPE.RECTANGLE, 71, y - 14, 96, 6, p.accent))
    lines = [line for line in [spec.subtitle, *spec.bullets] if line]
    if lines:
        body = TextBlock(64, y, text_w, BOTTOM - y, lines, style.scale.body, p.on_primary)
        plan.blocks.append(body)
    name = _icon_name(spec)
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.OVAL, 650, 120, 260, 260, mix(p.on_primary, p.primary, 0.12), name=DECO))
    plan.drawers.append(lambda slide: visuals.icon(slide, name, p.on_primary, 715, 185, 130))
    return plan


def section(spec: SlideSpec, style: Style) -> Plan:
    p = style.palette
    plan = Plan(background=p.primary)
    number = f"{spec.index:02d}"
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.RECTANGLE, 0, 0, 250, SLIDE_H, mix(p.on_primary, p.primary, 0.1)))
    plan.drawers.append(lambda slide: visuals.icon(slide, _icon_name(spec), p.on_primary, 65, 200, 120))
    title = TextBlock(290, 0, 620, 0, [spec.title], style.scale.hero, p.on_primary, bold=True, title=True,
                      anchor="bottom", name=TITLE)
    title.h = title.needed_height(style.title_fonts)
    title.y = max(40.0, 230 - title.h)
    plan.blocks.append(title)
    plan.blocks.append(TextBlock(290, title.y - 54, 200, 50, [number], style.scale.heading, p.accent if
                                 _readable(p.accent, p.primary) else p.on_primary, bold=True))
    lines = [line for line in [spec.subtitle, *spec.bullets] if line]
    if lines:
        plan.blocks.append(TextBlock(290, title.y + title.h + 20, 620, BOTTOM - title.y - title.h - 20, lines,
                                     style.scale.body, p.on_primary))
    return plan


def _readable(color: str, on: str) -> bool:
    from graphs.ppt.render.theme import contrast

    return contrast(color, on) >= 4.5


def bullets(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    icon_size = 150.0
    text_w = CONTENT_W - icon_size - 40
    plan.blocks.append(_list_block(MARGIN, top, text_w, BOTTOM - top, spec.bullets, style, style.palette.text))
    name = _icon_name(spec)
    x = SLIDE_W - MARGIN - icon_size
    y = max(top, (top + BOTTOM) / 2 - icon_size / 2)
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.OVAL, x - 10, y - 10, icon_size + 20, icon_size + 20, style.palette.card))
    plan.drawers.append(lambda slide: visuals.icon(slide, name, style.palette.secondary, x + 25, y + 25, icon_size - 50))
    return plan


SHORT_LIST_SHARE = 0.6  # a list that needs less of its box than this is short: larger and centred beside its picture


def _list_block(x: float, y: float, w: float, h: float, items: list[str], style: Style, color: str) -> TextBlock:
    """A bulleted list in its box. Two or three short points are set a step larger and centred in the box, level with
    the icon beside them, so they do not sit in the top-left corner above an empty lower half; a long list starts
    at the top at the body size."""
    block = TextBlock(x, y, w, h, items, style.scale.body, color, bullets=True)
    if block.needed_height(style.fonts) > h * SHORT_LIST_SHARE:
        return block
    larger = TextBlock(x, y, w, h, items, style.scale.heading, color, bullets=True, anchor="middle")
    if (larger.needed_height(style.fonts) <= h * SHORT_LIST_SHARE
            and all(len(wrap(item, larger.inner_width(), larger.size, style.fonts)) <= 2 for item in items)):
        return larger
    block.anchor = "middle"
    return block


TILE_GAP = 24.0
TILE_MARK = 56.0


def _tiles(spec: SlideSpec, style: Style, items: list[str], mark) -> Plan | None:
    """Two to four parts side by side, each a card with its mark (number or tick) and its words at the
    largest size of the scale they fit: a short agenda or recap fills the page instead of two lines
    in its top-left corner. None when the parts do not fit so (the list layout takes them)."""
    if not 2 <= len(items) <= 4:
        return None
    plan, top = _page_body(spec, style)
    p = style.palette
    n = len(items)
    tile_w = (CONTENT_W - TILE_GAP * (n - 1)) / n
    available = BOTTOM - top
    text_top = 20 + TILE_MARK + 16  # card padding, the mark, the space under it
    # Large while each part stays within two lines; the body size takes whatever fits at all.
    for size in (style.scale.title, style.scale.heading, style.scale.body):
        blocks = [TextBlock(0, 0, tile_w - 32, 0, [item], size, p.on_card, bold=size > style.scale.body) for item in items]
        needed = max(block.needed_height(style.fonts) for block in blocks)
        two_lines = all(len(wrap(item, block.inner_width(), size, style.fonts, block.bold)) <= 2
                        for item, block in zip(items, blocks))
        if text_top + needed + 20 <= available and (two_lines or size == style.scale.body):
            break
    else:
        return None
    tile_h = min(available, max(text_top + needed + 36, available * 0.6))
    tile_top = top + (available - tile_h) / 2
    for i, block in enumerate(blocks):
        x = MARGIN + i * (tile_w + TILE_GAP)
        plan.drawers.append(lambda slide, x=x: add_shape(slide, MSO_SHAPE.ROUNDED_RECTANGLE, x, tile_top, tile_w, tile_h,
                                                         p.card, name=VISUAL))
        plan.drawers.append(lambda slide, x=x: add_shape(slide, MSO_SHAPE.RECTANGLE, x + 20, tile_top + tile_h - 20, 48, 5,
                                                         p.accent))
        plan.drawers.append(lambda slide, i=i, x=x: mark(slide, i, x + 20, tile_top + 20, TILE_MARK))
        block.x, block.y, block.h = x + 16, tile_top + text_top, tile_h - text_top - 32
        plan.blocks.append(block)
    return plan


def agenda(spec: SlideSpec, style: Style) -> Plan:
    items = spec.bullets or [step.label for step in spec.steps]
    p = style.palette
    tiles = _tiles(spec, style, items, lambda slide, i, x, y, d: visuals.badge(
        slide, str(i + 1), style, x, y, d, p.primary, p.on_primary, style.scale.heading))
    if tiles:
        return tiles
    plan, top = _page_body(spec, style)
    two_cols = len(items) > 5
    col_w = (CONTENT_W - 30) / 2 if two_cols else CONTENT_W
    per_col = -(-len(items) // 2) if two_cols else len(items)
    available = BOTTOM - top
    row_h = min(ROW_MAX, available / max(per_col, 1))
    top += (available - row_h * per_col) / 2
    d = min(44.0, row_h - 8)
    for i, item in enumerate(items):
        col, row = divmod(i, per_col) if per_col else (0, i)
        x = MARGIN + col * (col_w + 30)
        y = top + row * row_h
        plan.drawers.append(lambda slide, i=i, x=x, y=y: visuals.badge(
            slide, str(i + 1), style, x, y + (row_h - d) / 2 - 4, d, style.palette.primary, style.palette.on_primary, style.scale.label))
        plan.blocks.append(TextBlock(x + d + 14, y, col_w - d - 14, row_h - 4, [item], style.scale.body,
                                     style.palette.text, anchor="middle"))
    if d < 20:
        plan.problems.append("agenda rows too short")
    return plan


def two_column(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    p = style.palette
    columns = spec.columns[:2]
    col_w = (CONTENT_W - 24) / 2
    needed = max((TextBlock(0, 0, col_w - 24, 0, c.items, style.scale.body, p.on_card, bullets=True).needed_height(style.fonts)
                  + TextBlock(0, 0, col_w - 24, 0, [c.heading], style.scale.heading, p.primary, bold=True).needed_height(style.fonts)
                  for c in columns), default=0.0)
    card_bottom = min(BOTTOM, max(top + needed + 60, top + (BOTTOM - top) * 0.6))
    for i, column in enumerate(columns):
        x = MARGIN + i * (col_w + 24)
        head = TextBlock(x + 12, top + 10, col_w - 24, 0, [column.heading], style.scale.heading, p.primary, bold=True)
        head.h = head.needed_height(style.fonts)
        fill = p.card
        plan.drawers.append(lambda slide, x=x: add_shape(slide, MSO_SHAPE.ROUNDED_RECTANGLE, x, top, col_w, card_bottom - top, fill, name=VISUAL))
        plan.drawers.append(lambda slide, x=x, y=top + 10 + head.h: add_shape(slide, MSO_SHAPE.RECTANGLE, x + 19, y + 2, 48, 4, p.accent))
        plan.blocks.append(head)
        body_top = top + 10 + head.h + 14
        plan.blocks.append(TextBlock(x + 12, body_top, col_w - 24, card_bottom - body_top - 8, column.items, style.scale.body,
                                     p.on_card, bullets=True))
    if spec.bullets:
        plan.problems.append("two_column keeps loose bullets")  # normalised away before rendering
    return plan


def comparison(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    if spec.table is None:
        plan.problems.append("comparison without a table")
        return plan
    # Cells at body size when the table fits so, else at the label size of the scale.
    size = style.scale.label
    for candidate in (style.scale.body, style.scale.label):
        _, heights = visuals.table_layout(spec.table, style, CONTENT_W, candidate)
        size = candidate
        if top + sum(heights) <= BOTTOM:
            break
    else:
        plan.problems.append("table taller than the page")
    plan.drawers.append(lambda slide: visuals.table(slide, spec.table, style, MARGIN, top, CONTENT_W, size, BOTTOM - top))
    return plan


def process(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    p = style.palette
    steps = spec.steps
    n = max(1, len(steps))
    gap = 36.0
    box_w = (CONTENT_W - gap * (n - 1)) / n
    d = 44.0
    label_size = style.scale.label
    label_h = max(TextBlock(0, 0, box_w - 8, 0, [s.label], label_size, p.on_primary, bold=True).needed_height(style.fonts)
                  for s in steps) if steps else 40
    box_h = max(label_h + 36, 96)
    detail_h = max((TextBlock(0, 0, box_w, 0, [s.detail], label_size, p.text).needed_height(style.fonts)
                    for s in steps if s.detail), default=0.0)
    diagram_h = d / 2 + box_h + (detail_h + 12 if detail_h else 0)
    box_top = top + max(0.0, (BOTTOM - top - diagram_h) / 2) + d / 2
    for i, step in enumerate(steps):
        x = MARGIN + i * (box_w + gap)
        plan.drawers.append(lambda slide, x=x: add_shape(slide, MSO_SHAPE.ROUNDED_RECTANGLE, x, box_top, box_w, box_h, p.primary, name=VISUAL))
        plan.drawers.append(lambda slide, i=i, x=x: visuals.badge(slide, str(i + 1), style, x + box_w / 2 - d / 2, box_top - d / 2,
                                                                 d, p.accent, p.on_accent, label_size))
        plan.blocks.append(TextBlock(x + 4, box_top + 24, box_w - 8, box_h - 28, [step.label], label_size, p.on_primary,
                                     bold=True, align="center", anchor="middle"))
        if step.detail:
            y = box_top + box_h + 12
            plan.blocks.append(TextBlock(x, y, box_w, BOTTOM - y, [step.detail], label_size, p.text, align="center"))
        if i:
            x0 = x - gap + 4
            plan.drawers.append(lambda slide, x0=x0: visuals.connector(slide, x0, box_top + box_h / 2, x0 + gap - 8,
                                                                      box_top + box_h / 2, p.secondary))
    if box_w < 110:
        plan.problems.append("too many steps for one row")
    return plan


def timeline(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    p = style.palette
    steps = spec.steps
    n = max(1, len(steps))
    slot = CONTENT_W / n
    detail_h = max((TextBlock(0, 0, slot - 8, 0, [s.detail], style.scale.label, p.text).needed_height(style.fonts)
                    for s in steps if s.detail), default=0.0)
    top += max(0.0, (BOTTOM - top - (94 + detail_h)) / 2)
    line_y = top + 70
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.RECTANGLE, MARGIN, line_y - 3, CONTENT_W, 6, p.secondary, name=VISUAL))
    for i, step in enumerate(steps):
        cx = MARGIN + slot * i + slot / 2
        plan.drawers.append(lambda slide, cx=cx: add_shape(slide, MSO_SHAPE.OVAL, cx - 12, line_y - 12, 24, 24, p.accent, name=VISUAL))
        plan.blocks.append(TextBlock(cx - slot / 2 + 4, top, slot - 8, 52, [step.label], style.scale.label + 2, p.primary,
                                     bold=True, align="center", anchor="bottom"))
        if step.detail:
            plan.blocks.append(TextBlock(cx - slot / 2 + 4, line_y + 24, slot - 8, BOTTOM - line_y - 24, [step.detail],
                                         style.scale.label, p.text, align="center"))
    if slot < 120:
        plan.problems.append("too many timeline points")
    return plan


def big_number(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    p = style.palette
    if spec.stat is None:
        plan.problems.append("big_number without a stat")
        return plan
    panel_w = 420.0 if spec.bullets else CONTENT_W
    # The largest size of the scale at which the figure fits on one line, else the title size (it wraps).
    size = float(style.scale.title)
    for candidate in (style.scale.display, style.scale.hero, style.scale.title):
        if text_width_pt(spec.stat.value, candidate, style.title_fonts, True) <= panel_w - 40:
            size = float(candidate)
            break
    value = TextBlock(MARGIN, top + 10, panel_w, 0, [spec.stat.value], size, p.on_primary, bold=True, title=True,
                      align="center", anchor="middle")
    value.h = value.needed_height(style.title_fonts)
    label = TextBlock(MARGIN + 16, top + 10 + value.h, panel_w - 32, 0, [spec.stat.label], style.scale.body, p.on_primary,
                      align="center")
    label.h = label.needed_height(style.fonts)
    panel_h = min(BOTTOM - top, max(value.h + label.h + 40, (BOTTOM - top) * 0.7))
    shift = (BOTTOM - top - panel_h) / 2
    value.y += shift + (panel_h - value.h - label.h - 40) / 2
    label.y = value.y + value.h
    top += shift
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.ROUNDED_RECTANGLE, MARGIN, top, panel_w, panel_h, p.primary, name=VISUAL))
    plan.blocks += [value, label]
    if top + value.h + label.h + 30 > BOTTOM:
        plan.problems.append("statement taller than the page")
    if spec.bullets:
        x = MARGIN + panel_w + 30
        plan.blocks.append(TextBlock(x, top, SLIDE_W - MARGIN - x, panel_h, spec.bullets, style.scale.body, p.text,
                                     bullets=True, anchor="middle"))
    return plan


def chart(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    if spec.chart is None:
        plan.problems.append("chart without data")
        return plan
    chart_w = 560.0 if spec.bullets else CONTENT_W
    plan.drawers.append(lambda slide: visuals.chart(slide, spec.chart, style, MARGIN, top, chart_w, BOTTOM - top))
    if spec.bullets:
        x = MARGIN + chart_w + 24
        plan.blocks.append(TextBlock(x, top, SLIDE_W - MARGIN - x, BOTTOM - top, spec.bullets, style.scale.body,
                                     style.palette.text, bullets=True))
    return plan


def _mirrored(spec: SlideSpec) -> bool:
    """Picture pages alternate sides by page number: three in a row read as a sequence, not one page thrice."""
    return spec.index % 2 == 0


def image_text(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    p = style.palette
    panel_w = 320.0
    name = _icon_name(spec, *spec.visuals)
    text_w = CONTENT_W - panel_w - 30
    panel_x, text_x = (MARGIN + text_w + 30, MARGIN) if _mirrored(spec) else (MARGIN, MARGIN + panel_w + 30)
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.ROUNDED_RECTANGLE, panel_x, top, panel_w, BOTTOM - top, p.card, name=VISUAL))
    size = min(180.0, BOTTOM - top - 60)
    plan.drawers.append(lambda slide: visuals.icon(slide, name, p.secondary, panel_x + (panel_w - size) / 2,
                                                   top + (BOTTOM - top - size) / 2, size))
    plan.blocks.append(_list_block(text_x, top, text_w, BOTTOM - top, spec.bullets, style, p.text))
    return plan


def quote(spec: SlideSpec, style: Style) -> Plan:
    plan, top = _page_body(spec, style)
    p = style.palette
    if spec.quote is None:
        plan.problems.append("quote without text")
        return plan
    x, w = MARGIN + 110, CONTENT_W - 110
    text = TextBlock(x, 0, w, 0, [spec.quote.text], style.scale.title, p.text)
    text.h = text.needed_height(style.fonts)
    if top + text.h > BOTTOM - 60:  # a long quotation steps down to the body size of the scale
        text.size = style.scale.heading
        text.h = min(text.needed_height(style.fonts), BOTTOM - top - 60)
    source = TextBlock(x, 0, w, 0, ["— " + spec.quote.source], style.scale.body, p.muted, align="right") if spec.quote.source else None
    if source:
        source.h = source.needed_height(style.fonts)
    rest = TextBlock(x, 0, w, 0, spec.bullets, style.scale.body, p.text, bullets=True) if spec.bullets else None
    if rest:
        rest.h = rest.needed_height(style.fonts)
    block_h = text.h + (source.h + 8 if source else 0) + (rest.h + 16 if rest else 0)
    y = top + max(0.0, (BOTTOM - top - block_h) / 2)
    plan.drawers.append(lambda slide, y=y: add_shape(slide, MSO_SHAPE.RECTANGLE, MARGIN, y, 8, text.h, p.accent))
    plan.drawers.append(lambda slide, y=y: visuals.icon(slide, "solid/quote-left", p.secondary, MARGIN + 30, y + 4, 56))
    text.y = y
    plan.blocks.append(text)
    y += text.h + 8
    for block in (source, rest):
        if block:
            block.y = y
            block.h = min(block.h, BOTTOM - y)
            plan.blocks.append(block)
            y += block.h + 16
    return plan


def summary(spec: SlideSpec, style: Style) -> Plan:
    p = style.palette
    items = spec.bullets
    tiles = _tiles(spec, style, items, lambda slide, i, x, y, d: visuals.icon(slide, "solid/circle-check", p.secondary,
                                                                             x, y, d))
    if tiles:
        return tiles
    plan, top = _page_body(spec, style)
    row_h = min(ROW_MAX, (BOTTOM - top) / max(1, len(items)))
    top += (BOTTOM - top - row_h * len(items)) / 2
    icon_size = min(34.0, row_h - 6)
    for i, item in enumerate(items):
        y = top + i * row_h
        plan.drawers.append(lambda slide, y=y: visuals.icon(slide, "solid/circle-check", p.secondary, MARGIN + 4,
                                                           y + (row_h - icon_size) / 2, icon_size))
        plan.blocks.append(TextBlock(MARGIN + icon_size + 18, y, CONTENT_W - icon_size - 18, row_h, [item], style.scale.body,
                                     p.text, anchor="middle"))
    if icon_size < 16:
        plan.problems.append("summary rows too short")
    return plan


def qa(spec: SlideSpec, style: Style) -> Plan:
    """The closing page: the question mark, the title and the questions as one group in the middle of the
    page (at the top they left the lower half of the last page the audience sees empty)."""
    p = style.palette
    plan = Plan()
    x, w, circle = MARGIN + 220, CONTENT_W - 220, 190.0
    title = TextBlock(x, 0, w, 0, [spec.title], style.scale.hero, p.title, bold=True, title=True, anchor="bottom",
                      name=TITLE)
    title.h = title.needed_height(style.title_fonts)
    lines = [line for line in [spec.subtitle, *spec.bullets] if line]
    body = TextBlock(x, 0, w, 0, lines, style.scale.body, p.text, bullets=True) if lines else None
    body_h = body.needed_height(style.fonts) if body else 0.0
    group_h = max(circle, title.h + (20 + body_h if body else 0))
    top = max(40.0, (BOTTOM - group_h) / 2)
    title.y = top + max(0.0, (group_h - title.h - (20 + body_h if body else 0)) / 2)
    plan.blocks.append(title)
    y_circle = top + (group_h - circle) / 2
    plan.drawers.append(lambda slide: add_shape(slide, MSO_SHAPE.OVAL, MARGIN, y_circle, circle, circle, p.card, name=DECO))
    plan.drawers.append(lambda slide: visuals.icon(slide, "solid/circle-question", p.secondary, MARGIN + 35, y_circle + 35, 120))
    if body:
        body.y = title.y + title.h + 20
        body.h = BOTTOM - body.y
        plan.blocks.append(body)
    return plan


PLANNERS = {
    "cover": cover, "agenda": agenda, "section": section, "bullets": bullets, "two_column": two_column,
    "comparison": comparison, "process": process, "timeline": timeline, "big_number": big_number, "chart": chart,
    "image_text": image_text, "quote": quote, "summary": summary, "qa": qa,
}


def plan(spec: SlideSpec, style: Style) -> Plan:
    result = PLANNERS[spec.layout](spec, style)
    for block in result.blocks:
        if block.title:  # headings wrap into even lines (body text keeps the full measure)
            block.balance(style.title_fonts)
    if spec.layout not in ("cover",):
        color = style.palette.on_primary if result.background else style.palette.muted
        result.blocks.append(TextBlock(SLIDE_W - MARGIN - 60, SLIDE_H - 34, 60, 24, [str(spec.index)], FOOTER_PT, color,
                                       align="right", name=FOOTER))
    return result
