"""The season ceremony (``docs/clubs.md``, "The season ceremony"): once a season is closed, the
host reveals its prizes on the season's room display one tap at a time, the smallest first and
the biggest last (``tables.seasons.season_reveal_order``), then the final season standings, as an
evening's ceremony (``tournament.services.ending.ceremony_next``). Each tap carries the step the
host's page showed, so a double tap or a stale tab changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from clubs.models import Season
from clubs.selectors import PrizeRow, SeasonStandings, season_standings
from clubs.versions import SeasonVersion, season_version
from tables.errors import RuleError
from tables.seasons import season_reveal_order


@dataclass(frozen=True)
class SeasonCeremony:
    """Where a season's ceremony stands: ``step`` (None: not begun; then how many steps are
    shown), the prizes in reveal order, the standings, and what is shown."""

    step: int | None
    prizes: tuple[PrizeRow, ...]
    standings: SeasonStandings

    @property
    def steps(self) -> int:
        """Every step of the ceremony: one per prize, then the final standings."""
        return len(self.prizes) + 1

    @property
    def shown(self) -> int:
        """How many steps are shown (0 before the first tap)."""
        return self.step or 0

    @property
    def latest(self) -> PrizeRow | None:
        """The prize just revealed (None before the first tap and once the standings are shown)."""
        return self.prizes[self.shown - 1] if 0 < self.shown <= len(self.prizes) else None

    @property
    def finished(self) -> bool:
        """Whether the final season standings are shown (every step revealed)."""
        return self.shown >= self.steps

    @property
    def next_words(self) -> str:
        """What the host's next tap reveals, in words ("" when nothing is left)."""
        if self.shown < len(self.prizes):
            return f"prize {self.shown + 1} of {len(self.prizes)}"
        return "" if self.finished else "the final season standings"


def season_ceremony(season: Season, version: SeasonVersion | None = None) -> SeasonCeremony:
    """The ceremony of ``season`` (the season's standings' queries, ``season_standings``, at
    ``version`` when the caller has read it). Raises ``RuleError`` as ``season_standings`` does."""
    standings = season_standings(season, version)
    by_key = {p.award.key: p for p in standings.prizes}
    order = season_reveal_order([p.award for p in standings.prizes])
    return SeasonCeremony(season.ceremony_step, tuple(by_key[a.key] for a in order), standings)


def season_ceremony_next(*, season: Season, seen_step: int) -> SeasonCeremony:
    """Reveal the next step of ``season``'s ceremony on its room display: the next prize, or
    after the last prize the final season standings. ``seen_step`` is the step the host's page
    showed (0 before the first prize). Returns the ceremony after the step.

    Raises ``RuleError`` while the season is open (house rule: the prizes are revealed once the
    host has closed the season, so they can no longer change), when the page was out of date (a
    double tap, a stale tab), and past the final standings; nothing is changed then."""
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
        if season.ends_on is None:
            raise RuleError(
                "The season is still open: close it first, so its prizes can no longer change. Nothing was changed."
            )
        now = season_ceremony(season, season_version(season, fresh=True))
        if now.finished:
            raise RuleError(
                "Every season prize and the final standings are on the room display already: "
                "there is nothing more to reveal."
            )
        if seen_step != now.shown:
            raise RuleError(
                f"That page was out of date: {now.shown} of {now.steps} steps of the season ceremony are shown "
                "already. Nothing was changed; look again before the next tap."
            )
        Season.objects.filter(pk=season.pk).update(ceremony_step=now.shown + 1)
        season.ceremony_step = now.shown + 1
    return season_ceremony(season)
