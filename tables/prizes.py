"""A prize, in every format: its title, who won it, and the reason in words.

Each format awards its own prizes (``docs/rules/README.md``, "Prizes"; Progressive Poker:
``tables.formats.poker.prizes``; tables of four: ``tables.formats.prizes``); a prize is the same
value for all of them, so the standings, the ceremony, the certificates and the export show it
one way.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.errors import GuestIds, GuestName, fill


@dataclass(frozen=True, slots=True)
class Prize:
    """One prize: ``key`` ("head_table", "red_pack", "blue_pack", "booby"), its title, the
    winning guest ids (more than one when shared), the reason in plain words with guests by id
    (for logs and the export), the rule's source; ``why`` is the reason before any tie and
    ``tied`` the guests who tied for it (empty without a tie). ``reason_for`` writes the reason
    with names."""

    key: str
    title: str
    winners: tuple[int, ...]
    reason: str
    rule: str
    why: str = ""
    tied: tuple[int, ...] = ()

    def reason_for(self, name: GuestName, *, printed: bool = False) -> str:
        """The reason with guests written by ``name`` (guest id -> words): "2 yellow counters
        ... Ann, Bob and Cy tied; Bob won the cut (house rule: a tie for a prize is cut)."
        ``printed`` (a printed page, where the winners are printed beside it): tied guests are
        counted ("3 guests tied; Bob won the cut.") and the "(house rule: ...)" notes left out."""
        if not self.tied:
            return self.why or self.reason
        shared = self.winners == self.tied
        if printed:
            note = "{count} guests tied and share it." if shared else "{count} guests tied; {guest} won the cut."
        else:
            note = (
                "{tied} tied and share it (house rule: tied guests share a prize)."
                if shared
                else "{tied} tied; {guest} won the cut (house rule: a tie for a prize is cut)."
            )
        return self.why + " " + fill(note, name, guests=self.winners, tied=GuestIds(self.tied), count=len(self.tied))
