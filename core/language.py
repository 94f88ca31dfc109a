"""Which language a text is written in, for content that follows the user's own words (decks, novels)."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff]")


def language_of(text: str) -> str:
    """"zh" when the text has Chinese characters, else "en": a Chinese brief may quote English names,
    an English one has no Chinese at all."""
    return "zh" if CJK.search(text or "") else "en"


def clip(text: str, limit: int) -> str:
    """At most `limit` characters of `text`. Chinese may stop at any character; other text stops at the
    last whole word that fits, so no word is left cut ("What t")."""
    text = text.strip()
    if len(text) <= limit:
        return text
    if CJK.search(text[:limit]):
        return text[:limit]
    head = text[:limit]
    if not text[limit].isspace() and re.search(r"\s", head):
        head = re.split(r"\s+(?=\S*$)", head)[0]  # the word the limit fell in goes whole
    return head.rstrip(" ,;:—-")
