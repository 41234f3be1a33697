"""The pull list for a physical draw: which cards to take from each pack before the guests draw.

For each pack (its label and colour), a row per rank with how many cards to pull, a box to
tick, and the total, which must equal the number of guests drawing from that pack. Source:
``docs/rules/progressive-poker.md``, 'The seating draw' (the red and the blue pack; the rank is the table) and
issue 7 item 4.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Spacer, Table, TableStyle

from tournament.printing.data import PrintError, PullPackData, page_size
from tournament.printing.fonts import BASE, BASE_BOLD
from tournament.printing.layout import PACK_INK, new_document
from tournament.printing.text import FittedText, clean_text, isolate

KEEP_TOGETHER_RANKS = 30  # a pack's list this short fits on one page: never split it
HOW_TO = (
    "Take these cards out of each pack, check them off, shuffle each pile, and let every guest "
    "draw one card from their own pack. The rank of the card is the guest's table: ace = table 1 "
    "(the head table), deuce = table 2, and so on."
)


class PullListPdf:
    """Renders the pull list to PDF bytes (portrait).

    ``evening_name``; ``packs`` one ``PullPackData`` per pack; ``paper`` "A4" | "letter".
    Raises ``PrintError`` for no packs or an unknown paper size.
    """

    def __init__(self, *, evening_name: str, packs: Sequence[PullPackData], paper: str = "A4") -> None:
        if not packs:
            raise PrintError("No draw planned yet: plan the tables before printing the pull list.")
        self.pagesize = page_size(paper)
        self.evening_name = isolate(clean_text(evening_name))
        self.packs = tuple(packs)

    def render(self) -> bytes:
        """The PDF as bytes."""
        doc, buffer = new_document(self.pagesize, f"Pull list · {self.evening_name}", 18 * mm)
        story = [
            FittedText("Pull list for the draw", 20, bold=True),
            FittedText(self.evening_name, 11, color=colors.grey),
            Spacer(1, 3 * mm),
            FittedText(HOW_TO, 10, floor=1.0),
            Spacer(1, 6 * mm),
        ]
        for pack in self.packs:
            table = self._pack_table(pack, doc.width)
            if len(pack.cards) <= KEEP_TOGETHER_RANKS:
                story.append(KeepTogether([table, Spacer(1, 8 * mm)]))
            else:  # longer than a page anyway: start it right here, not on a new page
                story += [table, Spacer(1, 8 * mm)]
        doc.build(story)
        return buffer.getvalue()

    @staticmethod
    def _pack_table(pack: PullPackData, width: float) -> Table:
        """One pack's list: heading row in the pack's colour, a row per rank, the total."""
        ink = PACK_INK[pack.colour]
        title = f"{isolate(clean_text(pack.label))} · {pack.colour} cards"
        data = [[FittedText(title, 13, bold=True, color=colors.white), "", ""], ["Card", "How many", "Pulled"]]
        for rank, count in pack.cards:
            data.append([FittedText(clean_text(rank), 11), str(count), ""])
        data.append(["Total", str(sum(c for _, c in pack.cards)), ""])
        style = TableStyle(
            [
                ("SPAN", (0, 0), (-1, 0)),
                ("BACKGROUND", (0, 0), (-1, 0), ink),
                ("FONT", (0, 1), (-1, -1), BASE, 11),
                ("FONT", (0, 1), (-1, 1), BASE_BOLD, 10),
                ("FONT", (0, -1), (-1, -1), BASE_BOLD, 11),
                ("GRID", (0, 1), (-1, -1), 0.4, colors.grey),
                ("BOX", (0, 0), (-1, -1), 1.2, ink),
                ("ALIGN", (1, 1), (-1, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEABOVE", (0, -1), (-1, -1), 1.2, colors.black),
            ]
        )
        return Table(data, colWidths=[width * 0.5, width * 0.25, width * 0.25], style=style, repeatRows=2)
