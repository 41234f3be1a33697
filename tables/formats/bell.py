"""The bell for the formats played at tables of four: scores in, tallies and moves out.

One bell is one round at every table (``docs/rules/tables-of-four.md``: "The bell: the head table rings
it, and every table stops"). ``ring_foursome_bell`` takes the state before the bell and each
table's ``TableScore`` and returns a frozen ``FoursomeBell`` record with the state after it:
every player's tallies added, the winners moved as the format's ``Movement`` says, partners
changed or kept. It is pure: the same state, scores and cuts give the same record, so an
evening replays from its records.

House rules where the sources are silent (also on the rules pages):

* A table with no report at the bell: its two sides cut, the higher cut's side counts as the
  winners for the movement; nobody's tallies change (the table played no game to score).
* A tie the report leaves open (``TableScore.winner is None``, with ``ties="cut"``): the two
  sides cut; the higher cut's side wins, and the win is scored (stars, wins) as if played off.
* A guest who leaves (``guest_leaves``) is replaced in their seat by a new ghost after the bell
  moved them; they keep their tallies. A guest who arrives (``guest_arrives``) takes the ghost
  seat nearest the foot table, or, with no ghost seated, opens a new foot table with three
  ghosts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from tables.errors import InvariantBroken, RuleError
from tables.formats.foursome import Foursome, Movement, Side, is_ghost, move
from tables.formats.scoring import TableScore


@dataclass(frozen=True, slots=True)
class FoursomeState:
    """Where everyone sits and what they have scored.

    ``tables``: table 1 first, ids at North, East, South, West (ghosts negative);
    ``tallies``: player id -> tally name -> total (every player and ghost ever seated);
    ``ghosts``: how many ghost ids have been used (the next ghost is ``-(ghosts + 1)``).
    Raises ``RuleError`` naming the player when someone is seated twice or a table is not four.
    """

    tables: tuple[Foursome, ...]
    tallies: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    ghosts: int = 0

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for number, table in enumerate(self.tables, start=1):
            if len(table) != 4:
                raise RuleError(f"Table {number} has {len(table)} seats; these tables have four.")
            for player in table:
                if player in seen:
                    raise RuleError("{guest} is seated twice.", guests=(player,))
                seen.add(player)
        used = -min((p for p in seen if is_ghost(p)), default=0)
        if used > self.ghosts:
            object.__setattr__(self, "ghosts", used)

    @classmethod
    def start(cls, tables: Sequence[Sequence[int]]) -> FoursomeState:
        """The state after the draw: everyone seated, every tally at 0."""
        return cls(tables=tuple(tuple(t) for t in tables))  # type: ignore[misc]

    def table_of(self, player: int) -> int:
        """The table (1 = head) ``player`` sits at; ``RuleError`` if not seated."""
        for number, table in enumerate(self.tables, start=1):
            if player in table:
                return number
        raise RuleError("{guest} is not seated.", guests=(player,))

    def tally(self, player: int, name: str) -> int:
        """A player's total of one tally (0 when never scored)."""
        return self.tallies.get(player, {}).get(name, 0)


@dataclass(frozen=True, slots=True)
class FoursomeBell:
    """What one bell did: the tables before and after, each table's winning side and result in
    words, the cuts made (table -> cut winner side), every player's tallies added, and every
    move (player, from table, to table). ``as_played``: ``after`` are the seats the guests
    really took after this bell, kept by a correction of its round once a later round was
    played in them, not the seats the movement gives its winners (``seats_as_played``)."""

    before: tuple[Foursome, ...]
    after: tuple[Foursome, ...]
    winners: tuple[Side, ...]
    words: tuple[str, ...]
    cuts: Mapping[int, Side]
    added: Mapping[int, Mapping[str, int]]
    moves: tuple[tuple[int, int, int], ...]
    as_played: bool = False


def ring_foursome_bell(
    state: FoursomeState,
    scores: Mapping[int, TableScore],
    *,
    movement: Movement,
    partners_change: bool,
    cuts: Mapping[int, Side] | None = None,
    rng: random.Random | None = None,
) -> tuple[FoursomeBell, FoursomeState]:
    """Ring the bell.

    Takes the state, each table's score (table number -> ``TableScore``; a table left out had
    no report), the movement and whether partners change, and the cuts already made (table ->
    the side whose cut was higher; others are cut with ``rng``, default ``SystemRandom``).
    Returns the bell's record and the state after it. Raises ``RuleError`` for a score for a
    table that does not exist; ``InvariantBroken`` if the movement loses a player.
    """
    count = len(state.tables)
    strangers = sorted(t for t in scores if not 1 <= t <= count)
    if strangers:
        raise RuleError(f"There is no table {strangers[0]}: tables are 1 to {count}.")
    rng = rng if rng is not None else random.SystemRandom()
    made: dict[int, Side] = {}
    winners: list[Side] = []
    words: list[str] = []
    added: dict[int, dict[str, int]] = {}
    for number, table in enumerate(state.tables, start=1):
        score = scores.get(number)
        winner = score.winner if score is not None else None
        if winner is None:
            winner = made[number] = (cuts or {}).get(number) or rng.choice(list(Side))
        winners.append(winner)
        if score is None:
            words.append(f"no result: {winner.words} won the cut")
            continue
        words.append(score.words if score.winner is not None else f"{score.words}: {winner.words} won the cut")
        added |= score.tallies(table, winner)
    after = move(state.tables, winners, movement=movement, partners_change=partners_change)
    totals = tallies_added(state.tallies, added)
    record = FoursomeBell(
        state.tables, after, tuple(winners), tuple(words), made, added, table_moves(state.tables, after)
    )
    return record, FoursomeState(after, totals, state.ghosts)


def table_moves(before: Sequence[Foursome], after: Sequence[Foursome]) -> tuple[tuple[int, int, int], ...]:
    """Every player who sits at another table in ``after`` than in ``before``: (player, table
    before, table after), by table before then seat."""
    where = {p: n for n, t in enumerate(after, start=1) for p in t}
    return tuple((p, n, where[p]) for n, t in enumerate(before, start=1) for p in t if where[p] != n)


def seats_as_played(
    record: FoursomeBell, state: FoursomeState, played: Sequence[Sequence[int]]
) -> tuple[FoursomeBell, FoursomeState]:
    """A bell rung again by a correction of its round, with the seats the guests really took
    after it (``played``: table 1 first, four ids each) instead of the seats its winners would
    have had: the record (``as_played`` set, its moves those that happened) and the state after
    (its tallies the bell's). Unchanged when ``played`` are the movement's seats anyway.

    House rule (``docs/rules/tables-of-four.md``, "Corrections"): once a later round has been
    played in the seats the guests took, a correction changes the scores of its round, never
    where anyone sat since. Raises ``InvariantBroken`` when ``played`` seats other players."""
    seats = tuple((t[0], t[1], t[2], t[3]) for t in played)
    if seats == record.after:
        return record, state
    if sorted(p for t in seats for p in t) != sorted(p for t in record.after for p in t) or any(
        len(t) != 4 for t in played
    ):
        raise InvariantBroken(f"the seats as played seat other players: {record.after} -> {seats}")
    kept = replace(record, after=seats, moves=table_moves(record.before, seats), as_played=True)
    return kept, FoursomeState(seats, state.tallies, state.ghosts)


def tallies_added(
    tallies: Mapping[int, Mapping[str, int]], added: Mapping[int, Mapping[str, int]]
) -> dict[int, dict[str, int]]:
    """Every player's ``tallies`` (player id -> tally name -> total) with what a bell ``added``
    (the same shape) put on them; a player or a tally new to the evening starts at 0."""
    totals = {p: dict(t) for p, t in tallies.items()}
    for player, extra in added.items():
        mine = totals.setdefault(player, {})
        for name, amount in extra.items():
            mine[name] = mine.get(name, 0) + amount
    return totals


def guest_leaves(state: FoursomeState, guest: int) -> FoursomeState:
    """``guest`` leaves: a new ghost takes their seat; they keep their tallies (``docs/rules/tables-of-four.md``:
    "the leaver keeps their tallies and their place in the standings"). Raises ``RuleError``
    if the guest is not seated or is a ghost."""
    if is_ghost(guest):
        raise RuleError("A ghost cannot leave: it keeps the seat until a guest takes it.")
    number = state.table_of(guest)
    ghost = -(state.ghosts + 1)
    tables = list(state.tables)
    tables[number - 1] = tuple(ghost if p == guest else p for p in tables[number - 1])  # type: ignore[assignment]
    return FoursomeState(tuple(tables), state.tallies, state.ghosts + 1)


def ghost_seat_taken(state: FoursomeState, guest: int) -> FoursomeState | None:
    """``guest`` takes the ghost seat nearest the foot table (the last table with a ghost, its
    first ghost in seat order North, East, South, West); None when no ghost is seated. Tallies
    and the ghosts counted are kept. Raises ``RuleError`` when the guest is seated already,
    ``InvariantBroken`` for an id that is not a guest's (0 or negative). House rule
    (``docs/rules/tables-of-four.md``: ghosts fill the empty seats; a late guest takes one)."""
    if guest <= 0:
        raise InvariantBroken(f"guest ids are positive, not {guest}")
    if any(guest in t for t in state.tables):
        raise RuleError("{guest} is seated already.", guests=(guest,))
    tables = list(state.tables)
    for index in range(len(tables) - 1, -1, -1):
        ghosts = [p for p in tables[index] if is_ghost(p)]
        if ghosts:
            tables[index] = tuple(guest if p == ghosts[0] else p for p in tables[index])  # type: ignore[assignment]
            return FoursomeState(tuple(tables), state.tallies, state.ghosts)
    return None


def guest_arrives(state: FoursomeState, guest: int) -> FoursomeState:
    """``guest`` arrives after the draw: they take the ghost seat nearest the foot table
    (``ghost_seat_taken``), or with no ghost seated open a new foot table with three ghosts
    (house rule). Raises ``RuleError`` when the guest is seated already or is not a guest id
    (0 or negative)."""
    taken = ghost_seat_taken(state, guest)
    if taken is not None:
        return taken
    new = (guest, -(state.ghosts + 1), -(state.ghosts + 2), -(state.ghosts + 3))
    return FoursomeState((*state.tables, new), state.tallies, state.ghosts + 3)
