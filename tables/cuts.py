"""Cutting cards to settle ties at the bell.

Source: ``docs/rules/progressive-poker.md``, 'Cutting cards': "Ties are settled by cutting cards; the lowest
cut stays." A cut is a card rank, ace low: ace 1, deuce 2, ..., king 13. The host may enter the
cards actually cut; otherwise they are drawn at random. Every card cut is recorded as a "cut"
entry, so replaying a bell with the recorded cuts gives the same outcome. Equal cuts cut again
(house rule: the usual way with a single pack).

House rule, a tie once cut stays cut: when a bell of a round is rung again (after a correction,
or an undo and a new ring) and the same guests tie again for the same thing at the same table,
the cards they cut then settle it again, every cut again included (``CardsCut``, ``ties_cut``).
So a correction that is then corrected back gives back exactly the evening it changed. A tie
that is new is cut afresh and recorded; a card cut for one tie never settles another.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from tables.entries import BellEntry
from tables.errors import RuleError

RANK_NAMES = {1: "an ace", 2: "a deuce", 3: "a trey", 11: "a jack", 12: "a queen", 13: "a king"}
MAX_ROUNDS = 1000


# A tie settled by cutting: the table, what it was about, and who cut.
TieKey = tuple[int | None, str, frozenset[int]]
# The cards of each cut at one tie, in order: guest id -> rank (ace 1 .. king 13).
TieCards = tuple[Mapping[int, int], ...]


@dataclass(frozen=True)
class CardsCut:
    """The cards to cut at one bell: ``given``, the host's cards (guest id -> a rank or ranks,
    as for ``Cutter``), and ``ties``, the ties settled at the round's earlier bells
    (``ties_cut``). The host's cards come first; a tie settled before and in which nobody has a
    card of the host's left is settled by its recorded cards; the rest are drawn at random."""

    given: Mapping[int, int | Sequence[int]] = field(default_factory=dict)
    ties: Mapping[TieKey, TieCards] = field(default_factory=dict)


# What ``ring_bell`` and ``guest_leaves`` take as ``cuts``: the host's cards, or a ``CardsCut``.
Cuts = Mapping[int, int | Sequence[int]] | CardsCut


def ties_cut(bells: Iterable[Iterable[BellEntry]]) -> dict[TieKey, TieCards]:
    """Every tie settled by cutting at ``bells`` (each bell's entries, oldest bell first; where
    a later bell settled the same tie, its cards count): (table, what for, who cut) -> the
    cards of each cut in order. The "cut" entries of one tie come one after another, in rounds
    where each guest still in the tie cuts once (``Cutter.highest``)."""
    ties: dict[TieKey, TieCards] = {}
    for entries in bells:
        for (table, cut_for), run in groupby(entries, key=_tie_of):
            if not cut_for:
                continue  # not a cut
            rounds: list[dict[int, int]] = []
            for entry in run:
                if not rounds or entry.guest in rounds[-1]:
                    rounds.append({})  # equal cuts: the tied guests cut again
                rounds[-1][entry.guest] = entry.amount
            ties[(table, cut_for, frozenset(rounds[0]))] = tuple(rounds)
    return ties


def _tie_of(entry: BellEntry) -> tuple[int | None, str]:
    """The table and what for of a "cut" entry; (None, "") for any other."""
    return (entry.from_table, entry.cut_for) if entry.kind == "cut" else (None, "")


def rank_name(rank: int) -> str:
    """ "an ace", "a deuce", "a 7", "an 8", ... "a king" for a rank 1..13 (the article as the
    number is said: "an eight")."""
    return RANK_NAMES.get(rank, f"{'an' if rank == 8 else 'a'} {rank}")


class Cutter:
    """Hands out cut cards: the host's cards first (per guest, in order), then random ones.

    ``given`` maps guest id -> a rank (1..13) or a sequence of ranks (for cutting again after
    equal cuts); keys may be str (from JSON). A ``CardsCut`` adds the ties settled at the
    round's earlier bells, settled again by the same cards (house rule, module docstring).
    ``rng`` draws the rest (default ``random.SystemRandom()``). Each card cut is appended to
    ``entries`` as a "cut" entry (a list shared with the caller keeps them in the order things
    happened). Raises ``RuleError`` for a rank outside 1..13.
    """

    def __init__(
        self,
        given: Cuts | None = None,
        rng: random.Random | None = None,
        entries: list[BellEntry] | None = None,
    ) -> None:
        self._ties: Mapping[TieKey, TieCards] = given.ties if isinstance(given, CardsCut) else {}
        if isinstance(given, CardsCut):
            given = given.given
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

        ``why`` finishes the phone's sentence "You cut an ace to settle ..." in each "cut" entry; the lowest
        cut stays, so the returned guest is the one who moves (or wins the lot).
        """
        contest = sorted(set(guests))
        if len(contest) == 1:
            return contest[0]
        settled = self._settled(table, why, contest)
        for _ in range(MAX_ROUNDS):
            again = settled.pop(0) if settled else {}
            cuts = {guest: again[guest] if guest in again else self.draw(guest) for guest in contest}
            for guest in contest:
                self.entries.append(
                    BellEntry(
                        kind="cut",
                        guest=guest,
                        from_table=table,
                        to_table=table,
                        amount=cuts[guest],
                        rule=rule,
                        text=(
                            f"You cut {rank_name(cuts[guest])} to settle {why}: the highest card is"
                            " chosen (ace low, king high; equal cards cut again)."
                        ),
                        about=f"Guest {guest} cut {rank_name(cuts[guest])} for {why}.",
                        cut_for=why,
                    )
                )
            top = max(cuts.values())
            contest = [guest for guest in contest if cuts[guest] == top]
            if len(contest) == 1:
                return contest[0]
        raise RuleError("The cut was tied a thousand times: enter the cards cut by hand.")

    def _settled(self, table: int, why: str, contest: list[int]) -> list[Mapping[int, int]]:
        """The recorded cards of each cut at this very tie (the same guests, for ``why`` at
        ``table``) when it was settled at an earlier bell of the round; none when it was not, or
        when the host gave cards for someone in it (the host's cards come first)."""
        if any(self._queues.get(guest) for guest in contest):
            return []
        return list(self._ties.get((table, why, frozenset(contest)), ()))
