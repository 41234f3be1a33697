"""What the bell does at the end of a round: yellow counters, moves, fresh stakes, seat changes.

Source: ``docs/rules/progressive-poker.md``, 'The bell', in this order:
1. the head table's pool winner gets one yellow counter;
2. the pool winner at every other table moves up one table;
3. at the head table the player with the fewest counters who was not in the call goes down to
   the booby table (ties are settled by cutting cards; the lowest cut stays);
4. a player who lost all counters takes a fresh stake from the banker and changes seats with
   the booby-table player who has the most counters.
Table sizes stay as they were and every guest keeps exactly one seat. Where the rules are
silent the house rules in ``tables.formats.poker.bell.options.BellOptions`` decide; every entry of the record
says which rule it followed. ``ring_bell`` is pure: a state and results in, a frozen
``BellRecord`` out. Import the bell's names from ``tables.formats.poker.bell``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tables.cuts import Cuts, Cutter
from tables.entries import BellEntry
from tables.errors import GuestIds, InvariantBroken
from tables.formats.poker.bell.checks import check_results, count_off
from tables.formats.poker.bell.options import BellOptions
from tables.formats.poker.bell.state import SEEDS_RULE, BellRecord, EveningState, ResultError, TableResult, check_stake
from tables.words import numbered, once


def table_name(number: int, count: int) -> str:
    """ "the head table (table 1)", "the booby table (table 5)" or "table 3"."""
    if number == 1:
        return "the head table (table 1)"
    if number == count:
        return f"the booby table (table {number})"
    return f"table {number}"


class _Bell:
    """The working parts of one bell; ``ring()`` returns the record. Not for use elsewhere."""

    def __init__(
        self,
        state: EveningState,
        results: tuple[TableResult, ...],
        stake: int,
        options: BellOptions,
        cutter: Cutter,
        last_round: bool,
    ) -> None:
        self.state = state
        self.by_table = {result.table: result for result in results}
        self.results = tuple(sorted(results, key=lambda result: result.table))
        self.stake = stake
        self.options = options
        self.cutter = cutter
        self.last_round = last_round
        self.count = len(state.tables)
        self.entries: list[BellEntry] = cutter.entries
        self.warnings: list[str] = []
        self.counters = dict(state.counters)
        self.yellow = dict(state.yellow)
        self.stakes = dict(state.stakes)
        self.reported: set[int] = set()
        self.tables = [list(table) for table in state.tables]
        self.everyone_in_call = False

    def add(
        self,
        kind: str,
        guest: int,
        from_table: int | None,
        to_table: int | None,
        text: str,
        rule: str = SEEDS_RULE,
        amount: int = 0,
        *,
        about: str,
    ) -> None:
        """Record one entry: ``text`` to the guest ("You ..."), ``about`` of them ("Guest 17 ...")."""
        self.entries.append(BellEntry(kind, guest, from_table, to_table, amount, rule, text, about))

    def ring(self) -> BellRecord:
        self.take_counts()
        movers, how = self.find_movers([1])
        self.give_yellow(movers[1])
        more = self.find_movers(range(2, self.count + 1))
        movers.update(more[0])
        how.update(more[1])
        if not self.last_round:
            goer = self.find_goer(movers[1])
            self.move(movers, how, goer)
            self.settle_busts()
        after = EveningState(tuple(map(tuple, self.tables)), self.counters, self.yellow, self.stakes)
        self.check(after)
        return BellRecord(
            before=self.state,
            after=after,
            entries=tuple(self.entries),
            warnings=once(self.warnings),
            kind="bell",
            results=self.results,
            stake=self.stake,
            last_round=self.last_round,
            options=self.options.to_json(),
        )

    def take_counts(self) -> None:
        """Apply the reported counters; warn where a table's complete count is off."""
        for result in self.results:
            off = count_off(self.state, result.table, result.counters)
            if off:
                before = sum(self.state.counters[guest] for guest in self.state.guests_at(result.table))
                side = "short of" if off < 0 else "more than"
                self.warnings.append(
                    f"Counters at table {result.table} add up to {before + off}, {abs(off)} {side} {before}."
                )
            self.counters.update(result.counters)
            self.reported.update(result.counters)

    def find_movers(self, numbers: Iterable[int]) -> tuple[dict[int, int], dict[int, str]]:
        """Table number -> the guest who counts as its pool winner, and how they won it."""
        movers: dict[int, int] = {}
        how: dict[int, str] = {}
        for number in numbers:
            if self.last_round and number != 1:
                continue
            result = self.by_table.get(number)
            seated = self.state.guests_at(number)
            if result is None or result.pool_winner is None:
                rule = self.options.house("no_result")
                if self.options.no_result == "lot":
                    movers[number] = self.cutter.highest(
                        seated, table=number, why=f"the lot at table {number}", rule=rule
                    )
                    how[number] = "lot"
                    self.add(
                        "lot",
                        movers[number],
                        number,
                        number,
                        rule=rule,
                        text=(
                            f"Table {number} had no result at the bell; the host settled it by lot"
                            " and you cut the highest card: you count as its pool winner."
                        ),
                        about=(
                            f"Table {number} had no result at the bell; guest {movers[number]} won the lot"
                            " and counts as its pool winner."
                        ),
                    )
                else:
                    for guest in seated:
                        self.add(
                            "no_result",
                            guest,
                            number,
                            number,
                            rule=rule,
                            text=(
                                f"Table {number} had no result at the bell: everyone there keeps their seat this time."
                            ),
                            about=(
                                f"Table {number} had no result at the bell: guest {guest} keeps the seat this time."
                            ),
                        )
                continue
            movers[number], how[number] = result.pool_winner, "pool"
            if result.tied and self.options.pool_tie == "cut":
                rule = self.options.house("pool_tie")
                movers[number] = self.cutter.highest(
                    {result.pool_winner, *result.tied},
                    table=number,
                    why=f"the split pool at table {number}",
                    rule=rule,
                )
                how[number] = "tie"
        return movers, how

    def give_yellow(self, winner: int) -> None:
        """Step 1: one yellow counter to the head table's pool winner (or each, if split)."""
        self.yellow[winner] += 1
        self.add(
            "yellow",
            winner,
            1,
            1,
            "You won the pool at the head table: one yellow counter.",
            about=f"Guest {winner} won the pool at the head table: one yellow counter.",
        )
        head = self.by_table[1]
        if head.tied and self.options.tie_yellow == "each":
            for guest in sorted({g for g in (head.pool_winner, *head.tied) if g is not None} - {winner}):
                self.yellow[guest] += 1
                self.add(
                    "yellow",
                    guest,
                    1,
                    1,
                    rule=self.options.house("tie_yellow"),
                    text=("You split the pool at the head table: one yellow counter."),
                    about=f"Guest {guest} split the pool at the head table: one yellow counter.",
                )

    def fewest(self, guests: Sequence[int], why: str, rule: str) -> int:
        low = min(self.counters[guest] for guest in guests)
        tied = [guest for guest in guests if self.counters[guest] == low]
        return self.cutter.highest(tied, table=1, why=why, rule=rule)

    def find_goer(self, winner: int) -> int:
        """Step 3: who goes down from the head table."""
        head = self.state.guests_at(1)
        result = self.by_table[1]
        call = {result.pool_winner, *result.in_call, *result.tied}
        twice = self.options.head_bust == "twice"

        def prefer_solvent(guests: list[int]) -> list[int]:
            solvent = [guest for guest in guests if self.counters[guest] > 0]
            return solvent if twice and solvent else guests

        outside = prefer_solvent([guest for guest in head if guest not in call])
        why = "who goes down from the head table"
        if outside:
            self.everyone_in_call = False
            goer = self.fewest(outside, why, SEEDS_RULE)
        else:
            self.everyone_in_call = True
            rule = self.options.house("all_in_call")
            others = prefer_solvent([guest for guest in head if guest != winner])
            if self.options.all_in_call == "cut":
                goer = self.cutter.highest(others, table=1, why=why, rule=rule)
            else:
                goer = self.fewest(others, why, rule)
        for guest in head:
            if guest in call and guest != goer and self.counters[guest] <= self.counters[goer]:
                self.add(
                    "stays",
                    guest,
                    1,
                    1,
                    (
                        f"You had {self.counters[guest]} counters, no more than guest {goer}'s"
                        f" {self.counters[goer]}, but you were in the call: you keep your seat."
                    ),
                    about=(
                        f"Guest {guest} had {self.counters[guest]} counters, no more than guest {goer}'s"
                        f" {self.counters[goer]}, but was in the call: keeps the seat at the head table."
                    ),
                )
        return goer

    def move(self, movers: dict[int, int], how: dict[int, str], goer: int) -> None:
        """Steps 2 and 3: winners up, the head table's goer down; each takes the seat left."""
        playing = sorted(movers)
        out = {number: movers[number] for number in playing}
        out[1] = goer
        dest = {number: playing[i - 1] for i, number in enumerate(playing) if number != 1}
        dest[1] = playing[-1]
        arriving = {dest[number]: out[number] for number in playing}
        for number in playing:
            seats = self.tables[number - 1]
            seats[seats.index(out[number])] = arriving[number]
        for number in playing[1:]:
            self.announce_up(out[number], number, dest[number], how[number])
        self.announce_down(goer, playing[-1])

    def announce_up(self, guest: int, number: int, to: int, how: str) -> None:
        """The "up" entry for ``guest``, who won table ``number`` by ``how`` ("pool", "tie" or
        "lot") and goes to table ``to``, naming the tables that sat out in between."""
        skipped = [t for t in range(to + 1, number)]
        won = {"pool": "won the pool", "tie": "won the cut for the split pool", "lot": "won the lot"}[how]
        text = f"You {won} at table {number}: go to {table_name(to, self.count)}."
        about = f"Guest {guest} {won} at table {number}: goes to {table_name(to, self.count)}."
        rule = SEEDS_RULE if how == "pool" else self.options.house("pool_tie" if how == "tie" else "no_result")
        if skipped:
            sat_out = f"{numbered('table', skipped)} sat out this bell"
            text = f"You {won} at table {number}; {sat_out}, so go to {table_name(to, self.count)}."
            about = f"Guest {guest} {won} at table {number}; {sat_out}, so goes to {table_name(to, self.count)}."
            rule = self.options.house("no_result")
        self.add("up", guest, number, to, text, rule=rule, about=about)

    def announce_down(self, goer: int, low: int) -> None:
        """The entry for the head table's ``goer``, who goes to table ``low`` (the lowest table
        that played): "down", or "stays" when no other table played this deal."""
        start, of = self.goer_reason(goer)
        rule = self.options.house("all_in_call") if self.everyone_in_call else SEEDS_RULE
        if low == 1:
            self.add(
                "stays",
                goer,
                1,
                1,
                rule=self.options.house("no_result"),
                text=(f"{start}, but no other table played this deal: you keep your seat."),
                about=(f"{of}, but no other table played this deal: keeps the seat."),
            )
        elif low == self.count:
            self.add(
                "down",
                goer,
                1,
                low,
                f"{start}: go to the booby table (table {low}).",
                rule,
                about=f"{of}: goes to the booby table (table {low}).",
            )
        else:
            self.add(
                "down",
                goer,
                1,
                low,
                rule=self.options.house("no_result"),
                text=(
                    f"{start}: the booby table sat out this bell, so go to table {low}, the lowest table that played."
                ),
                about=(
                    f"{of}: the booby table sat out this bell, so goes to table {low}, the lowest table that played."
                ),
            )

    def goer_reason(self, goer: int) -> tuple[str, str]:
        """Why ``goer`` leaves the head table: (said to them, said of them)."""
        if not self.everyone_in_call:
            return (
                "You had the fewest counters at the head table and were not in the call",
                f"Guest {goer} had the fewest counters at the head table and was not in the call",
            )
        if self.options.all_in_call == "cut":
            return (
                "Everyone at the head table was in the call and you cut the highest card",
                f"Everyone at the head table was in the call and guest {goer} cut the highest card",
            )
        return (
            "Everyone at the head table was in the call; you had the fewest counters besides the winner",
            f"Everyone at the head table was in the call; guest {goer} had the fewest counters besides the winner",
        )

    def settle_busts(self) -> None:
        """Step 4: fresh stakes, and seat changes with the booby table's best player."""
        booby = self.count
        where = {guest: number for number, seats in enumerate(self.tables, 1) for guest in seats}
        busts = sorted(
            (guest for guest in where if self.counters[guest] == 0),
            key=lambda guest: (where[guest], self.tables[where[guest] - 1].index(guest)),
        )
        partners = [guest for guest in self.tables[booby - 1] if self.counters[guest] > 0]
        if self.options.swap_with == "played_there":
            partners = [guest for guest in partners if guest in self.state.guests_at(booby)]
        swaps = 0
        for bust in busts:
            number = where[bust]
            self.give_stake(bust, number)
            if self.keeps_seat(bust, number, swaps=swaps, partners=partners):
                continue
            partner = self.find_partner(bust, number, partners)
            partners.remove(partner)
            swaps += 1
            self.swap(bust, partner, number, where)

    def give_stake(self, bust: int, number: int) -> None:
        """A fresh stake for ``bust`` (at table ``number``), with its "stake" entry."""
        self.counters[bust] += self.stake
        self.stakes[bust] += 1
        self.add(
            "stake",
            bust,
            number,
            number,
            amount=self.stake,
            text=(f"You lost all your counters: the banker gives you a fresh stake of {self.stake} counters."),
            about=(f"Guest {bust} lost all counters: the banker gives a fresh stake of {self.stake} counters."),
        )

    def keeps_seat(self, bust: int, number: int, *, swaps: int, partners: list[int]) -> bool:
        """True (with a "stays" entry, and a warning if nobody can swap) when ``bust`` at table
        ``number`` keeps the seat: at the booby table already, not the round's first bust under
        ``many_busts="first_only"`` (``swaps``: seat changes so far), or no ``partners`` left.
        """
        booby = self.count
        if number == booby:
            self.add(
                "stays",
                bust,
                booby,
                booby,
                rule="house rule: a bust at the booby table keeps the seat",
                text="You are at the booby table already: keep your seat.",
                about=f"Guest {bust} is at the booby table already: keeps the seat.",
            )
            return True
        if self.options.many_busts == "first_only" and swaps:
            self.add(
                "stays",
                bust,
                number,
                number,
                rule=self.options.house("many_busts"),
                text="Only the round's first bust changes seats: keep your seat.",
                about=f"Only the round's first bust changes seats: guest {bust} keeps the seat.",
            )
            return True
        if not partners:
            self.warnings.append(
                f"Guest {bust} lost all counters at table {number}, but nobody at the booby"
                " table can change seats with them: they keep their seat."
            )
            self.add(
                "stays",
                bust,
                number,
                number,
                rule="house rule: no one to change with",
                text="Nobody at the booby table can change seats with you: keep your seat.",
                about=f"Nobody at the booby table can change seats with guest {bust}: keeps the seat.",
            )
            return True
        return False

    def swap(self, bust: int, partner: int, number: int, where: dict[int, int]) -> None:
        """``bust`` (table ``number``) and ``partner`` (booby table) change seats, in
        ``self.tables`` and ``where`` (guest -> table number), with their two "swap" entries."""
        booby = self.count
        mine, theirs = self.tables[number - 1], self.tables[booby - 1]
        mine[mine.index(bust)], theirs[theirs.index(partner)] = partner, bust
        where[bust], where[partner] = booby, number
        self.add(
            "swap",
            bust,
            number,
            booby,
            (f"Change seats with guest {partner}: go to the booby table (table {booby})."),
            about=(f"Guest {bust} changes seats with guest {partner}: goes to the booby table (table {booby})."),
        )
        self.add(
            "swap",
            partner,
            booby,
            number,
            (
                f"Guest {bust} lost all counters at {table_name(number, booby)} and you hold the"
                f" most counters at the booby table: take their seat at table {number}."
            ),
            about=(
                f"Guest {partner} holds the most counters at the booby table: takes guest {bust}'s"
                f" seat at table {number}."
            ),
        )

    def find_partner(self, bust: int, number: int, partners: list[int]) -> int:
        booby = self.count
        why = f"who changes seats with guest {bust}"
        unknown = [guest for guest in partners if guest not in self.reported]
        if not unknown:
            top = max(self.counters[guest] for guest in partners)
            tied = [guest for guest in partners if self.counters[guest] == top]
            return self.cutter.highest(tied, table=booby, why=why, rule=SEEDS_RULE)
        if self.options.booby_unknown == "refuse":
            raise ResultError(
                "{guest} lost all counters at table {table}, so the booby table (table {tables[1]}) must"
                " report everyone's counters to find who changes seats: missing {missing}.",
                guests=(bust,),
                tables=(number, booby),
                missing=GuestIds(sorted(unknown)),
            )
        return self.cutter.highest(partners, table=booby, why=why, rule=self.options.house("booby_unknown"))

    def check(self, after: EveningState) -> None:
        after.check()
        if [len(t) for t in after.tables] != [len(t) for t in self.state.tables]:
            raise InvariantBroken(f"Table sizes changed at the bell: {after.tables}")
        if after.seated() != self.state.seated():
            raise InvariantBroken("The bell seated a different set of guests.")


def ring_bell(
    state: EveningState,
    results: Sequence[TableResult],
    *,
    stake: int,
    options: BellOptions = BellOptions(),
    cuts: Cuts | None = None,
    rng: random.Random | None = None,
    last_round: bool = False,
) -> BellRecord:
    """Ring the bell: apply one round's ``results`` to ``state`` and return the frozen record.

    ``stake`` is the counters of a fresh stake. ``cuts`` gives the cards the host saw cut
    (guest id -> rank 1..13, or ranks in order when equal cuts cut again), or a ``CardsCut``
    that also settles again the ties settled at the round's earlier bells (a tie once cut stays
    cut, ``tables.cuts``); missing cuts are drawn with ``rng`` (default
    ``random.SystemRandom()``) and every card is recorded as a "cut" entry. With
    ``last_round`` nobody moves and nobody takes a fresh stake (house rule: the evening is
    over; a fresh stake would not change anyone's counters won): the head table's winner still
    gets the yellow counter and the final counts are taken.
    Raises ``ResultError`` for bad results (see ``check_results``) and when a bust needs the
    booby table's counts that were not reported (``booby_unknown="refuse"``); ``RuleError``
    for a bad stake or cut. Source: ``docs/rules/progressive-poker.md``, 'The bell', and the house rules
    in ``BellOptions``.
    """
    check_stake(stake)
    results = tuple(results)
    check_results(state, results, options=options, last_round=last_round)
    cutter = Cutter(cuts, rng)
    return _Bell(state, results, stake, options, cutter, last_round).ring()
