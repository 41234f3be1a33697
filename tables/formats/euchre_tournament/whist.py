"""Whist tournaments: every pair of players partners once and opposes twice.

E. H. Moore ("Tactical memoranda I–III", *American Journal of Mathematics* 18, 1896) set the
problem and gave the first whist tournaments; ``docs/rules/euchre-tournament.md`` takes them as the Euchre
tournament's ideal schedule. A whist tournament Wh(n) is a schedule of games at tables of four
in which every pair of the n players partners exactly once and opposes exactly twice:

* n = 4k players play 4k − 1 games, all seated every game;
* n = 4k + 1 players play 4k + 1 games, one sitting out each game (each player once).

The ones used here are *cyclic* (Anderson, *Combinatorial Designs and Tournaments*, 1997, on
Z-cyclic whist tournaments): the players are the numbers 0 to m − 1 counted round a circle
(m = n − 1 for 4k players, whose last player, numbered m, is the fixed point "∞"; m = n for
4k + 1 players) and game t is the first game with every number moved on by t (∞ stays put).
So a whole tournament is its first game, the *starter*: its tables, North–South and East–West
partners. A starter makes a whist tournament exactly when, counted round the circle, the two
partners of each partnership are at every distance 1 … m − 1 once, and the opponents at every
distance twice (the ∞ player then partners everyone once and opposes everyone twice by itself).

The starters are in ``starters`` (found once by the search in ``search_starters``), or built
for a prime 4k + 1 (``prime_starter``), each checked by ``is_whist_starter`` in the tests;
counts with neither get no cyclic whist tournament (``whist_starter`` answers ``None``). For a
prime power 4k + 1 (9, 81, 121, 125, 169 players) the same prime construction over the field
of that many elements gives one (``field_games``); for the other counts ``schedule`` falls back
to its heuristic.

Any order of the games keeps a whist tournament one; ``game_order`` chooses the order (going
round the circle by a step) so that a schedule cut short after a few games has as few pairs
opposing twice as the steps allow, then as few pairs meeting at a table two games running.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import lru_cache
from math import gcd

from tables.formats.euchre_tournament.starters import STARTERS
from tables.formats.foursome import Foursome

Starter = tuple[Foursome, ...]
"""A cyclic whist tournament's first game: its tables as (North, East, South, West)."""


def circle_size(players: int) -> int:
    """The numbers counted round the circle for ``players``: n − 1 for n ≡ 0 (mod 4), whose
    player n − 1 is the fixed ∞, and n otherwise."""
    return players - 1 if players % 4 == 0 else players


def whist_starter(players: int) -> Starter | None:
    """The starter of a cyclic whist tournament for ``players``: checked in as data, else built
    for a prime 4k + 1 (``prime_starter``); ``None`` when there is neither (none exists for
    4k + 2 or 4k + 3 players)."""
    if players in STARTERS:
        return STARTERS[players]
    if players % 4 == 1 and _is_prime(players):
        return prime_starter(players)
    return None


def prime_starter(prime: int) -> Starter:
    """The classical starter for a prime p = 4k + 1 (the multiplicative construction of the
    whist-tournament literature; Anderson, *Combinatorial Designs and Tournaments*): with x a
    primitive root and w = x^k (so w² = −1), table i seats x^i North, w·x^i East, −x^i South
    and −w·x^i West, for i = 0 … k − 1; 0 sits out. Why it works: the partners are 2x^i apart
    (times ±1, ±w), which runs over every distance once; the opponents are x^i(1 − w) apart
    (times ±1, ±w, each twice, since 1 + w = w(1 − w)), which runs over every distance twice.
    ``is_whist_starter`` checks it for every such prime to 200 in the tests."""
    quarter = (prime - 1) // 4
    root = next(x for x in range(2, prime) if all(pow(x, (prime - 1) // f, prime) != 1 for f in _factors(prime - 1)))
    turn = pow(root, quarter, prime)
    tables = []
    for i in range(quarter):
        x = pow(root, i, prime)
        tables.append((x, turn * x % prime, -x % prime, -turn * x % prime))
    return tuple(tables)


def prime_power(number: int) -> tuple[int, int] | None:
    """(p, e) when ``number`` is p^e for a prime p and e ≥ 2, else ``None``."""
    for prime in range(2, int(number**0.5) + 1):
        if _is_prime(prime):
            power, exponent = prime, 1
            while power < number:
                power, exponent = power * prime, exponent + 1
            if power == number:
                return prime, exponent
    return None


@lru_cache(maxsize=16)
def field_games(players: int) -> tuple[tuple[tuple[Foursome, ...], tuple[int, ...]], ...] | None:
    """A whist tournament for a prime power q = p^e ≡ 1 (mod 4), e ≥ 2 (9, 81, 121, 125, 169),
    by the prime construction (``prime_starter``) over the field of q elements instead of the
    numbers mod q: each player is a field element written in base p (player 5 of 9 is 1·3 + 2,
    the element x + 2), the starter's tables are x^i, w·x^i, −x^i, −w·x^i for a primitive x,
    and game t adds element t to everybody (player t sits out). Returns every game's tables and
    sit-out, game 0 first; ``None`` for any other count."""
    found = prime_power(players) if players % 4 == 1 else None
    if found is None:
        return None
    prime, exponent = found
    field = _Field(prime, exponent)
    quarter = (players - 1) // 4
    turn = field.power(1, quarter)
    starter = [
        (x, field.times(turn, x), field.minus(x), field.minus(field.times(turn, x))) for x in field.powers(quarter)
    ]
    games = []
    for t in range(players):
        tables = tuple(
            (field.plus(a, t), field.plus(b, t), field.plus(c, t), field.plus(d, t)) for a, b, c, d in starter
        )
        games.append((tables, (t,)))
    return tuple(games)


class _Field:
    """The field of p^e elements, each written as a number 0 … p^e − 1 whose base-p digits are
    its coefficients (the digit of p^j is the coefficient of x^j), modulo the first monic
    polynomial of degree e (in the order of its digits) of which x is a primitive element."""

    def __init__(self, prime: int, exponent: int) -> None:
        self.prime, self.exponent, self.size = prime, exponent, prime**exponent
        for low in range(self.size):
            self.modulus = self._digits(low)  # x^e = −(this), the polynomial's lower coefficients
            if len(set(self.powers(self.size - 1))) == self.size - 1:
                return
        raise AssertionError("no primitive polynomial")  # there always is one

    def _digits(self, number: int) -> list[int]:
        return [number // self.prime**j % self.prime for j in range(self.exponent)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d % self.prime * self.prime**j for j, d in enumerate(digits))

    def plus(self, a: int, b: int) -> int:
        """a + b."""
        return self._number([x + y for x, y in zip(self._digits(a), self._digits(b), strict=True)])

    def minus(self, a: int) -> int:
        """−a."""
        return self._number([-x for x in self._digits(a)])

    def times(self, a: int, b: int) -> int:
        """a · b, the product reduced by x^e = −(the modulus' lower coefficients)."""
        product = [0] * (2 * self.exponent)
        for i, x in enumerate(self._digits(a)):
            for j, y in enumerate(self._digits(b)):
                product[i + j] += x * y
        for top in range(2 * self.exponent - 1, self.exponent - 1, -1):
            carry, product[top] = product[top] % self.prime, 0
            for j, m in enumerate(self.modulus):
                product[top - self.exponent + j] -= carry * m
        return self._number(product[: self.exponent])

    def power(self, base_exponent: int, times: int) -> int:
        """x^(base_exponent · times), x the element written p (the polynomial x)."""
        result = 1
        for _ in range(base_exponent * times):
            result = self.times(result, self.prime)
        return result

    def powers(self, count: int) -> list[int]:
        """x^0, x^1, … x^(count − 1)."""
        out, value = [], 1
        for _ in range(count):
            out.append(value)
            value = self.times(value, self.prime)
        return out


def _is_prime(number: int) -> bool:
    return number > 1 and all(number % d for d in range(2, int(number**0.5) + 1))


def _factors(number: int) -> set[int]:
    """The primes dividing ``number``."""
    found, d = set(), 2
    while d * d <= number:
        while number % d == 0:
            found.add(d)
            number //= d
        d += 1
    if number > 1:
        found.add(number)
    return found


def moved_on(player: int, by: int, circle: int) -> int:
    """``player`` moved ``by`` places round a circle of ``circle`` numbers; ∞ (= ``circle``)
    stays put."""
    return player if player == circle else (player + by) % circle


def developed_game(players: int, starter: Starter, by: int) -> tuple[tuple[Foursome, ...], tuple[int, ...]]:
    """The game of a cyclic whist tournament ``by`` places on from its ``starter``: its tables
    (North, East, South, West) and who sits out (the player ``by``, for 4k + 1 players, whose
    starter leaves out player 0; nobody for 4k players)."""
    circle = circle_size(players)
    tables = tuple(
        (
            moved_on(table[0], by, circle),
            moved_on(table[1], by, circle),
            moved_on(table[2], by, circle),
            moved_on(table[3], by, circle),
        )
        for table in starter
    )
    return tables, ((by % circle,) if players % 4 == 1 else ())


def _distances(pairs: Sequence[tuple[int, int]], circle: int) -> Counter[int]:
    """How often each distance round the circle (1 … circle − 1, both ways) separates the
    ``pairs``; pairs with ∞ (= ``circle``) are left out."""
    counted: Counter[int] = Counter()
    for x, y in pairs:
        if circle not in (x, y):
            counted[(x - y) % circle] += 1
            counted[(y - x) % circle] += 1
    return counted


def _opponent_pairs(table: Foursome) -> list[tuple[int, int]]:
    north, east, south, west = table
    return [(north, east), (north, west), (south, east), (south, west)]


def is_whist_starter(players: int, starter: Starter) -> bool:
    """Whether ``starter`` makes a cyclic whist tournament for ``players``: it seats every
    player but the one sitting out (player 0, for 4k + 1) once, four to a table, and its
    partners are at every distance once and its opponents at every distance twice."""
    circle = circle_size(players)
    seated = sorted(player for table in starter for player in table)
    expected = list(range(1, players)) if players % 4 == 1 else list(range(players))
    if players % 4 not in (0, 1) or seated != expected:
        return False
    everyone = set(range(1, circle))
    partners = _distances([(t[0], t[2]) for t in starter] + [(t[1], t[3]) for t in starter], circle)
    opponents = _distances([pair for table in starter for pair in _opponent_pairs(table)], circle)
    return partners == Counter(dict.fromkeys(everyone, 1)) and opponents == Counter(dict.fromkeys(everyone, 2))


@lru_cache(maxsize=256)
def game_order(players: int, games: int) -> tuple[int, ...]:
    """The first ``games`` games of the cyclic whist tournament for ``players``, as how far each
    is moved on from the starter: 0, a, 2a, … round the circle for the step a that leaves the
    fewest pairs opposing twice in those games, then the fewest pairs at one table in two
    games running, then the smallest a (house rule: so a host who stops early still has
    opponents spread out). Raises ``KeyError`` for a count with no starter."""
    starter = whist_starter(players)
    if starter is None:
        raise KeyError(players)
    circle = circle_size(players)
    steps = [a for a in range(1, circle // 2 + 1) if gcd(a, circle) == 1]
    step = min(steps, key=lambda a: (_twice_opposed(starter, circle, games, a), _consecutive(starter, circle, a), a))
    return tuple(i * step % circle for i in range(games))


def _twice_opposed(starter: Starter, circle: int, games: int, step: int) -> int:
    """How many pairs oppose twice in the games 0, step, …, (games − 1)·step: each pair at a
    distance d opposes in the two games that move d's two opponent pairs of the starter onto it,
    which are j steps apart; ``games − j`` pairs (and ``games − (circle − j)``) have both."""
    inverse = pow(step, -1, circle)
    firsts: defaultdict[int, list[int]] = defaultdict(list)
    infinity: list[int] = []
    for table in starter:
        for x, y in _opponent_pairs(table):
            if circle in (x, y):
                infinity.append(x if y == circle else y)
            else:
                firsts[(y - x) % circle].append(x)
                firsts[(x - y) % circle].append(y)

    def both(first: int, second: int) -> int:
        apart = (second - first) * inverse % circle
        return max(0, games - apart) + max(0, games - (circle - apart))

    total = sum(both(*firsts[d]) for d in firsts) // 2
    return total + (both(*infinity) if infinity else 0)


def _consecutive(starter: Starter, circle: int, step: int) -> int:
    """How many pairs sit at one table in two games running, per change of game."""
    table_of = {player: number for number, table in enumerate(starter) for player in table}
    count = 0
    for table in starter:
        for i, x in enumerate(table):
            for y in table[i + 1 :]:
                back_x, back_y = moved_on(x, -step, circle), moved_on(y, -step, circle)
                if back_x in table_of and table_of.get(back_x) == table_of.get(back_y):
                    count += 1
    return count


GHOST_SEARCH_STEPS = 1000
"""How many orders ``ghost_order`` tries before it gives up (house rule: so it stays quick)."""


@lru_cache(maxsize=16)
def ghost_order(players: int) -> tuple[int, ...] | None:
    """For 4k + 3 players, an order of the games of the cyclic whist tournament for one more
    (``ghost_game``) in which nobody sits out twice before everybody has once (after every
    game, sit-outs differ by at most one), found depth-first, lowest game first; ``None`` when
    there is no starter for n + 1 or no such order within ``GHOST_SEARCH_STEPS`` tries (15 and
    27 players have one; 11, 19 and 23 do not)."""
    starter = STARTERS.get(players + 1) if players % 4 == 3 else None
    if starter is None:
        return None
    circle = players
    empty = next(table for table in starter if circle in table)
    out = [player for player in empty if player != circle]
    sets = [frozenset((t + c) % circle for c in out) for t in range(circle)]
    counts, order, tries = [0] * circle, list[int](), [0]

    def fits(sitting: frozenset[int]) -> bool:
        least = min(counts)
        lowest = {p for p in range(circle) if counts[p] == least}
        if len(lowest) >= len(sitting):
            return sitting <= lowest
        return lowest <= sitting and all(counts[p] <= least + 1 for p in sitting)

    def search() -> bool:
        tries[0] += 1
        if len(order) == circle:
            return True
        for t in range(circle):
            if t in order or not fits(sets[t]) or tries[0] > GHOST_SEARCH_STEPS:
                continue
            order.append(t)
            for p in sets[t]:
                counts[p] += 1
            if search():
                return True
            for p in sets[t]:
                counts[p] -= 1
            order.pop()
        return False

    return tuple(order) if search() else None


def ghost_game(players: int, by: int) -> tuple[tuple[Foursome, ...], tuple[int, ...]]:
    """Game ``by`` of the cyclic whist tournament for ``players`` + 1 (4k + 3 players), its ∞
    an empty place: the table of the empty place sits out, its three players (so partners
    never repeat and opponents meet at most twice). Returns the tables and the sit-outs."""
    starter = STARTERS[players + 1]
    tables, _ = developed_game(players + 1, starter, by)
    empty = next(table for table in tables if players in table)
    return tuple(table for table in tables if table is not empty), tuple(p for p in empty if p != players)
