"""The values the bell works on: the evening's state, a table's result, and the bell's record.

Rules: ``docs/rules/progressive-poker.md`` (Progressive Poker: "Every player starts with the same number of
counters"; the head table is table 1, the booby table is the last). Everything here is a frozen
value that round-trips through plain JSON (``to_json()`` / ``from_json()``), because the Django
side stores states and records in JSON fields; JSON turns int keys into str keys, and
``from_json`` turns them back.
"""

from __future__ import annotations

import functools
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import dataclass, field
from typing import Any

from tables.entries import BellEntry
from tables.errors import InvariantBroken, RuleError
from tables.sources import PROGRESSIVE_POKER

SEEDS_RULE = PROGRESSIVE_POKER  # the words pages show; docs/rules/progressive-poker.md for developers


class StateError(RuleError):
    """An evening state that cannot be: a guest seated twice, a seated guest with no counters
    on record, a guest id that is not a whole number, a negative count.

    ``guest`` is the guest id concerned and ``table`` the table number (1-based) where known
    (also in ``subjects``, so a page can name the guest). Raised where the state is built,
    before any rule uses it. ``template`` and ``values`` as for ``RuleError``.
    """

    def __init__(
        self,
        template: str,
        *,
        guest: int | None = None,
        table: int | None = None,
        tables: tuple[int, ...] = (),
        rounds: tuple[int, ...] = (),
        **values: object,
    ) -> None:
        super().__init__(
            template,
            guests=() if guest is None else (guest,),
            tables=tables or (() if table is None else (table,)),
            rounds=rounds,
            **values,
        )
        self.guest = guest
        self.table = table


class ResultError(RuleError):
    """A table's result that cannot be right (a winner not at that table, a negative count, ...).

    The message names the table and the guest id and says what to fix. Nothing was applied.
    """


class Tally(Mapping[int, int]):
    """A read-only mapping guest id -> a whole number (counters, yellow counters, stakes).

    Hashable and comparable with any mapping. Keys and values are kept as given; use
    ``Tally.from_json`` for mappings read back from JSON (str keys).
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[int, int] | Iterable[tuple[int, int]] = ()) -> None:
        self._data: dict[int, int] = dict(data)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Tally:
        """Read ``{"12": 50, ...}`` (str keys from JSON) back into a Tally with int keys."""
        return cls({int(key): int(value) for key, value in (data or {}).items()})

    def to_json(self) -> dict[str, int]:
        """Plain JSON: ``{"12": 50, ...}`` with keys sorted by guest id (``tally_json``)."""
        return tally_json(self._data)

    def __getitem__(self, key: int) -> int:
        return self._data[key]

    # Read straight from the dict: ``Mapping``'s own ``in``, ``get`` and views go through
    # ``__getitem__`` and an exception per missing key, and a bell at 500 guests asks ~10,000 times.
    def __contains__(self, key: object) -> bool:
        return key in self._data

    def get(self, key: int, default: Any = None) -> Any:
        """The value of ``key``, or ``default`` when it has none."""
        return self._data.get(key, default)

    def keys(self) -> KeysView[int]:
        """The guest ids, as a read-only view."""
        return self._data.keys()

    def items(self) -> ItemsView[int, int]:
        """(guest id, value) pairs, as a read-only view."""
        return self._data.items()

    def values(self) -> ValuesView[int]:
        """The values, as a read-only view."""
        return self._data.values()

    def __iter__(self) -> Iterator[int]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"Tally({self._data!r})"


def tally_json(tally: Mapping[int, int]) -> dict[str, int]:
    """``Tally.to_json`` of any mapping guest id -> count, without copying it into a ``Tally``
    first: ``{"12": 50, ...}``, keys sorted by guest id."""
    return {str(key): tally[key] for key in sorted(tally)}


@dataclass(frozen=True)
class EveningState:
    """Where everyone sits and what everyone holds, between two bells.

    ``tables[0]`` is table 1, the head table; ``tables[-1]`` is the booby table. Each table is a
    tuple of guest ids in seat order. ``counters``, ``yellow`` and ``stakes`` hold every guest
    who has played this evening, including guests who have left (they keep their counters for
    the standings); ``stakes`` counts the stakes taken, the first one included.
    Source: ``docs/rules/progressive-poker.md``.
    """

    tables: tuple[tuple[int, ...], ...]
    counters: Mapping[int, int]
    yellow: Mapping[int, int]
    stakes: Mapping[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(tuple(table) for table in self.tables))
        for name in ("counters", "yellow", "stakes"):
            value = getattr(self, name)
            if not isinstance(value, Tally):  # a Tally is read-only: it is shared, not copied
                object.__setattr__(self, name, Tally(value))
        self._check_built()

    def _check_built(self) -> None:
        """Raise ``StateError`` (naming the guest by id, also in ``error.guest``) when a seat
        holds something that is not a guest id, a guest is seated twice, a seated guest has
        no counters, yellow counters or stakes on record, or any count is negative or not a
        whole number. Source: ``docs/rules/progressive-poker.md`` (everyone plays at one table, with their
        own counters); a state like that is refused where it is built, before a bell uses it.
        """
        seen: dict[int, int] = {}
        tallies = (("counters", self.counters), ("yellow counters", self.yellow), ("stakes", self.stakes))
        for number, table in enumerate(self.tables, start=1):
            for guest in table:
                if guest.__class__ is not int and (isinstance(guest, bool) or not isinstance(guest, int)):
                    raise StateError(
                        "A seat at table {table} holds {held!r}, not a guest id.", table=number, held=guest
                    )
                if guest in seen:
                    raise StateError(
                        "{guest} is seated twice (at table {tables[0]} and again at table {tables[1]}).",
                        guest=guest,
                        table=number,
                        tables=(seen[guest], number),
                    )
                seen[guest] = number
                for words, tally in tallies:
                    if guest not in tally:
                        raise StateError(
                            "{guest} is seated at table {table} but has no {words} on record.",
                            guest=guest,
                            table=number,
                            words=words,
                        )
        for words, tally in tallies:
            for guest, value in tally.items():
                if value.__class__ is int and value >= 0:  # the usual case, checked at once
                    continue
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    if not isinstance(guest, int) or isinstance(guest, bool):
                        raise StateError(
                            f"Guest {guest!r} has {value!r} {words} on record: a count is a whole number, 0 or more."
                        )
                    raise StateError(
                        "{guest} has {value!r} {words} on record: a count is a whole number, 0 or more.",
                        guest=guest,
                        table=seen.get(guest),
                        value=value,
                        words=words,
                    )

    @classmethod
    def start(cls, tables: Sequence[Sequence[int]], *, stake: int) -> EveningState:
        """The state before the first deal: ``tables`` of guest ids, everyone holding ``stake``
        counters, no yellow counters, one stake each.

        Raises ``RuleError`` when a guest is seated twice, the stake is not a positive whole
        number of counters, there are fewer than 2 tables, or a table has fewer than 3 guests.
        Source: ``docs/rules/progressive-poker.md`` ("Every player starts with the same number of counters").
        """
        check_stake(stake)
        state = cls(
            tables=tuple(tuple(table) for table in tables),
            counters={guest: stake for table in tables for guest in table},
            yellow={guest: 0 for table in tables for guest in table},
            stakes={guest: 1 for table in tables for guest in table},
        )
        state.check_layout()
        return state

    def check_layout(self) -> None:
        """Raise ``RuleError`` unless there are 2+ tables, each of 3+ guests, nobody seated twice."""
        if len(self.tables) < 2:
            raise RuleError("An evening needs at least two tables: a head table and a booby table.")
        seen: set[int] = set()
        for number, table in enumerate(self.tables, start=1):
            if len(table) < 3:
                raise RuleError(
                    "Table {table} has {size} guests: a table needs at least 3.", tables=(number,), size=len(table)
                )
            for guest in table:
                if isinstance(guest, bool) or not isinstance(guest, int):
                    raise RuleError(
                        "Guest id {held!r} at table {table} is not a whole number.", tables=(number,), held=guest
                    )
                if guest in seen:
                    raise RuleError(
                        "{guest} is seated twice (again at table {table}).", guests=(guest,), tables=(number,)
                    )
                seen.add(guest)

    def check(self) -> None:
        """Raise ``InvariantBroken`` when the state is impossible (a bug, not a user mistake):
        someone seated twice, a seated guest without counters, a negative count."""
        seated = [guest for table in self.tables for guest in table]
        if len(seated) != len(set(seated)):
            raise InvariantBroken(f"A guest is seated twice: {sorted(seated)}")
        for guest in seated:
            if guest not in self.counters or guest not in self.yellow or guest not in self.stakes:
                raise InvariantBroken(f"Guest {guest} is seated but has no counters on record.")
        for name in ("counters", "yellow", "stakes"):
            if any(value < 0 for value in getattr(self, name).values()):
                raise InvariantBroken(f"A negative number of {name}: {getattr(self, name)!r}")

    @functools.cached_property
    def _seat_index(self) -> dict[int, int]:
        return {guest: number for number, table in enumerate(self.tables, 1) for guest in table}

    @property
    def booby(self) -> int:
        """The booby table's number (the last table)."""
        return len(self.tables)

    def seated(self) -> frozenset[int]:
        """Every guest who has a seat now (guests who left are not seated)."""
        return frozenset(self._seat_index)

    def table_of(self, guest: int) -> int:
        """The 1-based number of the table where ``guest`` sits; ``RuleError`` if not seated."""
        try:
            return self._seat_index[guest]
        except KeyError:
            raise RuleError("{guest} has no seat this evening.", guests=(guest,)) from None

    def guests_at(self, table: int) -> tuple[int, ...]:
        """The guest ids at table number ``table`` (1-based), in seat order."""
        return self.tables[table - 1]

    def total_counters(self) -> int:
        """All counters held by every guest on record (seated or gone)."""
        return sum(self.counters.values())

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: ``{"tables": [[...], ...], "counters": {"12": 50}, "yellow": ..., "stakes": ...}``."""
        return {
            "tables": [list(table) for table in self.tables],
            "counters": tally_json(self.counters),
            "yellow": tally_json(self.yellow),
            "stakes": tally_json(self.stakes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EveningState:
        """Read back what ``to_json`` wrote (str keys become int keys)."""
        return cls(
            tables=tuple(tuple(int(guest) for guest in table) for table in data["tables"]),
            counters=Tally.from_json(data["counters"]),
            yellow=Tally.from_json(data["yellow"]),
            stakes=Tally.from_json(data["stakes"]),
        )


@dataclass(frozen=True)
class TableResult:
    """What one table reports after its deal.

    ``table`` is 1-based. ``pool_winner`` is None when the table has no result. ``in_call`` holds
    the guests who called the winner (the winner is in the call anyway and must not be listed).
    ``tied`` holds the other guests who split the pool with ``pool_winner`` (house rule, see
    ``BellOptions.pool_tie``). ``counters`` gives each guest's counters after the deal where
    reported: required at the head table, at the booby table when a bust needs a seat change,
    and at every table in the last round; optional elsewhere.
    Source: ``docs/rules/progressive-poker.md``, 'A round', and issue 4 item 3.
    """

    table: int
    pool_winner: int | None
    in_call: frozenset[int] = frozenset()
    counters: Mapping[int, int] = field(default_factory=Tally)
    tied: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "in_call", frozenset(self.in_call))
        object.__setattr__(self, "tied", frozenset(self.tied))
        if not isinstance(self.counters, Tally):
            object.__setattr__(self, "counters", Tally(self.counters))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON with sorted lists for the sets and str keys for the counters."""
        return {
            "table": self.table,
            "pool_winner": self.pool_winner,
            "in_call": sorted(self.in_call),
            "tied": sorted(self.tied),
            "counters": tally_json(self.counters),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableResult:
        """Read back what ``to_json`` wrote."""
        winner = data.get("pool_winner")
        return cls(
            table=int(data["table"]),
            pool_winner=None if winner is None else int(winner),
            in_call=frozenset(int(g) for g in data.get("in_call", ())),
            counters=Tally.from_json(data.get("counters")),
            tied=frozenset(int(g) for g in data.get("tied", ())),
        )


@dataclass(frozen=True)
class BellRecord:
    """Everything one bell (or one departure or arrival) did, frozen.

    ``kind`` is "bell", "leave" or "arrive". ``results`` are the table results the bell used,
    ``stake`` the counters of a fresh stake, ``last_round`` whether it was the last bell,
    ``options`` the ``BellOptions`` as a dict, and ``guest``/``table`` the departing or arriving
    guest and the table asked for. With the "cut" entries, that is all ``replay`` needs to
    rebuild ``after`` from ``before`` exactly.
    """

    before: EveningState
    after: EveningState
    entries: tuple[BellEntry, ...]
    warnings: tuple[str, ...] = ()
    kind: str = "bell"
    results: tuple[TableResult, ...] = ()
    stake: int = 0
    last_round: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    guest: int | None = None
    table: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", tuple(self.entries))
        object.__setattr__(self, "warnings", tuple(self.warnings))
        object.__setattr__(self, "results", tuple(self.results))

    def mover(self) -> int:
        """The guest a departure ("leave") or an arrival ("arrive") moves. Raises ``StateError``
        for a record that names no guest (a bell's own record)."""
        if self.guest is None:
            raise StateError("This {kind} on record names no guest.", kind=self.kind)
        return self.guest

    def entries_for(self, guest: int) -> tuple[BellEntry, ...]:
        """The entries addressed to ``guest``, in the order they happened."""
        return tuple(entry for entry in self.entries if entry.guest == guest)

    def cuts(self) -> dict[int, tuple[int, ...]]:
        """Every card each guest cut, in order: guest id -> ranks (feed back as ``cuts=``)."""
        drawn: dict[int, list[int]] = {}
        for entry in self.entries:
            if entry.kind == "cut":
                drawn.setdefault(entry.guest, []).append(entry.amount)
        return {guest: tuple(ranks) for guest, ranks in drawn.items()}

    def to_json(self, *, after: bool = True) -> dict[str, Any]:
        """Plain JSON of the whole record; ``after=False`` leaves the state after out, for a
        store that keeps it once beside the record (the Django side's ``Bell.state_after``:
        ``from_json(data, after=...)`` puts it back)."""
        return {
            "kind": self.kind,
            "before": self.before.to_json(),
            **({"after": self.after.to_json()} if after else {}),
            "entries": [entry.to_json() for entry in self.entries],
            "warnings": list(self.warnings),
            "results": [result.to_json() for result in self.results],
            "stake": self.stake,
            "last_round": self.last_round,
            "options": dict(self.options),
            "guest": self.guest,
            "table": self.table,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, after: Mapping[str, Any] | None = None) -> BellRecord:
        """Read back what ``to_json`` wrote, with or without its state after: ``after`` is that
        state's JSON kept beside the record (used only when the record has none; a record that
        has one reads the same either way). Raises ``StateError`` when neither has it."""
        after_json = data.get("after", after)
        if after_json is None:
            raise StateError("This {kind} on record keeps no state after it.", kind=str(data.get("kind", "bell")))
        return cls(
            kind=str(data.get("kind", "bell")),
            before=EveningState.from_json(data["before"]),
            after=EveningState.from_json(after_json),
            entries=tuple(BellEntry.from_json(e) for e in data.get("entries", ())),
            warnings=tuple(str(w) for w in data.get("warnings", ())),
            results=tuple(TableResult.from_json(r) for r in data.get("results", ())),
            stake=int(data.get("stake", 0)),
            last_round=bool(data.get("last_round", False)),
            options=dict(data.get("options") or {}),
            guest=None if data.get("guest") is None else int(data["guest"]),
            table=None if data.get("table") is None else int(data["table"]),
        )


def check_stake(stake: int) -> None:
    """Raise ``RuleError`` unless ``stake`` is a whole number of counters, 1 or more."""
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 1:
        raise RuleError(f"A stake must be a whole number of counters, 1 or more (got {stake!r}).")
