"""Clean text for slides: markdown, emoji, control characters, newlines, scripts and language tags.

A model writes `**bold**`, backticks, `# headings`, `[links](url)`, raw newlines and emoji; none of
that may reach an audience as literal characters. `**bold**` survives as bold runs (see `runs`);
everything else is stripped. Control characters would make python-pptx refuse the string.
"""

from __future__ import annotations

import functools
import re

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
KANA = re.compile(r"[\u3040-\u30ff]")
EAST_ASIAN = re.compile(CJK.pattern[:-1] + HANGUL.pattern[1:])
# Pictographs, dingbats, flags, variation selectors and joiners: no font of the deck draws them.
EMOJI = re.compile(
    "[\U0001f000-\U0001faff\U0001fc00-\U0001ffff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff"
    "\ufe0e\ufe0f\u200d\u20e3\U000e0020-\U000e007f]"
)
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.MULTILINE)
_LIST_MARK = re.compile(r"^\s*(?:[-*+•·▪▸►]|\d{1,2}[.)、])\s+", re.MULTILINE)
_HTML = re.compile(r"</?(?:br|p|b|i|strong|em|span|div|ul|ol|li)\b[^>]*>", re.IGNORECASE)
_EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])|(?<![\w`])`+([^`\n]*)`+")
_SPACES = re.compile(r"[ \t\u00a0]+")

MARKUP_LEAK = re.compile(r"\*\*|__|`|^\s*#{1,6}\s|\]\(|</?(?:br|p|b|strong|em)\b", re.MULTILINE | re.IGNORECASE)


def clean(text: str | None, *, keep_bold: bool = True) -> str:
    """One line of slide text with markup and unprintable characters removed (`**bold**` kept if asked)."""
    if not text:
        return ""
    return _clean(str(text), keep_bold)


@functools.lru_cache(maxsize=4096)  # the same items are cleaned by prepare, pagination and the QA gate
def _clean(text: str, keep_bold: bool) -> str:
    value = CONTROL.sub("", str(text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " "))
    value = EMOJI.sub("", value)
    value = _HTML.sub(" ", value)
    value = _LINK.sub(r"\1", value)
    value = _HEADING.sub("", value)
    value = _LIST_MARK.sub("", value)
    value = _EMPHASIS.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), value)
    if not keep_bold:
        value = BOLD.sub(lambda m: m.group(1) or m.group(2), value)
    value = "\n".join(_SPACES.sub(" ", line).strip() for line in value.split("\n"))
    return re.sub(r"\n{2,}", "\n", value).strip()


def plain(text: str | None) -> str:
    """What the audience reads: markup gone, bold markers dropped, lines joined by one space."""
    return " ".join(clean(text, keep_bold=False).split("\n")).strip()


def paragraphs(text: str | None) -> list[str]:
    """Newlines become paragraphs; empty ones vanish."""
    return [line for line in clean(text).split("\n") if line.strip()]


def runs(text: str) -> list[tuple[str, bool]]:
    """`**bold**` spans as (text, bold) runs; an unmatched marker is plain text."""
    out: list[tuple[str, bool]] = []
    position = 0
    for match in BOLD.finditer(text):
        if match.start() > position:
            out.append((text[position : match.start()], False))
        out.append((match.group(1) or match.group(2), True))
        position = match.end()
    if position < len(text):
        out.append((text[position:], False))
    return [(value.replace("**", ""), bold) for value, bold in out if value]


_KANA_CHARS, _HAN_CHARS, _HANGUL_CHARS = KANA.pattern[1:-1], HAN.pattern[1:-1], HANGUL.pattern[1:-1]
_PUNCT_CHARS = r"\u3000-\u303f\uff00-\uffef"  # what CJK covers beyond Han and kana
_SCRIPT = re.compile(
    f"(?P<han>[{_HAN_CHARS}]+)|(?P<hangul>[{_HANGUL_CHARS}]+)|(?P<kana>[{_KANA_CHARS}]+)|(?P<cjk_punct>[{_PUNCT_CHARS}]+)"
    f"|(?P<latin>[^{_HAN_CHARS}{_HANGUL_CHARS}{_KANA_CHARS}{_PUNCT_CHARS}]+)"
)


def script_runs(text: str) -> list[tuple[str, str]]:
    """Split text into runs by script: "han" (Chinese), "hangul", "kana" or "latin", for per-run lang tags."""
    out: list[tuple[str, str]] = []
    for match in _SCRIPT.finditer(text):  # one match per stretch of one script (a loop per character was slow)
        value, kind = match.group(), match.lastgroup
        if kind == "latin" and out:  # spaces after another script stay with it
            spaces = len(value) - len(value.lstrip(" "))
            if spaces:
                out[-1] = (out[-1][0] + value[:spaces], out[-1][1])
                value = value[spaces:]
                if not value:
                    continue
        out.append((value, kind))
    # CJK punctuation belongs to the script around it.
    merged: list[tuple[str, str]] = []
    for value, kind in out:
        if kind == "cjk_punct":
            kind = merged[-1][1] if merged and merged[-1][1] != "latin" else "han"
        if merged and merged[-1][1] == kind:
            merged[-1] = (merged[-1][0] + value, kind)
        else:
            merged.append((value, kind))
    return merged


LANG_OF_SCRIPT = {"han": "zh-CN", "hangul": "ko-KR", "kana": "ja-JP"}

