"""Which layout a page gets, read from the shape of its script (no model needed).

steps → process, dates → timeline, figures → chart (one figure → big number), two things
contrasted → two columns, aspect-by-aspect contrasts → comparison table, a quotation → quote,
a single key sentence → key statement, an image suggestion → image + text; first page cover,
an agenda title → agenda, questions at the end → Q&A, the last page → summary.
The typed fields the layout draws (steps, table, chart data…) are built from the same items.
"""

from __future__ import annotations

import re

from core.language import CJK, language_of
from graphs.ppt.render.text import plain
from schemas.ppt import ChartSeries, ChartSpec, Column, Quote, SlideScript, SlideSpec, Stat, Step, Table

STEP_MARK = re.compile(
    r"^\s*(?:第[一二三四五六七八九十\d]+步|步骤\s*\d+|首先|其次|然后|接着|随后|再次|最后|①|②|③|④|⑤|⑥|"
    r"step\s*\d+|first(?:ly)?\b|second(?:ly)?\b|then\b|next\b|finally\b|lastly\b)\s*[:：,，、.]?\s*",
    re.IGNORECASE,
)
DATE_MARK = re.compile(
    r"^\s*((?:公元前?)?\d{3,4}\s*(?:年代|年)?(?:\s*[-–~至]\s*\d{2,4}\s*年?)?|\d{1,2}\s*世纪|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\s+century|"
    r"\d{1,3}\s*[-–~]\s*\d{1,3}\s*(?:分钟|min)|(?:in\s+)?\d{4}s?)\s*[:：,，、\-–—]?\s*",
    re.IGNORECASE,
)
FIGURE = re.compile(r"^\s*(?P<label>[^：:]{1,80}?)\s*[：:]\s*(?:约|大约|about|~)?\s*(?P<value>-?\d+(?:\.\d+)?)\s*(?P<unit>%|％|[^\d\s，,。；;]{0,6})")
HEAD = re.compile(r"^\s*(?P<head>[^：:]{1,80})\s*[：:]\s*(?P<rest>.+)$")
PAIR = re.compile(r"\s*(?:｜|\||/| vs\.? | versus |；|;)\s*", re.IGNORECASE)
CONTRAST_WORDS = ("对比", "比较", "区别", "不同", "差异", "异同", "vs", "versus", "compare", "comparison", "contrast", "difference")
QUOTE = re.compile(r"^[“\"「『](?P<text>.+?)[”\"」』]\s*(?:[-—–]{1,2}\s*(?P<source>.+))?$")
AGENDA_WORDS = ("目录", "议程", "本课内容", "课程安排", "agenda", "table of contents", "contents", "outline of", "today's plan", "overview")
SUMMARY_WORDS = ("总结", "回顾", "小结", "要点回顾", "summary", "recap", "key takeaways", "wrap-up")
QA_WORDS = ("提问", "问答", "答疑", "思考题", "讨论题", "讨论", "思考", "q&a", "questions", "answers", "discussion")
IMAGE_WORDS = ("示意图", "插图", "配图", "图片", "照片", "图示", "illustration", "picture", "image", "photo", "diagram")
# What is left of a page's name once its kind is out: "总结页", "a summary slide" are the kind alone.
# The deck's own part named with the whole it sums up ("本课总结", "today's recap") is that part still.
_KIND_FILLER = re.compile(r"[页张的个一份与和及\s]|本课|本节|本章|本次|课程|今天|今日|全部|环节"
                          r"|\b(?:an?|the|and|for|slides?|pages?|of|key|points?|today'?s?|lesson|talk|course|final|quick|any|your)\b",
                          re.IGNORECASE)


def deck_part_named(subject: str | None, kinds: tuple[str, ...] = ("summary", "agenda")) -> str | None:
    """"summary" or "agenda" (or "qa", when asked) when a page named by `subject` is the deck's recap, agenda or
    question time ("总结", "一个目录页", "a recap slide", "提问与讨论"), of which a deck has one; a page about a
    subject ("历史回顾", "a recap of the 1990s", "课堂提问技巧", "Unanswered questions in cosmology") is not."""
    lowered = (subject or "").lower()
    for kind, words in (("summary", SUMMARY_WORDS), ("agenda", AGENDA_WORDS), ("qa", QA_WORDS)):
        if kind not in kinds:
            continue
        if not any(word in lowered for word in words):
            continue
        rest = lowered
        for word in sorted(words, key=len, reverse=True):
            rest = rest.replace(word, " ")
        if not _KIND_FILLER.sub("", rest).strip(" -:：,，、&?？!！"):
            return kind
    return None


def _short_label(text: str) -> bool:
    """A label before a colon that can head a row, a column or a chart bar: 40 characters of Chinese, or as
    many English words as take that room (an English label of the same sense runs to about twice the letters)."""
    text = text.strip()
    return len(text) <= 40 or (not CJK.search(text) and len(text) <= 80 and len(text.split()) <= 12)


def _head(item: str) -> re.Match[str] | None:
    """`label：rest`, when the label is short enough to be one."""
    match = HEAD.match(item)
    return match if match and _short_label(match.group("head")) else None


def _figure(item: str) -> re.Match[str] | None:
    """`label：figure unit`, when the label is short enough to be one."""
    match = FIGURE.match(item)
    return match if match and _short_label(match.group("label")) else None


_FIGURE_IN_TEXT = re.compile(r"-?\d+(?:\.\d+)?\s*(?P<unit>%|％|倍|万|亿|km|kg|°C|℃)?")
# A bare number that is part of a name ("the themes of Hamlet Act 3", "after World War 2", "第3章") is no figure to show
# big; one with a unit is ("Only 1% of sunlight"), and so is one after the capital that starts the sentence.
_NAMED_BY_NUMBER = re.compile(r"(?:(?<=\s)[A-Z][\w'-]*|第)\s*$")


def _key_figure(item: str) -> re.Match[str] | None:
    """The first figure in a sentence that is not part of a name."""
    return next((m for m in _FIGURE_IN_TEXT.finditer(item)
                 if m.group("unit") or not _NAMED_BY_NUMBER.search(item[:m.start()])), None)


def _contrast_named(*texts: str) -> bool:
    lowered = " ".join(texts).lower()
    return any(word in lowered for word in CONTRAST_WORDS)


def _steps(items: list[str]) -> list[Step] | None:
    if len(items) >= 2 and sum(bool(STEP_MARK.match(i)) for i in items) >= len(items) - 1:
        return [_step(STEP_MARK.sub("", i, count=1)) for i in items]
    if len(items) == 1 and items[0].count("→") >= 2:
        return [Step(label=part.strip()) for part in items[0].split("→") if part.strip()]
    return None


def _step(text: str) -> Step:
    head = _head(text)
    if head and len(head.group("head")) <= 16:
        return Step(label=head.group("head").strip(), detail=head.group("rest").strip())
    return Step(label=text.strip())


def _dates(items: list[str]) -> list[Step] | None:
    matches = [DATE_MARK.match(i) for i in items]
    if len(items) >= 2 and all(m and m.group(1).strip() for m in matches):
        return [Step(label=m.group(1).strip(), detail=i[m.end():].strip()) for m, i in zip(matches, items)]
    return None


def _figures(items: list[str]) -> list[tuple[str, float, str]]:
    found = []
    for item in items:
        match = _figure(item)
        if match:
            found.append((match.group("label").strip(), float(match.group("value")), match.group("unit").strip()))
    return found


def _columns(items: list[str]) -> list[Column] | None:
    heads = [_head(i) for i in items]
    if len(items) >= 2 and all(heads):
        names = list(dict.fromkeys(h.group("head").strip() for h in heads))
        if len(names) == 2:
            return [Column(heading=name, items=[p for h in heads if h.group("head").strip() == name
                                                for p in re.split(r"[；;]\s*", h.group("rest")) if p.strip()])
                    for name in names]
    return None


def _table(items: list[str], title: str) -> Table | None:
    """`aspect：A｜B` rows → a table whose columns are the compared things (named in the title when it can)."""
    rows = []
    header = None
    first_cells = [c.strip() for c in PAIR.split(items[0]) if c.strip()] if items else []
    if items and not _head(items[0]) and len(first_cells) >= 3:
        header, items = first_cells, items[1:]
    for item in items:
        head = _head(item)
        if not head:
            return None
        cells = [c for c in PAIR.split(head.group("rest")) if c.strip()]
        if len(cells) < 2:
            return None
        rows.append([head.group("head").strip(), *cells])
    if len(rows) < 2 or len({len(r) for r in rows}) != 1:
        return None
    if header and len(header) == len(rows[0]):
        return Table(header=header, rows=rows)
    names = [n.strip().removesuffix("的") for n in re.split(r"与|和|及|vs\.?|versus|and|对比|比较|的区别|的异同|:|：", title) if n.strip()]
    names = names[: len(rows[0]) - 1] if len(names) >= len(rows[0]) - 1 else [chr(65 + i) for i in range(len(rows[0]) - 1)]
    aspect = "方面" if language_of(title) == "zh" else "Aspect"
    return Table(header=[aspect, *names], rows=rows)


def choose_layout(script: SlideScript, total: int) -> str:
    return design_slide(script, total, None).layout


def design_slide(script: SlideScript, total: int, subtitle: str | None) -> SlideSpec:
    """The page for a script, with the layout its content calls for and that layout's typed fields."""
    items = [plain(i) for i in script.contentDesign if plain(i)]
    visuals = [plain(v) for v in script.visualSuggestions if plain(v)]
    title = plain(script.title)
    base = {"index": script.slideIndex, "title": title, "visuals": visuals, "notes": script.narrationScript}
    lowered = title.lower()
    if script.slideIndex == 1:
        return SlideSpec(layout="cover", subtitle=subtitle, bullets=items[:3] if not subtitle else [], **base) \
            if len(items) <= 3 or subtitle else SlideSpec(layout="cover", subtitle=subtitle, bullets=items, **base)
    # A page titled as the agenda is one; "Overview of the immune system" is a page about its subject.
    if deck_part_named(title) == "agenda":
        return SlideSpec(layout="agenda", bullets=items, **base)
    # Question time by its title alone ("思考与提问", "Questions and discussion"): a subject that has the word
    # ("课堂提问技巧", "Unanswered questions in cosmology") titles content pages, not a Q&A on each.
    if deck_part_named(title, ("qa",)) == "qa" or "q&a" in lowered or (script.slideIndex == total and all(i.rstrip().endswith(("？", "?")) for i in items)):
        return SlideSpec(layout="qa", bullets=items, **base)
    # A page titled as the recap is one; "历史回顾" or "a recap of the 1990s" is a page about its subject.
    if script.slideIndex == total or deck_part_named(title) == "summary":
        return SlideSpec(layout="summary", bullets=items, **base)
    quote = QUOTE.match(items[0]) if items else None
    if quote:
        return SlideSpec(layout="quote", quote=Quote(text=quote.group("text"), source=quote.group("source") or ""),
                         bullets=items[1:], **base)
    dates = _dates(items)
    if dates:
        return SlideSpec(layout="timeline", steps=dates, **base)
    steps = _steps(items)
    if steps:
        return SlideSpec(layout="process", steps=steps, **base)
    figures = _figures(items)
    if len(figures) >= 2 and len(figures) >= len(items) - 1:
        units = {unit for _, _, unit in figures}
        unit = units.pop() if len(units) == 1 else ""
        share = unit in ("%", "％") and abs(sum(v for _, v, _ in figures) - 100) <= 1
        rest = [i for i in items if not _figure(i)]
        return SlideSpec(layout="chart", bullets=rest, chart=ChartSpec(
            kind="pie" if share else "column", categories=[label for label, _, _ in figures],
            series=[ChartSeries(name=title, values=[v for _, v, _ in figures])], unit=unit), **base)
    if len(figures) == 1 and len(items) <= 3:
        label, value, unit = figures[0]
        return SlideSpec(layout="big_number", stat=Stat(value=f"{value:g}{unit}", label=label),
                         bullets=[i for i in items if not _figure(i)], **base)
    table = _table(items, title)
    if table:
        return SlideSpec(layout="comparison", table=table, **base)
    columns = _columns(items)
    if columns and (_contrast_named(title, *visuals) or len(columns) == 2):
        return SlideSpec(layout="two_column", columns=columns, **base)
    number = _key_figure(items[0]) if len(items) == 1 else None
    if number and len(items[0]) <= 80:
        return SlideSpec(layout="big_number", stat=Stat(value=number.group(0).strip(), label=items[0]), **base)
    if len(items) == 1 and len(items[0]) <= 90:
        # "Common slips in making espresso: get it right every time" shows its head big, wrapped if it must: the
        # page's own title in its place ("In one line: making espresso" twice) says nothing
        head = _head(items[0])
        stat = Stat(value=head.group("head"), label=head.group("rest")) if head else Stat(value=title, label=items[0])
        return SlideSpec(layout="big_number", stat=stat, **base)
    if any(word in " ".join(visuals).lower() for word in IMAGE_WORDS):
        return SlideSpec(layout="image_text", bullets=items, **base)
    return SlideSpec(layout="bullets", bullets=items, **base)


def merge_with_draft(written: SlideSpec, draft: SlideSpec) -> SlideSpec:
    """A model's page keeps its own layout when it filled that layout's data; a plain bullet page
    whose script has a richer shape takes the draft's layout and data instead."""
    if written.layout == "bullets" and draft.layout not in ("bullets", "cover", "summary"):
        return draft.model_copy(update={"notes": written.notes or draft.notes,
                                        "visuals": list(dict.fromkeys(written.visuals + draft.visuals))})
    return written


# ------------------------------------------------------------ a finished page in another layout


def page_rows(page: SlideSpec) -> tuple[list[str] | None, list[list[str]]]:
    """The points of a page as (header, rows of cells), whatever layout drew them: "aspect：A｜B" splits
    into cells, steps into label and detail, two columns side by side, chart data into label and figure."""
    if page.table:
        return page.table.header, page.table.rows
    if len(page.columns) == 2:
        left, right = page.columns
        depth = max(len(left.items), len(right.items))
        pad = lambda items: [*items, *[""] * (depth - len(items))]  # noqa: E731
        return [left.heading, right.heading], [list(pair) for pair in zip(pad(left.items), pad(right.items))]
    rows = [[step.label, step.detail] for step in page.steps]
    if page.chart:
        unit = page.chart.unit
        rows += [[c, f"{v:g}{unit}"] for c, v in zip(page.chart.categories, page.chart.series[0].values)]
    if page.stat:
        rows.append([page.stat.value, page.stat.label])
    for item in page.bullets:
        head = _head(item)
        rows.append([head.group("head").strip(), *(c.strip() for c in PAIR.split(head.group("rest")) if c.strip())]
                    if head else [item])
    return None, rows


def as_table(page: SlideSpec, language: str) -> SlideSpec | None:
    """The page's points as a comparison table; None when they are fewer than two."""
    header, rows = page_rows(page)
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if len(rows) < 2:
        return None
    width = max(2, len(header or []), *(len(row) for row in rows))
    rows = [[*row, *[""] * (width - len(row))] for row in rows]
    if not header or len(header) != width:
        names = ("要点", "说明", "补充") if language == "zh" else ("Point", "Detail", "More")
        header = [names[min(i, 2)] for i in range(width)]
    return page.model_copy(update={"layout": "comparison", "table": Table(header=header, rows=rows), "bullets": [],
                                   "columns": [], "steps": [], "chart": None, "stat": None})


def as_image_text(page: SlideSpec) -> SlideSpec | None:
    """The page's points beside a picture ("第3页加一张图"); None when it has no points to put there."""
    if page.layout == "image_text":
        return page
    if page.columns:  # each point keeps the column it was in: "误区：…", "正解：…"
        points = [f"{c.heading}：{item}" if c.heading else item for c in page.columns for item in c.items]
    else:
        cells = [[c for c in row if c.strip()] for row in page_rows(page)[1]]
        points = page.bullets or ["：".join([row[0], "，".join(row[1:])]) if len(row) > 1 else "".join(row) for row in cells]
    points = [p for p in points if p.strip()]
    if not points:
        return None
    return page.model_copy(update={"layout": "image_text", "bullets": points[:6], "columns": [], "steps": [],
                                   "table": None, "chart": None, "stat": None})


def as_process(page: SlideSpec) -> SlideSpec | None:
    """The page's points as ordered steps; None when they are fewer than two."""
    _, rows = page_rows(page)
    steps = [Step(label=STEP_MARK.sub("", row[0], count=1).strip() or row[0], detail="；".join(c for c in row[1:] if c))
             for row in rows if row and row[0].strip()]
    if len(steps) < 2:
        return None
    return page.model_copy(update={"layout": "process", "steps": steps[:6], "bullets": [], "columns": [],
                                   "table": None, "chart": None, "stat": None})
