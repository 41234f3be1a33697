"""Prize certificates: one landscape page per winner of each prize (tied winners each get one).

Shows the prize's title, the winner's name in large type, why it was won, and the evening's
name, inside a double border. Source: issue 7 item 5; the prizes themselves:
``docs/rules/progressive-poker.md``, 'Prizes'.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm

from tournament.printing.data import PrintError, PrizeData, page_size
from tournament.printing.layout import GREY, PACK_INK, new_canvas
from tournament.printing.text import clean_text, draw_in_box, isolate, printable_name

GOLD = colors.Color(0.62, 0.48, 0.13)


class CertificatesPdf:
    """Renders the prize certificates to PDF bytes.

    ``evening_name``; ``prizes`` ``PrizeData``s (a prize with no winner prints nothing);
    ``paper`` "A4" | "letter" (printed landscape). Raises ``PrintError`` when no prize has a
    winner or for an unknown paper. A name that cannot be printed prints as "A prize winner".
    """

    def __init__(self, *, evening_name: str, prizes: Sequence[PrizeData], paper: str = "A4") -> None:
        page_size(paper)
        self.pages = [
            (isolate(clean_text(p.title)), isolate(printable_name(name, "A prize winner")), clean_text(p.reason))
            for p in prizes
            for name in p.winners
        ]
        if not self.pages:
            raise PrintError("No prize has a winner yet: finish the evening before printing certificates.")
        self.evening_name, self.paper = isolate(clean_text(evening_name)), paper

    def render(self) -> bytes:
        """The PDF as bytes, one page per winner."""
        c, buffer = new_canvas(self.paper, f"Prize certificates · {self.evening_name}", landscape=True)
        w, h = c._pagesize
        for title, name, reason in self.pages:
            c.setStrokeColor(GOLD)
            c.setLineWidth(3)
            c.rect(12 * mm, 12 * mm, w - 24 * mm, h - 24 * mm)
            c.setLineWidth(0.8)
            c.rect(16 * mm, 16 * mm, w - 32 * mm, h - 32 * mm)
            inner_x, inner_w = 30 * mm, w - 60 * mm
            c.setFillColor(GREY)
            draw_in_box(c, "Certificate of a prize", inner_x, h - 52 * mm, inner_w, 16 * mm, size=18)
            c.setFillColor(PACK_INK["red"])
            draw_in_box(c, title, inner_x, h - 80 * mm, inner_w, 26 * mm, size=34, bold=True)
            c.setFillColor(GREY)
            draw_in_box(c, "awarded to", inner_x, h - 92 * mm, inner_w, 10 * mm, size=14)
            c.setFillColor(colors.black)
            draw_in_box(c, name, inner_x, h * 0.3, inner_w, h - 94 * mm - h * 0.3, size=44, bold=True)
            draw_in_box(c, reason, inner_x, h * 0.3 - 16 * mm, inner_w, 14 * mm, size=16)
            c.setFillColor(GREY)
            draw_in_box(c, self.evening_name, inner_x, 24 * mm, inner_w, 10 * mm, size=13)
            c.showPage()
        c.save()
        return buffer.getvalue()
