"""Score cards at tables of four: one per player, with their name, the QR code of their link and
a row per round.

Progressive Euchre's card has a row per round with the table, the partner, the points and a
star box (a punch or a gummed star for a win: Foster, "Progressive Euchre"); Drive Whist's the
tricks of each hand (Foster, "Drive Whist"); Bunco's is the club tally sheet: a win or a loss
per round, and the buncos and mini buncos as tally marks (club rules). What the columns are is
the caller's (``TallyCardData.columns``); this module draws any of them. House rules (the books
are silent on print): two cards a page, cut apart along the middle, when a card has 14 rounds
or fewer, otherwise one a page; a blank "Star" cell is an empty box to stick a star in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tournament.printing.data import PrintError, page_size
from tournament.printing.layout import GREY, Grid, new_canvas
from tournament.printing.qr import draw_qr
from tournament.printing.tally_data import STAR, TallyCardData
from tournament.printing.text import clean_text, draw_fitted, draw_in_box, fit_link, isolate, printable_name

PAD = 8 * mm
QR = 30 * mm
LINK_SIZE = 7.5  # points: the link under the QR code, as on the seating cards (issue 13 item 3)
WIDE = {"Partner": 2.6, "Buncos": 2.2, "Mini buncos": 2.2, "Win": 0.9, "Loss": 0.9, "Round": 0.9, "Hand": 0.9}
HEADER_BG = colors.Color(0.92, 0.92, 0.92)


def draw_star(c: Canvas, cx: float, cy: float, r: float, filled: bool) -> None:
    """A five-pointed star of outer radius ``r`` centred at (``cx``, ``cy``): filled for a
    win, or an empty square box to stick a star in."""
    c.saveState()
    c.setLineWidth(0.8)
    if not filled:
        c.rect(cx - r, cy - r, 2 * r, 2 * r, stroke=1, fill=0)
    else:
        path = c.beginPath()
        for k in range(10):
            radius = r if k % 2 == 0 else r * 0.42
            angle = math.pi / 2 + k * math.pi / 5
            point = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
            path.moveTo(*point) if k == 0 else path.lineTo(*point)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
    c.restoreState()


class TallyCardsPdf:
    """Renders the players' score cards to PDF bytes (portrait).

    ``evening_name`` and ``title`` (the format: "Progressive Euchre") printed on every card;
    ``cards`` one ``TallyCardData`` per player, printed in the order given; ``paper`` "A4" |
    "letter". Raises ``PrintError`` for no cards or an unknown paper. A name that cannot be
    printed prints as "Player N".
    """

    def __init__(self, *, evening_name: str, title: str, cards: Sequence[TallyCardData], paper: str = "A4") -> None:
        if not cards:
            raise PrintError("No draw yet: run the draw before printing score cards.")
        page_size(paper)
        self.evening_name, self.title = isolate(clean_text(evening_name)), clean_text(title)
        self.cards, self.paper = tuple(cards), paper
        self.names = tuple(isolate(printable_name(card.name, f"Player {i}")) for i, card in enumerate(self.cards, 1))

    def render(self) -> bytes:
        """The PDF as bytes: two cards a page (one when a card has more than 14 rounds)."""
        canvas, buffer = new_canvas(self.paper, f"Score cards · {self.evening_name}")
        width, height = canvas._pagesize
        rows = 2 if max(len(card.rows) for card in self.cards) <= 14 else 1
        grid = Grid.on_page(width, height, 1, rows)
        for start in range(0, len(self.cards), grid.per_page):
            for slot, i in enumerate(range(start, min(start + grid.per_page, len(self.cards)))):
                x, y = grid.cell(slot)
                self._card(canvas, self.cards[i], self.names[i], x, y, grid.cell_w, grid.cell_h)
            grid.draw_cut_marks(canvas)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _card(self, c: Canvas, card: TallyCardData, name: str, x: float, y: float, w: float, h: float) -> None:
        """One card in the box (x, y, w, h): the header with the QR code, then the grid."""
        left, top, inner = x + PAD, y + h - PAD, w - 2 * PAD
        qr_x = left + inner - QR
        text_w = inner - QR - 4 * mm
        c.setFillColor(GREY)
        draw_in_box(
            c, f"{self.evening_name} · {self.title} · score card", left, top - 10, text_w, 10, size=8.5, align="left"
        )
        c.setFillColor(colors.black)
        draw_in_box(c, name, left, top - 36, text_w, 24, size=20, bold=True, align="left", lines=2)
        draw_in_box(c, clean_text(card.seat), left, top - 50, text_w, 12, size=10.5, align="left")
        draw_qr(c, card.url, qr_x, top - QR, QR)
        c.setFillColor(GREY)
        # The link under the QR code, flush right, at LINK_SIZE on as many lines as it needs
        # (one for any real link: the card is a page wide), never shrunk or cut.
        link = fit_link(clean_text(card.short_url), width=inner, size=LINK_SIZE)
        draw_fitted(c, link, left, top - QR - 1, inner, align="right")
        c.setFillColor(colors.black)
        self._grid(c, card, left, y + PAD, inner, top - QR - 5 - link.height - (y + PAD))

    def _grid(self, c: Canvas, card: TallyCardData, x: float, y: float, w: float, h: float) -> None:
        """The rounds' grid in the box (x, y, w, h): a header row, a row per round, the totals."""
        lines = [card.columns, *card.rows, *((card.totals,) if card.totals else ())]
        row_h = min(9 * mm, h / len(lines))
        parts = [WIDE.get(col, 1.2) for col in card.columns]
        widths = [w * p / sum(parts) for p in parts]
        top = y + h
        c.setFillColor(HEADER_BG)
        c.rect(x, top - row_h, w, row_h, stroke=0, fill=1)
        c.setStrokeColor(colors.grey)
        c.setLineWidth(0.4)
        for n, cells in enumerate(lines):
            row_top = top - n * row_h
            c.line(x, row_top - row_h, x + w, row_top - row_h)
            cx = x
            for col, cell, cw in zip(card.columns, cells, widths, strict=True):
                c.setFillColor(colors.black)
                if n and col == "Star" and (cell in ("", STAR)) and not (card.totals and n == len(lines) - 1):
                    draw_star(c, cx + cw / 2, row_top - row_h / 2, row_h * 0.3, cell == STAR)
                elif cell:
                    draw_in_box(
                        c,
                        isolate(clean_text(cell)),
                        cx + 2,
                        row_top - row_h,
                        cw - 4,
                        row_h,
                        size=9 if n else 8.5,
                        bold=n == 0,
                        floor=0.6,
                    )
                cx += cw
        c.line(x, top, x + w, top)
        cx = x
        for cw in (0, *widths):
            cx += cw
            c.line(cx, top, cx, top - len(lines) * row_h)
