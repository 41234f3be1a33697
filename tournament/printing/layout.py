"""Shared drawing for the printed documents: the canvas, grids of cards with cut marks, fold
lines, the pack colours and a playing card drawn as a card.

House rules (the seeds are silent on print): cards on a sheet touch one another, so one cut
separates two cards; cut marks are short lines in the page margin on every cut line plus
small crosses where cuts meet inside the sheet. Fold lines are dashed.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import SimpleDocTemplate

from tournament.printing.data import page_size
from tournament.printing.fonts import BASE, BASE_BOLD, register_fonts

PACK_INK = {"red": colors.Color(0.75, 0.09, 0.11), "blue": colors.Color(0.09, 0.23, 0.62)}
GREY = colors.Color(0.38, 0.38, 0.38)
RANK_INDEX = {1: "A", 11: "J", 12: "Q", 13: "K"}
MARGIN = 12 * mm
Face = TypeVar("Face")  # what one tent shows (a table's data)


def new_canvas(paper: str, title: str, landscape: bool = False) -> tuple[Canvas, io.BytesIO]:
    """A fresh canvas on ``paper`` ("A4" | "letter"), portrait unless ``landscape``, writing to
    the returned buffer. Fonts are registered; output is byte-for-byte reproducible.

    Raises ``PrintError`` for an unknown paper size.
    """
    width, height = page_size(paper)
    if landscape:
        width, height = height, width
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, initialFontName=BASE)
    canvas.setTitle(title)
    canvas.setAuthor("Head Table")
    canvas.setCreator("Head Table")
    return canvas, buffer


def new_document(pagesize: tuple[float, float], title: str, margin: float) -> tuple[SimpleDocTemplate, io.BytesIO]:
    """A fresh flowing document (ReportLab's platypus) of ``pagesize`` (points), every margin
    ``margin`` points, titled ``title`` (the PDF's title, "Results · Friday's party"), writing to
    the returned buffer: ``doc.build(story)`` then ``buffer.getvalue()``. Fonts are registered;
    output is byte-for-byte reproducible, as ``new_canvas``'s. Raises nothing."""
    register_fonts()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=min(margin, 15 * mm),
        bottomMargin=min(margin, 15 * mm),
        invariant=1,
        initialFontName=BASE,
        title=title,
        author="Head Table",
        creator="Head Table",
    )
    return doc, buffer


@dataclass(frozen=True, slots=True)
class Grid:
    """``cols`` x ``rows`` cells of ``cell_w`` x ``cell_h`` points, lower-left corner at
    (``x0``, ``y0``), filled left to right, top to bottom."""

    cols: int
    rows: int
    x0: float
    y0: float
    cell_w: float
    cell_h: float

    @classmethod
    def on_page(cls, page_w: float, page_h: float, cols: int, rows: int) -> Grid:
        """The grid filling the page inside ``MARGIN`` on every side."""
        cell_w = (page_w - 2 * MARGIN) / cols
        cell_h = (page_h - 2 * MARGIN) / rows
        return cls(cols, rows, MARGIN, MARGIN, cell_w, cell_h)

    @property
    def per_page(self) -> int:
        """How many cells one page holds."""
        return self.cols * self.rows

    def cell(self, index: int) -> tuple[float, float]:
        """Lower-left corner (x, y) of cell ``index`` (0 .. per_page - 1)."""
        col, row = index % self.cols, index // self.cols
        return self.x0 + col * self.cell_w, self.y0 + (self.rows - 1 - row) * self.cell_h

    def draw_cut_marks(self, canvas: Canvas) -> None:
        """Cut marks in the margins on every cut line, and crosses where inner cuts meet."""
        canvas.saveState()
        canvas.setStrokeColor(GREY)
        canvas.setLineWidth(0.4)
        gap, length, arm = 2 * mm, 6 * mm, 2 * mm
        top, right = self.y0 + self.rows * self.cell_h, self.x0 + self.cols * self.cell_w
        for i in range(self.cols + 1):
            x = self.x0 + i * self.cell_w
            canvas.line(x, top + gap, x, top + gap + length)
            canvas.line(x, self.y0 - gap, x, self.y0 - gap - length)
        for j in range(self.rows + 1):
            y = self.y0 + j * self.cell_h
            canvas.line(self.x0 - gap, y, self.x0 - gap - length, y)
            canvas.line(right + gap, y, right + gap + length, y)
        for i in range(1, self.cols):
            for j in range(1, self.rows):
                x, y = self.x0 + i * self.cell_w, self.y0 + j * self.cell_h
                canvas.line(x - arm, y, x + arm, y)
                canvas.line(x, y - arm, x, y + arm)
        canvas.restoreState()


def draw_fold_line(canvas: Canvas, x1: float, y: float, x2: float, label: str = "fold") -> None:
    """A dashed horizontal fold line from ``x1`` to ``x2`` at height ``y``, with a small label."""
    canvas.saveState()
    canvas.setStrokeColor(GREY)
    canvas.setLineWidth(0.4)
    canvas.setDash(3, 3)
    canvas.line(x1, y, x2, y)
    canvas.setFillColor(GREY)
    canvas.setFont(BASE, 6)
    canvas.drawRightString(x2 - 2, y + 2, label)
    canvas.restoreState()


def folded_tents(
    paper: str, title: str, faces: Iterable[Face], draw_face: Callable[[Canvas, Face, float, float], None]
) -> bytes:
    """A PDF of folded tents, one page per item of ``faces``: the lower half drawn upright by
    ``draw_face(canvas, item, width, half)`` (points, the box (0, 0, width, half)), a fold line
    across the middle, and the same face upside down above it, so it reads from both sides of
    the table. ``paper`` "A4" | "letter"; ``title`` the PDF's title. Returns the PDF's bytes;
    raises ``PrintError`` for an unknown paper size."""
    canvas, buffer = new_canvas(paper, title)
    width, height = canvas._pagesize
    half = height / 2
    for item in faces:
        draw_face(canvas, item, width, half)
        draw_fold_line(canvas, 0, half, width, "fold here")
        canvas.saveState()
        canvas.translate(width, height)
        canvas.rotate(180)
        draw_face(canvas, item, width, half)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def rank_index(rank: int) -> str:
    """The corner index of a rank: 1 -> "A", 2..10 -> the number, 11 -> "J", 12 -> "Q", 13 -> "K",
    and the numbered cards past the king (14, 15, ...: ``tables.formats.poker.draw``) their number."""
    return RANK_INDEX.get(rank, str(rank))


def draw_playing_card(canvas: Canvas, x: float, y: float, width: float, rank: int, colour: str) -> None:
    """A playing card ``width`` points wide (height 1.4 x width) at (``x``, ``y``) lower left:
    white face, border and rank in the pack's ``colour`` ("red" | "blue"), the back of the
    pack peeking out behind it. Source: the seating draw's red and blue packs,
    ``docs/rules/progressive-poker.md``."""
    height = width * 1.4
    ink = PACK_INK[colour]
    radius = width * 0.08
    canvas.saveState()
    canvas.setFillColor(ink)
    canvas.setStrokeColor(ink)
    canvas.roundRect(x + width * 0.12, y - width * 0.06, width, height, radius, stroke=0, fill=1)
    canvas.setFillColor(colors.white)
    canvas.setLineWidth(1.2)
    canvas.roundRect(x, y, width, height, radius, stroke=1, fill=1)
    canvas.setFillColor(ink)
    index = rank_index(rank)
    small = width * 0.2
    canvas.setFont(BASE_BOLD, small)
    canvas.drawString(x + width * 0.08, y + height - small * 1.05, index)
    canvas.saveState()
    canvas.translate(x + width, y)
    canvas.rotate(180)
    canvas.drawString(width * 0.08, -small * 1.05, index)
    canvas.restoreState()
    big = width * (0.55 if len(index) == 1 else 0.42)
    canvas.setFont(BASE_BOLD, big)
    canvas.drawCentredString(x + width / 2, y + height / 2 - big * 0.36, index)
    canvas.restoreState()
