"""A Progressive Poker step's record in its two stored forms reads to the same values everywhere.

Since 8 December 2026 (issue 26 item 6) a bell, departure, arrival or seat change keeps its
state after once, in ``Bell.state_after``, and no longer again in ``Bell.record["after"]``
(``formats.poker.bell.bell_store``); every step stored before keeps both, and is not migrated.
Here one worked evening (``test_corrections.four_rounds``: three tables of four, four bells,
then a guest leaves) is read in the new form, then every step is rewritten as the old
``bell_store`` stored it (the record with its ``after``, the same JSON as ``state_after``), and
read again: the records, the undo, a correction three rounds back, the export, an import of that
export and the history's steps in words must give the same values (the score sheets and the
standings read only ``before`` and ``state_after``, which both forms keep alike).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tables.formats.poker.bell import BellRecord, StateError
from tests.fixtures_bell import tables_by_name
from tests.test_corrections import four_rounds
from tournament.exchange.export import evening_export
from tournament.exchange.importer import evening_import
from tournament.formats.poker.bell import stored_record
from tournament.formats.poker.departures import guest_depart
from tournament.models import Bell, Guest
from tournament.services.bell import bell_undo, bell_words
from tournament.services.corrections import result_correct
from tournament.services.prizes import evening_standings
from tournament.services.state import evening_state

pytestmark = pytest.mark.django_db


class _Rollback(Exception):
    """Raised to roll a reading's writes back (``_undone``)."""


def _undone(read):
    """``read()``'s answer, with everything it wrote rolled back (a savepoint)."""
    answer: list[Any] = []
    try:
        with transaction.atomic():
            answer.append(read())
            raise _Rollback
    except _Rollback:
        pass
    return answer[0]


def _steps(evening):
    return list(Bell.objects.filter(round__evening=evening).select_related("round").order_by("id"))


def _by_name(state, names):
    """A state's tables and tallies with guests by name, for comparing two evenings."""
    return (
        [[names[g] for g in t] for t in state.tables],
        {names[g]: c for g, c in state.counters.items()},
        {names[g]: c for g, c in state.yellow.items()},
        {names[g]: c for g, c in state.stakes.items()},
    )


def _readings(evening, ids) -> dict[str, Any]:
    """What every reader of the evening's steps answers (nothing left written)."""

    def undo():
        bell_undo(evening=evening)
        return tables_by_name(evening, ids), evening_state(evening)

    def correction():
        done = result_correct(
            evening=evening,
            round_number=1,
            table=3,
            pool_winner=ids["B2"],
            counters={ids["B1"]: 40, ids["B2"]: 60, ids["B3"]: 50, ids["B4"]: 50},
        )
        standings = [line.row for line in evening_standings(evening).lines]
        return done.rounds, done.moved, tables_by_name(evening, ids), evening_state(evening), standings

    def imported():
        copy = evening_import(data=evening_export(evening), host=evening.host)
        names = dict(Guest.objects.filter(evening=copy).values_list("pk", "name"))
        return [_by_name(stored_record(b).after, names) for b in _steps(copy)], _by_name(evening_state(copy), names)

    return {
        "records": [stored_record(b) for b in _steps(evening)],
        "words": [bell_words(b) for b in _steps(evening)],
        "state": evening_state(evening),
        "undo": _undone(undo),
        "correction": _undone(correction),
        "export": evening_export(evening),
        "import": _undone(imported),
    }


def _old_form(evening) -> int:
    """Rewrite every step of ``evening`` as ``bell_store`` stored it before 8 December 2026:
    the record with its state after. Returns how many were rewritten."""
    steps = _steps(evening)
    for bell in steps:
        bell.record = {**bell.record, "after": bell.state_after}
        bell.save(update_fields=["record"])
    return len(steps)


def test_old_and_new_records_read_to_the_same_values(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    guest_depart(evening=evening, guest=Guest.objects.get(pk=ids["M4"]))
    steps = _steps(evening)
    assert [b.kind for b in steps] == ["bell", "bell", "bell", "bell", "leave"]
    assert all("after" not in b.record and "before" in b.record for b in steps)  # the new form
    new = _readings(evening, ids)
    assert _old_form(evening) == 5
    assert all(b.record["after"] == b.state_after for b in _steps(evening))  # the old form
    old = _readings(evening, ids)
    for key in new:
        assert old[key] == new[key], key
    # The readings say something: the state after is each step's own, the undo and the
    # correction changed the evening.
    assert [r.after.to_json() for r in new["records"]] == [b.state_after for b in steps]
    assert new["undo"][1] != new["state"] and new["correction"][3] != new["state"]


def test_a_record_without_its_state_after_is_refused_by_the_plain_reader(make_evening):
    evening = make_evening(0, 0)
    four_rounds(evening)
    bell = _steps(evening)[-1]
    with pytest.raises(StateError):
        BellRecord.from_json(bell.record)
    assert BellRecord.from_json(bell.record, after=bell.state_after) == stored_record(bell)
    assert BellRecord.from_json({**bell.record, "after": bell.state_after}) == stored_record(bell)
