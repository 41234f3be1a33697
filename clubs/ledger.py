"""Reads of a club's kitty: an evening's settlement sheet and a season's ledger.

A settled evening's sheet is its ``KittyEntry`` rows, as they were paid; an evening not settled
yet shows the sheet it would have now (``clubs.kitty.evening_kitty``), marked so. The season's
ledger adds up its settled evenings: collected, paid out and carried to the season pot, per
evening and per member (a sub by name). Both read in a constant number of queries whatever the
evenings, guests and members; each process keeps a season's ledger per season version
(``clubs.versions``). House rules: ``docs/clubs.md``, "The kitty".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from clubs.kitty import evening_kitty, kitty_rules, season_evenings_query
from clubs.models import Club, ClubEvening, KittyEntry, Season
from clubs.versions import SeasonVersion, season_part, season_version
from tables.errors import RuleError
from tables.kitty import Payout, money_words
from tournament.kept import Kept
from tournament.models import Evening
from tournament.name_keys import name_order
from tournament.snapshots import one_snapshot


@dataclass(frozen=True)
class SheetLine:
    """One person's line of a settlement sheet: their name, whether a sub, what they paid and
    received (cents) and why in words ("entry fee; Most buncos, shared by 2")."""

    name: str
    sub: bool
    paid: int
    received: int
    words: str

    @property
    def net(self) -> int:
        """What the person is up (positive) or down (negative) tonight, in cents."""
        return self.received - self.paid


@dataclass(frozen=True)
class SettlementSheet:
    """An evening's settlement sheet: the evening and its club, the fee and payouts, whether
    settled (else: as it would be settled now; ``problem``: why it cannot be, in words), who
    paid and who receives what, what is carried to the season pot (words, cents) and the totals."""

    evening: Evening
    club: Club
    fee: int
    payouts: tuple[Payout, ...]
    settled: bool
    lines: tuple[SheetLine, ...]
    carried_lines: tuple[tuple[str, int], ...]
    collected: int
    paid_out: int
    carried: int
    problem: str = ""

    def money(self, cents: int) -> str:
        """``cents`` in the club's currency ("USD 5.00")."""
        return money_words(cents, self.club.currency)

    def shown(self) -> tuple[tuple[SheetLine, str, str], ...]:
        """Each line with what the person pays and receives in money words, the currency left to
        the column's head ("5.00"; "" for nothing)."""
        return tuple(
            (x, money_words(x.paid) if x.paid else "", money_words(x.received) if x.received else "")
            for x in self.lines
        )

    def carried_shown(self) -> tuple[tuple[str, str], ...]:
        """What is carried to the season pot, each in money words."""
        return tuple((words, self.money(cents)) for words, cents in self.carried_lines)

    def totals(self) -> dict[str, str]:
        """The fee and the sheet's totals in money words."""
        return {
            "fee": self.money(self.fee),
            "collected": self.money(self.collected),
            "paid_out": self.money(self.paid_out),
            "carried": self.money(self.carried),
        }


def _lines(entries) -> tuple[tuple[SheetLine, ...], tuple[tuple[str, int], ...]]:
    """Sheet lines by person (name order) and the carried lines, from entries with ``name``,
    ``sub``, ``kind``, ``words``, ``cents``, ``paid_in``."""
    people: dict[tuple[str, bool], list] = {}
    carried = []
    for e in entries:
        if e.kind == "carried":
            carried.append((e.words, e.cents))
            continue
        people.setdefault((e.name, e.sub), []).append(e)
    lines = tuple(
        SheetLine(
            name,
            sub,
            sum(e.cents for e in mine if e.paid_in),
            sum(e.cents for e in mine if not e.paid_in),
            "; ".join(dict.fromkeys(e.words for e in mine)),
        )
        for (name, sub), mine in sorted(people.items(), key=lambda item: name_order(item[0][0]))
    )
    return lines, tuple(carried)


@dataclass(frozen=True)
class _Line:
    name: str
    sub: bool
    kind: str
    words: str
    cents: int
    paid_in: bool


def settlement_sheet(evening: Evening) -> SettlementSheet:
    """The club evening's settlement sheet (module docstring). A settled evening: two queries.
    Raises ``ClubEvening.DoesNotExist`` for an evening of no club."""
    link = ClubEvening.objects.select_related("club", "evening").get(evening=evening)
    rules = kitty_rules(link)
    if link.settled_at is not None:
        rows = [
            _Line(e.name, e.member_id is None, e.kind, e.words, e.cents, e.paid_in)
            for e in KittyEntry.objects.filter(club_evening=link)
        ]
        problem = ""
    else:
        try:
            kitty = evening_kitty(link)
        except RuleError as error:
            rows, problem = [], str(error)
        else:
            problem = ""
            rows = []
            for e in kitty.sheet.entries:
                guest = kitty.guests.get(int(e.person)) if e.person else None
                member = kitty.members.get(guest.pk) if guest is not None else None
                name = member.name if member is not None else (guest.name if guest is not None else "")
                rows.append(_Line(name, member is None, e.kind, e.words, e.cents, e.paid_in))
    lines, carried = _lines(rows)
    return SettlementSheet(
        evening=link.evening,
        club=link.club,
        fee=rules.fee,
        payouts=rules.payouts,
        settled=link.settled_at is not None,
        lines=lines,
        carried_lines=carried,
        collected=sum(r.cents for r in rows if r.paid_in),
        paid_out=sum(r.cents for r in rows if not r.paid_in and r.kind != "carried"),
        carried=sum(r.cents for r in rows if r.kind == "carried"),
        problem=problem,
    )


@dataclass(frozen=True)
class LedgerEvening:
    """One evening of the season's ledger: the evening, whether settled, and its totals (cents)."""

    evening: Evening
    settled: bool
    collected: int
    paid_out: int
    carried: int


@dataclass(frozen=True)
class LedgerMember:
    """One person's line of the season's ledger: name, whether a sub, evenings settled they
    played, what they paid (fees, dues, table losses) and received (prizes, table winnings)."""

    name: str
    sub: bool
    evenings: int
    paid: int
    received: int

    @property
    def net(self) -> int:
        """Received minus paid over the season, in cents."""
        return self.received - self.paid


@dataclass(frozen=True)
class SeasonLedger:
    """A season's ledger: the season and club, each evening's totals, each person's, and the
    season's: collected, paid out, carried (the season pot)."""

    season: Season
    club: Club
    evenings: tuple[LedgerEvening, ...]
    people: tuple[LedgerMember, ...]
    collected: int
    paid_out: int
    carried: int
    # The ledger page's long tables as written from this ledger (``clubs.templatetags.season_rows``),
    # shared by every copy of the kept ledger: written once per season version.
    html: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def money(self, cents: int) -> str:
        """``cents`` in the club's currency."""
        return money_words(cents, self.club.currency)

    def people_shown(self) -> tuple[tuple[LedgerMember, str, str, str], ...]:
        """Each person with paid, received and net in money words (the currency in the column's head)."""
        return tuple((p, money_words(p.paid), money_words(p.received), money_words(p.net)) for p in self.people)

    def evenings_shown(self) -> tuple[tuple[LedgerEvening, str, str, str], ...]:
        """Each evening with collected, paid out and carried in money words (the currency in the head)."""
        return tuple(
            (e, money_words(e.collected), money_words(e.paid_out), money_words(e.carried)) for e in self.evenings
        )

    def totals(self) -> dict[str, str]:
        """The season's collected, paid out and carried in money words."""
        return {
            "collected": self.money(self.collected),
            "paid_out": self.money(self.paid_out),
            "carried": self.money(self.carried),
        }


LEDGERS_KEPT = 32  # seasons whose ledger a process keeps
_LEDGERS: Kept[SeasonLedger] = Kept(LEDGERS_KEPT)


def season_ledger(season: Season, version: SeasonVersion | None = None) -> SeasonLedger:
    """The season's ledger (module docstring). ``version``: the season's version when the caller
    has read it (``clubs.versions.season_version``; None: read here). Two queries when this
    process keeps the ledger of the season's version, else four whatever its evenings and
    members. The season and club in the answer are those read with the version."""
    with one_snapshot():  # a version read here is read in the snapshot the ledger is added up in
        now = version if version is not None else season_version(season)
        kept = season_part(_LEDGERS, now, lambda fresh: _ledger(fresh.season))
    return dataclasses.replace(kept, season=now.season, club=now.season.club)


def _ledger(season: Season) -> SeasonLedger:
    """The season's ledger as ``season_ledger`` answers it, added up from the database."""
    evenings = list(season_evenings_query(season).order_by("date", "id"))
    entries = list(
        KittyEntry.objects.filter(club_evening__evening__in=evenings).values_list(
            "club_evening__evening_id", "club_evening__settled_at", "member_id", "name", "kind", "cents", "paid_in"
        )
    )
    totals: dict[int, list[int]] = {}
    settled: set[int] = set()
    people: dict[tuple[str, bool], list] = {}
    for evening, at, member, name, kind, cents, paid_in in entries:
        if at is not None:
            settled.add(evening)
        mine = totals.setdefault(evening, [0, 0, 0])
        slot = 0 if paid_in else (2 if kind == "carried" else 1)
        mine[slot] += cents
        if kind == "carried":
            continue
        key = (f"m{member}" if member is not None else f"s{name.casefold()}", member is None)
        person = people.setdefault(key, [name, set(), 0, 0])
        person[1].add(evening)
        person[2 if paid_in else 3] += cents
    rows = tuple(LedgerEvening(e, e.pk in settled, *totals.get(e.pk, [0, 0, 0])) for e in evenings)
    lines = tuple(
        sorted(
            (LedgerMember(p[0], key[1], len(p[1]), p[2], p[3]) for key, p in people.items()),
            key=lambda line: (name_order(line.name), line.sub),
        )
    )
    return SeasonLedger(
        season=season,
        club=season.club,
        evenings=rows,
        people=lines,
        collected=sum(r.collected for r in rows),
        paid_out=sum(r.paid_out for r in rows),
        carried=sum(r.carried for r in rows),
    )
