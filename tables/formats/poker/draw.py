"""The seating draw: table cards, the split of each table between the packs, the pull list, the
digital deal, and a draw recorded card by card from real packs.

Rules from ``docs/rules/progressive-poker.md``, 'The seating draw': "take two packs of cards, one red
and one blue, and to select two aces from each for the four positions at the head table; three
deuces, treys, etc., for the six positions at each of the other tables ... cards being selected
to agree with the number required ... Each lady takes a red-backed card, the gentlemen drawing
the blue cards only. The number of pips on the card drawn will indicate to each person the table
at which they are to sit. Should the number of men and women not be equal, some of the men must
represent women or vice versa." The product's packs are the red and the blue (``tables.packs``).

House rules where the text is silent (also on the rules page ``templates/rules/draw.html``):

* A card's rank is its table: ace = 1 (head), deuce = 2, trey = 3, ... king = 13. Past the king
  the cards are numbered: the 14, the 15, ... (blank cards with the table number written on them,
  one red-backed and one blue-backed set), named "14 of the blue pack".
* A table of even size is split half and half (2+2 at four, 3+3 at six). A table of odd size has
  one odd seat; from the head table down, the odd seats go to the pack with more guests (red when
  equal) until its cards match its guests, and the rest to the other pack. So the number of
  guests who draw from the other pack is the fewest the even split allows.
* Who draws from the other pack: chosen at random, unless the host names them.
* The digital deal shuffles with ``random.SystemRandom`` (the operating system's randomness).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tables.errors import InvariantBroken
from tables.formats.poker.plan import TablePlan
from tables.packs import Pack
from tables.table_cards import DrawError, TableCard, pack_words, rank_name, rank_plural


@dataclass(frozen=True, slots=True)
class TableSplit:
    """How many seats of one table are drawn from each pack: ``red`` + ``blue`` = its size."""

    table: int
    red: int
    blue: int

    def count(self, pack: Pack) -> int:
        """The seats of this table drawn from ``pack``."""
        return self.red if pack is Pack.RED else self.blue


def split_packs(plan: TablePlan, *, red: int, blue: int) -> tuple[TableSplit, ...]:
    """Split every table's seats between the packs, for ``red`` and ``blue`` checked-in guests.

    Returns one ``TableSplit`` per table, table 1 first. Even tables: half and half. Odd tables:
    from the head table down, the odd seat goes to the pack with more guests (red when equal)
    until that pack's cards match its guests, then to the other pack. Source:
    docs/rules/progressive-poker.md ("two aces from each", "three deuces, treys, etc."); house rule for
    the odd seats. Raises ``DrawError`` when ``red + blue`` is not the plan's guest count.
    """
    if red < 0 or blue < 0 or red + blue != plan.guests:
        raise DrawError(
            f"The plan seats {plan.guests} guests, but {red} red-pack and {blue} blue-pack "
            f"guests were given ({red + blue}). Plan the tables again for the guests checked in."
        )
    odd = [t for t in plan.table_numbers if plan.size(t) % 2]
    red_floor = sum(size // 2 for size in plan.sizes)
    red_odd = min(max(red - red_floor, 0), len(odd))
    red_tables = set(odd[:red_odd]) if red >= blue else set(odd[len(odd) - red_odd :])
    splits = []
    for table, size in zip(plan.table_numbers, plan.sizes, strict=True):
        reds = size // 2 + (table in red_tables)
        splits.append(TableSplit(table, reds, size - reds))
    return tuple(splits)


def cards_per_pack(splits: Sequence[TableSplit]) -> dict[Pack, int]:
    """How many cards each pack gives to the draw (its seats over all tables)."""
    return {pack: sum(s.count(pack) for s in splits) for pack in Pack}


def draws_from_other_pack(splits: Sequence[TableSplit], *, red: int, blue: int) -> dict[Pack, int]:
    """For each pack, how many of its guests must draw from the other pack (the fewest possible
    with these splits): its guests beyond its cards, else 0."""
    cards = cards_per_pack(splits)
    guests = {Pack.RED: red, Pack.BLUE: blue}
    return {pack: max(guests[pack] - cards[pack], 0) for pack in Pack}


def pull_list(splits: Sequence[TableSplit]) -> dict[Pack, tuple[tuple[int, int], ...]]:
    """Which cards to take out of each real pack: pack -> ((rank, count), ...), rank order,
    ranks with no card left out. E.g. red: ((1, 2), (2, 3), (3, 3), (4, 2)).
    Source: docs/rules/progressive-poker.md ("cards being selected to agree with the number required").
    """
    return {pack: tuple((s.table, s.count(pack)) for s in splits if s.count(pack)) for pack in Pack}


def describe_cards(cards: Sequence[tuple[int, int]]) -> str:
    """((rank, count), ...) in words: "2 aces, 3 deuces, 1 trey"; "none" when empty."""
    return (
        ", ".join(f"{count} {rank_name(rank) if count == 1 else rank_plural(rank)}" for rank, count in cards) or "none"
    )


def describe_pull_list(pull: Mapping[Pack, Sequence[tuple[int, int]]], labels: Mapping[Pack, str] | None = None) -> str:
    """The pull list in words, one pack a line: "the red pack: 2 aces, 3 deuces, ..."."""
    return "\n".join(f"{pack_words(pack, labels)}: {describe_cards(pull[pack])}" for pack in Pack)


@dataclass(frozen=True, slots=True)
class DealtCard:
    """A guest's card in a draw: who, their own pack, and the card they drew (which gives the
    table). When ``card.pack`` is not ``own_pack`` the guest represents the other pack."""

    guest: int
    own_pack: Pack
    card: TableCard

    @property
    def represents_other(self) -> bool:
        """True when the guest drew from the other pack and represents it for the evening."""
        return self.card.pack is not self.own_pack

    @property
    def table(self) -> int:
        """The guest's table (the card's rank)."""
        return self.card.rank


def _check_roster(guests: Sequence[tuple[int, Pack]], plan: TablePlan) -> dict[int, Pack]:
    roster: dict[int, Pack] = {}
    for guest, pack in guests:
        if guest in roster:
            raise DrawError("{guest} is listed twice; each guest draws one card only.", guests=(guest,))
        if not isinstance(pack, Pack):
            raise InvariantBroken(f"guest {guest} has no pack: {pack!r}")
        roster[guest] = pack
    if len(roster) != plan.guests:
        raise DrawError(
            f"The plan seats {plan.guests} guests but {len(roster)} are to draw: plan the "
            f"tables again for the guests checked in."
        )
    return roster


def _representers(
    roster: dict[int, Pack], short: dict[Pack, int], representing: Collection[int], rng: random.Random
) -> set[int]:
    chosen = set(representing)
    strangers = sorted(chosen - roster.keys())
    if strangers:
        raise DrawError(
            "{guests} {are} not in this draw; pick among its guests.",
            guests=strangers,
            are="is" if len(strangers) == 1 else "are",
        )
    long = next((pack for pack in Pack if short[pack]), None)
    if long is None:
        if chosen:
            raise DrawError(
                "Each pack has cards for all its guests: nobody needs to draw from "
                "the other pack. Clear the choice of guests who represent it."
            )
        return set()
    need = short[long]
    if not chosen:
        return set(rng.sample([g for g, pack in roster.items() if pack is long], need))
    wrong = sorted(g for g in chosen if roster[g] is not long)
    if wrong:
        raise DrawError(
            "{guests} {belong} to the {other} pack, which has cards for "
            "all its guests; pick {need} guests of the {long} pack instead.",
            guests=wrong,
            other=long.other,
            need=need,
            long=long,
            belong="belongs" if len(wrong) == 1 else "belong",
        )
    if len(chosen) != need:
        raise DrawError(
            f"{need} guests of the {long} pack must draw from the {long.other} pack "
            f"(no more, no fewer); {len(chosen)} were picked."
        )
    return chosen


def deal(
    guests: Sequence[tuple[int, Pack]],
    plan: TablePlan,
    *,
    rng: random.Random | None = None,
    representing: Collection[int] = (),
) -> tuple[DealtCard, ...]:
    """Deal the draw digitally: every guest one card, shuffled with ``rng``.

    Takes (guest id, own pack) for every checked-in guest, the plan, an optional ``rng`` (default
    ``random.SystemRandom()``, cryptographically random) and optionally the ids of the guests the
    host picks to draw from the other pack (otherwise chosen at random; there must be exactly the
    number ``draws_from_other_pack`` gives, all of the pack with more guests than cards).
    Returns one ``DealtCard`` per guest, in the order given; the cards of each (pack, rank) number
    as ``split_packs`` says. Raises ``DrawError`` for a guest listed twice, a count that is not
    the plan's, or a wrong pick. Source: docs/rules/progressive-poker.md; house rules in the docstring.
    """
    roster = _check_roster(guests, plan)
    counts = Counter(roster.values())
    splits = split_packs(plan, red=counts[Pack.RED], blue=counts[Pack.BLUE])
    short = draws_from_other_pack(splits, red=counts[Pack.RED], blue=counts[Pack.BLUE])
    rng = rng if rng is not None else random.SystemRandom()
    chosen = _representers(roster, short, representing, rng)
    decks = {
        pack: [TableCard(pack, rank) for rank, n in cards for _ in range(n)]
        for pack, cards in pull_list(splits).items()
    }
    for deck in decks.values():
        rng.shuffle(deck)
    dealt = tuple(
        DealtCard(guest, pack, decks[pack.other if guest in chosen else pack].pop()) for guest, pack in roster.items()
    )
    if any(decks.values()):
        raise InvariantBroken(f"cards left over after the deal: {decks}")
    return dealt


def seating(cards: Sequence[DealtCard], plan: TablePlan) -> tuple[tuple[int, ...], ...]:
    """Guest ids per table from the drawn cards: ``result[0]`` is table 1 (the head table),
    guests in the order of ``cards``. Raises ``InvariantBroken`` when a guest appears twice, a
    card is beyond the plan, or a table's count is not its size in the plan."""
    tables: list[list[int]] = [[] for _ in plan.sizes]
    seen: set[int] = set()
    for dealt in cards:
        if dealt.guest in seen or not 1 <= dealt.table <= plan.tables:
            raise InvariantBroken(f"bad card in the draw: {dealt}")
        seen.add(dealt.guest)
        tables[dealt.table - 1].append(dealt.guest)
    if tuple(map(len, tables)) != plan.sizes:
        raise InvariantBroken(f"draw seats {[len(t) for t in tables]}, plan says {plan.sizes}")
    return tuple(map(tuple, tables))


@dataclass(frozen=True, slots=True)
class PhysicalDraw:
    """A draw from real packs, recorded card by card as guests draw them.

    plan: the tables; splits: ``split_packs`` for the checked-in guests (so the pull list);
    taken: the cards recorded so far; guests: (guest id, own pack) of everyone who is to draw
    (when given, strangers are refused and no more guests draw from the other pack than must).
    Start one with ``PhysicalDraw.start``; each ``take`` returns a new value (nothing changes on
    a refusal). Source: docs/rules/progressive-poker.md ("cards thus selected ... presented face
    downward ... to draw from"); the refusals are house rules keeping the draw to the pull list.
    """

    plan: TablePlan
    splits: tuple[TableSplit, ...]
    taken: tuple[DealtCard, ...] = ()
    guests: tuple[tuple[int, Pack], ...] = ()

    @classmethod
    def start(cls, plan: TablePlan, guests: Sequence[tuple[int, Pack]]) -> PhysicalDraw:
        """An empty draw for these (guest id, own pack) guests; ``DrawError`` as ``deal``."""
        roster = _check_roster(guests, plan)
        counts = Counter(roster.values())
        splits = split_packs(plan, red=counts[Pack.RED], blue=counts[Pack.BLUE])
        return cls(plan, splits, (), tuple(roster.items()))

    def _left(self, used: Counter[TableCard], card: TableCard) -> int:
        return self.splits[card.rank - 1].count(card.pack) - used[card]

    def remaining_cards(self) -> dict[Pack, tuple[tuple[int, int], ...]]:
        """The cards still in each pack: pack -> ((rank, count), ...), as ``pull_list``."""
        used = Counter(d.card for d in self.taken)
        left = {
            pack: tuple((s.table, s.count(pack) - used[TableCard(pack, s.table)]) for s in self.splits) for pack in Pack
        }
        return {pack: tuple(c for c in cards if c[1]) for pack, cards in left.items()}

    def remaining_guests(self) -> tuple[int, ...]:
        """Ids of the guests (of ``guests``) who have not drawn yet, in their order."""
        drawn = {d.guest for d in self.taken}
        return tuple(g for g, _ in self.guests if g not in drawn)

    def complete(self) -> bool:
        """True when every card of the pull list has been drawn."""
        return len(self.taken) == self.plan.guests

    def take(
        self, guest: int, own_pack: Pack, card: TableCard, labels: Mapping[Pack, str] | None = None
    ) -> PhysicalDraw:
        """Record that ``guest`` (of ``own_pack``) drew ``card``; returns the new draw.

        Raises ``DrawError`` (naming the cards of that pack that remain, in the host's
        ``labels``) for: a guest who already drew, a guest not in the draw or of another pack,
        a rank beyond the plan, a card not in the pull list or all of that card already taken,
        and a card of the other pack when no more of the guest's pack may draw from it.
        """
        self._check_guest(guest, own_pack, labels)
        self._check_card(card, labels)
        self._check_other_pack(guest, own_pack, card, labels)
        return PhysicalDraw(self.plan, self.splits, (*self.taken, DealtCard(guest, own_pack, card)), self.guests)

    def _check_guest(self, guest: int, own_pack: Pack, labels: Mapping[Pack, str] | None) -> None:
        """``DrawError`` if ``guest`` already drew, is not in the draw or is not of ``own_pack``."""
        own = {g: p for g, p in self.guests}
        earlier = next((d for d in self.taken if d.guest == guest), None)
        if earlier is not None:
            raise DrawError(
                "{guest} has already drawn the {card}; withdraw that card to correct it.",
                guests=(guest,),
                card=earlier.card.name_with(labels),
            )
        if own and guest not in own:
            raise DrawError("{guest} is not in this draw: check them in and redraw.", guests=(guest,))
        if own and own[guest] is not own_pack:
            raise DrawError(
                "{guest} belongs to {theirs}, not {this}.",
                guests=(guest,),
                theirs=pack_words(own[guest], labels),
                this=pack_words(own_pack, labels),
            )

    def _check_card(self, card: TableCard, labels: Mapping[Pack, str] | None) -> None:
        """``DrawError`` (naming the cards left in its pack) if ``card`` is beyond the plan's
        tables, not in the pull list, or already taken as often as it was pulled."""
        used = Counter(d.card for d in self.taken)

        def where() -> str:
            return (
                f"Cards left in {pack_words(card.pack, labels)}: {describe_cards(self.remaining_cards()[card.pack])}."
            )

        if card.rank > self.plan.tables:
            raise DrawError(
                f"There is no {card.name_with(labels)} in this draw: the plan has "
                f"{self.plan.tables} tables, so the cards go up to the "
                f"{rank_name(self.plan.tables)}. {where()}"
            )
        if self._left(used, card) <= 0:
            pulled = self.splits[card.rank - 1].count(card.pack)
            why = (
                "is not in the pull list"
                if not pulled
                else f"is already taken (all {pulled} of them)"
                if pulled > 1
                else "is already taken"
            )
            raise DrawError(f"The {card.name_with(labels)} {why}: check the card. {where()}")

    def _check_other_pack(self, guest: int, own_pack: Pack, card: TableCard, labels: Mapping[Pack, str] | None) -> None:
        """``DrawError`` if ``card`` is of the other pack and as many of ``own_pack``'s guests as
        may draw from the other pack (``draws_from_other_pack``) already have."""
        own = {g: p for g, p in self.guests}
        if own and card.pack is not own_pack:
            guests = Counter(own.values())
            allowed = draws_from_other_pack(self.splits, red=guests[Pack.RED], blue=guests[Pack.BLUE])[own_pack]
            already = sum(1 for d in self.taken if d.own_pack is own_pack and d.represents_other)
            if already >= allowed:
                raise DrawError(
                    "{guest} must draw from {pack}: {why}Cards left in {pack}: {left}.",
                    guests=(guest,),
                    pack=pack_words(own_pack, labels),
                    why=(
                        "it has cards for all its guests. "
                        if not allowed
                        else "only one of its guests draws from the other pack, and one already has. "
                        if allowed == 1
                        else f"only {allowed} of its guests draw from the other pack, and they have. "
                    ),
                    left=describe_cards(self.remaining_cards()[own_pack]),
                )

    def withdraw(self, guest: int) -> PhysicalDraw:
        """Undo ``guest``'s recorded card (a typing mistake); ``DrawError`` if none is recorded."""
        if not any(d.guest == guest for d in self.taken):
            raise DrawError("{guest} has no card recorded in this draw.", guests=(guest,))
        return PhysicalDraw(self.plan, self.splits, tuple(d for d in self.taken if d.guest != guest), self.guests)

    def seating(self) -> tuple[tuple[int, ...], ...]:
        """Guest ids per table once ``complete()``; ``DrawError`` naming who has not drawn."""
        if not self.complete():
            remaining = tuple(self.remaining_guests())
            raise DrawError(
                "The draw is not finished: {guests} {have} not drawn ({left} cards left).",
                guests=remaining,
                have="has" if len(remaining) == 1 else "have",
                left=self.plan.guests - len(self.taken),
            )
        return seating(self.taken, self.plan)
