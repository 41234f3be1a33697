"""A table card in a guest's words: its rank (its table) and its pack, read from what the host
types ("3 red", "ace blue", "the 14 of the red pack") and said back in words, for every format's
physical draw (``docs/rules/README.md``, "The seating draw").

House rules where the texts are silent: a card's rank is its table (ace = 1, the head table;
king = 13; past the king blank cards numbered 14, 15, ...), and a card is named in the host's
words for the packs (their labels).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from tables.errors import InvariantBroken, RuleError
from tables.packs import Pack

_NAMES = ("ace", "deuce", "trey", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
_PLURALS = {"six": "sixes"}
_SPELLINGS = {
    **{name: rank for rank, name in enumerate(_NAMES, start=1)},
    "a": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "tray": 3,
    "t": 10,
    "j": 11,
    "knave": 11,
    "q": 12,
    "k": 13,
}
_FILLERS = {"of", "the", "pack", "card", "from"}


class DrawError(RuleError):
    """A draw the rules refuse (a wrong card, a guest twice, a bad pick); the message says why."""


def rank_name(rank: int) -> str:
    """The name of a table card's rank: 1 "ace", 2 "deuce", 3 "trey", 4 "four", ... 13 "king",
    then past the king the number itself, "14", "15", ... (house rule: numbered cards).

    Raises ``InvariantBroken`` for a rank below 1.
    """
    if rank < 1:
        raise InvariantBroken(f"a table card's rank is 1 or more, not {rank}")
    return _NAMES[rank - 1] if rank <= len(_NAMES) else str(rank)


def rank_plural(rank: int) -> str:
    """The plural of ``rank_name``: "aces", "deuces", "treys", "sixes", "14s"."""
    name = rank_name(rank)
    return _PLURALS.get(name, name + "s")


def pack_words(pack: Pack, labels: Mapping[Pack, str] | None = None) -> str:
    """How a pack is named in a sentence: "the blue pack", or the host's label ("the Gentlemen
    pack", "the Red pack" for the label "Red pack"). Source: docs/rules/progressive-poker.md (the host's pack labels).
    """
    label = (labels or {}).get(pack, pack.value)
    return f"the {label}" if label.lower().endswith("pack") else f"the {label} pack"


@dataclass(frozen=True, slots=True)
class TableCard:
    """One card of the draw: its pack and its rank, which is the table number (1 = head).

    Raises ``InvariantBroken`` when built with a rank below 1 or a pack that is not a ``Pack``.
    Source: docs/rules/progressive-poker.md ("the number of pips ... indicate ... the table").
    """

    pack: Pack
    rank: int

    def __post_init__(self) -> None:
        if not isinstance(self.pack, Pack) or type(self.rank) is not int or self.rank < 1:
            raise InvariantBroken(f"not a table card: pack={self.pack!r}, rank={self.rank!r}")

    @property
    def table(self) -> int:
        """The table this card seats its guest at (its rank)."""
        return self.rank

    @property
    def name(self) -> str:
        """The card in words, e.g. "trey of the blue pack", "14 of the red pack"."""
        return self.name_with()

    def name_with(self, labels: Mapping[Pack, str] | None = None) -> str:
        """The card in words with the host's pack labels, e.g. "trey of the Gentlemen pack"."""
        return f"{rank_name(self.rank)} of {pack_words(self.pack, labels)}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str, *, default_pack: Pack, labels: Mapping[Pack, str] | None = None) -> TableCard:
        """Same as ``parse_table_card``."""
        return parse_table_card(text, default_pack=default_pack, labels=labels)


def _pack_spellings(labels: Mapping[Pack, str] | None) -> dict[str, Pack]:
    spellings: dict[str, Pack] = {}
    for pack in Pack:
        words = [pack.value, pack.value[0]]
        if labels and pack in labels:
            words.append(" ".join(w for w in _words(labels[pack]) if w not in _FILLERS))
        for word in words:
            spellings.setdefault(word, pack)
    return spellings


def _words(text: str) -> list[str]:
    return re.sub(r"[^\w]+", " ", text.lower()).split()


def _rank(word: str) -> int | None:
    """The rank a word names: a number in the digits 0 to 9 (at most 4 of them: "²", "①" and
    "٣" are not ranks), a rank's name or letter; None otherwise."""
    if re.fullmatch(r"[0-9]{1,4}", word):
        return int(word) if int(word) >= 1 else None
    return _SPELLINGS.get(word)


def parse_table_card(text: str, *, default_pack: Pack, labels: Mapping[Pack, str] | None = None) -> TableCard:
    """Read a table card as a host types it: "3", "trey", "3 red", "ace blue", "A", "K", "10 b",
    "3r", "red 3", "king of the blue pack", "queen of the Ladies pack" (with ``labels``).

    The rank is a number (1 and up), a name (ace, deuce/two, trey/tray/three, ... king) or a
    letter (A, T, J, Q, K); the pack is red/blue, r/b, or the host's label, before or after the
    rank; without one the card is of ``default_pack`` (usually the guest's own pack).
    Returns a ``TableCard``; raises ``DrawError`` naming the text when it cannot be read.
    """
    packs = _pack_spellings(labels)
    words = [w for w in _words(text or "") if w not in _FILLERS]
    rank, pack = None, None
    if len(words) == 1:
        rank, pack = _rank(words[0]), default_pack
        compact = re.fullmatch(r"([0-9]+|[a-z]+?)(r|b|red|blue)", words[0])
        if rank is None and compact:
            rank, pack = _rank(compact[1]), packs[compact[2]]
    elif len(words) >= 2:
        if _rank(words[0]) is not None:
            rank, pack = _rank(words[0]), packs.get(" ".join(words[1:]))
        elif _rank(words[-1]) is not None:
            rank, pack = _rank(words[-1]), packs.get(" ".join(words[:-1]))
    if rank is None or pack is None:
        raise DrawError(
            f"“{text}” is not a table card: write its rank (a number, or ace, deuce, trey ... "
            f"king) and, if it is not from {pack_words(default_pack, labels)}, its pack, "
            f"e.g. “3 red” or “ace blue”."
        )
    return TableCard(pack, rank)
