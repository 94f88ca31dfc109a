"""Which language a text is written in, for content that follows the user's own words (decks, novels)."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff]")


def language_of(text: str) -> str:
    """"zh" when the text has Chinese characters, else "en": a Chinese brief may quote English names,
    an English one has no Chinese at all."""
    return "zh" if CJK.search(text or "") else "en"
