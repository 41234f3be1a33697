"""Benchmark: rank all 2,598,960 five-card hands with our evaluator and with ``treys``.

Both run in the same process on the same machine, each over every five-card hand of its own
card codes (``itertools.combinations`` of the 52 codes), so the ratio is fair. ``treys`` is
timed through its public ``Evaluator.evaluate(cards, board)`` and, as the strictest baseline,
through its internal five-card routine ``Evaluator._five``. The three runs are interleaved
(ours, public, internal, ours, ...) ``--repeat`` times and the best of each kept, so a change in
the machine's load falls on all alike. Ours must not be slower.

Run: ``.venv/bin/python bench/bench_hands.py [--repeat 3]``
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ratios import report  # noqa: E402
from treys import Card as TreysCard  # noqa: E402
from treys import Evaluator  # noqa: E402

from tables.cards import full_pack  # noqa: E402
from tables.formats.poker.poker import PokerOptions  # noqa: E402
from tables.formats.poker.poker_lookup import card_code, lookup_for  # noqa: E402

HANDS = 2_598_960


def _time(run) -> tuple[float, int]:  # noqa: ANN001
    """(seconds, checksum) of one ``run()``."""
    start = time.perf_counter()
    checksum = run()
    return time.perf_counter() - start, checksum


def main() -> None:
    """Time the table build and the full ranking runs; print the figures and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    lookup_for.cache_clear()
    table = lookup_for(PokerOptions())
    print(f"our tables built in {time.perf_counter() - start:.3f} s ({table.class_count} classes)")
    start = time.perf_counter()
    evaluator = Evaluator()
    print(f"treys tables built in {time.perf_counter() - start:.3f} s")

    ours_codes = [card_code(c) for c in full_pack()]
    treys_codes = [TreysCard.new(str(c).replace("10", "T")[0] + str(c)[-1].lower()) for c in full_pack()]
    rank5 = table.rank5
    evaluate = evaluator.evaluate
    five = evaluator._five

    ways = {
        "ours: rank5(*hand)": lambda: sum(rank5(*h) for h in combinations(ours_codes, 5)),
        "treys: Evaluator.evaluate(hand, [])": lambda: sum(evaluate(h, ()) for h in combinations(treys_codes, 5)),
        "treys: Evaluator._five(hand)": lambda: sum(five(h) for h in combinations(treys_codes, 5)),
    }
    best = dict.fromkeys(ways, float("inf"))
    checks = dict.fromkeys(ways, 0)
    for _ in range(args.repeat):
        for label, run in ways.items():
            seconds, checks[label] = _time(run)
            best[label] = min(best[label], seconds)
    print(f"best of {args.repeat} interleaved runs")
    for label, seconds in best.items():
        print(f"{label:<42} {seconds:7.3f} s  {HANDS / seconds / 1e6:6.2f} M hands/s  (check {checks[label]})")
    ours, public, internal = best.values()

    # Same order as treys: our class n (higher better) is treys' 7463 - n (lower better).
    assert all(
        rank5(*a) + five(b) == 7463
        for a, b in zip(combinations(ours_codes, 5), combinations(treys_codes, 5), strict=True)
    ), "our ranking disagrees with treys"
    print("every hand: our class + treys rank == 7463 (same order)")
    cats = table.categories
    counts = Counter(cats[rank5(*h)] for h in combinations(ours_codes, 5))
    assert sum(counts.values()) == HANDS
    print(f"ratio treys/ours, public API: {public / ours:.2f}x  (ours is faster when > 1)")
    print(f"ratio treys/ours, treys internal _five: {internal / ours:.2f}x")
    report("our ranker's speed, every five-card hand", public / ours, "treys' public evaluate()")
    report(
        "our ranker's speed, every five-card hand",
        internal / ours,
        "treys' internal _five()",
        1,
        lower_is_better=False,
    )
    if ours > internal:
        print("WARNING: our evaluator was slower than treys in this run")
        sys.exit(1)


if __name__ == "__main__":
    main()
