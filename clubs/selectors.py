"""Reads of a club: its roster, its evenings, its seasons, and a season's standings.

``season_standings`` reads a season in a constant number of queries whatever its evenings and
members (the evenings, their tallies as each format counts them, their guests and links, the
roster), then ranks by ``tables.seasons``; each process keeps the standings per season version
and each evening's tallies per evening version (``clubs.versions``), so an unchanged season is
not summed again and a bell in one evening sums only that evening's tallies again. Who is who (``docs/clubs.md``, "One member, every
evening"): a guest linked to a member is that member; a guest of a club evening with no member
(a sub) is the same sub at every evening under one name (folded as guests' names are), unless a
member has that name (then it is the member: added at the door by name).
"""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass, field

from clubs.models import Club, ClubEvening, Member, Season
from clubs.versions import SeasonVersion, season_part, season_version
from tables.seasons import Night, PrizeAward, SeasonLine, SeasonRules, season_lines, season_prizes
from tournament.kept import Kept
from tournament.models import Evening, Guest
from tournament.name_keys import name_order
from tournament.plugin import FormatPlugin
from tournament.registry import format_named
from tournament.snapshots import one_snapshot

SEASONS_KEPT = 32  # seasons whose standings a process keeps
EVENINGS_KEPT = 2048  # evenings whose season tallies a process keeps (a year of weekly nights is 52)


@dataclass(frozen=True)
class Person:
    """Who a season line is: their name, whether a sub, whether they left the club."""

    name: str
    sub: bool
    left: bool = False


@dataclass(frozen=True)
class StandingRow:
    """A line of the season's standings page: the rules' line, who it is, the totals in the page's
    columns' order, and each evening's tallies in the evenings' order (None: not there)."""

    line: SeasonLine
    person: Person
    totals: tuple[int, ...]
    nights: tuple[tuple[int, ...] | None, ...]


@dataclass(frozen=True)
class PrizeRow:
    """A season prize as shown: the award, its winners' names, why in words ("3 buncos", "6
    nights", "the last place, 7th, of those who played half the nights or more; tied: shared")."""

    award: PrizeAward
    names: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class SeasonStandings:
    """A season's standings page: the season, the columns (tally words), the order's words, the
    season's evenings in date order (those played first marked), the rows and the prizes."""

    season: Season
    rules: SeasonRules
    order_words: str
    columns: tuple[str, ...]
    evenings: tuple[Evening, ...]
    played: frozenset[int]
    rows: tuple[StandingRow, ...]
    prizes: tuple[PrizeRow, ...]
    subs_shown: bool
    # The season page's long tables as written from these standings (``clubs.templatetags.season_rows``),
    # shared by every copy of the kept standings: written once per season version.
    html: dict[str, str] = field(default_factory=dict, compare=False, repr=False)


def season_evenings(season: Season) -> list[Evening]:
    """The club's evenings dated within the season (both ends included; an open season: from its
    start on), by date. One query."""
    evenings = Evening.objects.filter(club_evening__club_id=season.club_id, date__gte=season.starts_on)
    if season.ends_on is not None:
        evenings = evenings.filter(date__lte=season.ends_on)
    return list(evenings.order_by("date", "id"))


def _people(club: Club, evenings: list[Evening]) -> tuple[dict[int, str], dict[str, Person]]:
    """Guest id -> person key, and person key -> ``Person``, for the guests of ``evenings``
    (module docstring). Two queries."""
    members = {m.pk: m for m in Member.objects.filter(club=club)}
    by_name = {m.name_key: m.pk for m in members.values()}
    people = {f"m{m.pk}": Person(m.name, sub=False, left=m.left_on is not None) for m in members.values()}
    keys: dict[int, str] = {}
    rows = Guest.objects.filter(evening__in=evenings).values_list("pk", "name", "name_key", "club_guest__member_id")
    for pk, name, name_key, linked in rows:
        member = linked or by_name.get(name_key)
        if member is not None:
            keys[pk] = f"m{member}"
        else:
            keys[pk] = f"s{name_key}"
            people.setdefault(keys[pk], Person(name, sub=True))
    return keys, people


_STANDINGS: Kept[SeasonStandings] = Kept(SEASONS_KEPT)
_TALLIES: Kept[tuple[bool, dict[int, dict[str, int]]]] = Kept(EVENINGS_KEPT)


def season_standings(season: Season, version: SeasonVersion | None = None) -> SeasonStandings:
    """The season's standings (module docstring): every member and (when the club shows them) sub
    who played one of its evenings, ranked by the club's order over the format's season tallies
    (``FormatPlugin.season_tallies``), with nights played, each evening's tallies and the season's
    prizes (members only: house rule). ``version``: the season's version when the caller has read
    it (``clubs.versions.season_version``; None: read here). Two queries when this process keeps
    the standings of the season's version, else eight or fewer whatever the evenings and members.
    The season in the answer is the one read with the version. Raises ``RuleError`` for a club
    whose stored order its format does not rank by."""
    with one_snapshot():  # a version read here is read in the snapshot the standings are summed in
        now = version if version is not None else season_version(season)
        kept = season_part(_STANDINGS, now, _standings)
    return dataclasses.replace(kept, season=now.season)


def _season_tallies(plugin: FormatPlugin, evenings: list[Evening], now: SeasonVersion) -> dict[int, dict]:
    """Evening id -> guest id -> tallies (``FormatPlugin.season_tallies``) of the ``evenings``
    played, each evening's kept per its version (``now.evenings``) and only the others asked of
    the format (its constant number of queries, none when every evening's is kept)."""
    versions = {e.pk: e for e in now.evenings}
    out: dict[int, dict] = {}
    missing = []
    for evening in evenings:
        named = versions.get(evening.pk)
        hit = _TALLIES.peek(named.token, named.version) if named is not None else None
        if hit is None:
            missing.append(evening)
        elif hit[0]:
            out[evening.pk] = hit[1]
    if missing:
        fresh = plugin.season_tallies(missing)
        for evening in missing:
            named = versions.get(evening.pk)
            if named is not None:
                _TALLIES.put(named.token, named.version, (evening.pk in fresh, fresh.get(evening.pk, {})))
            if evening.pk in fresh:
                out[evening.pk] = fresh[evening.pk]
    return out


def _standings(now: SeasonVersion) -> SeasonStandings:
    """The season's standings as ``season_standings`` answers them, summed from the database (and
    the evenings' kept tallies)."""
    season = now.season
    club = season.club
    plugin = format_named(club.format)
    rules = plugin.season_rules
    assert rules is not None  # a club's format keeps a season (services.club_create)
    order = rules.order(club.season_order)
    evenings = season_evenings(season)
    tallies = _season_tallies(plugin, evenings, now) if evenings else {}
    keys, people = _people(club, evenings)
    nights = []
    for evening in evenings:
        if evening.pk in tallies:
            night = {keys[g]: t for g, t in tallies[evening.pk].items() if g in keys}
            if not club.subs_shown:
                night = {p: t for p, t in night.items() if not people[p].sub}
            nights.append(Night(evening.pk, evening.date, night))
    columns = [name for name, _ in rules.columns]
    lines = season_lines(nights, order, columns)
    lines = tuple(sorted(lines, key=lambda line: (line.place, name_order(people[line.person].name))))
    rows = tuple(
        StandingRow(
            line=line,
            person=people[line.person],
            totals=tuple(line.totals[c] for c in columns),
            nights=_nights(line, evenings, columns),
        )
        for line in lines
    )
    members = {p for p, person in people.items() if not person.sub}
    awards = season_prizes(lines, rules, nights=len(nights), eligible=members)
    prizes = tuple(PrizeRow(a, tuple(people[p].name for p in a.winners), _reason(a, rules)) for a in awards)
    return SeasonStandings(
        season=season,
        rules=rules,
        order_words=order.words,
        columns=tuple(words for _, words in rules.columns),
        evenings=tuple(evenings),
        played=frozenset(n.evening for n in nights),
        rows=rows,
        prizes=prizes,
        subs_shown=club.subs_shown,
    )


def _nights(line: SeasonLine, evenings: list[Evening], columns: list[str]) -> tuple[tuple[int, ...] | None, ...]:
    """``StandingRow.nights`` of ``line``: each evening's tallies in the columns' order, None
    where the person was not there."""
    by_evening = line.by_evening
    out: list[tuple[int, ...] | None] = []
    for evening in evenings:
        night = by_evening.get(evening.pk)
        out.append(None if night is None else tuple(night.get(c, 0) for c in columns))
    return tuple(out)


def _reason(award: PrizeAward, rules: SeasonRules) -> str:
    """Why ``award`` went to its winners, in words (``PrizeRow.reason``)."""
    if award.key == "attendance":
        words = f"{award.figure} night{'s' if award.figure != 1 else ''} played"
    elif award.key == "booby":
        words = f"the last place ({award.figure}) of those who played half the season's nights or more"
    else:
        tally = dict(rules.columns).get(next(p.tally for p in rules.prizes if p.key == award.key), "")
        words = f"{award.figure} {tally}"
    return words + ("; tied: shared" if len(award.winners) > 1 else "")


@dataclass(frozen=True)
class ClubPage:
    """The club's page: the club, its roster (members by name, those who left last), its evenings
    (newest first), its seasons (newest first), the subs of its evenings (guests who may be
    promoted: one per name), and the host's evenings that could join it (before their draw)."""

    club: Club
    members: tuple[Member, ...]
    evenings: tuple[Evening, ...]
    seasons: tuple[Season, ...]
    subs: tuple[Guest, ...]
    others: tuple[Evening, ...]


def club_page(club: Club) -> ClubPage:
    """What the club's page shows (``ClubPage``). Five queries."""
    members = sorted(Member.objects.filter(club=club), key=lambda m: (m.left_on is not None, name_order(m.name), m.pk))
    evenings = Evening.objects.filter(club_evening__club=club).order_by("-date", "-id")
    on_roster = {m.name_key for m in members}
    subs: dict[str, Guest] = {}
    for guest in (
        Guest.objects.filter(evening__club_evening__club=club)
        .filter(club_guest__member__isnull=True)
        .order_by("-evening__date", "-id")
    ):
        if guest.name_key not in on_roster:
            subs.setdefault(guest.name_key, guest)  # their latest evening's row
    others = Evening.objects.filter(host=club.host, format=club.format).exclude(club_evening__club=club)
    return ClubPage(
        club=club,
        members=tuple(members),
        evenings=tuple(evenings),
        seasons=tuple(Season.objects.filter(club=club)),
        subs=tuple(sorted(subs.values(), key=lambda g: (name_order(g.name), g.pk))),
        others=tuple(others.select_related("club_evening__club").order_by("-date")[:50]),
    )


def evening_club(evening: Evening) -> Club | None:
    """The club ``evening`` is one of, or None. One query."""
    link = ClubEvening.objects.select_related("club").filter(evening=evening).first()
    return link.club if link is not None else None


def today() -> datetime.date:
    """Today's date (the day a host closes a season or marks a member as left, by default)."""
    return datetime.date.today()
