"""Benchmark: one bell for 500 guests (about 85 tables), against a bare bulk update of the same
seats in the same run; and the bell's SQL query count for 60 and 500 guests.

Builds, in a throwaway test database (SQLite under ``var/bench-<pid>/`` by default; PostgreSQL
or any other with ``--database-url``, which creates and drops ``test_<name>``), an evening of
``--guests`` checked-in guests, runs the digital draw, starts round 1 and stores a result at
every table (the first guest wins; at the head table the winner takes 10 counters from the
last). Then, ``--repeat`` times: ``bell_ring`` (locks the round, loads the state and results,
runs ``tables.formats.poker.bell.ring_bell``, stores the bell, its entries and the audit entry, moves the
seats, bumps the version) is timed, then undone (not timed). The baseline, timed the same way
in the same run, is Django's ``bulk_update`` of the very ``Seat`` rows the bell moved, to
their new tables, in one transaction: the least a bell could cost in writes. The ratio says
what the rules, the record and the bookkeeping cost on top. The query count of one bell is
printed for a 60-guest evening and for the full one; it must be the same (also asserted in
``tests/test_bell_db.py``).

Run: ``.venv/bin/python bench/bench_bell.py [--guests 500] [--repeat 5] [--database-url URL]``.
"""

from __future__ import annotations

import argparse
import sys
import time

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from ratios import report  # noqa: E402


def build(guests: int, name: str):
    """An evening of ``guests`` drawn and seated, round 1 started, a result at every table.
    Returns (evening, round)."""
    from django.contrib.auth import get_user_model

    from tournament.models import Evening, Guest, Result
    from tournament.services.clock import round_start
    from tournament.services.draws import draw_digital
    from tournament.services.state import evening_state

    host, _ = get_user_model().objects.get_or_create(username="bench-host")
    evening = Evening.objects.create(host=host, name=name, date="2026-12-04")
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=f"Guest {i}",
                name_key=f"guest {i}",
                pack="red" if i % 2 else "blue",
                status=Guest.Status.HERE,
            )
            for i in range(guests)
        ]
    )
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    rows = []
    for number, ids in enumerate(state.tables, 1):
        counters = {}
        if number == 1:
            counters = {str(g): state.counters[g] for g in ids}
            counters[str(ids[0])] += 10
            counters[str(ids[-1])] -= 10
        rows.append(Result(round=rnd, table=number, pool_winner_id=ids[0], counters=counters))
    Result.objects.bulk_create(rows)
    return evening, rnd, len(state.tables)


def ring(rnd):
    from tournament.models import Bell
    from tournament.services.bell import bell_ring

    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None
    return bell


def main() -> None:
    """Print the bell's query counts, its time, the bare bulk update's time and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with bench_database(args.database_url) as connection:
        from django.db import transaction
        from django.test.utils import CaptureQueriesContext

        from tournament.formats.poker.bell import stored_record
        from tournament.models import Seat
        from tournament.services.bell import bell_undo

        counts = {}
        for guests in (60, args.guests):
            evening, rnd, tables = build(guests, f"Bench {guests}")
            with CaptureQueriesContext(connection) as queries:
                ring(rnd)
            counts[guests] = (tables, len(queries))
            bell_undo(evening=evening)
        bell_times, bulk_times, moved = [], [], 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            bell = ring(rnd)
            bell_times.append(time.perf_counter() - start)
            record = stored_record(bell)
            new = {g: n for n, ids in enumerate(record.after.tables, 1) for g in ids}
            old = {g: n for n, ids in enumerate(record.before.tables, 1) for g in ids}
            bell_undo(evening=evening)
            seats = list(Seat.objects.filter(evening=evening, guest_id__in=[g for g in new if new[g] != old[g]]))
            moved = len(seats)
            for seat in seats:
                seat.table = new[seat.guest_id]
            start = time.perf_counter()
            with transaction.atomic():
                Seat.objects.bulk_update(seats, ["table"])
            bulk_times.append(time.perf_counter() - start)
            for seat in seats:
                seat.table = old[seat.guest_id]
            Seat.objects.bulk_update(seats, ["table"])
        vendor = connection.vendor

    bell_best, bulk_best = min(bell_times), min(bulk_times)
    print(f"database: {vendor}")
    for guests, (tables, queries) in counts.items():
        print(f"one bell, {guests:4d} guests ({tables:3d} tables): {queries} SQL queries")
    print(f"one bell, {args.guests} guests, best of {args.repeat}: {bell_best * 1000:8.1f} ms")
    print(f"bare bulk_update of the {moved} seats it moved:   {bulk_best * 1000:8.1f} ms")
    print(f"ratio bell / bare bulk update: {bell_best / bulk_best:.1f}")
    report(
        f"one bell, poker, {args.guests} guests ({vendor})",
        bell_best / bulk_best,
        f"a bare bulk_update of the {moved} seats it moved",
        3,
        detail=f"{counts[args.guests][1]} queries",
    )
    same = len({queries for _, queries in counts.values()}) == 1
    print("query count constant in the number of tables:", "yes" if same else "NO")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
