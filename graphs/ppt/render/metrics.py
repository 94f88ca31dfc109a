"""Text measurement with real font metrics: how many lines a paragraph takes in a box, and its height.

The deck names fonts (Arial, Microsoft YaHei…); the machine that renders it substitutes what it
has (LibreOffice: Liberation Sans, Noto Sans CJK). We measure with the file fontconfig picks for
each name — the same substitution the renderer makes — so widths and per-script line heights are
the real ones (Noto CJK lines are ~1.45 em tall, Liberation ~1.15 em). When no font file is found,
an estimate is used and the reason is recorded in `FALLBACK_REASONS` for the stage to log.
"""

from __future__ import annotations

import functools
import logging
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from graphs.ppt.render.text import EAST_ASIAN, HANGUL

log = logging.getLogger(__name__)

MEASURE_PX = 200  # glyphs are measured at this pixel size and scaled: 1 em = MEASURE_PX
WIDTH_SAFETY = 1.04  # renderers differ slightly in kerning and CJK punctuation rules
LINE_SPACING = 1.0  # multiple of the font's own line height; never fixed points
FALLBACK_REASONS: list[str] = []

_KNOWN_FILES = {
    "latin": ("/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
              "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
    "latin_bold": ("/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
                   "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"),
    "cjk": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",),
    "cjk_bold": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
}


@functools.cache
def _font_file(family: str, east_asian: bool, bold: bool) -> str | None:
    """The file fontconfig substitutes for `family` (what LibreOffice will draw with), else a known file."""
    pattern = f"{family}:lang={'zh-cn' if east_asian else 'en'}{':bold' if bold else ''}"
    if shutil.which("fc-match"):
        try:
            found = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True,
                                   timeout=5).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            found = ""
        # fc-match always answers; for CJK the answer must cover Chinese, else take the known CJK file.
        if found and Path(found).exists() and (not east_asian or "cjk" in found.lower() or "wqy" in found.lower()):
            return found
    key = ("cjk" if east_asian else "latin") + ("_bold" if bold else "")
    return next((path for path in _KNOWN_FILES[key] if Path(path).exists()), None)


@dataclass(frozen=True)
class FontMetrics:
    """Widths in em of one font file; `line_em` is ascent + descent, the height of one line at 1.0 spacing."""

    font: object | None
    line_em: float

    def width_em(self, text: str) -> float:
        if self.font is None:
            return sum(1.0 if EAST_ASIAN.match(c) else 0.6 for c in text)
        return _width_px(self.font, text) / MEASURE_PX


@functools.lru_cache(maxsize=65536)
def _width_px(font, text: str) -> float:
    return font.getlength(text)


@functools.cache
def metrics_for(family: str, east_asian: bool, bold: bool = False) -> FontMetrics:
    path = _font_file(family, east_asian, bold)
    if path is None:
        reason = f"no font file for {family!r} ({'CJK' if east_asian else 'Latin'}); using estimated widths"
        FALLBACK_REASONS.append(reason)
        log.warning(reason)
        return FontMetrics(None, 1.45 if east_asian else 1.2)
    from PIL import ImageFont

    font = ImageFont.truetype(path, MEASURE_PX, index=_ttc_index(path) if path.endswith(".ttc") else 0)
    ascent, descent = font.getmetrics()
    return FontMetrics(font, (ascent + descent) / MEASURE_PX)


def _ttc_index(path: str) -> int:
    """Noto CJK collections: face 2 is SC in the Debian build's order (JP, KR, SC, TC, HK)."""
    return 2 if "NotoSansCJK" in path or "NotoSerifCJK" in path else 0


@dataclass(frozen=True)
class Fonts:
    latin: str
    east_asian: str


_TOKEN = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\u3040-\u30ff]|[^\s\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\u3040-\u30ff]+\s*|\s+")


def _tokens(text: str) -> list[str]:
    """Break opportunities: every CJK character, and Latin/Hangul words with their trailing space."""
    return _TOKEN.findall(text)


def _token_width(token: str, fonts: Fonts, bold: bool) -> float:
    if EAST_ASIAN.search(token) and not HANGUL.search(token) or EAST_ASIAN.fullmatch(token.strip() or "x"):
        return metrics_for(fonts.east_asian, True, bold).width_em(token)
    if HANGUL.search(token):
        return metrics_for(fonts.east_asian, True, bold).width_em(token)
    return metrics_for(fonts.latin, False, bold).width_em(token)


def wrap(text: str, width_pt: float, size_pt: float, fonts: Fonts, bold: bool = False) -> list[str]:
    """Greedy line breaking as a renderer does it; a word wider than the line is broken by characters."""
    return list(_wrap(text, width_pt, size_pt, fonts, bold))


# Pagination measures the same paragraphs at each candidate size, and the QA gate measures them again.
@functools.lru_cache(maxsize=16384)
def _wrap(text: str, width_pt: float, size_pt: float, fonts: Fonts, bold: bool) -> tuple[str, ...]:
    limit = width_pt / size_pt / WIDTH_SAFETY  # in em
    lines: list[str] = []
    line, used = "", 0.0
    for token in _tokens(text):
        w = _token_width(token, fonts, bold)
        trimmed = _token_width(token.rstrip(), fonts, bold) if token != token.rstrip() else w
        if used + trimmed <= limit or not line:
            if trimmed > limit:  # a single over-long word: break it by characters
                for char in token:
                    cw = _token_width(char, fonts, bold)
                    if used + cw > limit and line:
                        lines.append(line)
                        line, used = "", 0.0
                    line, used = line + char, used + cw
                continue
            line, used = line + token, used + w
        else:
            lines.append(line)
            if token.isspace():
                line, used = "", 0.0
            else:
                line, used = token, w
    if line.strip() or not lines:
        lines.append(line)
    return tuple(item.rstrip() for item in lines)


def line_height_pt(text: str, size_pt: float, fonts: Fonts, bold: bool = False) -> float:
    """Per-script line height: a line with any CJK/Hangul is as tall as the CJK font makes it."""
    # PowerPoint lays single-spaced Latin text at ~1.2 em whatever the font says; take the larger.
    latin = max(1.2, metrics_for(fonts.latin, False, bold).line_em)
    if EAST_ASIAN.search(text):
        return max(latin, metrics_for(fonts.east_asian, True, bold).line_em) * size_pt * LINE_SPACING
    return latin * size_pt * LINE_SPACING


def paragraph_height_pt(text: str, width_pt: float, size_pt: float, fonts: Fonts, bold: bool = False) -> float:
    lines = wrap(text, width_pt, size_pt, fonts, bold)
    return len(lines) * line_height_pt(text, size_pt, fonts, bold)


def text_width_pt(text: str, size_pt: float, fonts: Fonts, bold: bool = False) -> float:
    return sum(_token_width(token, fonts, bold) for token in _tokens(text)) * size_pt * WIDTH_SAFETY
