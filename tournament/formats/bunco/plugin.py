"""Bunco's plug-in: a format of the partnership family (``tournament.formats.partnership``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from tables.seasons import SeasonOrder, SeasonPrize, SeasonRules
from tournament.formats.partnership.captain_form import BuncoReportForm, FoursomeReportForm
from tournament.formats.partnership.plugin import PartnershipFormat
from tournament.formats.partnership.report_forms import BuncoResultForm, FoursomeResultForm

if TYPE_CHECKING:
    from tournament.plugin import DocumentKind


class BuncoFormat(PartnershipFormat):
    """Bunco (the Bunco clubs' rules): three dice, 21 at the head table ends the round (``docs/rules/bunco.md``)."""

    key: ClassVar[str] = "bunco"
    result_form: ClassVar[type[FoursomeResultForm] | None] = BuncoResultForm
    phone_form: ClassVar[type[FoursomeReportForm] | None] = BuncoReportForm
    tie_playoff: ClassVar[str] = "one more roll"
    default_round_end: ClassVar[str] = "head_pool"  # a team at the head table reaching 21 ends the round
    round_end_words: ClassVar[str] = (
        "When a team at the head table reaches 21 (its points are recorded: the rules' way)"
    )
    head_table_rang: ClassVar[str] = "when a team at the head table reached 21"
    season_rules: ClassVar[SeasonRules | None] = SeasonRules(
        columns=(("wins", "wins"), ("buncos", "buncos"), ("points", "points")),
        orders=(SeasonOrder("wins", "Wins, then buncos, then points", ("wins", "buncos", "points")),),
        prizes=(SeasonPrize("most_buncos", "Most buncos of the season", "buncos"),),
    )
    """A Bunco club's year: wins, then buncos, then points (``docs/clubs.md``); most buncos."""
    documents_instead: ClassVar[Mapping[str, str | None]] = {
        "seating-cards": "score-cards",
        "score-sheets": "tally-sheets",
    }

    def document_kinds(self) -> tuple[DocumentKind, ...]:
        """The family's documents with Bunco's tally sheets (a sheet per table for the rolls)."""
        from tournament.formats.partnership.documents import DOCUMENTS

        return DOCUMENTS

    def example_report(self, seats: tuple[int, ...]) -> dict:
        """North–South reach 30 with a bunco by their first guest (21 and 9 more), East–West 8
        with a mini bunco by theirs (5 and 3 more); a ghost rolls no bunco of its own."""
        north_south = [p for p in seats[0::2] if p > 0]
        east_west = [p for p in seats[1::2] if p > 0]
        return {
            "points": {"NS": 30, "EW": 8},
            "buncos": {str(north_south[0]): 1} if north_south else {},
            "minis": {str(east_west[0]): 1} if east_west else {},
        }
