"""Icons without the network: Font Awesome Free SVGs from PyPI `fontawesome-free-pack`, rasterised
with cairosvg and tinted to the theme. The icons are CC BY 4.0 (credited in the deck's last notes).

An icon is chosen by keyword: the DSL's `icon` field, else words of the slide title, through a small
table of teaching words (Chinese and English) to Font Awesome slugs, then by slug itself.
"""

from __future__ import annotations

import functools
import logging
import re
import zlib

log = logging.getLogger(__name__)

CREDIT = "Icons: Font Awesome Free (fontawesome.com), CC BY 4.0"

# keyword (lower-case, zh or en) → "solid/<slug>"; order matters: the first keyword found wins.
KEYWORD_ICONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("光合", "植物", "叶", "plant", "leaf", "photosynth", "botany"), "solid/leaf"),
    (("细胞", "生物", "基因", "dna", "cell", "biology", "gene"), "solid/dna"),
    (("化学", "分子", "原子", "化学键", "chemistry", "molecule", "atom", "bond"), "solid/atom"),
    (("实验", "试剂", "experiment", "lab", "flask"), "solid/flask"),
    (("物理", "力", "运动", "牛顿", "physics", "force", "motion", "newton"), "solid/rocket"),
    (("电", "能量", "能源", "energy", "electric", "power"), "solid/bolt"),
    (("光", "太阳", "light", "sun", "solar"), "solid/sun"),
    (("水", "蒸腾", "water", "rain", "ocean"), "solid/droplet"),
    (("地球", "地理", "环境", "气候", "earth", "geography", "climate", "environment"), "solid/earth-asia"),
    (("天文", "宇宙", "黑洞", "星", "space", "galaxy", "black hole", "star", "astronomy"), "solid/meteor"),
    (("数学", "函数", "方程", "几何", "math", "function", "equation", "geometry", "algebra"), "solid/square-root-variable"),
    (("数据", "统计", "图表", "比例", "data", "statistic", "chart", "percent"), "solid/chart-column"),
    (("历史", "时间", "年代", "history", "timeline", "century", "time"), "solid/landmark"),
    (("计算机", "编程", "代码", "算法", "软件", "computer", "program", "code", "algorithm", "software"), "solid/laptop-code"),
    (("人工智能", "智能", "机器学习", "ai", "machine learning", "neural"), "solid/robot"),
    (("网络", "互联网", "network", "internet", "web"), "solid/network-wired"),
    (("安全", "风险", "security", "safety", "risk"), "solid/shield-halved"),
    (("健康", "医学", "心脏", "health", "medicine", "heart"), "solid/heart-pulse"),
    (("语言", "文学", "阅读", "写作", "language", "literature", "reading", "writing"), "solid/book-open"),
    (("音乐", "music", "song"), "solid/music"),
    (("艺术", "绘画", "设计", "art", "painting", "design"), "solid/palette"),
    (("经济", "金融", "市场", "货币", "economy", "finance", "market", "money"), "solid/coins"),
    (("团队", "合作", "社会", "team", "society", "people", "collaborat"), "solid/people-group"),
    (("目标", "目的", "goal", "objective", "target"), "solid/bullseye"),
    (("步骤", "流程", "过程", "process", "step", "workflow"), "solid/diagram-project"),
    (("对比", "比较", "区别", "差异", "compare", "comparison", "versus", "vs"), "solid/scale-balanced"),
    (("误区", "错误", "注意", "pitfall", "mistake", "warning", "caution"), "solid/triangle-exclamation"),
    (("规则", "规定", "守则", "须知", "rule", "regulation", "policy", "policies"), "solid/clipboard-list"),
    (("欢迎", "问候", "见面", "welcome", "greeting", "hello"), "solid/handshake"),
    (("求助", "联系", "帮助", "咨询", "help", "contact", "support"), "solid/headset"),
    (("路线", "参观", "游览", "导览", "景点", "展厅", "route", "tour", "visit", "stop", "gallery", "galleries"), "solid/route"),
    (("地图", "位置", "map", "where", "location"), "solid/map-location-dot"),
    (("感谢", "感恩", "谢谢", "祝福", "thank", "gratitude", "toast", "wish"), "solid/hand-holding-heart"),
    (("婚礼", "新人", "wedding", "marriage", "couple"), "solid/ring"),
    (("故事", "经历", "回忆", "story", "memory", "memories"), "solid/book"),
    (("动物", "宠物", "animal", "pets", "dog", "kitten"), "solid/paw"),
    (("食物", "饮食", "餐", "food", "meal", "diet", "eating"), "solid/utensils"),
    (("销售", "业绩", "营收", "增长", "sales", "revenue", "growth"), "solid/chart-line"),
    (("产品", "发布", "上市", "product", "launch", "release"), "solid/rocket"),
    (("日程", "安排", "时间表", "schedule", "timetable", "calendar"), "solid/calendar-days"),
    (("应用", "案例", "例子", "application", "example", "case", "use"), "solid/lightbulb"),
    (("趋势", "未来", "发展", "trend", "future", "next"), "solid/arrow-trend-up"),
    (("问题", "提问", "思考", "question", "q&a", "ask", "think"), "solid/circle-question"),
    (("总结", "回顾", "小结", "summary", "review", "recap"), "solid/list-check"),
    (("概念", "定义", "原理", "concept", "definition", "idea", "principle", "core"), "solid/lightbulb"),
    (("议程", "目录", "agenda", "contents", "outline"), "solid/list-ol"),
    (("引用", "名言", "quote"), "solid/quote-left"),
    (("课程", "学习", "教学", "学生", "course", "learn", "lesson", "student", "school"), "solid/graduation-cap"),
)
DEFAULT_ICON = "solid/lightbulb"
# A page whose words match no keyword still gets an icon of its own, picked by its words, so a deck of such pages
# shows a varied set rather than the same light bulb on every page; the pick is stable for the same page.
NEUTRAL_ICONS = ("solid/lightbulb", "solid/compass", "solid/puzzle-piece", "solid/seedling", "solid/key", "solid/flag",
                 "solid/star", "solid/comments", "solid/magnifying-glass", "solid/bullhorn")


def icon_for(*texts: str | None) -> str:
    """The Font Awesome name for the first keyword found in `texts` (an explicit slug wins)."""
    for text in texts:
        if not text:
            continue
        lowered = text.lower().strip()
        if _exists(f"solid/{lowered}"):
            return f"solid/{lowered}"
        for keywords, name in KEYWORD_ICONS:
            if any(_mentions(lowered, word) for word in keywords):
                return name
    words = next((text.strip() for text in texts if text and text.strip()), "")
    return NEUTRAL_ICONS[zlib.crc32(words.encode()) % len(NEUTRAL_ICONS)] if words else DEFAULT_ICON


def _mentions(text: str, word: str) -> bool:
    if word.isascii():
        return re.search(rf"\b{re.escape(word)}", text) is not None
    return word in text


@functools.cache
def _exists(name: str) -> bool:
    try:
        from fontawesome_free_pack import get_icon
    except ImportError:
        return False
    return re.fullmatch(r"solid/[a-z0-9-]+", name) is not None and get_icon(name) is not None


@functools.lru_cache(maxsize=256)
def icon_png(name: str, color: str, size_px: int = 256) -> bytes | None:
    """The icon as a PNG tinted `color`, or None (logged) when the package or cairo is missing."""
    try:
        import cairosvg
        from fontawesome_free_pack import get_icon

        svg = get_icon(name).svg.replace("currentColor", color)
        return cairosvg.svg2png(bytestring=svg.encode(), output_height=size_px)
    except Exception as error:  # an icon is decoration: the slide still renders without it
        log.warning("icon %s not rendered: %s", name, error)
        return None
