"""Tables of four with partners: the seats, the ghosts, the draw and the movement at the bell.

Progressive Euchre, Drive Whist and Bunco are played at tables of four, two partnerships sitting
opposite (``docs/rules/tables-of-four.md``: R. F. Foster, *Foster's Complete Hoyle*,
"Progressive Euchre" and "Drive Whist"; J. W. Keller, *The Game of Euchre*, ch. VIII; the Bunco
clubs' rules). Table 1 is the head table, the last the foot table.

* **Seats**: North, East, South, West; North–South and East–West are partners.
* **Ghosts**: a seat left empty (the guests are not a multiple of four) is taken by a ghost, a
  negative id (``-1``, ``-2`` …). A ghost is seated, moves and scores like a player and wins no
  prize: at the bell it goes where its side's result sends it, never into a seat the movement
  gives a guest (the Bunco clubs move it from chair to chair like any player;
  ``docs/rules/tables-of-four.md``, "A ghost at the bell"). House rules: ghosts sit from the foot table upwards, one a table before a second one;
  a ghost takes a seat of the pack with more seats than guests, so that as few guests as
  possible draw from the other pack. (The books' other way, a table of three, is not offered.)
* **The draw**: each table's North and East seats are red-pack cards and its South and West
  seats blue-pack cards (house rule: so each partnership starts with one guest of each pack, as
  the books pair a lady with a gentleman). A card names its table and seat: "the 3 of the red
  pack, North".
* **The movement** (``move``): who stays and who arrives at each table comes from the format
  (a ladder to the foot table, a ladder one table down, or Drive Whist's circle). Seats, as
  ``docs/rules/tables-of-four.md`` fixes them so that every host and the product agree: when partners change, the
  two who stayed take North and East in the order of the seats they held and the two who
  arrived take South and West in the order of the seats they left, so each newcomer partners one
  who stayed; where nobody stays (the ladder one table down), the pair from the table below
  counts as the stayers (house rule). When partners are kept, the stayers keep their seats and
  the arriving pair takes the two empty ones.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tables.errors import InvariantBroken, RuleError
from tables.packs import Pack


class Seat(enum.IntEnum):
    """A seat at a table of four, in the order North, East, South, West."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def word(self) -> str:
        """The seat in words: "North"."""
        return self.name.capitalize()

    @property
    def partner(self) -> Seat:
        """The seat opposite: North's partner is South."""
        return Seat((self + 2) % 4)


class Side(enum.StrEnum):
    """A partnership at a table: North–South or East–West; the value is what is stored."""

    NORTH_SOUTH = "NS"
    EAST_WEST = "EW"

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of the side, North (or East) first."""
        return (Seat.NORTH, Seat.SOUTH) if self is Side.NORTH_SOUTH else (Seat.EAST, Seat.WEST)

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.EAST_WEST if self is Side.NORTH_SOUTH else Side.NORTH_SOUTH

    @property
    def words(self) -> str:
        """The side in words: "North–South"."""
        return "North–South" if self is Side.NORTH_SOUTH else "East–West"

    @classmethod
    def of(cls, seat: Seat) -> Side:
        """The side a seat belongs to."""
        return cls.NORTH_SOUTH if seat in (Seat.NORTH, Seat.SOUTH) else cls.EAST_WEST


def is_ghost(player: int) -> bool:
    """Whether a seated id is a ghost (ghosts have negative ids; guests positive ones)."""
    return player < 0


def ghost_name(player: int) -> str:
    """A ghost's name as pages and messages write it: "Ghost 1" for id -1 (house rule: ghosts
    are numbered in the order they were seated)."""
    return f"Ghost {-player}"


Foursome = tuple[int, int, int, int]
"""One table: the ids at North, East, South and West."""


class Movement(enum.StrEnum):
    """Who moves at the bell; the value is the stored option.

    ``ladder`` (Foster, Progressive Euchre; the Bunco clubs): the winners at every table but the
    head move up one table, the head table's winners stay, the other losers stay, and the head
    table's losers go down to the foot table. ``ladder_down`` (the option both give): the losers
    move down one table instead (the head table's to table 2; the foot table's stay).
    ``circle`` (Foster, Drive Whist): the winners move one table towards the head, the head
    table's winners go round to the last table, the losers stay.
    """

    LADDER = "ladder"
    LADDER_DOWN = "ladder_down"
    CIRCLE = "circle"


@dataclass(frozen=True, slots=True)
class SeatCard:
    """A card of the partnership draw: its pack, its table (1 = head) and its seat."""

    pack: Pack
    table: int
    seat: Seat

    def words(self, labels: Mapping[Pack, str] | None = None) -> str:
        """The card in words: "table 3, North (red pack)"."""
        label = (labels or {}).get(self.pack, f"{self.pack} pack")
        return f"table {self.table}, {self.seat.word} ({label})"


SEAT_PACKS = {Seat.NORTH: Pack.RED, Seat.EAST: Pack.RED, Seat.SOUTH: Pack.BLUE, Seat.WEST: Pack.BLUE}


def table_count(players: int) -> int:
    """Tables of four needed for ``players`` guests (ghosts fill the last seats).

    Raises ``RuleError`` below four guests: one table needs at least four players, ghosts
    included, and a party needs at least one real table (house rule: four guests or more).
    """
    if players < 4:
        raise RuleError(f"{players} guests cannot make a table of four: a party needs four guests or more.")
    return -(-players // 4)


def ghost_seats(red: int, blue: int) -> tuple[SeatCard, ...]:
    """The seats ghosts take for ``red`` and ``blue`` guests (house rules in the module
    docstring): from the foot table up, one a table first, each in the pack with more seats than
    guests left. Returns the ghosts' seat cards, first ghost first."""
    tables = table_count(red + blue)
    spare = {Pack.RED: 2 * tables - red, Pack.BLUE: 2 * tables - blue}
    taken: set[tuple[int, Seat]] = set()
    ghosts = []
    for index in range(4 * tables - red - blue):
        table = tables - index % tables
        pack = Pack.RED if spare[Pack.RED] >= spare[Pack.BLUE] else Pack.BLUE
        seats = [
            s
            for s in (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
            if SEAT_PACKS[s] is pack and (table, s) not in taken
        ]
        if not seats:  # both of that pack's seats at this table are ghosts already
            pack = pack.other
            seats = [s for s in Seat if SEAT_PACKS[s] is pack and (table, s) not in taken]
        seat = seats[-1]  # East or West first, so a lone ghost never sits North
        taken.add((table, seat))
        spare[pack] -= 1
        ghosts.append(SeatCard(pack, table, seat))
    return tuple(ghosts)


def draw_foursomes(
    guests: Sequence[tuple[int, Pack]],
    *,
    rng: random.Random | None = None,
    representing: Collection[int] = (),
) -> tuple[tuple[Foursome, ...], dict[int, SeatCard]]:
    """Deal the partnership draw: every guest a seat card of their pack.

    Takes (guest id, own pack) for every checked-in guest, an optional ``rng`` (default
    ``random.SystemRandom()``) and optionally the guests the host picks to draw from the other
    pack (else chosen at random; exactly as many as that pack is short). Returns the tables
    (table 1 first, ids at North, East, South, West, ghosts as -1, -2 …) and each guest's card.
    Raises ``RuleError`` for a guest listed twice, fewer than four guests, or a wrong pick.
    """
    roster = dict(guests)
    if len(roster) != len(guests):
        raise RuleError("A guest is listed twice; each guest draws one card only.")
    red = sum(1 for p in roster.values() if p is Pack.RED)
    tables = table_count(len(roster))
    ghosts = ghost_seats(red, len(roster) - red)
    ghosted = {(g.table, g.seat) for g in ghosts}
    decks = {
        pack: [
            SeatCard(pack, t, s)
            for t in range(1, tables + 1)
            for s in Seat
            if SEAT_PACKS[s] is pack and (t, s) not in ghosted
        ]
        for pack in Pack
    }
    rng = rng if rng is not None else random.SystemRandom()
    chosen = _representers(roster, decks, representing, rng)
    for deck in decks.values():
        rng.shuffle(deck)
    cards = {guest: decks[pack.other if guest in chosen else pack].pop() for guest, pack in roster.items()}
    seats: dict[tuple[int, Seat], int] = {(c.table, c.seat): g for g, c in cards.items()}
    seats |= {(g.table, g.seat): -(n + 1) for n, g in enumerate(ghosts)}
    layout = tuple(tuple(seats[(t, s)] for s in Seat) for t in range(1, tables + 1))
    return layout, cards  # type: ignore[return-value]


def _representers(
    roster: Mapping[int, Pack], decks: Mapping[Pack, list[SeatCard]], representing: Collection[int], rng: random.Random
) -> set[int]:
    short = {pack: sum(1 for p in roster.values() if p is pack) - len(decks[pack]) for pack in Pack}
    long = next((pack for pack in Pack if short[pack] > 0), None)
    chosen = set(representing)
    if long is None:
        if chosen:
            raise RuleError("Each pack has seats for all its guests: nobody needs to draw from the other pack.")
        return set()
    if not chosen:
        return set(rng.sample(sorted(g for g, p in roster.items() if p is long), short[long]))
    if any(roster.get(g) is not long for g in chosen) or len(chosen) != short[long]:
        raise RuleError(f"Pick exactly {short[long]} guests of the {long} pack to draw from the {long.other} pack.")
    return chosen


def side_of(table: Foursome, player: int) -> Side:
    """The side ``player`` sits on at ``table``; raises ``RuleError`` if not seated there."""
    if player not in table:
        raise RuleError("{guest} is not at this table.", guests=(player,))
    return Side.of(Seat(table.index(player)))


def pair(table: Foursome, side: Side) -> tuple[int, int]:
    """The two ids of ``side`` at ``table``, North (or East) first."""
    return table[side.seats[0]], table[side.seats[1]]


def move(
    tables: Sequence[Foursome],
    winners: Sequence[Side],
    *,
    movement: Movement,
    partners_change: bool,
) -> tuple[Foursome, ...]:
    """The tables after the bell.

    Takes the tables (table 1 first), the winning side at each table, the movement and whether
    partners change (Euchre and Bunco: yes; Drive Whist: the host's choice). Returns the new
    tables. Sources and the seating rule: the module docstring and ``Movement``. Raises
    ``InvariantBroken`` when a table is not four distinct ids or a winner is missing.
    """
    count = len(tables)
    if len(winners) != count or any(len(set(t)) != 4 for t in tables):
        raise InvariantBroken(f"move needs four distinct ids a table and a winner each: {tables}, {winners}")
    won = [pair(t, w) for t, w in zip(tables, winners, strict=True)]
    lost = [pair(t, w.other) for t, w in zip(tables, winners, strict=True)]
    moved = []
    for index, table in enumerate(tables):
        stay, arrive = _who(index, count, won, lost, movement)
        moved.append(_seat(table, stay, arrive, partners_change))
    after = tuple(moved)
    if sorted(p for t in after for p in t) != sorted(p for t in tables for p in t):
        raise InvariantBroken(f"the movement lost or doubled a player: {tables} -> {after}")
    return after


def _who(
    index: int, count: int, won: list[tuple[int, int]], lost: list[tuple[int, int]], movement: Movement
) -> tuple[tuple[int, int], tuple[int, int]]:
    """(the pair that stays, or counts as staying; the pair that arrives) at table ``index``."""
    head, foot = index == 0, index == count - 1
    if count == 1:
        return won[0], lost[0]
    if movement is Movement.CIRCLE:
        return lost[index], won[0] if foot else won[index + 1]
    if movement is Movement.LADDER:
        if head:
            return won[0], won[1]
        return lost[index], lost[0] if foot else won[index + 1]
    if head:
        return won[0], won[1]
    if foot:
        return lost[index], lost[index - 1]
    return won[index + 1], lost[index - 1]  # nobody stays: the pair from below counts as staying


def _seat(table: Foursome, stay: tuple[int, int], arrive: tuple[int, int], partners_change: bool) -> Foursome:
    stayers = [p for p in table if p in stay]
    if partners_change:
        stayers = stayers if len(stayers) == 2 else list(stay)
        return (stayers[0], stayers[1], arrive[0], arrive[1])
    if len(stayers) == 2:
        seats = list(table)
        empty = [i for i, p in enumerate(seats) if p not in stay]
        for i, player in zip(empty, arrive, strict=True):
            seats[i] = player
        return tuple(seats)  # type: ignore[return-value]
    return (stay[0], arrive[0], stay[1], arrive[1])
