"""The Euchre tournament played: the draw that gives every player a number and seats game 1, the
bell that scores a game and seats the next by the schedule, and the prizes
(``docs/rules/euchre-tournament.md``).

``TournamentRules`` is the format's rules behind ``tables.formats.engine.FormatRules``, made
for one evening's planned games (the schedule is fixed before play). Its state is the tables of
four's ``FoursomeState``: the tables of the game in play (North, East, South, West; ghosts
negative) and every player's tallies: ``points``, ``wins`` and ``losses`` (games won and lost),
``sat_out`` (games sat out), ``games`` (the games rung while they held a number), ``stars`` (as
Progressive Euchre's scoring gives them; not counted here) and ``number``, the player's number
on the schedule plus one (house rule: every player has a number, printed on their score card,
which the schedule seats; a ghost playing a leaver's schedule takes the leaver's).

House rules where the sources are silent:

* **The draw**: the players are numbered in a random order (a shuffle), and game 1 seats them
  as the schedule's first game says; the players who sit game 1 out hold a card of the
  "sit-out table", one past the last table (its seats 0, 1, 2 in the schedule's order).
* **A game** ends when every table has reported, or by the clock (a table that has not reported
  is cut for the win and scores nothing, as at the other tables of four); there is no head
  table's bell of its own: the head table is table 1 only by its number.
* **A sit-out** scores the option's amount (default 6 points) and counts neither a win nor a
  loss.
* **A guest who leaves** is replaced in their seat by a ghost, who plays the rest of their
  schedule; the leaver keeps their points. Nobody joins after game 1 (the schedule is fixed).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from tables.errors import RuleError
from tables.formats import EUCHRE, FoursomeOptions
from tables.formats.bell import FoursomeBell, FoursomeState, ring_foursome_bell, tallies_added
from tables.formats.engine import DrawnSeat, FormatEntry, Plan, Rung, Seating
from tables.formats.euchre_tournament.schedule import FEWEST_PLAYERS, Place, Schedule, most_games, rotation_schedule
from tables.formats.euchre_tournament.scoring import Standing, TournamentOptions, award
from tables.formats.foursome import Movement, Side, is_ghost
from tables.formats.prizes import PrizeRule, Rank
from tables.formats.scoring import TableScore, euchre_score
from tables.packs import Pack
from tables.prizes import Prize

SOURCE = "the euchre tournaments' rotation schedules, after E. H. Moore's whist tournaments (1896)"

TOURNAMENT = replace(
    EUCHRE,
    key="euchre_tournament",
    title="Euchre tournament",
    movement=Movement.LADDER,  # not used: the schedule seats every game
    partners_change=True,
    tallies=(("points", "points"), ("wins", "games won"), ("losses", "games lost"), ("sat_out", "games sat out")),
    prizes=(
        PrizeRule("highest_total", "Highest total", "points", per_pack=False),
        PrizeRule("booby", "Booby prize: lowest total", "points", most=False, per_pack=False),
    ),
    score=euchre_score,
    source=SOURCE,
    standing=(Rank("points"), Rank("wins")),
    prizes_by_points=(),
    standing_by_points=(),
    words=replace(EUCHRE.words, unscored="win, no loss, no points"),  # no stars are counted here
)
"""The format as the tables of four's pages read it: euchre at every table (Progressive Euchre's
report, its forms, limits and rules text), individual points, no prizes by stars."""

ENTRY = FormatEntry(
    key=TOURNAMENT.key,
    title=TOURNAMENT.title,
    seating="tables of four by a schedule fixed before play: partners change every game; "
    "the players over a multiple of four sit out in turn",
    partners=True,
    tallies=TOURNAMENT.tallies,
    source=SOURCE,
    foursome=TOURNAMENT,
)

NUMBER = "number"
GAMES = "games"


def _game(state: FoursomeState) -> int:
    """The number of the game in play: one more than the games every number holder has had."""
    return 1 + max((t.get(GAMES, 0) for t in state.tallies.values()), default=0)


def games_refused(players: int, games: int | None) -> str | None:
    """Why ``games`` games cannot be scheduled for ``players`` (None: they can)."""
    if games is None:
        return "Set the number of games (rounds) before the draw: the schedule is made for it."
    if players < FEWEST_PLAYERS:
        return f"A Euchre tournament needs {FEWEST_PLAYERS} players at least (two tables); {players} are here."
    if not 1 <= games <= most_games(players):
        return f"{players} players can play 1 to {most_games(players)} games without a partner twice, not {games}."
    return None


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """The Euchre tournament's rules for ``games`` planned games (module docstring), with the
    host's ``options`` (the sit-out's score, the loner bonus)."""

    games: int | None
    options: TournamentOptions = field(default_factory=TournamentOptions)

    @property
    def entry(self) -> FormatEntry:
        """The format's entry (title, tallies, source)."""
        return ENTRY

    def schedule(self, players: int) -> Schedule:
        """The rotation schedule for ``players`` over the planned games; ``RuleError`` when it
        cannot be made (``games_refused``)."""
        refused = games_refused(players, self.games)
        if refused:
            raise RuleError(refused)
        assert self.games is not None
        return rotation_schedule(players, self.games)

    def plan(self, players: int, *, accept_relaxed: bool = False) -> Plan:
        """Tables of four for as many as the count fills; the rest sit out each game."""
        self.schedule(players)
        return Plan((4,) * (players // 4))

    def draw(
        self,
        guests: Sequence[tuple[int, Pack]],
        *,
        accept_relaxed: bool = False,
        representing: Collection[int] = (),
        rng: random.Random | None = None,
    ) -> Seating:
        """Number the guests in a random order and seat game 1 by the schedule; the sit-outs
        hold a card of the sit-out table (module docstring). Raises ``RuleError`` as
        ``schedule``. The packs play no part: everyone enters alone."""
        order = [guest for guest, _ in guests]
        (rng or random.SystemRandom()).shuffle(order)
        first = self.schedule(len(order)).games[0]
        packs = dict(guests)
        tables = tuple(tuple(order[p] for p in table) for table in first.tables)
        cards = [
            DrawnSeat(guest, packs[guest], number, seat, False)
            for number, table in enumerate(tables, start=1)
            for seat, guest in enumerate(table)
        ]
        out = len(tables) + 1
        cards += [DrawnSeat(order[p], packs[order[p]], out, seat, False) for seat, p in enumerate(first.sitting_out)]
        return Seating(Plan((4,) * len(tables)), tables, tuple(cards))

    def start(self, tables: Sequence[Sequence[int]], sitting_out: Sequence[int]) -> FoursomeState:
        """The state after the draw: game 1's ``tables`` and its ``sitting_out`` guests (in the
        schedule's order), every player's number put in their tallies."""
        players = sum(len(t) for t in tables) + len(sitting_out)
        first = self.schedule(players).games[0]
        numbers = {
            guest: number
            for table, seats in zip(tables, first.tables, strict=True)
            for guest, number in zip(table, seats, strict=True)
        }
        numbers |= dict(zip(sitting_out, first.sitting_out, strict=True))
        return FoursomeState(
            tables=tuple(tuple(t) for t in tables),  # type: ignore[misc]
            tallies={guest: {NUMBER: number + 1} for guest, number in numbers.items()},
        )

    def ring(
        self,
        state: FoursomeState,
        reports: Mapping[int, TableScore],
        *,
        options: FoursomeOptions,
        last_round: bool = False,
        cuts: Mapping[int, Side] | None = None,
        rng: random.Random | None = None,
        stake: int = 0,
    ) -> Rung[FoursomeBell, FoursomeState]:
        """Score the game in play (each table's report: its partnership's points for each
        player, a win or a loss; a table with no report cut for the win), score the sit-outs,
        and seat the next game by the schedule (the last game seats nobody anew). Returns the
        ``FoursomeBell`` and the state after it. Raises ``RuleError`` for a report of a table
        that does not exist."""
        played, _ = ring_foursome_bell(
            state,
            reports,
            movement=Movement.LADDER,
            partners_change=False,
            cuts=cuts,
            rng=rng,
        )
        game = _game(state)
        holders = self._holders(state)
        schedule = self.schedule(len(holders))
        added = {p: dict(extra) for p, extra in played.added.items()}
        for holder in holders.values():
            added.setdefault(holder, {})[GAMES] = 1
        seated_points = [added.get(p, {}).get("points", 0) for t in state.tables for p in t]
        out_points = (
            sum(seated_points) // max(len(seated_points), 1)
            if self.options.sit_out == "average"
            else self.options.sit_out_points
        )
        for number in schedule.games[game - 1].sitting_out:
            added[holders[number]] |= {"points": out_points, "sat_out": 1}
        for number, holder in holders.items():  # a ghost playing a leaver's schedule takes their number
            if state.tallies.get(holder, {}).get(NUMBER, 0) != number + 1:
                added.setdefault(holder, {})[NUMBER] = number + 1 - state.tallies.get(holder, {}).get(NUMBER, 0)
        left = [g for g, t in state.tallies.items() if t.get(NUMBER) and holders.get(t[NUMBER] - 1) != g]
        for guest in left:
            added.setdefault(guest, {})[NUMBER] = -state.tallies[guest][NUMBER]
        after = state.tables
        if game < min(len(schedule.games), self.games or 0) and not last_round:
            after = tuple(tuple(holders[p] for p in table) for table in schedule.games[game].tables)  # type: ignore[misc]
        totals = tallies_added(state.tallies, added)
        where = {p: n for n, t in enumerate(after, start=1) for p in t}
        moves = tuple((p, n, where[p]) for n, t in enumerate(state.tables, start=1) for p in t if where.get(p, n) != n)
        record = FoursomeBell(state.tables, after, played.winners, played.words, played.cuts, added, moves)
        return Rung(record, FoursomeState(after, totals, state.ghosts))

    def next_place(self, state: FoursomeState, player: int) -> Place | None:
        """Where ``player`` (a guest id holding a schedule number) next plays after the game in
        play: the first later game of the planned ones where the schedule seats their number
        (table, seat, partner and opponents by number). None when they hold no number, or the
        schedule seats them in no later game (docs/rules/euchre-tournament.md, "The schedule")."""
        number = state.tallies.get(player, {}).get(NUMBER)
        players = sum(1 for t in state.tallies.values() if t.get(NUMBER))
        if not number or games_refused(players, self.games):
            return None
        schedule = self.schedule(players)
        for game in range(_game(state) + 1, min(len(schedule.games), self.games or 0) + 1):
            place = schedule.place(number - 1, game)
            if not place.sits_out:
                return place
        return None

    def _holders(self, state: FoursomeState) -> dict[int, int]:
        """Schedule number -> the player who holds it now: the player in its seat of the game in
        play (a ghost in a leaver's), else the player whose tallies carry it (a sit-out)."""
        numbered = {t[NUMBER] - 1: p for p, t in state.tallies.items() if t.get(NUMBER)}
        schedule = self.schedule(len(numbered))
        holders = dict(numbered)
        game = min(_game(state), len(schedule.games))
        for table, seats in zip(state.tables, schedule.games[game - 1].tables, strict=True):
            for player, number in zip(table, seats, strict=True):
                holders[number] = player
        return holders

    def prizes(
        self,
        state: FoursomeState,
        packs: Mapping[int, Pack],
        *,
        options: FoursomeOptions,
        rng: random.Random | None = None,
        stake: int = 0,
    ) -> tuple[Prize, ...]:
        """The highest total and the booby for the lowest (ties: more games won, then the cut;
        ``scoring.award``); ghosts win no prize, and a player who left (no longer holding their
        number: a ghost plays it) is out of the booby prize's running (house rule)."""
        rows = [
            Standing(player, tallies.get("points", 0), tallies.get("wins", 0), 0)
            for player, tallies in state.tallies.items()
            if not is_ghost(player)
        ]
        rows.sort(key=lambda row: (-row.points, -row.wins, row.player))
        left = {row.player for row in rows if not state.tallies[row.player].get(NUMBER)}  # a bell took it
        try:  # and between a leave and the next bell: a ghost holds their number already
            holding = set(self._holders(state).values())
        except (RuleError, ValueError):  # seats the schedule no longer matches (changed by hand)
            holding = {row.player for row in rows}
        left |= {row.player for row in rows if row.player not in holding}
        return award(rows, options=self.options, rng=rng, left=left)
