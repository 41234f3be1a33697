"""Euchre's plug-in: a format of the partnership family (``tournament.formats.partnership``)."""

from __future__ import annotations

from typing import ClassVar

from tables.seasons import SeasonOrder, SeasonPrize, SeasonRules
from tournament.formats.partnership.captain_form import EuchreReportForm, FoursomeReportForm
from tournament.formats.partnership.plugin import PartnershipFormat
from tournament.formats.partnership.report_forms import EuchreResultForm, FoursomeResultForm


class EuchreFormat(PartnershipFormat):
    """Progressive Euchre (Foster; Keller's *The Game of Euchre*, 1887): stars for the winners, the head table's losers to the foot table (``docs/rules/progressive-euchre.md``)."""

    key: ClassVar[str] = "euchre"
    result_form: ClassVar[type[FoursomeResultForm] | None] = EuchreResultForm
    phone_form: ClassVar[type[FoursomeReportForm] | None] = EuchreReportForm
    evening_fields: ClassVar[tuple[str, ...]] = (*PartnershipFormat.evening_fields, "prize_by_points")
    """The family's options and Euchre's own: prizes by total points instead of stars."""
    round_end_words: ClassVar[str] = "When the head table's game is over (its points are recorded: the rules' way)"
    season_rules: ClassVar[SeasonRules | None] = SeasonRules(
        columns=(("stars", "stars"), ("points", "points"), ("wins", "wins")),
        orders=(
            SeasonOrder("stars", "Stars, then points", ("stars", "points")),
            SeasonOrder("points", "Points, then stars", ("points", "stars")),
        ),
        prizes=(SeasonPrize("most_stars", "Most stars of the season", "stars"),),
    )
    """A euchre club's year: by stars or by points, as the club chose (``docs/clubs.md``)."""

    def example_report(self, seats: tuple[int, ...]) -> dict:
        """Five hands: North–South 7 points (a lone hand's march among them), East–West 3."""
        return {"hands": [["NS", 1], ["EW", 2], ["NS", 4], ["NS", 2], ["EW", 1]]}
