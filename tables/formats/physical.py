"""The physical draw at tables of four: guests draw seat cards from real packs, the host records each.

A seat card names a table and a seat: "3 N" is table 3, North (``docs/rules/tables-of-four.md``,
"The physical draw"). The cards in the packs are exactly the cards the digital draw would deal
for the same guests (``FormatRules.draw``): at the partnership formats every seat a ghost does
not take, North and East from the red pack and South and West from the blue pack; at a Euchre
tournament the seats of game 1 and the sit-out cards (table one past the last). So the pull list
is the digital draw's cards without their guests, and finishing gives the seating the digital
draw gives with those cards: each guest at the seat on their card, the ghosts where the digital
draw seats them (house rule: a ghost's seat has no card in the packs).

A guest draws from their own pack, unless that pack has fewer cards than guests: then as many
of its guests as it is short draw from the other pack (as in Progressive Poker's draw). Where
the packs play no part (``packs_matter`` False: everyone enters alone), any card will do.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tables.formats.engine import DrawnSeat, Plan, Seating
from tables.formats.foursome import SEAT_PACKS
from tables.formats.foursome import Seat as SeatName
from tables.packs import Pack
from tables.table_cards import DrawError, parse_table_card

_SEATS = {"n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3}
_FILLERS = {"table", "seat", "at", "of", "the", "card"}


@dataclass(frozen=True, slots=True)
class SeatCardOf:
    """A card of the physical draw at tables of four: its ``table`` (1-based), its ``seat``
    (0 North .. 3 West) and the ``pack`` it is in."""

    table: int
    seat: int
    pack: Pack

    def words(self, labels: Mapping[Pack, str] | None = None) -> str:
        """The card as the host reads it: "3 North (red pack)"."""
        label = (labels or {}).get(self.pack, f"{self.pack} pack")
        return f"{self.table} {SeatName(self.seat).word} ({label})"


def parse_seat_card(text: str, *, labels: Mapping[Pack, str] | None = None) -> tuple[int, int, Pack | None]:
    """Read a seat card as a host types it: "3 N", "3N", "N3", "table 3 north", "3 north red",
    "trey West". Returns (table, seat 0..3, the pack named or None). Raises ``DrawError`` naming
    the text when it names no seat or no table."""
    words = re.sub(r"[^\w]+", " ", (text or "").lower()).split()
    split: list[str] = []
    for word in words:
        split += re.findall(r"[0-9]+|[^0-9]+", word)
    seat = next((_SEATS[w] for w in split if w in _SEATS), None)
    rest = [w for w in split if w not in _SEATS and w not in _FILLERS]
    if seat is None or not rest:
        raise DrawError(
            f"“{text}” is not a seat card: write its table and its seat (N, E, S or W), e.g. “3 N” or “1 West”."
        )
    own = SEAT_PACKS[SeatName(seat)]
    try:
        card = parse_table_card(" ".join(rest), default_pack=own, labels=labels)
    except DrawError:
        raise DrawError(
            f"“{text}” is not a seat card: write its table and its seat (N, E, S or W), e.g. “3 N” or “1 West”."
        ) from None
    return card.rank, seat, card.pack if len(rest) > 1 else None


@dataclass(frozen=True, slots=True)
class SeatDraw:
    """A physical draw at tables of four, recorded card by card (module docstring).

    ``reference``: a seating the format's digital draw gives for these guests (the ghosts' places,
    0 or below, are kept; a guest's place is a card in the packs); ``cards``: the cards in the
    packs, in the reference's order; ``guests``: (guest id, own pack) of everyone to draw;
    ``packs_matter``: whether a guest must draw from their own pack; ``taken``: the cards drawn
    so far, (guest id, card), in order. Each ``take`` returns a new value (nothing changes on a
    refusal)."""

    reference: Seating
    cards: tuple[SeatCardOf, ...]
    guests: tuple[tuple[int, Pack], ...]
    packs_matter: bool = True
    taken: tuple[tuple[int, SeatCardOf], ...] = ()

    @classmethod
    def start(cls, reference: Seating, guests: Sequence[tuple[int, Pack]], *, packs_matter: bool) -> SeatDraw:
        """An empty draw whose packs hold the cards of ``reference`` (the digital draw's
        seating for ``guests``: its cards, without their guests)."""
        cards = tuple(SeatCardOf(c.table, c.seat or 0, c.pack) for c in reference.cards)
        return cls(reference, cards, tuple(guests), packs_matter)

    def remaining(self) -> tuple[SeatCardOf, ...]:
        """The cards still in the packs, in the reference's order."""
        used = {card for _, card in self.taken}
        return tuple(c for c in self.cards if c not in used)

    def remaining_guests(self) -> tuple[int, ...]:
        """The guests (ids) who have not drawn yet, in their order."""
        drawn = {g for g, _ in self.taken}
        return tuple(g for g, _ in self.guests if g not in drawn)

    def complete(self) -> bool:
        """Whether every guest has drawn their card."""
        return not self.remaining_guests()

    def take(
        self, guest: int, table: int, seat: int, pack: Pack | None = None, labels: Mapping[Pack, str] | None = None
    ) -> SeatDraw:
        """Record that ``guest`` drew the card of ``table`` and ``seat`` (``pack``: the pack the
        host named, checked against the card's). Returns the new draw.

        Raises ``DrawError`` naming the guest and listing the cards left for: a guest who drew
        already or is not in the draw, a card not in the packs (a ghost's seat, a table beyond
        the plan) or taken already, a pack that is not the card's, and a card of the other pack
        when the guest's own pack has cards for every guest of it still to draw."""
        own = dict(self.guests)
        if guest not in own:
            raise DrawError("{guest} is not in this draw: check them in and restart the draw.", guests=(guest,))
        earlier = next((c for g, c in self.taken if g == guest), None)
        if earlier is not None:
            raise DrawError(
                "{guest} has already drawn {card}; withdraw that card to correct it.",
                guests=(guest,),
                card=earlier.words(labels),
            )
        card = next((c for c in self.cards if (c.table, c.seat) == (table, seat)), None)
        left = ", ".join(c.words(labels) for c in self.remaining()) or "none"
        if card is None:
            raise DrawError(
                f"There is no card {table} {SeatName(seat).word} in this draw (a ghost's seat, or no such "
                f"table). Cards left: {left}."
            )
        if card in {c for _, c in self.taken}:
            holder = next(g for g, c in self.taken if c == card)
            raise DrawError(
                "{guests[1]} has drawn {card} already: check the card. Cards left: " + left + ".",
                guests=(guest, holder),
                card=card.words(labels),
            )
        if self.packs_matter and pack is not None and pack is not card.pack:
            raise DrawError(f"The card {table} {SeatName(seat).word} is in the {card.pack} pack: check the card.")
        if self.packs_matter and card.pack is not own[guest] and not self._may_represent(own, guest):
            mine = ", ".join(c.words(labels) for c in self.remaining() if c.pack is own[guest])
            raise DrawError(
                "{guest} must draw from their own pack, which has a card for each of its guests. Cards left "
                "there: " + (mine or "none") + ".",
                guests=(guest,),
            )
        return SeatDraw(self.reference, self.cards, self.guests, self.packs_matter, (*self.taken, (guest, card)))

    def _may_represent(self, own: Mapping[int, Pack], guest: int) -> bool:
        """Whether one more guest of ``guest``'s pack may draw from the other pack."""
        pack = own[guest]
        short = Counter(own.values())[pack] - sum(1 for c in self.cards if c.pack is pack)
        already = sum(1 for g, c in self.taken if own[g] is pack and c.pack is not pack)
        return already < short

    def seating(self) -> Seating:
        """The seating once every guest has drawn: each guest at their card's seat, the ghosts
        where the reference seats them, the cards as the digital draw gives them. Raises
        ``DrawError`` naming who has not drawn yet."""
        waiting = self.remaining_guests()
        if waiting:
            raise DrawError(
                "{guests} have not drawn a card yet." if len(waiting) > 1 else "{guests} has not drawn a card yet.",
                guests=waiting,
            )
        at = {(c.table, c.seat): g for g, c in self.taken}
        tables = tuple(
            tuple(p if p <= 0 else at[(n, s)] for s, p in enumerate(ids))
            for n, ids in enumerate(self.reference.tables, 1)
        )
        own = dict(self.guests)
        cards = tuple(
            DrawnSeat(
                g, c.pack if self.packs_matter else own[g], c.table, c.seat, self.packs_matter and c.pack is not own[g]
            )
            for g, c in self.taken
        )
        return Seating(Plan(self.reference.plan.sizes, self.reference.plan.relaxed), tables, cards)
