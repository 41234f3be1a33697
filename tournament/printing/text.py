"""Text made fit for print: cleaning names, right-to-left shaping, and shrink-then-wrap fitting.

Decisions (issue 7 item 6 and "Bad input"; the seeds are silent on print):

* Names are NFC-normalised. Control and format characters (tabs, newlines, bidi marks, zero
  width joiners) are removed; a tab or newline becomes a space.
* Emoji (the pictograph blocks U+1F000-U+1FAFF, variation selectors, skin tones, tag
  characters, and symbols no vendored font has) are removed: printed as nothing, never as an
  empty box. Spaces left doubled are collapsed.
* A letter of a script no vendored font covers prints as "?" so the gap stays visible.
* A name with nothing printable left (only control characters or emoji) raises ``PrintError``
  naming the guest: a card with a placeholder would be useless at the door.
* Arabic is shaped with ``arabic_reshaper`` (contextual presentation forms, lam-alef
  ligatures) and every line is put in display order with ``python-bidi`` (the Unicode bidi
  algorithm, paragraph direction from the first strong letter). Lines are wrapped in logical
  order first and each line is reordered on its own, as the bidi algorithm requires.
* Long text first shrinks on one line down to ``floor`` x its size, then wraps (between
  words, or anywhere inside a word longer than the line) at smaller and smaller sizes down to
  ``MIN_SIZE``; only when even that cannot fit the box is the last line cut with "…".
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import arabic_reshaper
from bidi import get_display
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from tournament.printing.data import PrintError
from tournament.printing.fonts import covered, runs_width, split_runs

MIN_SIZE = 4.0  # points: the smallest type ever printed
ELLIPSIS = "…"

Runs = tuple[tuple[str, str], ...]


def _is_emoji(cp: int) -> bool:
    return (
        0x1F000 <= cp <= 0x1FAFF
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0000 <= cp <= 0xE01EF
        or cp == 0x20E3
    )


def clean_text(text: str) -> str:
    """``text`` made printable: NFC, controls and emoji removed, unknown letters as "?".

    Returns the cleaned text (possibly empty), whitespace collapsed and stripped.
    """
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text or ""):
        cp = ord(char)
        category = unicodedata.category(char)
        if char in "\t\n\r\v\f\x85\u2028\u2029":
            out.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn") or _is_emoji(cp):
            continue
        elif category.startswith("Z"):
            out.append(" ")
        elif covered(char):
            out.append(char)
        elif category.startswith("S") or category.startswith("M"):
            continue  # a pictograph or a mark no font has: print nothing
        else:
            out.append("?")
    return " ".join("".join(out).split())


def printable_name(name: str, who: str = "A guest") -> str:
    """The cleaned ``name``; raises ``PrintError`` naming ``who`` when nothing printable is left."""
    cleaned = clean_text(name)
    if not cleaned:
        shown = (name or "").encode("unicode_escape").decode("ascii")[:40]
        raise PrintError(
            f"{who}'s name “{shown}” has nothing printable in it (only control characters or "
            "emoji): correct the name on the guests page, then print again."
        )
    return cleaned


def is_rtl(text: str) -> bool:
    """Whether ``text`` contains a right-to-left letter (Hebrew, Arabic and the like)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


@lru_cache(maxsize=8192)
def visual(line: str) -> str:
    """One line of logical text in display order, Arabic shaped; LTR-only text is unchanged."""
    if not is_rtl(line):
        return line
    if any(unicodedata.bidirectional(c) == "AL" for c in line):
        line = arabic_reshaper.reshape(line)
    return get_display(line)


@lru_cache(maxsize=8192)
def _line_runs(line: str, bold: bool) -> tuple[Runs, float]:
    runs = split_runs(visual(line), bold)
    return runs, runs_width(runs, 1.0)


def measure(line: str, bold: bool = False) -> float:
    """Width in points of one logical line set at 1 point (scale by the size)."""
    return _line_runs(line, bold)[1]


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text laid out for a box: visual ``lines`` (runs of (font, text)), their ``widths`` in
    points, the type ``size`` and ``leading`` in points, and whether each line is RTL."""

    lines: tuple[Runs, ...]
    widths: tuple[float, ...]
    rtl: tuple[bool, ...]
    size: float
    leading: float

    @property
    def height(self) -> float:
        """Height in points of all the lines."""
        return len(self.lines) * self.leading


def _break_word(word: str, max_w: float, bold: bool) -> list[str]:
    """Cut one word wider than ``max_w`` (1-point units) into pieces that each fit."""
    pieces: list[str] = []
    rest = word
    while rest:
        lo, hi = 1, len(rest)
        while lo < hi:  # the longest prefix that fits (at least one character)
            mid = (lo + hi + 1) // 2
            if measure(rest[:mid], bold) <= max_w:
                lo = mid
            else:
                hi = mid - 1
        pieces.append(rest[:lo])
        rest = rest[lo:]
    return pieces


def wrap(text: str, max_w: float, bold: bool = False) -> list[str]:
    """Greedy wrap of logical ``text`` into lines no wider than ``max_w`` (1-point units)."""
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
        else:
            *full, current = _break_word(word, max_w, bold)
            lines.extend(full)
    if current:
        lines.append(current)
    return lines


def _make(lines: list[str], size: float, leading: float, bold: bool) -> Fitted:
    laid = [_line_runs(line, bold) for line in lines]
    return Fitted(
        lines=tuple(runs for runs, _ in laid),
        widths=tuple(width * size for _, width in laid),
        rtl=tuple(is_rtl(line) for line in lines),
        size=size,
        leading=size * leading,
    )


def fit(
    text: str,
    *,
    width: float,
    size: float,
    height: float | None = None,
    bold: bool = False,
    leading: float = 1.2,
    floor: float = 0.7,
) -> Fitted:
    """Lay out cleaned ``text`` in a box ``width`` x ``height`` points (height None: unbounded).

    Shrinks on one line from ``size`` down to ``floor`` x size, then wraps at ever smaller
    sizes down to ``MIN_SIZE``; at ``MIN_SIZE`` the lines that do not fit are cut and the
    last kept line ends with "…". Never raises for long text; returns a ``Fitted``.
    """
    if not text or width <= 0:
        return Fitted((), (), (), size, size * leading)
    one = measure(text, bold)
    best = min(size, width / one if one else size)
    if height is not None:
        best = min(best, height / leading)
    if best >= max(size * floor, MIN_SIZE) or best >= size:
        return _make([text], best, leading, bold)
    s = max(size * floor, MIN_SIZE)
    while True:
        lines = wrap(text, width / s, bold)
        if height is None or len(lines) * s * leading <= height or s <= MIN_SIZE:
            break
        s = max(s * 0.9, MIN_SIZE)
    if height is not None and len(lines) * s * leading > height:
        keep = max(1, int(height // (s * leading)))
        if keep < len(lines):
            last = lines[keep - 1]
            while last and measure(last + ELLIPSIS, bold) > width / s:
                last = last[:-1]
            lines = lines[: keep - 1] + [last + ELLIPSIS]
    return _make(lines, s, leading, bold)


def draw_fitted(
    canvas: Canvas,
    fitted: Fitted,
    x: float,
    top: float,
    width: float,
    align: str = "center",
) -> None:
    """Draw ``fitted`` with its first line's top at ``top``, in the column ``x`` .. ``x+width``.

    ``align`` is "center", "left", "right" or "start" (left, or right for an RTL line).
    """
    if not fitted.lines:
        return
    text = canvas.beginText()
    for i, (runs, line_w, rtl) in enumerate(zip(fitted.lines, fitted.widths, fitted.rtl)):
        side = align if align != "start" else ("right" if rtl else "left")
        if side == "center":
            x0 = x + (width - line_w) / 2
        elif side == "right":
            x0 = x + width - line_w
        else:
            x0 = x
        text.setTextOrigin(x0, top - fitted.size * 0.95 - i * fitted.leading)
        for font, chunk in runs:
            text.setFont(font, fitted.size)
            text.textOut(chunk)
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
) -> Fitted:
    """Fit cleaned ``text`` into the box at (``x``, ``y``) (lower left) and draw it there.

    ``valign`` is "top", "middle" or "bottom". Returns the ``Fitted`` layout used.
    """
    fitted = fit(text, width=width, height=height, size=size, bold=bold, floor=floor)
    if valign == "top":
        top = y + height
    elif valign == "bottom":
        top = y + fitted.height
    else:
        top = y + (height + fitted.height) / 2
    draw_fitted(canvas, fitted, x, top, width, align)
    return fitted


class FittedText(Flowable):
    """A Platypus flowable for one cleaned text in any script: shrinks, then wraps to fit the
    width it is given (height grows). ``color`` is a ReportLab colour or None for black."""

    def __init__(
        self,
        text: str,
        size: float = 10,
        *,
        bold: bool = False,
        align: str = "start",
        color=None,
        floor: float = 0.8,
    ) -> None:
        super().__init__()
        self.text, self.size, self.bold, self.align = text, size, bold, align
        self.color, self.floor = color, floor
        self._fitted: Fitted | None = None
        self._width = 0.0

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        """Lay the text out for ``avail_width``; returns (width, height) in points."""
        self._width = avail_width
        self._fitted = fit(
            self.text, width=avail_width, size=self.size, bold=self.bold, floor=self.floor
        )
        return avail_width, max(self._fitted.height, self.size * 1.2)

    def draw(self) -> None:
        """Draw the laid-out text inside the flowable's box."""
        assert self._fitted is not None
        if self.color is not None:
            self.canv.setFillColor(self.color)
        draw_fitted(self.canv, self._fitted, 0, self._fitted.height, self._width, self.align)
