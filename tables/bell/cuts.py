"""Cutting cards to settle ties at the bell.

Source: ``seeds/README.md`` (Progressive Poker): "Ties are settled by cutting cards; the lowest
cut stays." A cut is a card rank, ace low: ace 1, deuce 2, ..., king 13. The host may enter the
cards actually cut; otherwise they are drawn at random. Every card cut is recorded as a "cut"
entry, so replaying a bell with the recorded cuts gives the same outcome. Equal cuts cut again
(house rule: the usual way with a single pack).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from tables.bell.state import BellEntry
from tables.errors import RuleError

RANK_NAMES = {1: "an ace", 2: "a deuce", 3: "a trey", 11: "a jack", 12: "a queen", 13: "a king"}
MAX_ROUNDS = 1000


def rank_name(rank: int) -> str:
    """ "an ace", "a deuce", "a 7", ... "a king" for a rank 1..13."""
    return RANK_NAMES.get(rank, f"a {rank}")


class Cutter:
    """Hands out cut cards: the host's cards first (per guest, in order), then random ones.

    ``given`` maps guest id -> a rank (1..13) or a sequence of ranks (for cutting again after
    equal cuts); keys may be str (from JSON). ``rng`` draws the rest (default
    ``random.SystemRandom()``). Each card cut is appended to ``entries`` as a "cut" entry (a
    list shared with the caller keeps them in the order things happened). Raises ``RuleError`` for a rank outside 1..13.
    """

    def __init__(
        self,
        given: Mapping[int, int | Sequence[int]] | None = None,
        rng: random.Random | None = None,
        entries: list[BellEntry] | None = None,
    ) -> None:
        self._queues: dict[int, list[int]] = {}
        for guest, ranks in (given or {}).items():
            queue = [ranks] if isinstance(ranks, int) else list(ranks)
            for rank in queue:
                if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 13:
                    raise RuleError(
                        "{guest}'s cut {rank!r} is not a card rank: use 1 (ace) to 13 (king).",
                        guests=(guest,),
                        rank=rank,
                    )
            self._queues[int(guest)] = queue
        self._rng = rng or random.SystemRandom()
        self.entries: list[BellEntry] = entries if entries is not None else []

    def draw(self, guest: int) -> int:
        """The next card ``guest`` cuts: the host's next card for them, else a random rank."""
        queue = self._queues.get(guest)
        if queue:
            return queue.pop(0)
        return self._rng.randint(1, 13)

    def highest(self, guests: Iterable[int], *, table: int, why: str, rule: str) -> int:
        """Everyone in ``guests`` cuts; equal highest cuts cut again; returns the highest cutter.

        ``why`` finishes the sentence "You cut an ace for ..." in each "cut" entry; the lowest
        cut stays, so the returned guest is the one who moves (or wins the lot).
        """
        contest = sorted(set(guests))
        if len(contest) == 1:
            return contest[0]
        for _ in range(MAX_ROUNDS):
            cuts = {guest: self.draw(guest) for guest in contest}
            for guest in contest:
                self.entries.append(
                    BellEntry(
                        kind="cut",
                        guest=guest,
                        from_table=table,
                        to_table=table,
                        amount=cuts[guest],
                        rule=rule,
                        text=f"You cut {rank_name(cuts[guest])} for {why} (the highest cut is the one chosen).",
                        about=f"Guest {guest} cut {rank_name(cuts[guest])} for {why}.",
                    )
                )
            top = max(cuts.values())
            contest = [guest for guest in contest if cuts[guest] == top]
            if len(contest) == 1:
                return contest[0]
        raise RuleError("The cut was tied a thousand times: enter the cards cut by hand.")
