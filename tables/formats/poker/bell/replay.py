"""Replaying an evening: the records rebuilt from the starting state and each step's input.

A record keeps its input (the results, the stake, the options, the departing or arriving guest)
and every card cut, so ``rerun(records)`` gives the same records again; a corrected result is
a new input for that step, and ``replay`` from there recomputes everything after it (issue 4,
"corrections without loss": the stored records stay, the Django side marks them superseded).
Source: ``docs/rules/progressive-poker.md`` through ``ring_bell``; house rules for
departures and arrivals through ``bell_guests``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tables.errors import RuleError
from tables.formats.poker.bell.guests import guest_arrives, guest_leaves
from tables.formats.poker.bell.options import BellOptions
from tables.formats.poker.bell.ring import ring_bell
from tables.formats.poker.bell.state import BellRecord, EveningState, TableResult


class RoundInput(NamedTuple):
    """One bell's input: the tables' results, the cards cut (guest -> rank or ranks), and
    whether it is the last bell. A plain ``(results, cuts)`` tuple works too."""

    results: Sequence[TableResult]
    cuts: Mapping[int, int | Sequence[int]] | None = None
    last_round: bool = False


@dataclass(frozen=True)
class Departure:
    """A guest who leaves between two bells (see ``guest_leaves``), with the cards cut."""

    guest: int
    cuts: Mapping[int, int | Sequence[int]] | None = None


@dataclass(frozen=True)
class Arrival:
    """A guest who arrives between two bells (see ``guest_arrives``); ``table`` as asked."""

    guest: int
    table: int | None = None


# A step: a bell's input (or a plain ``(results, cuts)`` tuple), a departure or an arrival.
Step = RoundInput | Departure | Arrival | tuple[Sequence[TableResult], Mapping[int, int | Sequence[int]] | None]


def replay(
    start: EveningState,
    rounds: Sequence[Step],
    *,
    stake: int,
    options: BellOptions = BellOptions(),
    rng: random.Random | None = None,
) -> tuple[BellRecord, ...]:
    """Apply each step to ``start`` in turn; returns one record per step.

    A step is a ``RoundInput`` (or a ``(results, cuts)`` tuple), a ``Departure`` or an
    ``Arrival``. ``stake`` is the counters of a fresh stake or a late guest's stake. Cuts not
    given are drawn with ``rng``; with the recorded cuts the records come out exactly as
    before. Raises what ``ring_bell``, ``guest_leaves`` and ``guest_arrives`` raise.
    """
    state = start
    records: list[BellRecord] = []
    for step in rounds:
        if isinstance(step, Departure):
            record = guest_leaves(state, step.guest, options=options, cuts=step.cuts, rng=rng)
        elif isinstance(step, Arrival):
            record = guest_arrives(state, step.guest, stake=stake, table=step.table, options=options)
        else:
            step = RoundInput(*step)
            record = ring_bell(
                state,
                step.results,
                stake=stake,
                options=options,
                cuts=step.cuts,
                rng=rng,
                last_round=step.last_round,
            )
        records.append(record)
        state = record.after
    return tuple(records)


def input_of(record: BellRecord) -> Step:
    """The input that produced ``record``: a ``RoundInput`` with its cuts, a ``Departure`` or
    an ``Arrival``."""
    if record.kind == "leave":
        return Departure(record.mover(), record.cuts())
    if record.kind == "arrive":
        return Arrival(record.mover(), record.table)
    if record.kind == "bell":
        return RoundInput(record.results, record.cuts(), record.last_round)
    raise RuleError(f"“{record.kind}” is not a kind of record: bell, leave or arrive.")


def rerun(records: Sequence[BellRecord]) -> tuple[BellRecord, ...]:
    """Replay ``records`` from the first one's ``before`` with each record's own input, stake,
    options and cuts; returns the new records (equal to the old ones unless an input changed).

    Raises ``RuleError`` (or ``ResultError``) when a step no longer fits, for example a
    corrected earlier result put a later pool winner at another table.
    """
    if not records:
        return ()
    state = records[0].before
    out: list[BellRecord] = []
    for record in records:
        options = BellOptions.from_mapping(record.options)
        (new,) = replay(state, [input_of(record)], stake=record.stake or 1, options=options)
        out.append(new)
        state = new.after
    return tuple(out)
