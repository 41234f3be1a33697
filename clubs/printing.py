"""The club's printed sheets: one ReportLab renderer (``TablesPdf``) for the settlement sheet,
the season's ledger and the season's standings, each a title, a line under it and tables of
plain text, over ``tournament.printing``'s fonts and text fitting (every name prints in its own
script). Rules of what is printed: ``docs/clubs.md``; this module only prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Spacer, Table, TableStyle

from tournament.printing.data import page_size
from tournament.printing.fonts import BASE, BASE_BOLD
from tournament.printing.layout import new_document
from tournament.printing.text import FittedText, clean_text, isolate


@dataclass(frozen=True)
class PrintedTable:
    """One table of a sheet: its heading, its column heads, its rows (text), the first column
    right-aligned (numbers from there on) and the columns' shares of the width (sum 1)."""

    heading: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numbers_from: int
    widths: tuple[float, ...]


class TablesPdf:
    """Renders a sheet of tables to PDF bytes: ``title`` ("Settlement"), ``subtitle`` (the club
    and the evening or season), ``tables``, ``note`` (a line of words under them), ``paper`` "A4"
    or "letter". Raises ``PrintError`` for an unknown paper."""

    def __init__(
        self, *, title: str, subtitle: str, tables: Sequence[PrintedTable], note: str = "", paper: str = "A4"
    ) -> None:
        self.pagesize = page_size(paper)
        self.title, self.subtitle = clean_text(title), isolate(clean_text(subtitle))
        self.tables, self.note = tuple(tables), clean_text(note)

    def render(self) -> bytes:
        """The PDF as bytes."""
        doc, buffer = new_document(self.pagesize, f"{self.title} · {self.subtitle}", 15 * mm)
        story = [FittedText(self.title, 22, bold=True), FittedText(self.subtitle, 11, color=colors.grey)]
        for table in self.tables:
            story += [Spacer(1, 5 * mm), FittedText(table.heading, 14, bold=True), Spacer(1, 2 * mm)]
            story.append(self._table(table, doc.width))
        if self.note:
            story += [Spacer(1, 4 * mm), FittedText(self.note, 9, lines=4)]
        doc.build(story)
        return buffer.getvalue()

    def _table(self, table: PrintedTable, width: float) -> Table:
        """One table, its head repeated on every page."""
        data: list[list] = [list(table.head)]
        for row in table.rows:
            data.append(
                [
                    FittedText(isolate(clean_text(cell)), 9, lines=3) if i < table.numbers_from else clean_text(cell)
                    for i, cell in enumerate(row)
                ]
            )
        style = [
            ("FONT", (0, 0), (-1, -1), BASE, 9),
            ("FONT", (0, 0), (-1, 0), BASE_BOLD, 8.5),
            ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.92, 0.92, 0.92)),
            ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey),
            ("ALIGN", (table.numbers_from, 0), (-1, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ]
        return Table(data, colWidths=[width * w for w in table.widths], style=TableStyle(style), repeatRows=1)
