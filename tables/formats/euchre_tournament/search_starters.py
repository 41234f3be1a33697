"""The search, run once, that found the whist tournaments' starters checked in as ``starters``.

Not used when a schedule is made: it is kept so that anyone can find the starters again (or
more of them) and check them. Run ``python -m tables.formats.euchre_tournament.search_starters
SECONDS N …``; it prints a ``STARTERS`` line per count it solves. Each search is simulated
annealing (Kirkpatrick, Gelatt and Vecchi, 1983), seeded 1 to 5 so that it repeats:

* ``any_starter``: the first game's seats over the circle (``whist``), swapping two players
  while the distances' misses (partners at a distance other than once, opponents other than
  twice) do not grow, or grow with the falling temperature's chance (it falls to 0.8 and stays
  there: a floor of 0.3 found nothing for 24 players in a minute, 0.8 found it in 11 seconds). It
  found 8, 12, 16, 20 and 24.
* ``mirrored_starter``: partners mirrored round the circle (x with −x, and ∞ with 0, which makes
  every partner distance once by itself), searching only which partnerships share a table, so
  that the opponents' distances come twice. It found 13, 17, 25, 28, 29, 37, 41, 49, 53 and 61
  (and nothing for 8, 12, 16, 20, which mirrored partners cannot make).

Counts it did not solve in the time given (6 to 90 seconds a count: 32 and 36 among them) have no starter; the
schedule uses its heuristic for them.
"""

from __future__ import annotations

import math
import random
import sys
import time

from tables.formats.euchre_tournament.whist import Starter, circle_size, is_whist_starter

_PAIRS = ((0, 2, 0), (1, 3, 0), (0, 1, 1), (0, 3, 1), (2, 1, 1), (2, 3, 1))
"""The pairs of a table (N, E, S, W) as (seat, seat, 0 for partners / 1 for opponents)."""


def any_starter(players: int, seed: int, seconds: float) -> Starter | None:
    """A starter for ``players`` found by swapping any two seats, or ``None`` in the time."""
    circle = circle_size(players)
    seats = list(range(circle)) + [circle] if players % 4 == 0 else list(range(1, circle))
    rng = random.Random(seed)
    rng.shuffle(seats)
    counts = ([0] * circle, [0] * circle)
    wanted = (1, 2)

    def distances(table: int) -> list[tuple[int, int]]:
        out = []
        for one, two, kind in _PAIRS:
            x, y = seats[4 * table + one], seats[4 * table + two]
            if circle not in (x, y):
                out += [(kind, (x - y) % circle), (kind, (y - x) % circle)]
        return out

    for table in range(len(seats) // 4):
        for kind, d in distances(table):
            counts[kind][d] += 1
    misses = sum(abs(counts[k][d] - wanted[k]) for k in (0, 1) for d in range(1, circle))
    heat, tries, start = 1.0, 0, time.monotonic()
    while misses and time.monotonic() - start < seconds:
        tries += 1
        i, j = rng.randrange(len(seats)), rng.randrange(len(seats))
        if i // 4 == j // 4:
            continue
        old = distances(i // 4) + distances(j // 4)
        seats[i], seats[j] = seats[j], seats[i]
        new = distances(i // 4) + distances(j // 4)
        touched = set(old) | set(new)
        before = sum(abs(counts[k][d] - wanted[k]) for k, d in touched)
        for k, d in old:
            counts[k][d] -= 1
        for k, d in new:
            counts[k][d] += 1
        change = sum(abs(counts[k][d] - wanted[k]) for k, d in touched) - before
        if change <= 0 or rng.random() < math.exp(-change / heat):
            misses += change
        else:
            for k, d in new:
                counts[k][d] -= 1
            for k, d in old:
                counts[k][d] += 1
            seats[i], seats[j] = seats[j], seats[i]
        if tries % 2000 == 0:
            heat = max(0.8, heat * 0.995)
    if misses:
        return None
    return tuple((seats[t], seats[t + 1], seats[t + 2], seats[t + 3]) for t in range(0, len(seats), 4))


def mirrored_starter(players: int, seed: int, seconds: float) -> Starter | None:
    """A starter whose partners are x and −x (and ∞ with 0), found by choosing which two
    partnerships share each table, or ``None`` in the time."""
    circle = circle_size(players)
    infinity = players % 4 == 0
    halves = list(range(1, (circle - 1) // 2 + 1))  # x stands for the partnership x, −x
    rng = random.Random(seed)
    rng.shuffle(halves)
    skip = 1 if infinity else 0  # halves[0] then sits with ∞ and 0

    def half(x: int) -> int:
        return min(x % circle, -x % circle)

    def labels(position: int) -> list[int]:
        if position < skip:
            return [halves[0]]
        table = (position - skip) // 2
        q, r = halves[skip + 2 * table], halves[skip + 2 * table + 1]
        return [half(q - r), half(q + r)]

    counts = [0] * (len(halves) + 1)
    for position in [0] * skip + list(range(skip, len(halves), 2)):
        for label in labels(position):
            counts[label] += 1
    misses = sum(abs(c - 1) for c in counts[1:])
    heat, tries, start = 1.0, 0, time.monotonic()
    while misses and time.monotonic() - start < seconds:
        tries += 1
        i, j = rng.randrange(len(halves)), rng.randrange(len(halves))
        ti, tj = (i - skip) // 2 if i >= skip else -1, (j - skip) // 2 if j >= skip else -1
        if ti == tj:
            continue
        old = labels(i) + labels(j)
        halves[i], halves[j] = halves[j], halves[i]
        new = labels(i) + labels(j)
        touched = set(old) | set(new)
        before = sum(abs(counts[label] - 1) for label in touched)
        for label in old:
            counts[label] -= 1
        for label in new:
            counts[label] += 1
        change = sum(abs(counts[label] - 1) for label in touched) - before
        if change <= 0 or rng.random() < math.exp(-change / heat):
            misses += change
        else:
            for label in new:
                counts[label] -= 1
            for label in old:
                counts[label] += 1
            halves[i], halves[j] = halves[j], halves[i]
        if tries % 1000 == 0:
            heat = max(0.2, heat * 0.99)
    if misses:
        return None
    tables = [(circle, halves[0], 0, -halves[0] % circle)] if infinity else []
    for t in range(skip, len(halves), 2):
        q, r = halves[t], halves[t + 1]
        tables.append((q, r, -q % circle, -r % circle))
    return tuple(tables)


def main(arguments: list[str]) -> None:
    """Search each count in ``arguments[1:]`` for ``arguments[0]`` seconds in all; print what
    is found, checked by ``is_whist_starter``."""
    seconds = float(arguments[0])
    for players in map(int, arguments[1:]):
        for seed in range(1, 6):
            found = mirrored_starter(players, seed, seconds / 10) or any_starter(players, seed, seconds / 10)
            if found is not None and is_whist_starter(players, found):
                print(f"    {players}: {found!r},", flush=True)
                break


if __name__ == "__main__":
    main(sys.argv[1:])
