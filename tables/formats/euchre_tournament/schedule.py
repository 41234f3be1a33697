"""The Euchre tournament's rotation schedule: every player's table and seat in every game.

Rule (``docs/rules/euchre-tournament.md``): before the first game the
host sets the number of games and the player count, and the schedule gives every player's
table and seat (North, East, South, West; North–South and East–West partners) in every game.
Its aims, in order: nobody partners the same player twice while a schedule exists that avoids
it; opponents spread as evenly as possible; no two players at one table in two games running
more often than needed. The ideal is E. H. Moore's whist tournament ("Tactical memoranda",
1896; ``whist``): 4k players over 4k − 1 games, or 4k + 1 over 4k + 1 with one sitting out each
game, every pair partnering once and opposing twice.

How the schedule is made (``rotation_schedule``):

* **A whist tournament** where there is one for the count (``whist.whist_starter``: 8, 12, 13,
  16, 17, 20 … players and every prime 4k + 1; ``whist.field_games``: 9, 81, 121, 125, 169):
  for the whole tournament, always (every pair partners once and opposes twice); for fewer
  games, its first ``games`` games in the order ``whist.game_order`` chooses, unless the
  heuristic below spreads the opponents (then the neighbours) more evenly (``spread``; house
  rule: 12 games of a whist tournament for 197 players oppose 66 pairs twice, the heuristic's
  none).
* **A whist tournament for one more, one place empty**, for 4k + 3 players where the one for
  4k + 4 has an order of games that sits players out in turn (``whist.ghost_order``: 15 and 27
  players): the empty place's table sits out, three players a game; taken when it spreads the
  opponents more evenly than the heuristic (``spread``).
* **Otherwise, round-robin partners and tables chosen game by game.** The partners come from the
  round robin's circle method (each game the pairs whose numbers add up to twice the game's
  number round a circle of the players, the last player or a dummy fixed: Walecki's round
  robin as Lucas published it, *Récréations mathématiques* II, 1883), so nobody partners
  anyone twice in up to n − 1 games (n games for an odd count). The players over a multiple
  of four sit out, whole partnerships of the circle at a time, *in turn*: house rule, sit-outs, never ghosts
  (nobody plays with an empty seat), and at every point of the evening the sit-outs so far
  differ by at most one between any two players. Then each game's partnerships are paired off
  into tables to keep opponents even: greedily, then improved by swapping partnerships between
  two tables while that lowers the cost (house rule, deterministic: same inputs, same schedule).
  The cost of two partnerships at one table counts, for each of their four opponent pairs, how
  often they have opposed before, squared (weighted 8: a third meeting costs more than two
  second ones), and whether they sat at one table the game before (weighted 1). A small
  schedule is made 12 times, the partnerships taken in a different seeded order each time, and
  the most even kept (``spread``).
* **Seats**: a table's first partnership sits North–South and its second East–West, each turned
  so that every player's seats are as even as the tables allow (house rule).

What is guaranteed, for 8 to 200 players and 1 to ``most_games(n)`` games (n − 1 for an even
count, n for an odd one): each game seats everybody once or sits them out, four to a table;
``n mod 4`` players sit out each game and nobody sits out twice before everybody has once; no
two players partner twice. A whist tournament's full run also has every pair opposing exactly
twice, and one with a place empty (15, 27 players) nobody opposing anyone more than twice;
elsewhere opponents are as even as the heuristic finds (measured in the
tests, not proven).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tables.errors import RuleError
from tables.formats.euchre_tournament import whist
from tables.formats.foursome import Foursome, Seat

FEWEST_PLAYERS = 8
"""Two tables at least (house rule: with one table there is no rotation to schedule)."""

MOST_PLAYERS = 200
"""The most players a schedule is made for (house rule: 50 tables, a large hall)."""

OPPONENT_WEIGHT = 8
"""The heuristic's cost of two players opposing once more (house rule; see the module)."""

NEIGHBOUR_WEIGHT = 1
"""The heuristic's cost of two players at one table two games running (house rule)."""

MOST_SWAP_PASSES = 4
"""How many times the heuristic goes over a game's tables looking for a better swap."""

TRIES = 12
"""How many times the heuristic is run, its partnerships taken in a different (seeded) order
each time, when the schedule is small (``TRIES_BUDGET``); the most even run is kept (house
rule: 11 players over 11 games then oppose nobody 4 times, as the first run did)."""

TRIES_BUDGET = 600
"""Players times games up to which the heuristic is tried ``TRIES`` times (once above)."""


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the schedule.

    ``number``: 1 for the first game; ``tables``: table 1 first, each as the players at
    (North, East, South, West), North–South and East–West partners; ``sitting_out``: the
    players who sit this game out, lowest first (empty when the count is a multiple of four).
    """

    number: int
    tables: tuple[Foursome, ...]
    sitting_out: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Place:
    """Where one player is in one game, as their score card prints it.

    ``game``: the game's number; ``table`` (1 = the first) and ``seat``, ``partner`` and
    ``opponents`` (East before West, or North before South); all ``None`` / empty when the
    player sits the game out."""

    game: int
    table: int | None = None
    seat: Seat | None = None
    partner: int | None = None
    opponents: tuple[int, ...] = ()

    @property
    def sits_out(self) -> bool:
        """Whether the player sits this game out."""
        return self.table is None


@dataclass(frozen=True, slots=True)
class Schedule:
    """A rotation schedule: ``players`` numbered 0 to n − 1 and their ``games``, first first.

    ``method``: how it was made, in words for the host's master schedule ("E. H. Moore's whist
    tournament …" or "round-robin partners …"). The helpers answer for one player and one game
    (numbered from 1) and raise ``RuleError`` for a player or a game the schedule does not have.
    """

    players: int
    games: tuple[Game, ...]
    method: str
    _places: dict[tuple[int, int], tuple[int, Seat]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        places = {
            (player, game.number): (number, Seat(index))
            for game in self.games
            for number, table in enumerate(game.tables, start=1)
            for index, player in enumerate(table)
        }
        object.__setattr__(self, "_places", places)

    def game(self, number: int) -> Game:
        """Game ``number`` (1 = the first). Raises ``RuleError`` for a game not scheduled."""
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.games):
            raise RuleError(f"The schedule has games 1 to {len(self.games)}, not {number!r}.")
        return self.games[number - 1]

    def place(self, player: int, game: int) -> Place:
        """Where ``player`` is in game ``game``: table, seat, partner and opponents, or a
        ``Place`` that sits out. Raises ``RuleError`` for a player or a game not scheduled."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise RuleError(f"The schedule's players are numbered 0 to {self.players - 1}, not {player!r}.")
        table = self.game(game).tables
        found = self._places.get((player, game))
        if found is None:
            return Place(game)
        number, seat = found
        seated = table[number - 1]
        partner = seated[seat.partner]
        opponents = (seated[(seat + 1) % 4], seated[(seat + 3) % 4])
        return Place(game, number, seat, partner, tuple(sorted(opponents, key=lambda p: seated.index(p))))

    def table_of(self, player: int, game: int) -> int | None:
        """``player``'s table number in game ``game``, ``None`` when they sit out."""
        return self.place(player, game).table

    def seat_of(self, player: int, game: int) -> Seat | None:
        """``player``'s seat in game ``game``, ``None`` when they sit out."""
        return self.place(player, game).seat

    def partner_of(self, player: int, game: int) -> int | None:
        """``player``'s partner in game ``game``, ``None`` when they sit out."""
        return self.place(player, game).partner

    def opponents_of(self, player: int, game: int) -> tuple[int, ...]:
        """``player``'s two opponents in game ``game``, empty when they sit out."""
        return self.place(player, game).opponents

    def card(self, player: int) -> tuple[Place, ...]:
        """``player``'s whole schedule, game 1 first, as their score card lists it."""
        return tuple(self.place(player, game.number) for game in self.games)

    def partner_counts(self) -> dict[tuple[int, int], int]:
        """How often each pair (lower player first) partners over the schedule; pairs who never
        partner are left out."""
        return _pair_counts(pair for game in self.games for table in game.tables for pair in _partners(table))

    def opponent_counts(self) -> dict[tuple[int, int], int]:
        """How often each pair (lower player first) opposes over the schedule; pairs who never
        oppose are left out."""
        return _pair_counts(pair for game in self.games for table in game.tables for pair in _opponents(table))

    def sit_out_counts(self) -> tuple[int, ...]:
        """How many games each player (by number) sits out."""
        counts = [0] * self.players
        for game in self.games:
            for player in game.sitting_out:
                counts[player] += 1
        return tuple(counts)


def most_games(players: int) -> int:
    """The most games a schedule for ``players`` has: n − 1 for an even count, n for an odd
    one, one round of partners (for 4k and 4k + 1 players the most in which nobody partners
    anyone twice; house rule for 4k + 2 and 4k + 3, where evenings stay far below it)."""
    return players - 1 if players % 2 == 0 else players


def rotation_schedule(players: int, games: int) -> Schedule:
    """The rotation schedule for ``players`` (8 to 200, numbered 0 to n − 1) over ``games``
    games (1 to ``most_games(players)``), as the module says: a whist tournament where one is
    checked in, else round-robin partners with tables chosen for even opponents. The same
    inputs always give the same schedule. Raises ``RuleError`` for a count or a number of
    games outside those bounds."""
    _check(players, games)
    if whist.whist_starter(players) is not None or whist.field_games(players) is not None:
        tournament = _whist_schedule(players, games)
        if games == most_games(players):
            return tournament
    elif whist.ghost_order(players) is not None:
        tournament = _ghost_schedule(players, games)
    else:
        return _round_robin_schedule(players, games)
    return min((tournament, _round_robin_schedule(players, games)), key=spread)


def spread(schedule: Schedule) -> tuple[int, int, int]:
    """How unevenly ``schedule`` spreads opponents and neighbours, less is better: (the most
    times one pair opposes; the sum over pairs of the square of how often they oppose, least
    when the meetings are most even; how many pairs sit at one table in two games running,
    counted per change of game)."""
    counts = schedule.opponent_counts().values()
    return max(counts), sum(count * count for count in counts), consecutive_meetings(schedule)


def consecutive_meetings(schedule: Schedule) -> int:
    """How many times two players sit at one table in two games running (each pair counted
    once per change of game)."""
    count = 0
    for before, after in zip(schedule.games, schedule.games[1:], strict=False):
        met = {frozenset((x, y)) for table in before.tables for i, x in enumerate(table) for y in table[i + 1 :]}
        count += sum(
            frozenset((x, y)) in met for table in after.tables for i, x in enumerate(table) for y in table[i + 1 :]
        )
    return count


def _check(players: int, games: int) -> None:
    for what, value in (("players", players), ("games", games)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(f"The number of {what} must be a whole number, not {value!r}.")
    if not FEWEST_PLAYERS <= players <= MOST_PLAYERS:
        raise RuleError(
            f"A rotation schedule is made for {FEWEST_PLAYERS} to {MOST_PLAYERS} players (two tables at"
            f" least), not {players}."
        )
    most = most_games(players)
    if not 1 <= games <= most:
        raise RuleError(
            f"With {players} players the schedule has 1 to {most} games (one round of partners: nobody"
            f" partners anyone twice), not {games}."
        )


# --- A whist tournament -------------------------------------------------------------------------


def _whist_schedule(players: int, games: int) -> Schedule:
    starter = whist.whist_starter(players)
    if starter is not None:
        chosen = [whist.developed_game(players, starter, by) for by in whist.game_order(players, games)]
        size = whist.circle_size(players)
        kind = f"cyclic, round {size} numbers" + (" and ∞" if players % 4 == 0 else ", one sitting out each game")
    else:
        every = whist.field_games(players)
        assert every is not None
        chosen = list(every[:games])
        kind = f"over the field of {players} elements, one sitting out each game"
    seats = _SeatBalance(players)
    played = [
        Game(number, tuple(seats.turn(table) for table in tables), tuple(sorted(out)))
        for number, (tables, out) in enumerate(chosen, start=1)
    ]
    method = (
        f"E. H. Moore's whist tournament for {players} players ({kind}): over {most_games(players)} games"
        " every pair partners once and opposes twice"
    )
    return Schedule(players, tuple(played), method)


def _ghost_schedule(players: int, games: int) -> Schedule:
    order = whist.ghost_order(players)
    assert order is not None
    seats = _SeatBalance(players)
    played = []
    for number, by in enumerate(order[:games], start=1):
        tables, out = whist.ghost_game(players, by)
        played.append(Game(number, tuple(seats.turn(table) for table in tables), tuple(sorted(out))))
    method = (
        f"E. H. Moore's whist tournament for {players + 1} players with one place empty, whose table sits"
        " out each game: nobody partners anyone twice or opposes anyone more than twice"
    )
    return Schedule(players, tuple(played), method)


# --- Round-robin partners, tables chosen game by game -------------------------------------------


def _round_robin_schedule(players: int, games: int) -> Schedule:
    """The heuristic's schedule (module docstring): the most even (``spread``) of ``TRIES``
    runs for a small schedule, the first run else."""
    tries = TRIES if players * games <= TRIES_BUDGET else 1
    return min((_round_robin_run(players, games, seed) for seed in range(tries)), key=spread)


def _round_robin_run(players: int, games: int, seed: int) -> Schedule:
    """One run of the heuristic; ``seed`` 0 takes each game's partnerships in the circle's
    order, another seed in an order shuffled by ``random.Random(seed)``."""
    rounds = _partner_rounds(players)[:games]
    tables = _Tables(players, random.Random(seed) if seed else None)
    seats = _SeatBalance(players)
    played = []
    for number, (pairs, out) in enumerate(rounds, start=1):
        game_tables = tables.pair_off(pairs)
        seated = tuple(seats.turn((one[0], two[0], one[1], two[1])) for one, two in game_tables)
        played.append(Game(number, seated, tuple(sorted(out))))
    method = (
        f"round-robin partners for {players} players (the circle method; nobody partners anyone twice),"
        " tables chosen game by game to keep opponents even"
    )
    return Schedule(players, tuple(played), method)


Pair = tuple[int, int]


def _circle_round(circle: int, middle: int) -> list[Pair]:
    """The circle method's round ``middle`` on the numbers 0 … circle − 1 and ∞ (= ``circle``):
    (∞, middle) first, then the pairs middle − d and middle + d, d = 1, 2, …"""
    return [(circle, middle)] + [((middle - d) % circle, (middle + d) % circle) for d in range(1, circle // 2 + 1)]


def _partner_rounds(players: int) -> list[tuple[list[Pair], list[int]]]:
    """Every game's partnerships and sit-outs for ``players``, ``most_games`` of them, in the
    order they are played (module docstring): sit-outs in turn, balanced at every game."""
    residue = players % 4
    if players % 2 == 0:
        circle = players - 1  # the last player is the circle's fixed point
        if residue == 0:
            return [(_circle_round(circle, r), []) for r in range(circle)]
        return _two_sitting_out(circle)
    circle = players  # a dummy is the fixed point: its partner sits out
    if residue == 1:
        return [(_circle_round(circle, r)[1:], [r]) for r in range(circle)]
    return _three_sitting_out(circle)


def _three_sitting_out(circle: int) -> list[tuple[list[Pair], list[int]]]:
    """For 4k + 3 players: game t's middle r sits out with r − 1 and r + 1 (the dummy's partner
    and a pair of the circle). The middles go round by threes, 0, 3, 6, …, so the sit-outs are
    three neighbours at a time, in turn round the circle (when 3 divides the count, the circle
    is gone round three times, starting one place further on each time)."""
    thirds = circle // 3
    if circle % 3:
        middles = [3 * t % circle for t in range(circle)]
    else:
        middles = [3 * (t % thirds) + t // thirds for t in range(circle)]
    rounds = []
    for middle in middles:
        pairs = _circle_round(circle, middle)[2:]
        rounds.append((pairs, [(middle - 1) % circle, middle, (middle + 1) % circle]))
    return rounds


def _two_sitting_out(circle: int) -> list[tuple[list[Pair], list[int]]]:
    """For 4k + 2 players (the circle's numbers 0 … m − 1 and the last player ∞, m ≡ 1 mod 4):
    one partnership of each round of the circle sits out, so that everybody sits out once before
    anybody twice. A round's pairs all add up to the same number (twice its middle; ∞ with r
    counts as 2r), so pairs with different sums come from different rounds. First the pairs
    (0, 1), (2, 3), … (m − 3, m − 2) and (m − 1, ∞), whose sums 1, 5, 9, … and −2 differ round
    the circle; then (1, 2), (3, 4), … (m − 2, m − 1), whose sums 3, 7, … are the others but for
    the pair adding up to m − 2, which (m − 1, ∞) has taken: ((m − 1)/2, ∞) comes instead, the
    one sum left. Players 0 and (m − 3)/2 sit out once over the whole schedule, the others twice."""
    half = pow(2, -1, circle)

    def middle(pair: Pair) -> int:
        x, y = pair
        return x if y == circle else (x + y) * half % circle

    first = [(2 * i, 2 * i + 1) for i in range((circle - 1) // 2)] + [(circle - 1, circle)]
    skipped = (circle - 5) // 4
    second = [(2 * i + 1, 2 * i + 2) for i in range((circle - 1) // 2) if i != skipped]
    second.append(((circle - 1) // 2, circle))
    rounds = []
    for out in first + second:
        pairs = [pair for pair in _circle_round(circle, middle(out)) if set(pair) != set(out)]
        rounds.append((pairs, sorted(out)))
    return rounds


class _Tables:
    """The heuristic's memory over the games: who has opposed whom, and who sat together the
    game before; ``pair_off`` pairs a game's partnerships into tables."""

    def __init__(self, players: int, shuffle: random.Random | None = None) -> None:
        self.opposed = [[0] * players for _ in range(players)]
        self.together: set[Pair] = set()
        self.shuffle = shuffle

    def _cost(self, one: Pair, two: Pair) -> int:
        cost = 0
        for x in one:
            row = self.opposed[x]
            for y in two:
                cost += OPPONENT_WEIGHT * row[y] * row[y]
        if self.together:
            for x, y in ((one[0], two[0]), (one[0], two[1]), (one[1], two[0]), (one[1], two[1])):
                if (min(x, y), max(x, y)) in self.together:
                    cost += NEIGHBOUR_WEIGHT
        return cost

    def pair_off(self, pairs: Sequence[Pair]) -> list[tuple[Pair, Pair]]:
        """The tables for this game's ``pairs``: greedily, each partnership (in order) against
        the cheapest one left, then swaps between two tables while one lowers the cost. Returns
        the tables as (North–South pair, East–West pair), and remembers them."""
        if self.shuffle is not None:
            pairs = list(pairs)
            self.shuffle.shuffle(pairs)
        size = len(pairs)
        cost = [[0] * size for _ in range(size)]
        for i in range(size):
            for j in range(i + 1, size):
                cost[i][j] = cost[j][i] = self._cost(pairs[i], pairs[j])
        left = list(range(size))
        tables: list[list[int]] = []
        while left:
            first = left.pop(0)
            second = min(left, key=lambda j: (cost[first][j], j))
            left.remove(second)
            tables.append([first, second])
        for _ in range(MOST_SWAP_PASSES):
            if not _improve(tables, cost):
                break
        chosen = [(pairs[a], pairs[b]) for a, b in tables]
        self._remember(chosen)
        return chosen

    def _remember(self, tables: Sequence[tuple[Pair, Pair]]) -> None:
        self.together = set()
        for one, two in tables:
            four = (*one, *two)
            for x in one:
                for y in two:
                    self.opposed[x][y] += 1
                    self.opposed[y][x] += 1
            self.together.update((min(x, y), max(x, y)) for i, x in enumerate(four) for y in four[i + 1 :])


def _improve(tables: list[list[int]], cost: list[list[int]]) -> bool:
    """One pass of swaps: for each two tables (a b) and (c d), the better of (a c)(b d) and
    (a d)(b c) when cheaper. Returns whether any swap was made."""
    better = False
    for i in range(len(tables)):
        for j in range(i + 1, len(tables)):
            a, b = tables[i]
            c, d = tables[j]
            now = cost[a][b] + cost[c][d]
            crossed, straight = cost[a][c] + cost[b][d], cost[a][d] + cost[b][c]
            if min(crossed, straight) < now:
                if crossed <= straight:
                    tables[i], tables[j] = [a, c], [b, d]
                else:
                    tables[i], tables[j] = [a, d], [b, c]
                better = True
    return better


class _SeatBalance:
    """Turns each table so that every player's seats stay as even as they can (house rule):
    of the eight ways to seat two partnerships at a table (which sits North–South, and who of
    each pair sits North or East), the one whose players have sat least in those seats."""

    def __init__(self, players: int) -> None:
        self.counts = [[0, 0, 0, 0] for _ in range(players)]

    def _ways(self, table: Foursome) -> Iterator[Foursome]:
        north, east, south, west = table
        for one, two in (((north, south), (east, west)), ((east, west), (north, south))):
            for n, s in (one, one[::-1]):
                for e, w in (two, two[::-1]):
                    yield (n, e, s, w)

    def turn(self, table: Foursome) -> Foursome:
        """``table`` (North, East, South, West) seated the most evenly."""
        start = table
        best = min(self._ways(start), key=lambda way: sum(self.counts[p][seat] for seat, p in enumerate(way)))
        for seat, player in enumerate(best):
            self.counts[player][seat] += 1
        return best


def _partners(table: Foursome) -> tuple[Pair, Pair]:
    north, east, south, west = table
    return (north, south), (east, west)


def _opponents(table: Foursome) -> tuple[Pair, ...]:
    north, east, south, west = table
    return (north, east), (north, west), (south, east), (south, west)


def _pair_counts(pairs: Iterator[Pair]) -> dict[Pair, int]:
    counts: dict[Pair, int] = {}
    for x, y in pairs:
        key = (min(x, y), max(x, y))
        counts[key] = counts.get(key, 0) + 1
    return counts
