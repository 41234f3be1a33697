"""The fonts every printed document uses, and the choice of font for each run of text.

Every font is a Noto font (SIL Open Font License 1.1) installed as a Python dependency, so a
fresh ``make run`` has them and an upgrade is one line in ``pyproject.toml``:

* ``manimgx-fonts``: Noto Sans (Latin with accents, Greek, Cyrillic) and Noto Sans for Arabic,
  Hebrew, Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam,
  Sinhala, Thai, Lao, Khmer, Myanmar, Georgian, Armenian and Ethiopic; Noto Sans Symbols; and
  Noto Emoji, the monochrome emoji font (so a guest called "🎲" prints);
* ``justmytype-intl-cjk``: Noto Sans SC, TC, JP and KR (Chinese, Japanese kana and kanji,
  Korean Hangul).

One font is still vendored in ``fonts/``: DejaVu Sans (Bitstream Vera licence), the last
fallback for symbols no Noto font above has (the tick ✓ of the score sheets, box drawing).

The Noto files are variable fonts (a weight axis); ReportLab embeds TrueType outlines as they
are, so each face is first pinned to its weight (400 regular, 700 bold) with HarfBuzz's
instancer (``uharfbuzz``), in memory, the first time a document needs it (about 0.5 s for a
CJK face, a few ms for the others). Faces are registered with ReportLab as shapable, so
ReportLab shapes every run with HarfBuzz (``text`` explains the line layout).

Choosing the font: for each character, the first family of ``FAMILIES`` whose character map
has it; CJK characters go to the Japanese face when the text has kana, to the Korean face when
it has Hangul, else to Simplified then Traditional Chinese. Where the rule comes from: issue 13
item 1 ("choose the font per run of text by coverage").
"""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path

import uharfbuzz
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR, BOLD = 400, 700


@dataclass(frozen=True, slots=True)
class Family:
    """One font family: its short ``key`` (used in the registered font names), the Python
    ``package`` that installs it and the ``path`` of its file inside that package (package
    None: the vendored ``fonts/`` folder), what it ``covers`` in words, and whether the file is
    ``variable`` (a weight axis to pin)."""

    key: str
    package: str | None
    path: str
    covers: str
    variable: bool = True

    def file(self) -> Path:
        """The font file on disk. Raises ``ModuleNotFoundError`` when its package is missing."""
        if self.package is None:
            return FONT_DIR / self.path
        return Path(str(files(self.package).joinpath(self.path)))


def _noto(key: str, stem: str, covers: str) -> Family:
    return Family(key, "manimgx_fonts", f"{stem}[wght].ttf", covers)


def _cjk(key: str, folder: str, stem: str, covers: str) -> Family:
    return Family(key, "justmytype_intl_cjk", f"fonts/ofl/{folder}/{stem}[wght].ttf", covers)


#: Every family in fallback order: the first whose character map has a character prints it.
FAMILIES: tuple[Family, ...] = (
    _noto("Sans", "NotoSans", "Latin with accents, Greek, Cyrillic"),
    _noto("Arabic", "NotoSansArabic", "Arabic, Persian, Urdu"),
    _noto("Hebrew", "NotoSansHebrew", "Hebrew"),
    _noto("Devanagari", "NotoSansDevanagari", "Devanagari (Hindi, Marathi, Nepali)"),
    _noto("Bengali", "NotoSansBengali", "Bengali"),
    _noto("Gurmukhi", "NotoSansGurmukhi", "Gurmukhi (Punjabi)"),
    _noto("Gujarati", "NotoSansGujarati", "Gujarati"),
    _noto("Oriya", "NotoSansOriya", "Odia"),
    _noto("Tamil", "NotoSansTamil", "Tamil"),
    _noto("Telugu", "NotoSansTelugu", "Telugu"),
    _noto("Kannada", "NotoSansKannada", "Kannada"),
    _noto("Malayalam", "NotoSansMalayalam", "Malayalam"),
    _noto("Sinhala", "NotoSansSinhala", "Sinhala"),
    _noto("Thai", "NotoSansThai", "Thai"),
    _noto("Lao", "NotoSansLao", "Lao"),
    _noto("Khmer", "NotoSansKhmer", "Khmer"),
    _noto("Myanmar", "NotoSansMyanmar", "Myanmar (Burmese)"),
    _noto("Georgian", "NotoSansGeorgian", "Georgian"),
    _noto("Armenian", "NotoSansArmenian", "Armenian"),
    _noto("Ethiopic", "NotoSansEthiopic", "Ethiopic (Amharic, Tigrinya)"),
    _cjk("SC", "notosanssc", "NotoSansSC", "Chinese (simplified)"),
    _cjk("TC", "notosanstc", "NotoSansTC", "Chinese (traditional)"),
    _cjk("JP", "notosansjp", "NotoSansJP", "Japanese kana and kanji"),
    _cjk("KR", "notosanskr", "NotoSansKR", "Korean Hangul"),
    _noto("Symbols", "NotoSansSymbols", "arrows, technical and other symbols"),
    _noto("Emoji", "NotoEmoji", "emoji, in black and white"),
    Family("DejaVu", None, "DejaVuSans.ttf", "the remaining symbols (✓, box drawing)", variable=False),
)
BY_KEY = {family.key: family for family in FAMILIES}
_HAN_ORDER = {"kana": ("JP", "SC", "TC", "KR"), "hangul": ("KR", "SC", "TC", "JP"), "": ("SC", "TC", "JP", "KR")}

#: The font for text that has no letters of its own (labels, numbers), regular and bold.
BASE = "HT-Sans"
BASE_BOLD = "HT-Sans-Bold"


def font_name(key: str, bold: bool = False) -> str:
    """The ReportLab name of family ``key``'s face: "HT-Thai" or "HT-Thai-Bold"."""
    return f"HT-{key}-Bold" if bold else f"HT-{key}"


def _instance(family: Family, weight: int) -> bytes:
    """The font file of ``family`` with its weight axis pinned to ``weight`` (a static
    TrueType font), made by HarfBuzz's subsetter keeping every glyph and table."""
    face = uharfbuzz.Face(uharfbuzz.Blob.from_file_path(str(family.file())))
    if not family.variable or "wght" not in {axis.tag for axis in face.axis_infos}:
        return family.file().read_bytes()
    plan = uharfbuzz.SubsetInput()
    plan.keep_everything()
    plan.pin_axis_location(face, "wght", weight)
    return bytes(uharfbuzz.subset(face, plan).blob.data)


@cache
def face(key: str, bold: bool = False) -> str:
    """Register family ``key`` in regular or ``bold`` weight with ReportLab (once per process;
    shapable, so ReportLab shapes its text with HarfBuzz) and return its font name.

    Raises ``KeyError`` for an unknown family and ``ModuleNotFoundError`` when its package is
    not installed.
    """
    name = font_name(key, bold)
    if name not in pdfmetrics.getRegisteredFontNames():
        family = BY_KEY[key]
        font = TTFont(name, io.BytesIO(_instance(family, BOLD if bold else REGULAR)), shapable=True)
        # The instance keeps the variable font's PostScript name ("NotoSans-Thin" for a CJK
        # face); ReportLab shares one face between fonts of the same name, so each weight is
        # named for what it is ("NotoSansThai-Bold"), which is also what the PDF shows.
        stem = Path(family.path).name.split("[")[0].removesuffix(".ttf")
        font.face.name = f"{stem}-{'Bold' if bold else 'Regular'}".encode()
        pdfmetrics.registerFont(font)
    return name


def register_fonts() -> None:
    """Register the base faces (Noto Sans regular and bold), which labels and table styles
    name directly. Every other face registers itself the first time a run needs it."""
    face("Sans")
    face("Sans", True)


@cache
def coverage(key: str) -> frozenset[int]:
    """The code points family ``key``'s font has a glyph for (its character map)."""
    family = BY_KEY[key]
    return frozenset(uharfbuzz.Face(uharfbuzz.Blob.from_file_path(str(family.file()))).unicodes)


def _is_cjk(cp: int) -> bool:
    """Han, kana, Hangul and CJK punctuation: the characters the CJK faces share."""
    return (
        0x3000 <= cp <= 0x30FF
        or 0x3130 <= cp <= 0x318F
        or 0xAC00 <= cp <= 0xD7AF
        or 0x1100 <= cp <= 0x11FF
        or unicodedata.name(chr(cp), "").startswith("CJK ")
    )


def han_hint(text: str) -> str:
    """Which CJK face Han characters in ``text`` take: "kana" (Japanese), "hangul" (Korean)
    or "" (Chinese), from the other characters of the same text."""
    if text.isascii():
        return ""
    for char in text:
        cp = ord(char)
        if 0x3040 <= cp <= 0x30FF or 0x31F0 <= cp <= 0x31FF:
            return "kana"
        if 0xAC00 <= cp <= 0xD7AF or 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F:
            return "hangul"
    return ""


@lru_cache(maxsize=8192)
def family_for(char: str, hint: str = "") -> str | None:
    """The key of the first family whose font has ``char`` (CJK characters: in the order
    ``hint`` gives, see ``han_hint``), or None when no font has it."""
    cp = ord(char)
    if _is_cjk(cp):
        for key in _HAN_ORDER[hint]:
            if cp in coverage(key):
                return key
    for family in FAMILIES:
        if cp in coverage(family.key):
            return family.key
    return None


def covered(char: str) -> bool:
    """Whether some font of ``FAMILIES`` can print ``char``."""
    return family_for(char) is not None


def _is_neutral(char: str) -> bool:
    """Spaces, digits, punctuation, marks and joiners: they join the run around them when the
    run's font has them, so a word is shaped whole."""
    return unicodedata.category(char)[0] in "ZNPM" or char in "\u200c\u200d"


#: The symbol fonts: their spaces, digits and punctuation are not a text font's (Noto Emoji's
#: space is wider than a letter), so after an emoji or a symbol only marks and joiners stay in them.
SYMBOL_FAMILIES = frozenset({"Emoji", "Symbols"})


def _stays_in(current: str, char: str) -> bool:
    """Whether neutral ``char`` joins the run in family ``current`` (``split_runs``)."""
    if current in SYMBOL_FAMILIES and unicodedata.category(char)[0] != "M" and char not in "\u200c\u200d":
        return False
    return ord(char) in coverage(current)


@cache
def sans_alone() -> frozenset[int]:
    """The code points that print in Noto Sans whatever text is around them: those its
    character map has, but for the CJK ones (``family_for`` tries the CJK faces first for those).
    A text made of these alone is one run in Noto Sans (``split_runs``: the first family
    covering each character is "Sans", and every neutral among them stays in it)."""
    return frozenset(cp for cp in coverage("Sans") if not _is_cjk(cp))


def split_runs(text: str, bold: bool = False, hint: str | None = None) -> tuple[tuple[str, str], ...]:
    """Cut logical ``text`` into runs of (ReportLab font name, text), each printable in one font.

    A neutral character stays in the current run's font when that font has it, except that
    after an emoji or a symbol (``SYMBOL_FAMILIES``) a space, digit or punctuation mark is set
    in the font of the text (found by trying the product: "Poker night 🃏 Friday" printed a wide
    gap after the card, Noto Emoji's own space). A character no font has falls back to the base
    font (callers check ``covered`` first: see ``text.clean_text``). ``hint`` is the Han choice
    (``han_hint`` of ``text`` when None).
    """
    if text and sans_alone().issuperset(map(ord, text)):
        return ((face("Sans", bold), text),)  # what split_by_character gives such a text, at once
    return split_by_character(text, bold, hint)


def split_by_character(text: str, bold: bool = False, hint: str | None = None) -> tuple[tuple[str, str], ...]:
    """``split_runs``, character by character (what it does but for a text of Noto Sans alone)."""
    hint = han_hint(text) if hint is None else hint
    runs: list[list[str]] = []
    for char in text:
        current = runs[-1][0] if runs else None
        if current is not None and _is_neutral(char) and _stays_in(current, char):
            runs[-1][1] += char
            continue
        key = family_for(char, hint) or "Sans"
        if current == key:
            runs[-1][1] += char
        else:
            runs.append([key, char])
    return tuple((face(key, bold), chunk) for key, chunk in runs)
