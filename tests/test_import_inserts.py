"""The import's rows are written as ``bulk_create`` writes them (``tournament.exchange.inserts``,
issue 26 item 4): the same values stored, ids and the database's own times set on the rows,
parents given as rows taken by their ids, batches where the database limits the values of one
statement, and the database's constraints still the last word."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models.expressions import DatabaseDefault
from django.forms.models import model_to_dict
from django.utils import timezone

from tournament.exchange.inserts import rows_inserted
from tournament.models import Bell, BellEntry, Draw, DrawnCard, FinalCount, Guest, Result, ResultVote, Round

pytestmark = pytest.mark.django_db


def stored(model, ids) -> list[dict]:
    """The rows of ``model`` with ``ids`` as the database holds them, id and times left out."""
    rows = model.objects.filter(pk__in=ids).order_by("pk")
    times = {"created_at", "recorded_at", "at", "rung_at", "id"}
    return [{k: v for k, v in model_to_dict(row).items() if k not in times} for row in rows]


def guests(evening, first: int, count: int) -> list[Guest]:
    return [
        Guest(evening=evening, name=f"Guest {i}", name_key=f"guest {i}", pack="red" if i % 2 else "blue")
        for i in range(first, first + count)
    ]


def test_rows_are_stored_as_bulk_create_stores_them_with_ids_and_times_set(make_evening):
    one, other = make_evening(0, 0), make_evening(0, 0)
    ours, theirs = rows_inserted(guests(one, 0, 300)), Guest.objects.bulk_create(guests(other, 0, 300))
    assert [g.pk for g in ours] == sorted(g.pk for g in ours)
    assert {g.pk for g in ours}.isdisjoint(g.pk for g in theirs)
    mine, bulk = stored(Guest, [g.pk for g in ours]), stored(Guest, [g.pk for g in theirs])
    assert [dict(g, evening=other.pk) for g in mine] == bulk and len(mine) == 300
    held = dict(Guest.objects.filter(pk__in=[g.pk for g in ours]).values_list("pk", "created_at"))
    for guest in ours:
        assert not guest._state.adding
        assert isinstance(guest.created_at, datetime.datetime) and guest.created_at == held[guest.pk]


def test_json_choices_and_a_parent_given_as_a_row_are_written_like_bulk_create(make_evening):
    evening = make_evening(4, 4)
    ids = list(evening.guests.values_list("pk", flat=True))
    one, other = (
        Round.objects.create(evening=evening, number=n, state="running", started_at=timezone.now()) for n in (1, 2)
    )

    def results(round_row):
        return [
            Result(
                round=round_row,
                table=t,
                pool_winner_id=ids[t],
                in_call=[ids[t], ids[t + 1]],
                tied=[],
                counters={str(ids[t]): 30, str(ids[t + 1]): 0},
                report={"note": "ünïcode ✓"},
            )
            for t in (1, 2)
        ]

    ours, theirs = rows_inserted(results(one)), Result.objects.bulk_create(results(other))
    mine = [dict(r, round=other.pk) for r in stored(Result, [r.pk for r in ours])]
    assert mine == stored(Result, [r.pk for r in theirs])
    votes = [ResultVote(result=ours[0], guest_id=ids[0], verdict="confirm", note="yes")]
    rows_inserted(votes)
    assert votes[0].result_id == ours[0].pk
    assert ResultVote.objects.get(pk=votes[0].pk).result == ours[0]


def test_a_parent_not_saved_is_refused_as_bulk_create_refuses_it(make_evening):
    evening = make_evening(2, 0)
    draw = Draw(evening=evening, kind="digital", sizes=[2])  # never saved
    card = DrawnCard(draw=draw, guest=evening.guests.first(), pack="red", rank=1)
    with pytest.raises(ValueError, match="unsaved related object 'draw'"):
        rows_inserted([card])


def test_the_database_constraints_still_refuse_a_row(make_evening):
    evening = make_evening(0, 0)
    rows_inserted(guests(evening, 0, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        rows_inserted(guests(evening, 0, 1))


def test_a_time_given_for_some_rows_only_is_written_for_those_and_filled_for_the_others(make_evening):
    evening = make_evening(0, 0)
    given = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
    counts = [FinalCount(evening=evening, table=1, counters={}, created_at=given), FinalCount(evening=evening, table=2)]
    assert isinstance(counts[1].created_at, DatabaseDefault)
    rows_inserted(counts)
    held = dict(FinalCount.objects.filter(evening=evening).values_list("table", "created_at"))
    assert held[1] == given and held[2] != given and counts[1].created_at == held[2]


def test_more_rows_than_one_statement_takes_are_written_in_batches(make_evening):
    evening = make_evening(1, 0)
    guest = evening.guests.get()
    round_row = Round.objects.create(evening=evening, number=1, state="running", started_at=timezone.now())
    bell = Bell.objects.create(round=round_row, kind="bell", cause="host", record={}, state_after={})
    sent: list[str] = []

    def count(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    entries = [BellEntry(bell=bell, kind="stake", guest=guest, amount=n, text=f"stake {n}") for n in range(1500)]
    with connection.execute_wrapper(count):
        rows_inserted(entries)
    columns = [f for f in BellEntry._meta.concrete_fields if not f.primary_key and not f.has_db_default()]
    per_statement = connection.ops.bulk_batch_size(columns, entries)  # SQLite: 999 values
    assert len([s for s in sent if s.startswith("INSERT")]) == -(-1500 // per_statement)
    assert list(BellEntry.objects.filter(bell=bell).order_by("pk").values_list("amount", flat=True)) == list(
        range(1500)
    )
    assert [e.pk for e in entries] == list(
        BellEntry.objects.filter(bell=bell).order_by("pk").values_list("pk", flat=True)
    )
