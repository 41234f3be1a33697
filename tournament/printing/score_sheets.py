"""Score sheets: one landscape page (or more) per table, a row per round, columns per seat.

Every seat has a column for the player's name, a tick for the pool winner and the counters;
the head table's sheet adds, per seat, a tick for the call and the yellow counters (the head
table's rules, ``docs/rules/progressive-poker.md``). The seat headers carry the names seated at the start.
The blank version leaves the rounds empty; the pre-filled version writes the rounds played so
far (``ScoreSheetData.rows``) and leaves the rest blank. Source: issue 7 item 3.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Spacer, Table, TableStyle

from tournament.printing.data import PrintError, ScoreEntry, ScoreSheetData, page_size, table_label
from tournament.printing.fonts import BASE, BASE_BOLD
from tournament.printing.layout import new_document
from tournament.printing.text import FittedText, clean_text, isolate

TICK = "✓"


def _tick(flag: bool) -> object:
    """A tick mark (in whichever vendored font has it) when ``flag``, else an empty cell."""
    return FittedText(TICK, 10, bold=True, align="center") if flag else ""


class ScoreSheetsPdf:
    """Renders the score sheets of an evening's tables to PDF bytes (landscape).

    ``evening_name``; ``sheets`` one ``ScoreSheetData`` per table; ``paper`` "A4" | "letter";
    ``prefilled`` writes the rounds in ``rows``. Each table starts a new page; a table with
    many rounds continues on further pages with the headers repeated. Raises ``PrintError`` for
    no sheets or an unknown paper size.
    """

    def __init__(
        self,
        *,
        evening_name: str,
        sheets: Sequence[ScoreSheetData],
        paper: str = "A4",
        prefilled: bool = False,
    ) -> None:
        if not sheets:
            raise PrintError("No tables yet: run the draw before printing score sheets.")
        width, height = page_size(paper)
        self.pagesize = (height, width)
        self.evening_name = isolate(clean_text(evening_name))
        self.sheets, self.paper, self.prefilled = tuple(sheets), paper, prefilled

    def render(self) -> bytes:
        """The PDF as bytes."""
        doc, buffer = new_document(self.pagesize, f"Score sheets · {self.evening_name}", 10 * mm)
        story = []
        for n, sheet in enumerate(self.sheets):
            if n:
                story.append(PageBreak())
            kind = "pre-filled" if self.prefilled else "blank"
            story.append(FittedText(f"{table_label(sheet.table, sheet.kind)} · score sheet", 16, bold=True))
            story.append(FittedText(f"{self.evening_name} · {kind}", 9, color=colors.grey))
            story.append(Spacer(1, 4 * mm))
            story.append(self._table(sheet, doc.width))
        doc.build(story)
        return buffer.getvalue()

    def _table(self, sheet: ScoreSheetData, width: float) -> Table:
        """The grid for one table's sheet, fitted to ``width`` points."""
        head = sheet.kind == "head"
        subs = ["Player", "Won", "Call", "Counters", "Yellow"] if head else ["Player", "Won", "Counters"]
        parts = [3.0, 1.0, 1.0, 1.6, 1.4] if head else [2.6, 1.0, 2.0]
        seats = len(sheet.seats)
        round_w = 14 * mm
        unit = (width - round_w) / (seats * sum(parts))
        col_widths = [round_w] + [p * unit for _ in range(seats) for p in parts]
        k = len(subs)
        top = ["Round"]
        for s, name in enumerate(sheet.seats, start=1):
            label = f"Seat {s}: {isolate(clean_text(name))}" if clean_text(name) else f"Seat {s}"
            top += [FittedText(label, 8, bold=True, floor=0.75, lines=2)] + [""] * (k - 1)
        sub_cells = [FittedText(sub, 7.5, bold=True, align="center", floor=0.8) for sub in subs]
        data = [top, [""] + sub_cells * seats]
        rows = {row.round: row for row in sheet.rows} if self.prefilled else {}
        for r in range(1, sheet.rounds + 1):
            line = [str(r)]
            entries = rows[r].entries if r in rows else ()
            for s in range(seats):
                entry = entries[s] if s < len(entries) else None
                line += self._cells(entry, head)
            data.append(line)
        style = [
            ("FONT", (0, 0), (-1, -1), BASE, 8),
            ("FONT", (0, 0), (-1, 1), BASE_BOLD, 7.5),
            ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 1), colors.Color(0.92, 0.92, 0.92)),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("ALIGN", (0, 0), (0, -1), "CENTER"),
            ("SPAN", (0, 0), (0, 1)),
            ("LEFTPADDING", (0, 1), (-1, -1), 2),
            ("RIGHTPADDING", (0, 1), (-1, -1), 2),
        ]
        for s in range(seats):
            first = 1 + s * k
            style.append(("SPAN", (first, 0), (first + k - 1, 0)))
            style.append(("LINEBEFORE", (first, 0), (first, -1), 1.2, colors.black))
            style.append(("ALIGN", (first + 1, 1), (first + k - 1, -1), "CENTER"))
        row_h = [None, None] + [9 * mm] * sheet.rounds
        return Table(data, colWidths=col_widths, rowHeights=row_h, repeatRows=2, style=TableStyle(style))

    @staticmethod
    def _cells(entry: ScoreEntry | None, head: bool) -> list:
        """The cells of one seat in one round: blank when ``entry`` is None."""
        if entry is None:
            return [""] * (5 if head else 3)
        count = "" if entry.counters is None else str(entry.counters)
        cells = [FittedText(isolate(clean_text(entry.name)), 8, floor=0.75, lines=2), _tick(entry.won_pool)]
        if head:
            yellow = "" if entry.yellow is None else str(entry.yellow)
            return cells + [_tick(entry.in_call), count, yellow]
        return cells + [count]
