"""The results of an evening at tables of four: the format's prizes and the standings with its
tallies (Euchre: stars, points, wins, losses; Whist: tricks, wins, losses; Bunco: wins, losses,
buncos, mini buncos, points). The prizes come computed (``tables.formats.prizes``: a prize
whose best is 0 goes to no one, a ghost wins nothing); this module only prints them, as
``results.ResultsPdf`` does for Progressive Poker (whose prize table it shares). Source:
``docs/rules/tables-of-four.md``; issue 15 item 4.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.platypus import Table, TableStyle

from tournament.printing.data import PrintError, PrizeData, page_size
from tournament.printing.results import LEFT_MARK, ResultsPdf, _grid_style
from tournament.printing.tally_data import TallyStandingRow
from tournament.printing.text import FittedText, clean_text, isolate


class TallyResultsPdf(ResultsPdf):
    """Renders the results at tables of four to PDF bytes (portrait).

    ``evening_name``; ``columns`` the tallies' words in order ("stars", "points", ...);
    ``standings`` ``TallyStandingRow``s in place order; ``prizes`` ``PrizeData``s; ``paper``
    "A4" | "letter". Raises ``PrintError`` for no standings, a row whose tallies do not match
    the columns, or an unknown paper.
    """

    def __init__(
        self,
        *,
        evening_name: str,
        columns: Sequence[str],
        standings: Sequence[TallyStandingRow],
        prizes: Sequence[PrizeData] = (),
        paper: str = "A4",
        did_not_play: Sequence[str] = (),
    ) -> None:
        self.did_not_play = tuple(did_not_play)
        if not standings:
            raise PrintError("No results yet: play at least one round before printing results.")
        if any(len(row.values) != len(columns) for row in standings):
            raise PrintError("Every line of the standings needs one number per tally.")
        self.pagesize = page_size(paper)
        self.evening_name = isolate(clean_text(evening_name))
        self.standings, self.prizes, self.settlement = (), tuple(prizes), None
        self.columns, self.tally_rows = tuple(columns), tuple(standings)

    def _standings(self, w: float) -> Table:
        """Place, name, pack, then one column per tally; no pack column when no line has a
        pack (a format whose packs take no part: the Euchre tournament), where it printed empty."""
        packs = any(row.pack_label for row in self.tally_rows)
        heads = [FittedText(c.capitalize(), 8.5, bold=True, align="right", lines=2) for c in self.columns]
        data: list[list[object]] = [["Place", "Name", *(["Pack"] if packs else []), *heads]]
        for row in self.tally_rows:
            pack = [FittedText(isolate(clean_text(row.pack_label)), 9)] if packs else []
            data.append(
                [
                    str(row.place),
                    FittedText(isolate(clean_text(row.name)) + (LEFT_MARK if row.left else ""), 9.5, lines=2),
                    *pack,
                    *(str(v) for v in row.values),
                ]
            )
        tally_w = 0.46 / max(len(self.columns), 1)  # the tallies share 46 % of the width
        widths = ([0.08, 0.30, 0.16] if packs else [0.08, 0.46]) + [tally_w] * len(self.columns)
        style = _grid_style(3 if packs else 2) + [
            ("ALIGN", (0, 0), (0, -1), "CENTER"),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.Color(0.97, 0.97, 0.97)]),
        ]
        return Table(data, colWidths=[w * f for f in widths], style=TableStyle(style), repeatRows=1)
