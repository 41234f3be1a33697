"""The results of an evening: final standings, the prizes with their winners, and the
settlement sheet when counters have a money value.

Columns of the standings: place, name, pack, yellow counters, counters held, fresh stakes
taken, counters won (fresh stakes charged). The prizes and the settlement come computed from
``tables/`` (their rules: ``docs/rules/progressive-poker.md``; settling with a money value:
``docs/rules/progressive-poker.md``, 'The settlement'); this module only prints them. Source: issue 7 item 5.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Spacer, Table, TableStyle

from tables.words import NOT_AWARDED, joined
from tournament.printing.data import PrintError, PrizeData, SettlementRow, StandingRow, page_size
from tournament.printing.fonts import BASE, BASE_BOLD
from tournament.printing.layout import new_document
from tournament.printing.text import FittedText, clean_text, isolate

LEFT_MARK = " (left)"
"""After the name of a guest who left before the end, in the printed standings (as on the
standings page): house rule, they keep their place but not their chance at the booby prize."""

HEADER_BG = colors.Color(0.92, 0.92, 0.92)


def _grid_style(numeric_from: int) -> list:
    return [
        ("FONT", (0, 0), (-1, -1), BASE, 9),
        ("FONT", (0, 0), (-1, 0), BASE_BOLD, 8.5),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_BG),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey),
        ("ALIGN", (numeric_from, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]


class ResultsPdf:
    """Renders the results to PDF bytes (portrait).

    ``evening_name``; ``standings`` ``StandingRow``s in place order; ``prizes`` ``PrizeData``s;
    ``settlement`` ``SettlementRow``s or None (no money value: no settlement page);
    ``paper`` "A4" | "letter"; ``did_not_play`` the names of the guests who played no rung round,
    printed apart after the standings with no place. Raises ``PrintError`` for no standings or an
    unknown paper.
    """

    def __init__(
        self,
        *,
        evening_name: str,
        standings: Sequence[StandingRow],
        prizes: Sequence[PrizeData] = (),
        settlement: Sequence[SettlementRow] | None = None,
        paper: str = "A4",
        did_not_play: Sequence[str] = (),
    ) -> None:
        self.did_not_play = tuple(did_not_play)
        if not standings:
            raise PrintError("No results yet: play at least one round before printing results.")
        self.pagesize = page_size(paper)
        self.evening_name = isolate(clean_text(evening_name))
        self.standings, self.prizes = tuple(standings), tuple(prizes)
        self.settlement = None if settlement is None else tuple(settlement)

    def render(self) -> bytes:
        """The PDF as bytes: standings and prizes, then the settlement sheet on a new page."""
        doc, buffer = new_document(self.pagesize, f"Results · {self.evening_name}", 15 * mm)
        w = doc.width
        story = [
            FittedText("Results", 22, bold=True),
            FittedText(self.evening_name, 11, color=colors.grey),
            Spacer(1, 5 * mm),
        ]
        if self.prizes:
            story += [FittedText("Prizes", 14, bold=True), Spacer(1, 2 * mm), self._prizes(w), Spacer(1, 6 * mm)]
        story += [FittedText("Final standings", 14, bold=True), Spacer(1, 2 * mm), self._standings(w)]
        story += self._did_not_play()
        if self.settlement is not None:
            story += [
                PageBreak(),
                FittedText("Settlement", 22, bold=True),
                FittedText(self.evening_name, 11, color=colors.grey),
                Spacer(1, 5 * mm),
                self._settlement(w),
            ]
        doc.build(story)
        return buffer.getvalue()

    def _did_not_play(self) -> list:
        """The guests who played no rung round, listed "A, B and C" after the standings with
        no place (none: nothing)."""
        if not self.did_not_play:
            return []
        names = joined(isolate(clean_text(name)) for name in self.did_not_play)
        return [
            Spacer(1, 5 * mm),
            FittedText("Did not play (no place, no prize)", 12, bold=True),
            Spacer(1, 1 * mm),
            FittedText(names, 10, lines=2),
        ]

    def _prizes(self, w: float) -> Table:
        """One row per winner (a prize shared by many guests runs on over pages, row by row,
        instead of one cell too tall for a page); the title and reason on the first row."""
        data = [["Prize", "Won by", "Why"]]
        rules = []
        for prize in self.prizes:
            winners = [isolate(clean_text(n)) for n in prize.winners] or [NOT_AWARDED]
            rules.append(("LINEABOVE", (0, len(data)), (-1, len(data)), 0.6, colors.grey))
            for i, winner in enumerate(winners):
                first = i == 0
                data.append(
                    [
                        FittedText(isolate(clean_text(prize.title)), 10, bold=True) if first else "",
                        FittedText(winner, 10, bold=True),
                        FittedText(clean_text(prize.reason), 9) if first else "",
                    ]
                )
        style = _grid_style(99) + [("VALIGN", (0, 0), (-1, -1), "TOP")] + rules
        return Table(data, colWidths=[w * 0.27, w * 0.38, w * 0.35], style=TableStyle(style), repeatRows=1)

    def _standings(self, w: float) -> Table:
        data = [["Place", "Name", "Pack", "Yellow", "Counters", "Fresh stakes", "Won"]]
        for row in self.standings:
            data.append(
                [
                    str(row.place),
                    FittedText(isolate(clean_text(row.name)) + (LEFT_MARK if row.left else ""), 9.5, lines=2),
                    FittedText(isolate(clean_text(row.pack_label)), 9),
                    str(row.yellow),
                    str(row.counters),
                    str(row.stakes),
                    f"{row.counters_won:+d}",
                ]
            )
        widths = [0.08, 0.38, 0.16, 0.08, 0.11, 0.11, 0.08]
        style = _grid_style(3) + [
            ("ALIGN", (0, 0), (0, -1), "CENTER"),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.Color(0.97, 0.97, 0.97)]),
        ]
        return Table(data, colWidths=[w * f for f in widths], style=TableStyle(style), repeatRows=1)

    def _settlement(self, w: float) -> Table:
        data = [["Name", "Pack", "Counters won", "Amount", "Paid"]]
        for row in self.settlement or ():
            data.append(
                [
                    FittedText(isolate(clean_text(row.name)), 9.5, lines=2),
                    FittedText(isolate(clean_text(row.pack_label)), 9),
                    f"{row.counters_won:+d}",
                    FittedText(clean_text(row.amount), 9.5, align="right"),
                    "",
                ]
            )
        widths = [0.4, 0.18, 0.15, 0.15, 0.12]
        style = _grid_style(2) + [("GRID", (4, 1), (4, -1), 0.4, colors.grey)]
        return Table(data, colWidths=[w * f for f in widths], style=TableStyle(style), repeatRows=1)
