"""Prizes for the formats played at tables of four: the most of a tally, per pack, and a booby.

Rules (``docs/rules/tables-of-four.md``, 'Prizes'): a prize whose best count is zero goes to no one;
ghosts are left out before the best is found; with two packs each "most" prize is given once per
pack and the booby prize once. Euchre: most stars (a lady's and a gentleman's prize), the booby
prize for the fewest stars (Foster; Keller), or total points instead by option. Drive Whist: the
highest total of tricks, the booby for the lowest (Foster). Bunco: most buncos, most wins, most
mini buncos, the booby for the most losses, and the last bunco of the night (club rules).

House rule (the books are silent): a guest who left before the end is out of the running for the
booby prize; they keep their tallies, their place in the standings and their chance at every
other prize (``left``; ``docs/rules/tables-of-four.md``, 'Prizes').

A tie for a prize is cut or shared, as the host chooses (``ties``; docs/rules/progressive-euchre.md: "ties cut or
played off"); no other tally decides it (two guests level on stars cut, whatever their points).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tables.cuts import Cutter
from tables.formats.foursome import is_ghost
from tables.packs import Pack
from tables.prizes import Prize

FORMATS_RULE = "formats.md (Foster's Complete Hoyle; Keller; the Bunco clubs' rules)"


@dataclass(frozen=True, slots=True)
class PrizeRule:
    """One prize of a format: its key and title, the tally it counts, ``most`` (True: the most
    wins; False: the fewest: a booby prize, or the main prize of a game where the lowest score
    wins), whether it is given once per pack, and the ``words`` its reason counts in ("mini
    buncos"; default: the tally's name)."""

    key: str
    title: str
    tally: str
    most: bool = True
    per_pack: bool = True
    words: str = ""

    @property
    def booby(self) -> bool:
        """Whether this is the booby prize (its key "booby"): a guest who left is out of its
        running (house rule, module docstring)."""
        return self.key == "booby"


def award_foursome_prizes(
    tallies: Mapping[int, Mapping[str, int]],
    packs: Mapping[int, Pack],
    rules: Sequence[PrizeRule],
    *,
    ties: str = "cut",
    cutter: Cutter | None = None,
    left: Collection[int] = (),
) -> tuple[Prize, ...]:
    """The prizes for ``tallies`` (player -> tally -> total; ghosts, negative ids, left out).

    ``packs``: each guest's pack; ``rules``: the format's prizes in order; ``ties``: "shared"
    or "cut" (with ``cutter``, recorded); ``left``: the guests who left before the end, out of
    the running for the booby prize (house rule, module docstring). Returns one ``Prize`` per rule (and per pack where the
    rule is per pack and both packs have guests), each with no winner when its best count is 0.
    """
    cutter = cutter or Cutter(None, None)
    guests = [p for p in tallies if not is_ghost(p) and p in packs]
    both = {packs[g] for g in guests} == set(Pack)
    prizes = []
    for rule in rules:
        groups: list[tuple[Pack | None, list[int]]] = (
            [(pack, [g for g in guests if packs[g] is pack]) for pack in Pack]
            if rule.per_pack and both
            else [(None, guests)]
        )
        if rule.booby:
            groups = [(pack, [g for g in members if g not in left]) for pack, members in groups]
        for pack, members in groups:
            title = f"{rule.title}, {pack.value} pack" if pack is not None else rule.title
            key = f"{rule.key}_{pack.value}" if pack is not None else rule.key
            nobody = "nobody in this pack" if pack is not None else "nobody"
            prizes.append(_award(rule, key, title, members, tallies, ties, cutter, nobody=nobody))
    return tuple(prizes)


def _award(
    rule: PrizeRule,
    key: str,
    title: str,
    members: Sequence[int],
    tallies: Mapping[int, Mapping[str, int]],
    ties: str,
    cutter: Cutter,
    *,
    nobody: str = "nobody",
) -> Prize:
    """One prize among ``members``: the most (or fewest) of ``rule.tally``; a "most" prize whose
    best count is 0 goes to no one (its reason says so of ``nobody``: "nobody in this pack" for
    a pack's prize); a tie is shared or cut, as ``ties`` says."""
    if not members:
        why = "No guest who stayed to the end to award it to." if rule.booby else "No guest to award it to."
        return Prize(key, title, (), why, FORMATS_RULE)
    counts = {p: tallies[p].get(rule.tally, 0) for p in members}
    count = max(counts.values()) if rule.most else min(counts.values())
    words = rule.words or rule.tally
    if rule.most and count == 0:
        return Prize(key, title, (), f"Not awarded: {nobody} has any {words}.", FORMATS_RULE)
    tied = sorted(p for p, n in counts.items() if n == count)
    reason = _count_words(count, words).capitalize()
    if len(tied) == 1:
        return Prize(key, title, (tied[0],), f"{reason}.", FORMATS_RULE)
    level = tuple(tied)  # who tied: named where the reason is read with names (``Prize.reason_for``)
    if ties == "shared":
        return Prize(
            key, title, level, f"{reason}; {len(tied)} guests tied and share it.", FORMATS_RULE, f"{reason}.", level
        )
    winner = cutter.highest(tied, table=0, why=title, rule="house rule: ties=cut")
    return Prize(
        key, title, (winner,), f"{reason}; {len(tied)} guests tied and cut for it.", FORMATS_RULE, f"{reason}.", level
    )


def _count_words(count: int, words: str) -> str:
    """A count with its tally's words, singular for one: "2 stars", "1 star", "1 loss"."""
    if count != 1:
        return f"{count} {words}"
    return f"1 {words.removesuffix('es') if words == 'losses' else words.removesuffix('s')}"


def last_bunco(history: Sequence[Mapping[int, Mapping[str, int]]], tally: str = "buncos") -> tuple[int, ...]:
    """Who last added some of ``tally`` (default: who rolled the last bunco of the night): the
    players with some in the latest round that had any (``history``: each round's tallies
    added, first round first; ghosts left out). Several players in that round share it (house
    rule: the bell does not know which table's roll came last). A format's ``LastPrize``."""
    for added in reversed(history):
        rolled = sorted(p for p, t in added.items() if t.get(tally, 0) and not is_ghost(p))
        if rolled:
            return tuple(rolled)
    return ()


@dataclass(frozen=True, slots=True)
class Rank:
    """One key of the standings' order (``FoursomeFormat.standing``): a ``tally`` ("stars") and
    whether the most of it ranks first (``most`` True: Euchre's stars) or the fewest (False: a
    game where the lowest score wins, as at Hearts)."""

    tally: str
    most: bool = True


def rank_players(tallies: Mapping[int, Mapping[str, int]], order: Sequence[Rank]) -> tuple[tuple[int, int], ...]:
    """The standings: (place, player) for every player in ``tallies`` (ghosts included, so a
    ghost's card reads true; prizes leave them out), in ``order`` (the format's ranks,
    ``FoursomeFormat.ranks``: each a tally, the most first or the fewest first; the first
    decides, the next breaks a tie); players equal on all of them share a place (1, 2, 2, 4),
    listed by id. Returns them in order. Each player's tallies are read once (500 players:
    issue 26 item 3). House rule: the order is the format's own (its main prize's tally first)."""

    keys = {
        player: tuple(-counts.get(r.tally, 0) if r.most else counts.get(r.tally, 0) for r in order)
        for player, counts in tallies.items()
    }
    ranked = sorted(tallies, key=lambda p: (keys[p], p))
    out: list[tuple[int, int]] = []
    for index, player in enumerate(ranked):
        place = out[-1][0] if out and keys[ranked[index - 1]] == keys[player] else index + 1
        out.append((place, player))
    return tuple(out)
