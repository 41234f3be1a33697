"""The fonts every printed document uses, and the choice of font for each run of text.

The TrueType files live in ``tournament/printing/fonts/`` next to their licences, so a fresh
clone prints every guest's name with nothing but Python installed. ReportLab embeds (a subset
of) each font in every PDF. The fonts, tried in this order for each character:

==========================  ==========================================  ===============
font                        covers                                      licence
==========================  ==========================================  ===============
Noto Sans                   Latin with accents, Greek, Cyrillic         OFL 1.1
Noto Sans Arabic            Arabic, with its presentation forms         OFL 1.1
Noto Sans Hebrew            Hebrew                                      OFL 1.1
Droid Sans Fallback Full    Chinese, Japanese (kanji and kana)          Apache 2.0
NanumSquare                 Korean Hangul (all 11,172 syllables)        OFL 1.1
DejaVu Sans                 symbols (card suits, arrows), and the rest  Bitstream Vera
==========================  ==========================================  ===============

Droid Sans Fallback has no bold face: bold CJK text uses its regular face. Where the rules
come from: issue 7 item 6 ("names in any script render ... with embedded fonts").
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

# (regular name, bold name, regular file, bold file), in fallback order.
_CHAIN: tuple[tuple[str, str, str, str], ...] = (
    ("HT-Sans", "HT-Sans-Bold", "NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    ("HT-Arabic", "HT-Arabic-Bold", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    ("HT-Hebrew", "HT-Hebrew-Bold", "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
    ("HT-CJK", "HT-CJK", "DroidSansFallbackFull.ttf", "DroidSansFallbackFull.ttf"),
    ("HT-Hangul", "HT-Hangul-Bold", "NanumSquareR.ttf", "NanumSquareB.ttf"),
    ("HT-Symbols", "HT-Symbols-Bold", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
)

#: The font for text that has no letters of its own (labels, numbers).
BASE = "HT-Sans"
BASE_BOLD = "HT-Sans-Bold"

_registered = False


def register_fonts() -> None:
    """Register every vendored font with ReportLab, once per process (later calls do nothing).

    Raises ``FileNotFoundError`` when a font file is missing from the repository.
    """
    global _registered
    if _registered:
        return
    for regular, bold, regular_file, bold_file in _CHAIN:
        for name, file in ((regular, regular_file), (bold, bold_file)):
            if name not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    _registered = True


def font_names(bold: bool = False) -> tuple[str, ...]:
    """The registered font names in fallback order, regular or bold faces."""
    return tuple(entry[1] if bold else entry[0] for entry in _CHAIN)


@lru_cache(maxsize=None)
def _cmap(font_name: str) -> frozenset[int]:
    """The code points a registered font has a glyph for."""
    register_fonts()
    return frozenset(pdfmetrics.getFont(font_name).face.charToGlyph)


def has_glyph(font_name: str, char: str) -> bool:
    """Whether the registered font ``font_name`` has a glyph for the one character ``char``."""
    return ord(char) in _cmap(font_name)


@lru_cache(maxsize=4096)
def font_for(char: str, bold: bool = False) -> str | None:
    """The first font of the chain with a glyph for ``char``, or None when no font has one."""
    for name in font_names(bold):
        if has_glyph(name, char):
            return name
    return None


def covered(char: str) -> bool:
    """Whether some vendored font can print ``char`` (in both regular and bold faces)."""
    return font_for(char, False) is not None and font_for(char, True) is not None


def _is_neutral(char: str) -> bool:
    """Spaces, digits, punctuation and marks: they join the run around them when they can."""
    return unicodedata.category(char)[0] in "ZNPM"


def split_runs(text: str, bold: bool = False) -> tuple[tuple[str, str], ...]:
    """Cut ``text`` into runs of (font name, text), each run printable in one font.

    A neutral character (space, digit, punctuation, combining mark) stays in the current run's
    font when that font has it, so "محمد 3" is not broken up needlessly. Characters no font
    has are left to the caller to remove first (see ``text.clean_text``); here they fall back
    to the base font. Takes visual (display-order) text; returns runs in the same order.
    """
    register_fonts()
    runs: list[list[str]] = []
    for char in text:
        current = runs[-1][0] if runs else None
        if current is not None and _is_neutral(char) and has_glyph(current, char):
            runs[-1][1] += char
            continue
        name = font_for(char, bold) or (BASE_BOLD if bold else BASE)
        if current == name:
            runs[-1][1] += char
        else:
            runs.append([name, char])
    return tuple((name, chunk) for name, chunk in runs)


def runs_width(runs: tuple[tuple[str, str], ...], size: float) -> float:
    """The width in points of the runs set at ``size`` points."""
    return sum(pdfmetrics.stringWidth(chunk, name, size) for name, chunk in runs)
