"""A club's season: its standings over the season's evenings, its prizes, and its dates.

Plain rules over plain values (no Django): each evening of the season is a ``Night``, the tallies
every person who played it took home (a person is a key the caller chooses: a member, or a sub
by name), as the evening's format counts them (``tournament.plugin.FormatPlugin.season_tallies``).
The season adds them up and ranks by the format's order (``SeasonOrder``: Bunco's wins, then
buncos, then points; ``docs/clubs.md``, "Season standings"). House rules, written down in
``docs/clubs.md``:

* a season's total of a tally is the sum over the nights a person played; a night not played
  counts nothing (no average, no penalty);
* ties share a place ("1, 1, 3"), listed by the caller's key; nights attended break no tie;
* a season prize goes to everyone tied for it (shared, never cut); a "most" prize nobody scored
  (no bunco all season) is not awarded;
* best attendance: the most nights played;
* the season's booby: the last place among those who played at least half the season's nights
  (rounded up), so a one-night visitor is not the booby; not awarded when everyone who may win
  it shares first place;
* two seasons of one club may not share a day; a season without an end runs until the host
  closes it.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from tables.errors import RuleError

Tallies = Mapping[str, int]
"""One person's tallies: tally name ("buncos") -> a whole number."""


@dataclass(frozen=True)
class SeasonOrder:
    """One way a format ranks a season: ``key`` (what a club stores), ``words`` (what the host
    reads: "Stars, then points"), ``tallies`` (tally names, the first decides, ties go to the
    next; most first, except those named in ``fewest``, which rank the fewest first: a game
    where the lowest score wins, as at Hearts)."""

    key: str
    words: str
    tallies: tuple[str, ...]
    fewest: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SeasonPrize:
    """A format's own season prize: the most of ``tally`` over the season ("Most buncos of the
    season"). ``key`` names it, ``title`` is what the standings page shows."""

    key: str
    title: str
    tally: str


@dataclass(frozen=True)
class SeasonRules:
    """What a format says about a season: the tallies shown (name, words), in the page's
    order; the ways it ranks (``orders``, the default first); its own prizes."""

    columns: tuple[tuple[str, str], ...]
    orders: tuple[SeasonOrder, ...]
    prizes: tuple[SeasonPrize, ...] = ()

    def order(self, key: str = "") -> SeasonOrder:
        """The order stored as ``key`` (blank: the default, the first). Raises ``RuleError``
        naming the orders for a key the format does not rank by."""
        if not key:
            return self.orders[0]
        for order in self.orders:
            if order.key == key:
                return order
        words = "; ".join(o.words for o in self.orders)
        raise RuleError(f"“{key}” is not a way this format ranks a season: it ranks by {words}.")


@dataclass(frozen=True)
class Night:
    """One evening of the season: its id, its date, and the tallies of everyone who played it
    (person -> tallies); a person not in ``tallies`` did not play that night."""

    evening: int
    date: datetime.date
    tallies: Mapping[str, Tallies]


@dataclass(frozen=True)
class SeasonLine:
    """One person's line of the season standings: place (ties share it), the person's key,
    nights played, the season's totals (tally -> sum) and the nights played (evening id ->
    that night's tallies)."""

    place: int
    person: str
    nights: int
    totals: Tallies
    by_evening: Mapping[int, Tallies] = field(default_factory=dict)


@dataclass(frozen=True)
class PrizeAward:
    """A season prize awarded: its key and title, the winners (persons' keys, several when tied:
    shared), and the figure that won it (the tally, the nights, or the booby's place)."""

    key: str
    title: str
    winners: tuple[str, ...]
    figure: int


def season_lines(nights: Iterable[Night], order: SeasonOrder, columns: Sequence[str] = ()) -> tuple[SeasonLine, ...]:
    """The season standings of ``nights``: every person who played at least one night, with
    the sum of each tally (``columns`` and ``order.tallies``; a tally a night did not give
    counts 0), ranked by ``order`` (most first, or fewest for a tally in ``order.fewest``; ties
    share a place and are listed by key).

    The result does not depend on the nights' order, and a night nobody played changes
    nothing (``docs/clubs.md``, "Season standings"). Raises ``RuleError`` for two nights of
    one evening."""
    seen: set[int] = set()
    totals: dict[str, dict[str, int]] = {}
    played: dict[str, dict[int, Tallies]] = {}
    names = tuple(dict.fromkeys([*columns, *order.tallies]))
    for night in nights:
        if night.evening in seen:
            raise RuleError("An evening is counted twice in the season.")
        seen.add(night.evening)
        for person, tallies in night.tallies.items():
            mine = totals.setdefault(person, dict.fromkeys(names, 0))
            for name in names:
                mine[name] += int(tallies.get(name, 0))
            played.setdefault(person, {})[night.evening] = MappingProxyType(dict(tallies))

    def rank_key(person: str) -> tuple[int, ...]:
        return tuple(totals[person][name] * (1 if name in order.fewest else -1) for name in order.tallies)

    ranked = sorted(totals, key=lambda p: (rank_key(p), p))
    lines: list[SeasonLine] = []
    for i, person in enumerate(ranked):
        place = lines[-1].place if lines and rank_key(ranked[i - 1]) == rank_key(person) else i + 1
        by_evening = MappingProxyType(dict(sorted(played[person].items())))
        lines.append(SeasonLine(place, person, len(by_evening), MappingProxyType(totals[person]), by_evening))
    return tuple(lines)


def season_prizes(
    lines: Sequence[SeasonLine], rules: SeasonRules, *, nights: int, eligible: Collection[str] | None = None
) -> tuple[PrizeAward, ...]:
    """The season's prizes over ``lines`` (``season_lines``; ``nights``: the season's evenings
    played): the format's own (``rules.prizes``: the most of a tally), best attendance, the
    season's booby, each shared by everyone tied (house rules: module docstring). Only
    ``eligible`` persons win (None: everyone; a club's subs win none)."""
    pool = [line for line in lines if eligible is None or line.person in eligible]
    awards: list[PrizeAward] = []
    for prize in rules.prizes:
        best = max((line.totals.get(prize.tally, 0) for line in pool), default=0)
        if best > 0:
            won = tuple(line.person for line in pool if line.totals.get(prize.tally, 0) == best)
            awards.append(PrizeAward(prize.key, prize.title, won, best))
    most = max((line.nights for line in pool), default=0)
    if most > 0:
        won = tuple(line.person for line in pool if line.nights == most)
        awards.append(PrizeAward("attendance", "Best attendance", won, most))
    enough = [line for line in pool if 2 * line.nights >= nights]
    if enough and any(line.place != enough[0].place for line in enough):
        last = max(line.place for line in enough)
        won = tuple(line.person for line in enough if line.place == last)
        awards.append(PrizeAward("booby", "The season's booby", won, last))
    return tuple(awards)


def dates_overlap(
    start: datetime.date, end: datetime.date | None, other_start: datetime.date, other_end: datetime.date | None
) -> bool:
    """Whether the days ``start``..``end`` and ``other_start``..``other_end`` (both ends
    included; an end None: open, until the host closes it) share a day."""
    return (other_end is None or start <= other_end) and (end is None or other_start <= end)


def season_dates_refused(
    start: datetime.date,
    end: datetime.date | None,
    others: Iterable[tuple[str, datetime.date, datetime.date | None]],
) -> str | None:
    """Why a season from ``start`` to ``end`` (None: until the host closes it) may not be, beside
    the club's ``others`` seasons (name, start, end), or None: an end before its start, or days
    shared with another season (house rule: an evening belongs to one season)."""
    if end is not None and end < start:
        return f"The season ends ({end:%d %b %Y}) before it starts ({start:%d %b %Y})."
    for name, other_start, other_end in others:
        if dates_overlap(start, end, other_start, other_end):
            days = (
                f"{other_start:%d %b %Y} to {other_end:%d %b %Y}"
                if other_end
                else f"from {other_start:%d %b %Y}, until it is closed"
            )
            return (
                f"These dates overlap the season “{name}” ({days}): an evening "
                "belongs to one season. Change the dates, or close that season first."
            )
    return None


def season_reveal_order(awards: Sequence[PrizeAward]) -> tuple[PrizeAward, ...]:
    """The season ceremony's order of ``awards`` (``season_prizes``' order: the format's own
    prizes, best attendance, the booby): the smallest prize first and the biggest last, as the
    evening's ceremony (house rule, ``docs/clubs.md``, "The season ceremony"): the booby, then
    best attendance, then the format's own prizes from the last to the first (Bunco: most buncos
    last). Raises nothing."""
    rank = {"booby": 0, "attendance": 1}
    own = [a for a in awards if a.key not in rank]
    return tuple(sorted((a for a in awards if a.key in rank), key=lambda a: rank[a.key])) + tuple(reversed(own))
