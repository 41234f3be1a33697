"""What happened to one guest at a bell, in every format: the entries a bell's record keeps.

A bell (or a guest leaving or arriving) is recorded as entries, one thing to one guest each, so
the host's board, the room display and each guest's phone say it in words and an evening can be
replayed from them (``docs/rules/README.md``, "The bell"). Each format writes its own kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BellEntry:
    """One thing that happened to one guest at a bell (or when a guest left or arrived).

    ``kind`` is one of: "yellow", "up", "down", "stays", "stake", "swap", "cut", "lot",
    "no_result", "leave", "arrive", "fill", "close", "renumber". ``from_table``/``to_table`` are
    1-based table numbers (None where there is no table). ``amount`` is the counters of a fresh
    stake or an arrival's stake, or a cut card's rank (ace 1 .. king 13). ``rule`` says where the
    rule comes from; ``text`` is plain words addressed to that guest (second person, for their
    own phone); ``about`` says the same of them in the third person, starting "Guest <id>" where
    the guest is the subject, for the host's board and the room ("Guest 17 won the pool at
    table 2: goes to the head table (table 1).").
    ``cut_for`` says, for a "cut", what the tie was about ("who changes seats with guest 12"),
    so a tie that arises again can be settled by the same cards (``tables.cuts.ties_cut``);
    it is "" for every other kind.
    """

    kind: str
    guest: int
    from_table: int | None
    to_table: int | None
    amount: int = 0
    rule: str = ""
    text: str = ""
    about: str = ""
    cut_for: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON with the same field names (``cut_for`` only where it is set)."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "guest": self.guest,
            "from_table": self.from_table,
            "to_table": self.to_table,
            "amount": self.amount,
            "rule": self.rule,
            "text": self.text,
            "about": self.about,
        }
        if self.cut_for:
            data["cut_for"] = self.cut_for
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BellEntry:
        """Read back what ``to_json`` wrote. A "cut" stored before ``cut_for`` was kept gets it
        back from its text ("You cut a 9 for <what> (...)."), the only place it was written."""
        kind, text = str(data["kind"]), str(data.get("text", ""))
        cut_for = str(data.get("cut_for", ""))
        if kind == "cut" and not cut_for and " for " in text:
            cut_for = text.partition(" for ")[2].rpartition(" (")[0]
        return cls(
            kind=kind,
            guest=int(data["guest"]),
            from_table=None if data.get("from_table") is None else int(data["from_table"]),
            to_table=None if data.get("to_table") is None else int(data["to_table"]),
            amount=int(data.get("amount", 0)),
            rule=str(data.get("rule", "")),
            text=text,
            about=str(data.get("about", "")),
            cut_for=cut_for,
        )
