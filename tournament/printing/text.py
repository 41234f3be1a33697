"""Text made fit for print: cleaning names, bidi and HarfBuzz shaping, and wrap-or-shrink fitting.

Decisions (issue 13; the seeds are silent on print):

* Names are NFC-normalised. Control and format characters (tabs, newlines, bidi marks) are
  removed, except the zero width joiner and non-joiner, which shaping needs; a tab or newline
  becomes a space; doubled spaces are collapsed.
* Every other character prints in the first font that has it (``fonts``), emoji included
  (Noto Emoji, in black and white). A character no font has cannot print: ``name_problem``
  says so, the guest's name is refused where it is entered (``tournament.services.guests``),
  and a name stored before that rule prints as "Guest no. N" with the print page listing it
  (``tournament.documents.contents``). Nothing ever prints as "?" or as an empty box.
* Shaping is HarfBuzz's, through ReportLab (``uharfbuzz``; every face is registered shapable):
  Arabic joining, Indic conjuncts and vowel reordering, Thai and Khmer marks, Hebrew points
  (niqqud, cantillation: marks of no width that the font's anchors set on their letter; NFC
  only puts one letter's marks in canonical order, which shaping undoes), kerning. The
  bidi algorithm is python-bidi's (ReportLab's own needs ``rlbidi``, which is not on PyPI):
  each line is cut into level runs, each run into runs of one font, each shaped in logical
  order (HarfBuzz lays a right-to-left run out in visual order), and the runs put in visual
  order. A name inside a label is *isolated* (``isolate``: FSI ... PDI): it takes its own
  direction from its first strong letter, while the line keeps the page's left-to-right
  direction, so "Seat 2: יוסי כהן" reads "Seat 2:" first, the Hebrew to its right.
* The alignment of a line follows the page's layout, never the name's direction: a Hebrew name
  in a left-aligned column is flush left.
* Copying text out of the PDF gives the text: a line whose glyphs do not spell its text
  (shaped, reordered, or past U+FFFF, which ReportLab's ``/ToUnicode`` cannot map) is wrapped in a marked-content span with ``/ActualText`` (ISO 32000-1
  §14.9.4), the logical text in UTF-16. A reader that ignores it (pdfminer, PDFium's copy)
  reads the glyphs as drawn: right-to-left letters in visual order, a letter's marks around it.
* Long text: with ``lines`` > 1 it first wraps onto up to that many lines at its size, then
  (and otherwise) shrinks on one line down to ``floor`` x its size, then wraps at smaller
  sizes, never below ``MIN_SIZE`` (6 pt); only when even that cannot fit the box is the last
  line cut with "…".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from weakref import WeakKeyDictionary

import uharfbuzz
from bidi.algorithm import (
    MIRRORED,
    PARAGRAPH_LEVELS,
    X9_REMOVED,
    explicit_embed_and_overrides,
    get_base_level,
    get_embedding_levels,
    get_empty_storage,
    resolve_implicit_levels,
    resolve_neutral_types,
    resolve_weak_types,
)
from reportlab.lib.abag import ABag
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr, shapeFragWord
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from tournament.printing.fonts import covered, family_for, han_hint, sans_alone, split_runs
from tournament.printing.fonts import face as face_name

MIN_SIZE = 6.0  # points: the smallest type ever printed
ELLIPSIS = "…"
FSI, PDI = "\u2068", "\u2069"
_ISOLATE_MARKS = re.compile(f"[{FSI}{PDI}]")
JOINERS = "\u200c\u200d"
FEATURES = {"kern": True, "liga": True}  # HarfBuzz's defaults; no discretionary ligatures

#: Whether text is shaped (HarfBuzz and bidi). Only the benchmark turns it off, to compare.
SHAPING = {"on": True}

Piece = tuple[str, str]  # (ReportLab font name, text or ReportLab ShapedStr), in visual order


def isolate(text: str) -> str:
    """``text`` wrapped in FSI ... PDI, so that inside a line it keeps its own direction."""
    return f"{FSI}{text}{PDI}" if text else text


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """``text`` NFC-normalised, controls and format characters removed (not the joiners),
    whitespace collapsed and stripped. Remembered per text (a pure function of it): the print
    page checks every document's names, each name once (issue 26 item 3)."""
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text or ""):
        category = unicodedata.category(char)
        if char in "\t\n\r\v\f\x85\u2028\u2029" or category.startswith("Z"):
            out.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn") and char not in JOINERS:
            continue
        else:
            out.append(char)
    return " ".join("".join(out).split())


@lru_cache(maxsize=8192)
def clean_text(text: str) -> str:
    """``text`` made printable: ``normalise``d, and any character no font has left out (labels
    and titles the host typed; a guest's name goes through ``printable_name`` instead).
    Remembered per text, as ``normalise``."""
    text = normalise(text)
    if all(c == " " or covered(c) for c in text):
        return text
    return " ".join("".join(c for c in text if c == " " or c in JOINERS or covered(c)).split())


def _describe(char: str) -> str:
    name = unicodedata.name(char, "").title()
    return f"“{char}” ({name or f'U+{ord(char):04X}'})"


@lru_cache(maxsize=8192)
def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be printed, in words for the host, or None when it can.

    Cannot print: a name with nothing left after cleaning (only spaces, control or format
    characters), or one holding a character no printing font has (e.g. Egyptian hieroglyphs).
    Emoji print (Noto Emoji). Remembered per name (the fonts never change while the site runs),
    so each name is checked once however many documents print it (issue 26 item 3).
    """
    cleaned = normalise(name)
    if not cleaned.replace("\u200c", "").replace("\u200d", "").strip():
        return "it has nothing printable in it (only spaces, control or formatting characters)"
    missing = [c for c in dict.fromkeys(cleaned) if c not in " " + JOINERS and not covered(c)]
    if missing:
        listed = ", ".join(_describe(c) for c in missing[:3]) + (" …" if len(missing) > 3 else "")
        return f"no printing font has {listed}, so the name would not print"
    return None


def printable_name(name: str, fallback: str) -> str:
    """The cleaned ``name`` when it can be printed, else ``fallback`` (e.g. "Guest no. 12"):
    never a bare gap, never "?"."""
    return fallback if name_problem(name) else normalise(name)


def guest_print_name(guest_id: int, name: str) -> str:
    """A guest's name as printed on every document: the cleaned name, or "Guest no. 12" when
    it cannot be printed (``name_problem``; the print page lists such guests with a link to
    fix the name). House rule: one guest's odd name never stops anyone's card from printing."""
    return printable_name(name, f"Guest no. {guest_id}")


# ---------------------------------------------------------------------------- bidi and shaping


def _levels(text: str, rtl: bool) -> list[int]:
    """The resolved bidi embedding level of each character of ``text`` (rules X1-I2 of UAX #9,
    python-bidi), paragraph level 1 when ``rtl`` else 0: one level per character.

    python-bidi drops the characters rule X9 removes (boundary neutrals such as the zero width
    joiner and non-joiner, which ``normalise`` keeps for shaping, e.g. in Persian names) from
    its levels; each takes the level of the character before it (UAX #9 section 5.2), or of
    the next one at the start of ``text`` (the paragraph level if there is none), so it stays
    in its word's run."""
    storage = get_empty_storage()
    storage["base_level"] = PARAGRAPH_LEVELS["R" if rtl else "L"]
    storage["base_dir"] = "R" if rtl else "L"
    get_embedding_levels(text, storage, False, False)
    explicit_embed_and_overrides(storage, False)
    resolve_weak_types(storage, False)
    resolve_neutral_types(storage, False)
    resolve_implicit_levels(storage, False)
    resolved = iter(ch["level"] for ch in storage["chars"])
    levels = [None if unicodedata.bidirectional(c) in X9_REMOVED else next(resolved) for c in text]
    kept = [level for level in levels if level is not None]
    previous = kept[0] if kept else storage["base_level"]
    out: list[int] = []
    for level in levels:
        previous = previous if level is None else level
        out.append(previous)
    return out


def _has_right_to_left(text: str) -> bool:
    """Whether ``text`` has a right-to-left letter or an Arabic digit (bidi classes R, AL,
    AN): without one, every level run of a left-to-right line is the line itself."""
    return not text.isascii() and any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in text)


def _visual_runs(text: str, rtl: bool) -> list[tuple[str, bool]]:
    """``text`` cut into level runs (each in logical order) put in visual order (rule L2),
    each with whether it runs right to left."""
    if not _has_right_to_left(text):
        return [(text, False)]
    levels = _levels(text, rtl)
    runs: list[list] = []
    for char, level in zip(text, levels, strict=True):
        if runs and runs[-1][1] == level:
            runs[-1][0] += char
        else:
            runs.append([char, level])
    top = max(level for _, level in runs)
    lowest_odd = min((level for _, level in runs if level % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(runs):
            if runs[i][1] >= level:
                j = i
                while j < len(runs) and runs[j][1] >= level:
                    j += 1
                runs[i:j] = runs[i:j][::-1]
                i = j
            else:
                i += 1
    return [(chunk, bool(level % 2)) for chunk, level in runs]


def _segments(line: str) -> list[tuple[str, bool]]:
    """``line`` cut at its isolates: (text, right to left?) in logical order. Text outside an
    isolate runs left to right (the page's layout); an isolate takes its first strong letter's
    direction (UAX #9 FSI). A PDI with no FSI before it closes an isolate opened on an
    earlier line (``wrap`` cuts lines inside isolates)."""
    if not _has_right_to_left(line):  # what the loop below gives such a line, at once
        if FSI not in line and PDI not in line:
            return [(line, False)] if line else []
        return [(part, False) for part in _ISOLATE_MARKS.split(line) if part]  # no R or AL: base level 0
    first_pdi, first_fsi = line.find(PDI), line.find(FSI)
    inside = first_pdi >= 0 and (first_fsi < 0 or first_pdi < first_fsi)
    parts: list[tuple[str, bool]] = []
    current = ""
    for char in line:
        if char in (FSI, PDI):
            if current:
                parts.append((current, inside))
            current, inside = "", char == FSI
        else:
            current += char
    if current:
        parts.append((current, inside))
    return [(text, isolated and get_base_level(text) == 1) for text, isolated in parts]


def _mirror(text: str) -> str:
    return "".join(MIRRORED.get(c, c) for c in text)


@lru_cache(maxsize=16384)
def _shape(font: str, text: str) -> tuple[str, float]:
    """``text`` shaped by HarfBuzz in ``font`` and its width at 1 point: ReportLab's
    ``ShapedStr`` (glyphs in visual order, each written with its own advance and offsets), or
    ``text`` itself, a plain string, when HarfBuzz left it as it is (``_unshaped``): written as
    one string, it draws the same glyphs at the same places with the same operators (ReportLab
    merges such a shaped run into one string too), without ReportLab's Python loop over each
    glyph's shape data (``tests/test_printing_text.py`` compares the two ways' glyphs,
    positions and operators in every script)."""
    if not SHAPING["on"]:
        return text, pdfmetrics.stringWidth(text, font, 1.0)
    shaped = _glyphs(font, text)
    if shaped is None:
        shaped = _shape_by_reportlab(font, text)
    data = getattr(shaped, "__shapeData__", None)
    if data is None:
        return shaped, pdfmetrics.stringWidth(shaped, font, 1.0)
    width = sum(d.x_advance for d in data) / 1000
    return (text if _unshaped(text, shaped) else shaped), width


def _unshaped(text: str, shaped: ShapedStr) -> bool:
    """Whether HarfBuzz left ``text`` as it is in ``shaped``: left to right, one glyph a
    character, each the font's own glyph of its character (no ligature, no alternate, no
    reordering), each at its font's default advance with no offset (no kerning, no mark
    positioning), and no mark at all. Only then does writing ``text`` as a plain string (the
    font's cmap, each glyph's own width from the PDF's ``/W``) put the same glyphs at the same
    places as ReportLab's glyph-by-glyph writing of ``shaped``; anything else (right-to-left,
    marks, ligatures, kerning) keeps the shaped way."""
    data = shaped.__shapeData__
    if str(shaped) != text or len(data) != len(text) or _has_right_to_left(text):
        return False
    for i, d in enumerate(data):
        if d.cluster != i or d.x_offset or d.y_offset or d.y_advance or d.x_advance != d.width:
            return False
    return text.isascii() or not any(unicodedata.category(c)[0] == "M" for c in text)


def _shape_by_reportlab(font: str, text: str) -> str:
    """``text`` shaped by ReportLab's ``shapeFragWord`` (one word in ``font`` at 1 point): a
    ``ShapedStr`` whose characters are the glyphs, in visual order, and whose shape data is
    each glyph's cluster, advances, offsets and own width."""
    return shapeFragWord([0.0, (ABag(fontName=font, fontSize=1.0), text)], features=FEATURES, force=True)[1][1]


def _glyphs(font: str, text: str) -> ShapedStr | None:
    """``_shape_by_reportlab(font, text)``, built straight from one HarfBuzz shaping: the same
    ``ShapedStr``, glyph for glyph and number for number (``shapeFragWord``'s loop for one
    word of one font, without the per-glyph work it does for words of several fonts and sizes;
    ``tests/test_printing_text.py`` compares the two in every script). None when a glyph has
    no character of its own yet (an Arabic ligature): ReportLab gives it a private code, and
    ``shapeFragWord`` is left to do that, in the same order as before."""
    hb_font = _hb_font(font)
    if hb_font is None or not text:
        return None
    buffer = _hb_shape(hb_font, text)
    ttf = pdfmetrics.getFont(font)
    glyph_to_char, char_widths = ttf.face.glyphToChar, ttf.face.charWidths
    scale = None if ttf.face.unitsPerEm == 1000 else ttf.pdfScale  # else ReportLab's scale is the identity
    chars: list[str] = []
    data: list[ShapeData] = []
    for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True):
        codes = glyph_to_char.get(info.codepoint)
        if not codes or codes[0] not in char_widths:
            return None
        code = codes[0]
        chars.append(chr(code))
        x_advance, y_advance = position.x_advance, position.y_advance
        x_offset, y_offset = position.x_offset, position.y_offset
        if scale is not None:
            x_advance, y_advance = scale(x_advance), scale(y_advance)
            x_offset, y_offset = scale(x_offset), scale(y_offset)
        data.append(ShapeData(info.cluster, x_advance, y_advance, x_offset, y_offset, char_widths[code]))
    return ShapedStr("".join(chars), shapeData=data)


@dataclass(frozen=True, slots=True)
class Line:
    """One laid-out line: its ``pieces`` (font, glyph text) in visual order, their ``width``
    at 1 point, and the ``actual`` text to copy out (None when the glyphs spell it)."""

    pieces: tuple[Piece, ...]
    width: float
    actual: str | None


@lru_cache(maxsize=16384)
def _runs(line: str, bold: bool) -> tuple[tuple[str, str], ...]:
    """One logical ``line`` (isolates allowed) as the (font, text) runs it is set in, in visual
    order: bidi (UAX #9, rule L2), a font per run (``fonts.split_runs``), the neutrals between
    right-to-left letters mirrored and reversed. What ``layout_line`` shapes and ``measure``
    adds up; remembered per line, so a line measured while fitting and then drawn is analysed
    once."""
    out: list[tuple[str, str]] = []
    hint = han_hint(line)
    shaping = SHAPING["on"]
    for segment, rtl in _segments(line) if shaping else [(line, False)]:
        for chunk, run_rtl in _visual_runs(segment, rtl) if shaping else [(segment, False)]:
            runs = split_runs(chunk, bold, hint)
            if run_rtl:
                runs = tuple(reversed(runs))
            for font, text in runs:
                if run_rtl and not any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
                    text = _mirror(text)[::-1]  # neutrals between RTL letters: mirrored, reversed
                out.append((font, text))
    return tuple(out)


@lru_cache(maxsize=16384)
def layout_line(line: str, bold: bool = False) -> Line:
    """Lay out one logical ``line`` (isolates allowed): bidi, font runs, HarfBuzz shaping."""
    pieces: list[Piece] = []
    width = 0.0
    for font, text in _runs(line, bold):
        glyphs, w = _shape(font, text)
        pieces.append((font, glyphs))
        width += w
    plain = line.replace(FSI, "").replace(PDI, "")
    drawn = "".join(str(glyphs) for _, glyphs in pieces)
    # ReportLab's /ToUnicode maps a glyph to one 16-bit code: a character past U+FFFF (emoji,
    # rare Han) is carried as ActualText too.
    spelled = drawn == plain and all(ord(c) <= 0xFFFF for c in plain)
    return Line(tuple(pieces), width, None if spelled else plain)


@lru_cache(maxsize=64)
def _hb_font(font: str) -> uharfbuzz.Font | None:
    """HarfBuzz's font for the registered TrueType ``font`` at 1 point (as ReportLab's
    ``TTFont.hbFont`` makes one for every word it shapes), or None for a font it cannot shape."""
    try:
        face = pdfmetrics.getFont(font).hbFace
    except AttributeError:
        return None
    hb_font = uharfbuzz.Font(face)
    hb_font.ptem = 1.0
    return hb_font


@lru_cache(maxsize=65536)
def _advance(font: str, text: str) -> float:
    """The width at 1 point of ``text`` shaped in ``font``: ``_shape``'s width, from HarfBuzz's
    advances alone (the same buffer, features and scaling as ReportLab's ``shapeFragWord``),
    without building the glyph string a page draws. What a line being fitted is measured by:
    the wrap and the cutting of long words try many lines that are never drawn."""
    hb_font = _hb_font(font) if SHAPING["on"] else None
    if hb_font is None:
        return pdfmetrics.stringWidth(text, font, 1.0)
    positions = _hb_shape(hb_font, text).glyph_positions
    ttf = pdfmetrics.getFont(font)
    if ttf.face.unitsPerEm == 1000:  # ReportLab's pdfScale is then the identity: whole units
        return sum(p.x_advance for p in positions) / 1000
    scale = ttf.pdfScale
    return sum(scale(p.x_advance) for p in positions) / 1000


def _hb_shape(hb_font: uharfbuzz.Font, text: str) -> uharfbuzz.Buffer:
    """``text`` shaped by HarfBuzz in ``hb_font`` as ReportLab's ``shapeFragWord`` shapes a
    word: clusters of single characters, script, direction and language guessed, ``FEATURES``."""
    buffer = uharfbuzz.Buffer()
    buffer.cluster_level = uharfbuzz.BufferClusterLevel.MONOTONE_CHARACTERS
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(hb_font, buffer, FEATURES)
    return buffer


def _guessed(text: str) -> tuple[str | None, str | None]:
    """The script and direction HarfBuzz guesses for ``text`` (``_hb_shape`` shapes with them)."""
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    return buffer.script, buffer.direction


@lru_cache(maxsize=65536)
def measure(line: str, bold: bool = False) -> float:
    """Width in points of one logical line set at 1 point (scale by the size): ``layout_line``'s
    width, added up from HarfBuzz's advances without laying the line out for drawing."""
    return sum(_advance(font, text) for font, text in _runs(line, bold))


def forget_layouts() -> None:
    """Forget every line laid out, measured, cut into runs and shaped, and each character's
    font (the fonts stay registered): what must follow a change of ``SHAPING``, and what the
    benchmark does before each timed run so that every text is laid out afresh."""
    for cached in (fit, fit_link, layout_line, measure, _runs, _word, _shape, _advance, family_for):
        cached.cache_clear()


# ---------------------------------------------------------------------------- fitting


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text laid out for a box: its ``lines``, the type ``size`` and ``leading`` in points."""

    lines: tuple[Line, ...]
    size: float
    leading: float

    @property
    def height(self) -> float:
        """Height in points of all the lines."""
        return len(self.lines) * self.leading

    @property
    def widths(self) -> tuple[float, ...]:
        """Each line's width in points."""
        return tuple(line.width * self.size for line in self.lines)


_UNSAFE_TO_BREAK = int(uharfbuzz.GlyphFlags.UNSAFE_TO_BREAK)


@dataclass(frozen=True, slots=True)
class _Shaping:
    """One HarfBuzz shaping of a word in one font, left to right: each glyph's ``advances`` (as
    ReportLab scales them), ``infos`` and cluster (``clusters``: the character it starts at),
    the first glyph of each cluster (``starts``, by character offset), and the script and
    direction HarfBuzz guessed (``guessed``)."""

    length: int
    advances: tuple[float, ...]
    infos: list
    clusters: list[int]
    starts: dict[int, int]
    guessed: tuple[str | None, str | None]

    def glyph_at(self, offset: int) -> int | None:
        """The glyph a cut before character ``offset`` starts at (0 at the start, the number of
        glyphs at the end), or None when HarfBuzz does not mark that cut safe to break (a
        glyph of the cluster starting there has the ``UNSAFE_TO_BREAK`` flag, read only here)
        or no cluster starts there (inside a ligature)."""
        if offset == 0:
            return 0
        if offset == self.length:
            return len(self.clusters)
        g = self.starts.get(offset)
        if g is None:
            return None
        k = g
        while k < len(self.clusters) and self.clusters[k] == offset:  # the cluster's glyphs
            if int(self.infos[k].flags) & _UNSAFE_TO_BREAK:
                return None
            k += 1
        return g


@dataclass(frozen=True, slots=True)
class _Word:
    """One word as ``_break_word`` cuts it: its grapheme ``clusters`` (a base letter with its
    marks, letters joined by a joiner), each cluster's own width at 1 point (``widths``, by
    ``measure``), the character offset each cluster starts at (``offsets``, and the word's
    length last), and, for a word set in Noto Sans alone, its one ``shaping``."""

    text: str
    clusters: tuple[str, ...]
    widths: tuple[float, ...]
    offsets: tuple[int, ...]
    shaping: _Shaping | None = None

    def piece_width(self, i: int, j: int, bold: bool) -> float:
        """``measure`` of clusters ``i`` .. ``j - 1`` joined, to the last bit.

        Read off the word's one shaping where that is exact, else measured on its own. Exact
        where HarfBuzz marks both cuts safe to break (no ``UNSAFE_TO_BREAK`` flag on the glyph a
        cut starts: "the two sides will represent the exact same result one would get if
        breaking input text at the beginning of this cluster and shaping the two sides
        separately", HarfBuzz's ``hb_glyph_flags_t``, meant for "avoiding re-shaping of each
        line after line-breaking") and the piece is guessed the same script and direction:
        its glyphs and advances are then the word's between the cuts, added up in the same
        order as ``_advance`` adds them (a kerning pair or a ligature across a cut flags it).
        A piece of a Noto Sans word is one Noto Sans run (``fonts.sans_alone``), so its
        ``measure`` is that run's ``_advance``."""
        start, end = self.offsets[i], self.offsets[j]
        piece = self.text[start:end]
        shaping = self.shaping
        if shaping is None:
            return measure(piece, bold)
        first, last = shaping.glyph_at(start), shaping.glyph_at(end)
        if first is None or last is None or _guessed(piece) != shaping.guessed:
            return measure(piece, bold)
        return sum(shaping.advances[first:last]) / 1000


@lru_cache(maxsize=64)
def _word(word: str, bold: bool) -> _Word:
    """``word`` as ``_break_word`` cuts it (``_Word``), remembered for the last few words (a
    link is cut at two sizes while it is fitted)."""
    clusters: list[str] = list(word) if word.isascii() else []  # ASCII: no marks, no joiners
    for char in word if not clusters else "":
        if clusters and (unicodedata.category(char)[0] == "M" or char in JOINERS or clusters[-1][-1] in JOINERS):
            clusters[-1] += char
        else:
            clusters.append(char)
    widths = tuple(measure(cluster, bold) for cluster in clusters)
    offsets = tuple(accumulate((len(cluster) for cluster in clusters), initial=0))
    plain = _Word(word, tuple(clusters), widths, offsets)
    font = face_name("Sans", bold)
    hb_font = _hb_font(font) if SHAPING["on"] else None
    if (
        hb_font is None
        or not word
        or FSI in word
        or PDI in word
        or _has_right_to_left(word)
        or not sans_alone().issuperset(map(ord, word))
    ):
        return plain
    buffer = _hb_shape(hb_font, word)
    infos = buffer.glyph_infos
    glyph_clusters = [info.cluster for info in infos]
    if buffer.direction != "ltr" or any(b < a for a, b in zip(glyph_clusters, glyph_clusters[1:], strict=False)):
        return plain  # glyphs not in character order
    advances = [p.x_advance for p in buffer.glyph_positions]
    ttf = pdfmetrics.getFont(font)
    if ttf.face.unitsPerEm != 1000:  # else ReportLab's pdfScale is the identity
        advances = [ttf.pdfScale(advance) for advance in advances]
    starts: dict[int, int] = {}
    for g, cluster in enumerate(glyph_clusters):
        starts.setdefault(cluster, g)
    shaping = _Shaping(len(word), tuple(advances), infos, glyph_clusters, starts, (buffer.script, buffer.direction))
    return _Word(word, tuple(clusters), widths, offsets, shaping)


def _break_word(word: str, max_w: float, bold: bool) -> list[str]:
    """Cut one word wider than ``max_w`` (1-point units) into pieces that each fit, between
    grapheme clusters (a base letter with its marks stays whole)."""
    cut = _word(word, bold)
    clusters, widths = cut.clusters, cut.widths
    pieces: list[str] = []
    i = 0  # the first cluster of the piece being cut
    while i < len(clusters):
        # Estimate from each cluster's own width, then step back until the shaped piece fits
        # (each piece measured exactly from the word's one shaping where that is exact).
        k, total = 0, 0.0
        while i + k < len(clusters) and total + widths[i + k] <= max_w * 1.05:
            total += widths[i + k]
            k += 1
        k = max(k, 1)
        while k > 1 and cut.piece_width(i, i + k, bold) > max_w:
            k -= 1
        pieces.append(word[cut.offsets[i] : cut.offsets[i + k]])
        i += k
    return pieces


def _reopen(lines: list[str]) -> list[str]:
    """Close an isolate a line break falls into, and open it again on the next line."""
    out, open_ = [], False
    for line in lines:
        text = (FSI if open_ else "") + line
        open_ = text.rfind(FSI) > text.rfind(PDI)
        out.append(text + (PDI if open_ else ""))
    return out


def wrap(text: str, max_w: float, bold: bool = False, *, break_words: bool = True) -> list[str] | None:
    """Greedy wrap of logical ``text`` into lines no wider than ``max_w`` (1-point units).

    A word wider than a line is cut when ``break_words``, else the result is None.
    """
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if measure(candidate, bold) <= max_w:
            current = candidate
            continue
        if current:
            lines.append(current)
        if measure(word, bold) <= max_w:
            current = word
        elif not break_words:
            return None
        else:
            *full, current = _break_word(word, max_w, bold)
            lines.extend(full)
    if current:
        lines.append(current)
    return _reopen(lines)


def _make(lines: list[str], size: float, leading: float, bold: bool) -> Fitted:
    return Fitted(tuple(layout_line(line, bold) for line in lines), size, size * leading)


def _cut(lines: list[str], keep: int, max_w: float, bold: bool) -> list[str]:
    """The first ``keep`` lines, the last one ending with "…"."""
    last = lines[keep - 1].replace(PDI, "")
    while last and measure(last + ELLIPSIS, bold) > max_w:
        last = last[:-1]
    return lines[: keep - 1] + _reopen([last + ELLIPSIS])[-1:]


@lru_cache(maxsize=4096)
def fit(
    text: str,
    *,
    width: float,
    size: float,
    height: float | None = None,
    bold: bool = False,
    leading: float = 1.2,
    floor: float = 0.7,
    lines: int = 1,
    breakable: bool = False,
) -> Fitted:
    """Lay out cleaned ``text`` in a box ``width`` x ``height`` points (height None: unbounded).

    First wraps onto up to ``lines`` lines at ``size`` (words whole, or cut anywhere when
    ``breakable``: a link), then shrinks on one
    line down to ``floor`` x size, then wraps at ever smaller sizes down to ``MIN_SIZE``, words
    whole (a word is cut between letters only when it is wider than the line at ``MIN_SIZE``); at
    ``MIN_SIZE`` the lines that do not fit are cut, the last kept one ending with "…". Never
    raises for long text; returns a ``Fitted``. Remembered per text and box, so a text every
    card prints (the evening's name, a table's label, "Red pack") is fitted once.
    """
    if not text or width <= 0:
        return Fitted((), size, size * leading)
    if lines > 1:
        wrapped = wrap(text, width / size, bold, break_words=breakable)
        if (
            wrapped is not None
            and len(wrapped) <= lines
            and (height is None or len(wrapped) * size * leading <= height)
        ):
            return _make(wrapped, size, leading, bold)
    one = measure(text, bold)
    best = min(size, width / one if one else size)
    if height is not None:
        best = min(best, height / leading)
    smallest = max(size * floor, MIN_SIZE) if size >= MIN_SIZE else size
    if best >= smallest or best >= size:
        return _make([text], max(best, min(size, MIN_SIZE)), leading, bold)
    s = smallest
    while True:
        # Words whole while a smaller size can keep them so ("Augustin", not "Augusti" over "n");
        # a word wider than the line even at MIN_SIZE is cut (issue 24 item 8).
        whole = wrap(text, width / s, bold, break_words=False)
        if whole is not None and (height is None or len(whole) * s * leading <= height):
            wrapped = whole
            break
        if s <= MIN_SIZE:
            wrapped = whole if whole is not None else (wrap(text, width / s, bold) or [text])
            break
        s = max(s * 0.9, MIN_SIZE)
    if height is not None and len(wrapped) * s * leading > height:
        keep = max(1, int(height // (s * leading)))
        if keep < len(wrapped):
            wrapped = _cut(wrapped, keep, width / s, bold)
    return _make(wrapped, s, leading, bold)


_LINK_PIECES = re.compile(r"[^/]*/|[^/]+")


@lru_cache(maxsize=1024)
def fit_link(link: str, *, width: float, size: float, leading: float = 1.2) -> Fitted:
    """Lay out a printed link (cleaned ``link``, e.g. "headtable.local:8000/g/<key>/") to be
    typed: always at ``size`` points, never shrunk or cut with "…", on as many lines of at most
    ``width`` points as it needs. Lines break after a "/" ("headtable.local:8000/g/" over the
    key); a piece wider than a line is cut between its characters (``_break_word``). Returns a
    ``Fitted`` (its ``height`` is what the box must give it). Where the rule comes from: issue
    13 item 3 (a guest whose camera will not scan types the link: 7 pt at least)."""
    if not link or width <= 0:
        return Fitted((), size, size * leading)
    max_w = width / size
    lines: list[str] = []
    current = ""
    for piece in _LINK_PIECES.findall(link):
        if measure(current + piece) <= max_w:
            current += piece
            continue
        if current:
            lines.append(current)
        if measure(piece) <= max_w:
            current = piece
        else:
            *full, current = _break_word(piece, max_w, False)
            lines.extend(full)
    if current:
        lines.append(current)
    return _make(lines, size, leading, False)


# ---------------------------------------------------------------------------- drawing


def _utf16(text: str) -> str:
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"


@dataclass(frozen=True, slots=True)
class _Written:
    """What writing one ``line`` at one size put in a text object: its PDF operators
    (``code``), the text object's font, size, leading and font subset after it (``state``),
    and each piece's advance of the text cursor in points (``advances``)."""

    line: Line
    code: tuple[str, ...]
    state: tuple[str, float, float, int]
    advances: tuple[float, ...]


#: Per PDF document being written: each line already written in it, by (id of the Line, size).
_WRITTEN: WeakKeyDictionary[object, dict[tuple[int, float], _Written]] = WeakKeyDictionary()


def draw_line(textobject, line: Line, size: float) -> None:
    """Write ``line``'s pieces at the text object's current point, set at ``size`` points,
    inside an ``/ActualText`` span when its glyphs do not spell its text.

    A line already written at ``size`` in the same document (the evening's name on every card,
    a table's label on each of its guests' cards) is written again from the operators it was
    written with then: ReportLab's operators for a text depend on its font, size and leading,
    the text rise (0 here), and the codes its characters were given in the document's font
    subsets, which a document never changes once given."""
    doc = textobject._canvas._doc
    key = (id(line), size)
    written = _WRITTEN.setdefault(doc, {}).get(key) if textobject._rise == 0 else None
    if written is not None and written.line is line:
        textobject._code.extend(written.code)
        textobject._fontname, textobject._fontsize, textobject._leading, textobject._curSubset = written.state
        for advance in written.advances:
            textobject._x = textobject._x + advance  # as textOut moves it
        return
    start = len(textobject._code)
    advances = []
    if line.actual is not None:
        textobject._code.append(f"/Span <</ActualText {_utf16(line.actual)}>> BDC")
    for font, glyphs in line.pieces:
        textobject.setFont(font, size)
        textobject._curSubset = -1  # ReportLab: a shaped run must start with its font selected
        textobject.textOut(glyphs)
        advances.append(textobject._canvas.stringWidth(glyphs, font, size))  # what textOut moved by
    if line.actual is not None:
        textobject._code.append("EMC")
    if textobject._rise == 0:
        state = (textobject._fontname, textobject._fontsize, textobject._leading, textobject._curSubset)
        _WRITTEN[doc][key] = _Written(line, tuple(textobject._code[start:]), state, tuple(advances))


def draw_fitted(
    canvas: Canvas,
    fitted: Fitted,
    x: float,
    top: float,
    width: float,
    align: str = "center",
) -> None:
    """Draw ``fitted`` with its first line's top at ``top``, in the column ``x`` .. ``x+width``.

    ``align`` is "center", "left", "right" or "start" (= left: the page's layout is left to
    right, whatever the direction of the text).
    """
    if not fitted.lines:
        return
    text = canvas.beginText()
    for i, (line, line_w) in enumerate(zip(fitted.lines, fitted.widths, strict=True)):
        if align == "center":
            x0 = x + (width - line_w) / 2
        elif align == "right":
            x0 = x + width - line_w
        else:
            x0 = x
        text.setTextOrigin(x0, top - fitted.size * 0.95 - i * fitted.leading)
        draw_line(text, line, fitted.size)
    canvas.drawText(text)


def draw_in_box(
    canvas: Canvas,
    text: str,
    x: float,
    y: float,
    width: float,
    height: float,
    *,
    size: float,
    bold: bool = False,
    align: str = "center",
    valign: str = "middle",
    floor: float = 0.7,
    lines: int = 1,
    breakable: bool = False,
) -> Fitted:
    """Fit cleaned ``text`` into the box at (``x``, ``y``) (lower left) and draw it there.

    ``valign`` is "top", "middle" or "bottom"; ``lines`` and ``breakable`` as in ``fit``.
    Returns the layout.
    """
    fitted = fit(text, width=width, height=height, size=size, bold=bold, floor=floor, lines=lines, breakable=breakable)
    if valign == "top":
        top = y + height
    elif valign == "bottom":
        top = y + fitted.height
    else:
        top = y + (height + fitted.height) / 2
    draw_fitted(canvas, fitted, x, top, width, align)
    return fitted


class FittedText(Flowable):
    """A Platypus flowable for one cleaned text in any script: wraps onto up to ``lines``
    lines, then shrinks, then wraps to fit the width it is given (height grows). ``color`` is
    a ReportLab colour or None for black; ``align`` as in ``draw_fitted``."""

    def __init__(
        self,
        text: str,
        size: float = 10,
        *,
        bold: bool = False,
        align: str = "start",
        color=None,
        floor: float = 0.8,
        lines: int = 1,
    ) -> None:
        super().__init__()
        self.text, self.size, self.bold, self.align = text, size, bold, align
        self.color, self.floor, self.lines = color, floor, lines
        self._fitted: Fitted | None = None
        self._width = 0.0

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        """Lay the text out for ``avail_width``; returns (width, height) in points."""
        self._width = avail_width
        self._fitted = fit(
            self.text, width=avail_width, size=self.size, bold=self.bold, floor=self.floor, lines=self.lines
        )
        return avail_width, max(self._fitted.height, self.size * 1.2)

    def draw(self) -> None:
        """Draw the laid-out text inside the flowable's box."""
        assert self._fitted is not None
        if self.color is not None:
            self.canv.setFillColor(self.color)
        draw_fitted(self.canv, self._fitted, 0, self._fitted.height, self._width, self.align)
