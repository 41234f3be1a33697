"""Seating cards: one per guest, with the table, the card drawn and a QR code of the guest's link.

Two variants (issue 7 item 1, issue 2 item 7):

* ``"sheet"``: eight cards per page (2 x 4), touching, with cut marks. Each card shows the
  evening's name, the guest's name, the table ("Table 1 · Head table"), the card drawn, drawn
  as a card in the pack's colour, with its name ("trey of the blue pack"), the guest's pack
  label (and "draws for the Blue pack" when the guest represents the other pack), and a QR code
  of the guest's private link with the link printed under it, across the foot of the card, in
  7.5 pt type on as many lines as it needs, broken after its "/"s (never smaller, never cut: a
  guest whose camera will not scan types it; issue 13 asks for 7 pt at least).
* ``"tent"``: four cards per page (2 x 2), each folded in two along a dashed line: the lower
  half is the card above, the upper half is printed upside down with the name and the table,
  so the name reads on both sides of the folded card.

Cards print in the order given. No cards at all raises ``PrintError`` ("No draw yet ...").
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tournament.printing.data import PrintError, SeatingCardData, page_size, table_label
from tournament.printing.layout import (
    GREY,
    PACK_INK,
    Grid,
    draw_fold_line,
    draw_playing_card,
    new_canvas,
)
from tournament.printing.qr import draw_qr
from tournament.printing.text import clean_text, draw_fitted, draw_in_box, fit_link, isolate, printable_name

VARIANTS = {"sheet": (2, 4), "tent": (2, 2)}
PAD = 5 * mm
LINK_SIZE = 7.5  # points: the link under the QR code (issue 13 item 3: 7 pt at least)


class SeatingCardsPdf:
    """Renders the seating cards of an evening to PDF bytes.

    ``evening_name`` printed small on every card; ``cards`` one ``SeatingCardData`` per guest;
    ``paper`` "A4" | "letter" (any case); ``variant`` "sheet" (8 a page, cut marks) or
    "tent" (4 a page, folded). Raises ``PrintError`` at construction for no cards or an unknown
    paper or variant. A name that cannot be printed prints as "Guest on card N" (the Django
    side has already put "Guest no. N" there: ``text.guest_print_name``).
    """

    def __init__(
        self,
        *,
        evening_name: str,
        cards: Sequence[SeatingCardData],
        paper: str = "A4",
        variant: str = "sheet",
    ) -> None:
        if not cards:
            raise PrintError("No draw yet: run the draw before printing seating cards.")
        if variant not in VARIANTS:
            raise PrintError(f"Unknown seating card variant “{variant}”: use sheet or tent.")
        page_size(paper)  # raises PrintError early for an unknown paper
        self.evening_name = isolate(clean_text(evening_name))
        self.cards = tuple(cards)
        self.names = tuple(
            isolate(printable_name(card.name, f"Guest on card {i}")) for i, card in enumerate(self.cards, start=1)
        )
        self.paper, self.variant = paper, variant

    def render(self) -> bytes:
        """The PDF as bytes: ceil(cards / 8) pages for "sheet", ceil(cards / 4) for "tent"."""
        canvas, buffer = new_canvas(self.paper, f"Seating cards · {self.evening_name}")
        width, height = canvas._pagesize
        grid = Grid.on_page(width, height, *VARIANTS[self.variant])
        for start in range(0, len(self.cards), grid.per_page):
            batch = range(start, min(start + grid.per_page, len(self.cards)))
            for slot, i in enumerate(batch):
                x, y = grid.cell(slot)
                if self.variant == "sheet":
                    self._draw_card(canvas, self.cards[i], self.names[i], x, y, grid.cell_w, grid.cell_h)
                else:
                    self._draw_tent(canvas, self.cards[i], self.names[i], x, y, grid.cell_w, grid.cell_h)
            grid.draw_cut_marks(canvas)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _draw_card(self, c: Canvas, card: SeatingCardData, name: str, x: float, y: float, w: float, h: float) -> None:
        """One card in the box (x, y, w, h): the front of a seating card."""
        inner_w = w - 2 * PAD
        left, top = x + PAD, y + h - PAD
        c.setFillColor(GREY)
        draw_in_box(c, self.evening_name, left, top - 9, inner_w, 9, size=7.5, align="left")
        c.setFillColor(colors.black)
        name_h = h * 0.27
        draw_in_box(c, name, left, top - 11 - name_h, inner_w, name_h, size=20, bold=True, lines=2)
        lower_top = top - 13 - name_h
        # The short link is printed across the foot of the card, under the QR code and flush
        # right with it, in type a guest can read and copy (LINK_SIZE, never shrunk or cut):
        # broken after its "/"s ("headtable.local:8000/g/" over the 43-character key) onto
        # as many lines as it needs, and everything else sits above it.
        link = fit_link(clean_text(card.short_url), width=inner_w, size=LINK_SIZE)
        link_h = link.height + 1
        c.setFillColor(GREY)
        draw_fitted(c, link, left, y + PAD - 2 + link_h, inner_w, align="right")
        bottom = y + PAD + link_h
        lower_h = lower_top - bottom
        qr_size = min(lower_h - 2, inner_w * 0.4)
        qr_x = left + inner_w - qr_size
        draw_qr(c, card.url, qr_x, bottom + 1, qr_size)
        text_w = qr_x - left - 4
        c.setFillColor(colors.black)
        label = table_label(card.table, card.table_kind)
        draw_in_box(c, label, left, lower_top - 30, text_w, 28, size=13, bold=True, align="left")
        card_w = min(lower_h - 38, text_w * 0.36) / 1.4
        card_y = bottom + 3
        if card.card_rank is not None:
            draw_playing_card(c, left, card_y, card_w, card.card_rank, card.pack)
            info_x = left + card_w * 1.2 + 6
        else:  # seated on arrival: no card was drawn
            info_x = left
        info_w = qr_x - info_x - 4
        lines = [clean_text(card.card_name), clean_text(card.pack_label)]
        if card.represents:
            lines.append(clean_text(card.represents))
        line_top = card_y + card_w * 1.4
        for n, line in enumerate(lines):
            c.setFillColor(PACK_INK[card.pack] if n == 0 else colors.black)
            fitted = draw_in_box(c, line, info_x, line_top - 22, info_w, 22, size=9, align="left", valign="top")
            line_top -= max(fitted.height, 11) + 2

    def _draw_tent(self, c: Canvas, card: SeatingCardData, name: str, x: float, y: float, w: float, h: float) -> None:
        """One folded card: the front below the fold, name and table upside down above it."""
        half = h / 2
        self._draw_card(c, card, name, x, y, w, half)
        draw_fold_line(c, x + 4, y + half, x + w - 4)
        c.saveState()
        c.translate(x + w, y + h)
        c.rotate(180)
        inner_w = w - 2 * PAD
        c.setFillColor(GREY)
        draw_in_box(c, self.evening_name, PAD, half - PAD - 9, inner_w, 9, size=7.5, align="left")
        c.setFillColor(colors.black)
        draw_in_box(c, name, PAD, half * 0.38, inner_w, half * 0.45, size=26, bold=True)
        label = table_label(card.table, card.table_kind)
        draw_in_box(c, label, PAD, PAD + 4, inner_w, half * 0.3, size=18, bold=True)
        c.restoreState()
