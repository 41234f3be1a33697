"""Whist's plug-in: a format of the partnership family (``tournament.formats.partnership``)."""

from __future__ import annotations

from typing import ClassVar

from tables.seasons import SeasonOrder, SeasonRules
from tournament.formats.partnership.captain_form import FoursomeReportForm, WhistReportForm
from tournament.formats.partnership.plugin import PartnershipFormat
from tournament.formats.partnership.report_forms import FoursomeResultForm, WhistResultForm


class WhistFormat(PartnershipFormat):
    """Drive Whist (Foster): thirteen tricks a hand, the winners round a circle (``docs/rules/drive-whist.md``)."""

    key: ClassVar[str] = "whist"
    result_form: ClassVar[type[FoursomeResultForm] | None] = WhistResultForm
    phone_form: ClassVar[type[FoursomeReportForm] | None] = WhistReportForm
    evening_fields: ClassVar[tuple[str, ...]] = ("movement", "partners_change", "prize_ties")
    """The family's options but ties at a table: a hand has 13 tricks, so no table ties (Foster)."""
    fields_legend: ClassVar[str] = "movement, partners and prizes"
    round_end_words: ClassVar[str] = "When the head table's hand is played (its tricks are recorded: the rules' way)"
    season_rules: ClassVar[SeasonRules | None] = SeasonRules(
        columns=(("tricks", "tricks"), ("wins", "wins")),
        orders=(SeasonOrder("tricks", "Tricks, then wins", ("tricks", "wins")),),
    )
    """A whist drive's year: tricks, then wins (``docs/clubs.md``)."""

    def example_report(self, seats: tuple[int, ...]) -> dict:
        """North–South take 8 tricks of the 13, East–West 5."""
        return {"tricks": {"NS": 8, "EW": 5}}
