"""The table plan: how many tables, and how many guests start at each.

Rules from ``docs/rules/progressive-poker.md``, 'The table plan': the head table (table 1) seats four,
"three deuces, treys, etc., for the six positions at each of the other tables until the last or
booby table is reached, at which there must be only four players at starting. If there are not
enough players to make exactly six at each of the intermediate tables, the numbers may be varied
from four to seven ... but the head and booby tables must start with four only."

So a plan is: head table 4, booby table 4, and between them tables of 4 to 7, as near six as
possible. The texts are silent on the rest, and the product decides (house rules, each named in
the docstring that applies it and on the rules page ``templates/rules/draw.html``):

* "As near six as possible" means: the fewest squared seats away from six, summed over the
  tables between head and booby. For a given number of such tables that puts their sizes as even
  as possible (no two differ by more than one); the number of tables is the one with the smallest
  sum. On a tie the plan takes more, smaller tables (draw poker at seven runs a pack short for the
  draw; five is comfortable). ``PlanOptions.on_tie`` can choose fewer, larger tables instead.
* The larger sizes go to the tables nearest the head table (table 2 first), so sizes never grow
  as table numbers rise. ``PlanOptions.larger_tables`` can put them nearest the booby table.
* Fewer than 8 guests cannot be seated (head and booby need four each).
* 9, 10 and 11 guests cannot follow the rules: a table between head and booby needs at least
  four more guests. The product offers a relaxed plan of two tables, the head table with four and
  the booby table with the rest (5, 6 or 7); it relaxes one rule only, the booby table's four. The
  host must accept it (``accept_relaxed=True``).
* After the draw, a latecomer may take a free seat at a table between head and booby that has
  fewer than seven; a guest who leaves may leave such a table that has more than four. Anything
  else needs a redraw (``free_seats``, ``plan_with_latecomer``, ``plan_without_guest``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from tables.errors import InvariantBroken, RuleError
from tables.formats.engine import Plan

HEAD_SIZE = 4
"""Guests at the head table at the start (docs/rules/progressive-poker.md: "two aces from each")."""
BOOBY_SIZE = 4
"""Guests at the booby table at the start (docs/rules/progressive-poker.md: "only four players")."""
USUAL_SIZE = 6
"""The size of a table between head and booby when the count divides (004_...: "six positions")."""
SMALLEST_SIZE = 4
"""The smallest table between head and booby (docs/rules/progressive-poker.md: "from four to seven")."""
LARGEST_SIZE = 7
"""The largest table between head and booby (docs/rules/progressive-poker.md: "from four to seven")."""
FEWEST_GUESTS = HEAD_SIZE + BOOBY_SIZE
"""The fewest guests that can be seated: a head table and a booby table of four each."""


class TableKind(enum.StrEnum):
    """What a table is in the plan: the head table (1), the booby table (last), or one between."""

    HEAD = "head"
    INTERMEDIATE = "intermediate"
    BOOBY = "booby"


class PlanError(RuleError):
    """A guest count or a change the plan cannot take; the message says what the host can do.

    ``offer`` is the relaxed plan the host may accept instead (for 9, 10 and 11 guests), or None.
    """

    def __init__(self, message: str, *, offer: TablePlan | None = None) -> None:
        super().__init__(message)
        self.offer = offer


class LargerTables(enum.StrEnum):
    """Which of the tables between head and booby get the larger sizes when sizes differ."""

    NEAREST_HEAD = "nearest head"
    NEAREST_BOOBY = "nearest booby"


class OnTie(enum.StrEnum):
    """Which table count wins when two are equally near six (e.g. 7+7+7 against 6+5+5+5)."""

    SMALLER_TABLES = "smaller tables"
    LARGER_TABLES = "larger tables"


@dataclass(frozen=True, slots=True)
class PlanOptions:
    """The host's choices where the rules are silent; the defaults are the product's house rules.

    larger_tables: which tables get the larger sizes (default: nearest the head table).
    on_tie: more smaller tables or fewer larger ones when both are as near six (default: smaller).
    """

    larger_tables: LargerTables = LargerTables.NEAREST_HEAD
    on_tie: OnTie = OnTie.SMALLER_TABLES

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> PlanOptions:
        """Build options from a mapping of option name to value (e.g. stored JSON).

        Raises ``PlanError`` for an unknown option name or a value the option does not know.
        """
        kinds = {"larger_tables": LargerTables, "on_tie": OnTie}
        unknown = sorted(set(mapping) - {f.name for f in fields(cls)})
        if unknown:
            raise PlanError(f"Unknown table plan option {', '.join(unknown)}: the options are {', '.join(kinds)}.")
        for name, value in mapping.items():
            try:
                kinds[name](value)
            except ValueError:
                allowed = " or ".join(f"“{v.value}”" for v in kinds[name])
                raise PlanError(f"Table plan option {name} cannot be “{value}”: write {allowed}.") from None
        default = cls()
        return cls(
            larger_tables=LargerTables(mapping.get("larger_tables", default.larger_tables)),
            on_tie=OnTie(mapping.get("on_tie", default.on_tie)),
        )


def relaxations(sizes: tuple[int, ...]) -> str | None:
    """Name, in plain words, every rule of the plan that ``sizes`` breaks; None if it breaks none.

    Takes table sizes (guests per table, table 1 first). Returns e.g. "the booby table starts
    with 5 players instead of 4". Source: docs/rules/progressive-poker.md (the limits quoted above).
    """
    broken = []
    if sizes[0] != HEAD_SIZE:
        broken.append(f"the head table starts with {sizes[0]} players instead of {HEAD_SIZE}")
    for number, size in enumerate(sizes[1:-1], start=2):
        if not SMALLEST_SIZE <= size <= LARGEST_SIZE:
            broken.append(f"table {number} starts with {size} players, outside {SMALLEST_SIZE} to {LARGEST_SIZE}")
    if sizes[-1] != BOOBY_SIZE:
        broken.append(f"the booby table starts with {sizes[-1]} players instead of {BOOBY_SIZE}")
    return "; ".join(broken) or None


@dataclass(frozen=True, slots=True)
class TablePlan(Plan):
    """How many guests start at each table: a ``tables.formats.engine.Plan`` that keeps
    Progressive Poker's rules (head and booby tables of four, four to seven between).

    sizes: guests per table; ``sizes[0]`` is table 1, the head table; ``sizes[-1]`` the booby table.
    relaxed: None when the plan follows the rules; otherwise plain words naming exactly which rule
    it relaxes (a plan the host accepted for 9 to 11 guests).
    Raises ``InvariantBroken`` when built with fewer than two tables, a table below one guest, a
    plan that breaks a rule without saying so, or a relaxed text on a plan that breaks none.
    """

    sizes: tuple[int, ...]
    relaxed: str | None = None

    def __post_init__(self) -> None:
        sizes = tuple(self.sizes)
        object.__setattr__(self, "sizes", sizes)
        if len(sizes) < 2 or any(type(s) is not int or s < 1 for s in sizes):
            raise InvariantBroken(f"a table plan needs two or more tables of one or more: {sizes}")
        broken = relaxations(sizes)
        if (broken is None) != (self.relaxed is None):
            raise InvariantBroken(f"plan {sizes} says relaxed={self.relaxed!r} but breaks: {broken!r}")

    @property
    def guests(self) -> int:
        """The number of guests the plan seats (the sum of the sizes)."""
        return sum(self.sizes)

    @property
    def tables(self) -> int:
        """The number of tables; the booby table's number."""
        return len(self.sizes)

    @property
    def table_numbers(self) -> range:
        """The table numbers, 1 (head) to ``tables`` (booby)."""
        return range(1, len(self.sizes) + 1)

    def _check(self, table: int) -> None:
        if not 1 <= table <= len(self.sizes):
            raise PlanError(f"There is no table {table}: the plan has tables 1 to {len(self.sizes)}.")

    def size(self, table: int) -> int:
        """Guests at ``table`` (1 = head) at the start; ``PlanError`` if there is no such table."""
        self._check(table)
        return self.sizes[table - 1]

    def kind(self, table: int) -> TableKind:
        """Whether ``table`` (1 = head) is the head, an intermediate or the booby table.

        Returns a ``TableKind`` (a str: "head", "intermediate", "booby"); ``PlanError`` if there
        is no such table.
        """
        self._check(table)
        if table == 1:
            return TableKind.HEAD
        if table == len(self.sizes):
            return TableKind.BOOBY
        return TableKind.INTERMEDIATE

    def describe(self) -> str:
        """The plan in words, e.g. "12 guests at 3 tables: head table 4, table 2: 4, booby table 4"."""
        parts = []
        for table, size in zip(self.table_numbers, self.sizes, strict=True):
            kind = self.kind(table)
            parts.append(f"{kind} table {size}" if kind != TableKind.INTERMEDIATE else f"table {table}: {size}")
        text = f"{self.guests} guests at {self.tables} tables: {', '.join(parts)}"
        return text + (f" (relaxed: {self.relaxed})" if self.relaxed else "")


def _even_sizes(guests: int, tables: int, larger: LargerTables) -> list[int]:
    size, extra = divmod(guests, tables)
    sizes = [size + 1] * extra + [size] * (tables - extra)
    return sizes if larger == LargerTables.NEAREST_HEAD else sizes[::-1]


def _distance_from_six(sizes: list[int]) -> int:
    return sum((size - USUAL_SIZE) ** 2 for size in sizes)


def intermediate_sizes(guests: int, options: PlanOptions = PlanOptions()) -> tuple[int, ...]:
    """Sizes of the tables between head and booby for ``guests`` guests seated there (not 1-3).

    Takes the guests left after the head and booby tables (0, or 4 and more). Returns the sizes,
    table 2 first: each 4 to 7, with the fewest squared seats away from six; for that number of
    tables the sizes differ by at most one, the larger first (``options.larger_tables``); a tie
    between table counts goes by ``options.on_tie``. Source: docs/rules/progressive-poker.md ("from four
    to seven"); house rule for "as near six as possible", the order and the tie.
    Raises ``InvariantBroken`` for 1, 2 or 3 guests (no table between can seat them).
    """
    if guests == 0:
        return ()
    counts = range(-(-guests // LARGEST_SIZE), guests // SMALLEST_SIZE + 1)
    if not counts:
        raise InvariantBroken(f"{guests} guests cannot fill tables of {SMALLEST_SIZE} to 7")
    sign = -1 if options.on_tie == OnTie.SMALLER_TABLES else 1

    def nearness(tables: int) -> tuple[int, int]:
        return _distance_from_six(_even_sizes(guests, tables, options.larger_tables)), sign * tables

    best = min(counts, key=nearness)
    return tuple(_even_sizes(guests, best, options.larger_tables))


def relaxed_offer(guests: int) -> TablePlan:
    """The relaxed plan offered for 9, 10 or 11 guests: head table 4, booby table the rest.

    Returns a two-table ``TablePlan`` whose ``relaxed`` names the one rule relaxed (the booby
    table's four). House rule: the seeds cannot seat these counts (docs/rules/progressive-poker.md, 'The table plan').
    Raises ``InvariantBroken`` for any other count.
    """
    if guests not in (9, 10, 11):
        raise InvariantBroken(f"no relaxed plan is offered for {guests} guests")
    sizes = (HEAD_SIZE, guests - HEAD_SIZE)
    return TablePlan(sizes, relaxed=relaxations(sizes))


def plan_tables(guests: int, *, accept_relaxed: bool = False, options: PlanOptions = PlanOptions()) -> TablePlan:
    """Plan the tables for ``guests`` checked-in guests.

    Returns a ``TablePlan``: head table 4, booby table 4, between them the sizes of
    ``intermediate_sizes`` (4 to 7, as near six as possible, larger nearest the head by default).
    For 9, 10 or 11 guests returns the relaxed plan of ``relaxed_offer`` only when
    ``accept_relaxed`` is true. Raises ``PlanError`` for fewer than 8 guests, and for 9 to 11
    without ``accept_relaxed`` (its message explains; ``error.offer`` holds the relaxed plan).
    Source: docs/rules/progressive-poker.md; house rules as in the module docstring.
    """
    if type(guests) is not int:
        raise InvariantBroken(f"a guest count is a whole number, not {guests!r}")
    if guests < FEWEST_GUESTS:
        missing = FEWEST_GUESTS - max(guests, 0)
        raise PlanError(
            f"{guests} checked-in guests are too few: the head table and the booby table start "
            f"with four each, so at least {FEWEST_GUESTS} are needed. Check in {missing} more."
        )
    if guests in (9, 10, 11):
        offer = relaxed_offer(guests)
        if accept_relaxed:
            return offer
        raise PlanError(
            f"{guests} guests cannot be seated by the rules: the head table and the booby table "
            f"take four each, and a table between them needs at least four more, so 9, 10 and 11 "
            f"fall in the gap. The relaxed plan offered is two tables, the head table with "
            f"{offer.sizes[0]} and the booby table with {offer.sizes[1]}: it relaxes one rule "
            f"only, {offer.relaxed}. Accept it, or check in {12 - guests} more "
            f"(12 guests make three tables of four).",
            offer=offer,
        )
    middle = intermediate_sizes(guests - FEWEST_GUESTS, options)
    return TablePlan((HEAD_SIZE, *middle, BOOBY_SIZE))


def _may_grow(plan: TablePlan, table: int) -> bool:
    if plan.kind(table) == TableKind.INTERMEDIATE:
        return plan.size(table) < LARGEST_SIZE
    # A relaxed booby table (already above four) may take guests up to seven, as in the offers.
    return (
        plan.kind(table) == TableKind.BOOBY
        and plan.relaxed is not None
        and BOOBY_SIZE < plan.size(table) < LARGEST_SIZE
    )


def _may_shrink(plan: TablePlan, table: int) -> bool:
    if plan.kind(table) == TableKind.INTERMEDIATE:
        return plan.size(table) > SMALLEST_SIZE
    return plan.kind(table) == TableKind.BOOBY and plan.size(table) > BOOBY_SIZE


def free_seats(plan: TablePlan) -> tuple[int, ...]:
    """Table numbers where a latecomer may sit after the draw without a redraw, table 2 first.

    A table between head and booby with fewer than seven may take one more; head and booby stay
    at four, except that a relaxed booby table above four (the 9 to 11 offers) may grow to seven.
    Returns () when no table may: then the host redraws. Source: docs/rules/progressive-poker.md ("from
    four to seven"; "head and booby tables must start with four only"); house rule: free seats.
    """
    return tuple(t for t in plan.table_numbers if _may_grow(plan, t))


def plan_with_latecomer(plan: TablePlan, table: int) -> TablePlan:
    """The plan after a latecomer takes a free seat at ``table``: that table one larger.

    Returns the new ``TablePlan`` (relaxed only if ``plan`` was, naming the new booby size).
    Raises ``PlanError`` saying which tables are free, or that none is and the host must redraw.
    Source: as ``free_seats``.
    """
    if not _may_grow(plan, table):
        free = free_seats(plan)
        where = (
            f"tables with a free seat: {', '.join(map(str, free))}"
            if free
            else "no table has a free seat, so redraw to seat everyone"
        )
        kind = plan.kind(table)
        if kind == TableKind.INTERMEDIATE or plan.size(table) >= LARGEST_SIZE:
            reason = f"table {table} already has {plan.size(table)}, the most a table may have"
        else:
            reason = f"the {kind} table must start with four"
        raise PlanError(f"A latecomer cannot sit at table {table}: {reason}; {where}.")
    sizes = list(plan.sizes)
    sizes[table - 1] += 1
    return TablePlan(tuple(sizes), relaxed=relaxations(tuple(sizes)))


def plan_without_guest(plan: TablePlan, table: int) -> TablePlan:
    """The plan after a guest leaves ``table`` before round 1: that table one smaller.

    Allowed at a table between head and booby above four, or at a relaxed booby table above four.
    Returns the new ``TablePlan`` (no longer relaxed once the booby table is back at four).
    Raises ``PlanError`` otherwise, saying why and that the host may redraw (or move a guest from
    a larger table, named). Source: as ``free_seats``; house rule: who may leave.
    """
    if not _may_shrink(plan, table):
        kind = plan.kind(table)
        if kind == TableKind.INTERMEDIATE:
            reason = f"table {table} would fall below {SMALLEST_SIZE}, the fewest a table may have"
        else:
            reason = f"the {kind} table must start with four"
        donors = [t for t in plan.table_numbers if _may_shrink(plan, t)]
        fix = (
            f"redraw, or first move a guest from table {' or '.join(map(str, donors))} to table {table}"
            if donors
            else "redraw"
        )
        raise PlanError(f"A guest cannot simply leave table {table}: {reason}. To fix it, {fix}.")
    sizes = list(plan.sizes)
    sizes[table - 1] -= 1
    return TablePlan(tuple(sizes), relaxed=relaxations(tuple(sizes)))
