"""Table tent cards: one page per table, folded in two across the middle so it stands.

Each half shows the table number in very large type, "Head table" / "Booby table" for those
two, the table's movement rule in one line ("The winner of the pool moves up to table 2")
and the evening's name; the upper half is printed upside down so both sides read when the
page stands folded on the table. Source: issue 7 item 2; the movement rules are those of
``docs/rules/progressive-poker.md`` (the winner of the pool moves up; the head table sends one player down).
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tournament.printing.data import PrintError, TableTentData, page_size
from tournament.printing.layout import GREY, folded_tents
from tournament.printing.text import clean_text, draw_in_box, isolate

KIND_WORDS = {"head": "Head table", "booby": "Booby table", "intermediate": ""}
PAD = 14 * mm


class TableTentsPdf:
    """Renders one folded tent card per table to PDF bytes.

    ``evening_name``; ``tables`` one ``TableTentData`` per table, printed in the order given;
    ``paper`` "A4" | "letter". One page per table. Raises ``PrintError`` for no tables or an
    unknown paper size.
    """

    def __init__(self, *, evening_name: str, tables: Sequence[TableTentData], paper: str = "A4") -> None:
        if not tables:
            raise PrintError("No tables yet: run the draw before printing table cards.")
        page_size(paper)
        self.evening_name = isolate(clean_text(evening_name))
        self.tables = tuple(tables)
        self.paper = paper

    def render(self) -> bytes:
        """The PDF as bytes, one page per table."""
        return folded_tents(self.paper, f"Table cards · {self.evening_name}", self.tables, self._draw_half)

    def _draw_half(self, c: Canvas, table: TableTentData, width: float, half: float) -> None:
        """One face of the tent in the box (0, 0, width, half), upright."""
        inner = width - 2 * PAD
        c.setFillColor(GREY)
        draw_in_box(c, self.evening_name, PAD, half - PAD - 14, inner, 14, size=11)
        c.setFillColor(colors.black)
        number_h = half * 0.5
        draw_in_box(c, str(table.number), PAD, half * 0.36, inner, number_h, size=number_h / 1.2, bold=True)
        kind = KIND_WORDS[table.kind]
        if kind:
            draw_in_box(c, kind, PAD, half * 0.22, inner, half * 0.12, size=34, bold=True)
        draw_in_box(c, clean_text(table.movement), PAD, PAD, inner, 20, size=15, floor=0.45)
