"""The two packs of the seating draw.

Source: ``docs/rules/progressive-poker.md``, 'The seating draw': "take two packs of cards, one red and
one blue ... Each lady takes a red-backed card, the gentlemen drawing the blue cards only."
The product calls them the red pack and the blue pack; a host may label them as they like
("Ladies" / "Gentlemen" as the old rules do).
"""

from __future__ import annotations

import enum


class Pack(enum.StrEnum):
    """One of the two packs of the seating draw; its value is what is stored ("red"/"blue")."""

    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> Pack:
        """The other pack (red for blue, blue for red)."""
        return Pack.BLUE if self is Pack.RED else Pack.RED

    @classmethod
    def parse(cls, text: str) -> Pack:
        """Read a pack from text: "red", "R", "Blue", "b" (any case, spaces ignored).

        Raises ``RuleError`` naming the text when it is neither pack.
        """
        from tables.errors import RuleError

        word = (text or "").strip().lower()
        for pack in cls:
            if word in (pack.value, pack.value[0]):
                return pack
        raise RuleError(f"“{text}” is not a pack: write red or blue.")
