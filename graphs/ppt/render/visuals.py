"""The visual of a slide: native charts, tables, step diagrams (shapes + connectors), timelines,
number badges and icons. Each function draws into a python-pptx slide at a box given in points."""

from __future__ import annotations

from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_AXIS_CROSSES, XL_CHART_TYPE, XL_LEGEND_POSITION, XL_LABEL_POSITION
from pptx.enum.shapes import MSO_CONNECTOR, MSO_SHAPE
from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
from pptx.util import Pt

from graphs.ppt.render.base import (
    INSET_X, INSET_Y, VISUAL, Style, add_picture, add_shape, rgb, write_paragraphs,
)
from graphs.ppt.render.icons import icon_png
from graphs.ppt.render.metrics import line_height_pt, text_width_pt, wrap
from graphs.ppt.render.theme import mix
from schemas.ppt import ChartSpec, Table

CHART_TYPES = {
    "column": XL_CHART_TYPE.COLUMN_CLUSTERED,
    "bar": XL_CHART_TYPE.BAR_CLUSTERED,
    "line": XL_CHART_TYPE.LINE_MARKERS,
    "pie": XL_CHART_TYPE.PIE,
}
CHART_TEXT_PT = 16


def icon(slide, name: str, color: str, x: float, y: float, size: float):
    return add_picture(slide, icon_png(name, color), x, y, size, size)


def _readable_kind(spec: ChartSpec, style: Style, w: float) -> str:
    """Columns whose names are wider than a column's slot are drawn as bars: the names then read level on
    the left instead of slanting under the chart and taking half its height."""
    if spec.kind != "column" or not spec.categories:
        return spec.kind
    slot = w * 0.85 / len(spec.categories)
    widest = max(text_width_pt(name, CHART_TEXT_PT, style.fonts) for name in spec.categories)
    return "bar" if widest > slot else "column"


def chart(slide, spec: ChartSpec, style: Style, x: float, y: float, w: float, h: float) -> None:
    data = CategoryChartData()
    data.categories = spec.categories
    for series in spec.series:
        data.add_series(series.name, series.values)
    kind = _readable_kind(spec, style, w)
    frame = slide.shapes.add_chart(CHART_TYPES[kind], Pt(x), Pt(y), Pt(w), Pt(h), data)
    frame.name = f"{VISUAL}:chart:{len(slide.shapes)}"
    graphic = frame.chart
    graphic.has_title = False  # the slide title names the chart
    graphic.font.size = Pt(CHART_TEXT_PT)
    graphic.font.name = style.fonts.latin
    graphic.font.color.rgb = rgb(style.palette.text)
    colors = [style.palette.primary, style.palette.secondary, style.palette.accent, mix(style.palette.primary, "#FFFFFF", 0.5)]
    plot = graphic.plots[0]
    plot.has_data_labels = True
    labels = plot.data_labels
    labels.font.size = Pt(CHART_TEXT_PT)
    if spec.unit in ("%", "％"):
        labels.number_format = '0.#"%"'
        labels.number_format_is_linked = False
    else:
        labels.number_format_is_linked = True
    if spec.kind == "pie":
        for i, point in enumerate(plot.series[0].points):
            point.format.fill.solid()
            point.format.fill.fore_color.rgb = rgb(colors[i % len(colors)] if i < 3 else mix(colors[0], "#FFFFFF", 0.3 + 0.15 * (i % 4)))
        labels.position = XL_LABEL_POSITION.OUTSIDE_END
        graphic.has_legend = True
        graphic.legend.position = XL_LEGEND_POSITION.RIGHT
        graphic.legend.include_in_layout = False
        return
    for i, series in enumerate(plot.series):
        fill = colors[i % len(colors)]
        if kind == "line":
            series.format.line.color.rgb = rgb(fill)
            series.format.line.width = Pt(3)
        else:
            series.format.fill.solid()
            series.format.fill.fore_color.rgb = rgb(fill)
    if kind in ("column", "bar"):
        plot.gap_width = 60
    if kind == "bar":  # bars read top-down in the order given, as a list does
        graphic.category_axis.reverse_order = True
        graphic.category_axis.crosses = XL_AXIS_CROSSES.MAXIMUM  # the scale stays under the bars
    graphic.has_legend = len(spec.series) > 1
    if graphic.has_legend:
        graphic.legend.position = XL_LEGEND_POSITION.BOTTOM
        graphic.legend.include_in_layout = False
    value_axis = graphic.value_axis
    value_axis.has_major_gridlines = True
    value_axis.major_gridlines.format.line.color.rgb = rgb(mix(style.palette.text, style.palette.background, 0.15))
    value_axis.format.line.fill.background()
    if spec.unit:
        value_axis.has_title = True
        value_axis.axis_title.text_frame.text = spec.unit
        value_axis.axis_title.text_frame.paragraphs[0].runs[0].font.size = Pt(CHART_TEXT_PT)


MIN_COLUMN_SHARE = 0.15  # no column narrower than this share of the table, however short its cells


def table_layout(table: Table, style: Style, w: float, size: float) -> tuple[list[float], list[float]]:
    """Column widths and the row heights the text needs: of the ways to share the width (the first column narrower
    when it names aspects; each column by its longest cell; all alike) the one whose rows take least height. A fixed
    narrow first column wrapped "Roles and responsibilities" and "今天就能迈出的一小步" beside one-line cells."""
    n = len(table.header)
    rows = [table.header, *table.rows]
    first = w * (0.26 if n >= 3 else 0.4)
    longest = [max(text_width_pt(row[c], size, style.fonts, r == 0 or c == 0) for r, row in enumerate(rows) if c < len(row))
               + 2 * INSET_X + 2 for c in range(n)]
    wanted = [max(width, w * MIN_COLUMN_SHARE) for width in longest]
    shares = ([first] + [(w - first) / (n - 1)] * (n - 1), [width * w / sum(wanted) for width in wanted], [w / n] * n)
    return min(((widths, _row_heights(rows, widths, style, size)) for widths in shares), key=lambda laid: sum(laid[1]))


def _row_heights(rows: list[list[str]], widths: list[float], style: Style, size: float) -> list[float]:
    heights = []
    for r, row in enumerate(rows):
        tallest = 0.0
        for c, cell in enumerate(row):
            lines = len(wrap(cell, widths[c] - 2 * INSET_X, size, style.fonts, r == 0 or c == 0))
            tallest = max(tallest, lines * line_height_pt(cell, size, style.fonts) + 2 * INSET_Y + 4)
        heights.append(tallest)
    return heights


ROW_PADDING_MAX = 36.0  # a short table's rows open up by at most this much each: it still reads as one table


def table(slide, spec: Table, style: Style, x: float, y: float, w: float, size: float, room: float = 0.0) -> None:
    """The table at (x, y); with `room` (the height the page has for it), a short table's body rows open up
    towards filling it instead of leaving the lower half of the page empty."""
    widths, heights = table_layout(spec, style, w, size)
    if spec.rows and room > sum(heights):
        extra = min(ROW_PADDING_MAX, (room * 0.85 - sum(heights)) / len(spec.rows))
        if extra > 0:
            heights = [heights[0], *(h + extra for h in heights[1:])]
    rows, cols = len(spec.rows) + 1, len(spec.header)
    frame = slide.shapes.add_table(rows, cols, Pt(x), Pt(y), Pt(w), Pt(sum(heights)))
    frame.name = f"{VISUAL}:table:{len(slide.shapes)}"
    grid = frame.table
    grid.first_row = True
    for c, width in enumerate(widths):
        grid.columns[c].width = Pt(width)
    p = style.palette
    for r, row in enumerate([spec.header, *spec.rows]):
        grid.rows[r].height = Pt(heights[r])
        for c, value in enumerate(row):
            cell = grid.cell(r, c)
            fill = p.primary if r == 0 else (p.card if r % 2 else p.background)
            color = p.on_primary if r == 0 else (p.on_card if r % 2 else p.text)
            cell.fill.solid()
            cell.fill.fore_color.rgb = rgb(fill)
            cell.vertical_anchor = MSO_ANCHOR.MIDDLE
            cell.text_frame.clear()
            write_paragraphs(cell.text_frame, [value], size=size, color=color, fonts=style.fonts, bold=r == 0 or c == 0)


def connector(slide, x1: float, y1: float, x2: float, y2: float, color: str) -> None:
    line = slide.shapes.add_connector(MSO_CONNECTOR.STRAIGHT, Pt(x1), Pt(y1), Pt(x2), Pt(y2))
    line.name = f"{VISUAL}:connector:{len(slide.shapes)}"
    line.line.color.rgb = rgb(color)
    line.line.width = Pt(2.5)
    ln = line.line._get_or_add_ln()
    from lxml import etree
    from pptx.oxml.ns import qn

    tail = etree.SubElement(ln, qn("a:tailEnd"))
    tail.set("type", "triangle")
    tail.set("w", "med")
    tail.set("len", "med")


def badge(slide, text: str, style: Style, x: float, y: float, d: float, fill: str, color: str, size: float) -> None:
    """A filled circle with a short label (step number): a visual, its text measured by its size."""
    circle = add_shape(slide, MSO_SHAPE.OVAL, x, y, d, d, fill, name=VISUAL)
    frame = circle.text_frame
    frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = Pt(0)
    frame.vertical_anchor = MSO_ANCHOR.MIDDLE
    write_paragraphs(frame, [text], size=size, color=color, fonts=style.fonts, bold=True, align="center")
    frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = Pt(0)
    frame.paragraphs[0].alignment = PP_ALIGN.CENTER
