"""Table cards and Bunco's tally sheets for the formats at tables of four.

A table card is a page folded in two so it stands (as Progressive Poker's tent cards): each
half shows the table's number, "Head table" or "Foot table", the four seats round a square
(North at the top, East right, South at the bottom, West left; North–South and East–West are
partners: the house rule of ``docs/rules/tables-of-four.md``, 'Partners kept or changed') and how players move
at the bell. Bunco's tally sheet (club rules: six rounds a set, round n's number is the
target, a team's points tallied as they are rolled) is a page per table with a row per round:
the target number, room to tally each team's points, the buncos rolled and the winning team.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tables.formats.scoring import bunco_target
from tournament.printing.data import PrintError, page_size
from tournament.printing.layout import GREY, folded_tents, new_canvas
from tournament.printing.tally_data import BuncoSheetData, SeatTableData
from tournament.printing.text import clean_text, draw_in_box, isolate

PAD = 14 * mm
SHEET_COLUMNS = (
    ("Round", 0.8),
    ("Number", 0.9),
    ("North–South points", 3.2),
    ("East–West points", 3.2),
    ("Buncos rolled by", 2.2),
    ("Won by", 1.2),
)


class SeatTablesPdf:
    """Renders one folded table card per table to PDF bytes (one page each).

    ``evening_name``; ``tables`` ``SeatTableData`` in the order to print; ``paper`` "A4" |
    "letter". Raises ``PrintError`` for no tables or an unknown paper.
    """

    def __init__(self, *, evening_name: str, tables: Sequence[SeatTableData], paper: str = "A4") -> None:
        if not tables:
            raise PrintError("No tables yet: run the draw before printing table cards.")
        page_size(paper)
        self.evening_name, self.tables, self.paper = isolate(clean_text(evening_name)), tuple(tables), paper

    def render(self) -> bytes:
        """The PDF as bytes, one page per table, the upper half upside down."""
        return folded_tents(self.paper, f"Table cards · {self.evening_name}", self.tables, self._half)

    def _half(self, c: Canvas, table: SeatTableData, width: float, half: float) -> None:
        """One face in the box (0, 0, width, half): number and kind left, the seats right."""
        inner = width - 2 * PAD
        c.setFillColor(GREY)
        draw_in_box(c, self.evening_name, PAD, half - PAD - 14, inner, 14, size=11)
        c.setFillColor(colors.black)
        left_w = inner * 0.5
        number_h = half * 0.42
        draw_in_box(c, f"Table {table.number}", PAD, half * 0.42, left_w, number_h, size=number_h / 2.2, bold=True)
        if table.kind_words:
            draw_in_box(c, clean_text(table.kind_words), PAD, half * 0.28, left_w, half * 0.12, size=28, bold=True)
        self._seats(c, table.seats, PAD + left_w + 6 * mm, half * 0.25, inner - left_w - 6 * mm, half * 0.6)
        draw_in_box(c, clean_text(table.movement), PAD, PAD, inner, 26, size=14, floor=0.45, lines=2)

    @staticmethod
    def _seats(c: Canvas, seats: Sequence[str], x: float, y: float, w: float, h: float) -> None:
        """The table as a square with the four seats' words round it and the partners below."""
        side = min(w, h) * 0.42
        cx, cy = x + w / 2, y + h / 2 + 8
        c.saveState()
        c.setStrokeColor(colors.black)
        c.setLineWidth(1.5)
        c.rect(cx - side / 2, cy - side / 2, side, side, stroke=1, fill=0)
        c.restoreState()
        word_w, word_h = w * 0.45, 18
        north, east, south, west = seats
        draw_in_box(c, north, cx - word_w / 2, cy + side / 2 + 4, word_w, word_h, size=15, bold=True)
        draw_in_box(c, south, cx - word_w / 2, cy - side / 2 - 4 - word_h, word_w, word_h, size=15, bold=True)
        side_w = (w - side) / 2 - 4
        draw_in_box(c, east, cx + side / 2 + 4, cy - word_h / 2, side_w, word_h, size=15, bold=True, align="left")
        draw_in_box(c, west, x, cy - word_h / 2, side_w, word_h, size=15, bold=True, align="right")
        c.setFillColor(GREY)
        draw_in_box(c, f"{north}–{south} and {east}–{west} are partners", x, y - 4, w, 14, size=10.5)
        c.setFillColor(colors.black)


class BuncoSheetsPdf:
    """Renders Bunco's per-table tally sheets to PDF bytes (portrait, a page per table; a long
    evening runs on to further pages with the headers repeated).

    ``evening_name``; ``sheets`` ``BuncoSheetData`` in table order; ``paper`` "A4" | "letter";
    ``round_end``: how a round ends, in words, under the title (the evening's choice).
    Raises ``PrintError`` for no sheets or an unknown paper.
    """

    def __init__(
        self,
        *,
        evening_name: str,
        sheets: Sequence[BuncoSheetData],
        paper: str = "A4",
        round_end: str = "a team at the head table reaching 21 ends the round",
    ) -> None:
        if not sheets:
            raise PrintError("No tables yet: run the draw before printing tally sheets.")
        page_size(paper)
        self.evening_name, self.sheets, self.paper = isolate(clean_text(evening_name)), tuple(sheets), paper
        self.round_end = round_end

    def render(self) -> bytes:
        """The PDF as bytes."""
        canvas, buffer = new_canvas(self.paper, f"Tally sheets · {self.evening_name}")
        width, height = canvas._pagesize
        per_page = 24
        for sheet in self.sheets:
            for first in range(1, sheet.rounds + 1, per_page):
                last = min(first + per_page - 1, sheet.rounds)
                self._page(canvas, sheet, range(first, last + 1), width, height)
                canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _page(self, c: Canvas, sheet: BuncoSheetData, rounds: range, width: float, height: float) -> None:
        """One page of a table's sheet: the title, then a row per round in ``rounds``."""
        margin = 15 * mm
        inner = width - 2 * margin
        top = height - margin
        title = f"Table {sheet.table}" + (f" · {sheet.kind_words}" if sheet.kind_words else "") + " · Bunco tally sheet"
        draw_in_box(c, title, margin, top - 22, inner, 22, size=18, bold=True, align="left")
        c.setFillColor(GREY)
        draw_in_box(
            c,
            f"{self.evening_name} · {self.round_end}",
            margin,
            top - 36,
            inner,
            12,
            size=9.5,
            align="left",
        )
        c.setFillColor(colors.black)
        parts = [p for _, p in SHEET_COLUMNS]
        widths = [inner * p / sum(parts) for p in parts]
        row_h = min(10 * mm, (top - 44 - margin) / (len(rounds) + 1))
        y = top - 44
        c.setLineWidth(0.4)
        c.setStrokeColor(colors.grey)
        lines = [[name for name, _ in SHEET_COLUMNS]] + [
            [str(r), str(bunco_target(r)), "", "", "", "NS   EW"] for r in rounds
        ]
        for n, cells in enumerate(lines):
            x = margin
            for cell, cw in zip(cells, widths, strict=True):
                c.rect(x, y - row_h, cw, row_h, stroke=1, fill=0)
                draw_in_box(
                    c, cell, x + 2, y - row_h, cw - 4, row_h, size=9 if n == 0 else 11, bold=n == 0 or cell.isdigit()
                )
                x += cw
            y -= row_h
