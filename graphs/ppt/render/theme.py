"""Theme colours that pass WCAG 2.x contrast, and the derived colours the layouts draw with.

Every text/background pair the renderers use is checked: 4.5:1 for body text, 3:1 for text of
24 pt and more. A failing role colour is darkened or lightened (towards the side that gains
contrast) until it passes; each change is returned as a sentence for the stage to log.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

from core.i18n import t
from schemas.ppt import ColorScheme, PresentationTheme

BODY_CONTRAST = 4.5
LARGE_CONTRAST = 3.0
LARGE_TEXT_PT = 24
WHITE, NEAR_BLACK = "#FFFFFF", "#1A1A1A"


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(hex_color: str) -> float:
    r, g, b = (int(hex_color.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def required_contrast(size_pt: float) -> float:
    return LARGE_CONTRAST if size_pt >= LARGE_TEXT_PT else BODY_CONTRAST


def _shift(hex_color: str, towards_light: bool, step: float = 0.04) -> str:
    r, g, b = (int(hex_color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    h, lightness, s = colorsys.rgb_to_hls(r, g, b)
    lightness = min(1.0, lightness + step) if towards_light else max(0.0, lightness - step)
    return "#" + "".join(f"{round(v * 255):02X}" for v in colorsys.hls_to_rgb(h, lightness, s))


def ensure_contrast(foreground: str, background: str, ratio: float) -> str:
    """`foreground` moved in lightness, away from the background, until it reaches `ratio` against it."""
    towards_light = luminance(background) < 0.18
    color = foreground
    for _ in range(40):
        if contrast(color, background) >= ratio:
            return color
        color = _shift(color, towards_light)
    return WHITE if towards_light else "#000000"


def mix(a: str, b: str, weight: float) -> str:
    """`weight` of a, the rest of b: tints for cards and panels."""
    ca = [int(a.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    cb = [int(b.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(x * weight + y * (1 - weight)):02X}" for x, y in zip(ca, cb))


def on_color(fill: str) -> str:
    """White or near-black text, whichever reads better on `fill`."""
    return WHITE if contrast(WHITE, fill) >= contrast(NEAR_BLACK, fill) else NEAR_BLACK


@dataclass(frozen=True)
class Palette:
    """The colours the layouts draw with, every text pair already checked."""

    background: str
    text: str  # body text on background
    title: str  # titles on background
    primary: str  # fills: cover, section, table header, step badges
    on_primary: str  # text on primary
    accent: str  # decoration (bars, lines, connectors)
    on_accent: str
    secondary: str  # icons and chart series on background
    card: str  # light panel on background
    on_card: str
    muted: str  # captions on background


def checked_theme(theme: PresentationTheme) -> tuple[PresentationTheme, Palette, list[str]]:
    """The theme with failing role colours adjusted, its palette, and one sentence per adjustment."""
    c = theme.colorScheme
    adjustments: list[str] = []

    def fix(role: str, color: str, against: str, ratio: float) -> str:
        fixed = ensure_contrast(color, against, ratio)
        if fixed != color:
            adjustments.append(t("ppt.theme_adjusted", role=t(f"ppt.theme_role_{role}"), old=color, new=fixed,
                                 before=f"{contrast(color, against):.1f}", after=f"{contrast(fixed, against):.1f}"))
        return fixed

    background = c.background
    text = fix("text", c.text, background, BODY_CONTRAST)
    primary = c.primary
    # Titles are drawn in primary at ≥ 28 pt, but table headers and badges put body text on it: keep
    # primary usable both ways (3:1 against the background, 4.5:1 with its own text colour).
    primary = fix("primary", primary, background, LARGE_CONTRAST)
    on_primary = on_color(primary)
    if contrast(on_primary, primary) < BODY_CONTRAST:
        primary = fix("primary", primary, on_primary, BODY_CONTRAST)
    secondary = fix("secondary", c.secondary, background, LARGE_CONTRAST)
    accent = c.accent
    card = mix(primary, background, 0.08)
    # Badges put numbers on the accent: a mid-tone one (#DF20CF) reads under 4.5:1 with near-black, so the
    # number goes to pure black or white, which always reach it; the accent itself stays as chosen.
    on_card = ensure_contrast(text, card, BODY_CONTRAST)
    palette = Palette(
        background=background, text=text, title=primary, primary=primary, on_primary=on_primary,
        accent=accent, on_accent=ensure_contrast(on_color(accent), accent, BODY_CONTRAST), secondary=secondary, card=card, on_card=on_card,
        muted=ensure_contrast(mix(text, background, 0.7), background, BODY_CONTRAST),
    )
    fixed_scheme = ColorScheme(primary=primary, secondary=secondary, accent=accent, background=background, text=text)
    return theme.model_copy(update={"colorScheme": fixed_scheme}), palette, adjustments
