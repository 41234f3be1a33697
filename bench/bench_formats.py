"""Benchmark: the bell for 500 players in every format (Progressive Poker, Progressive Euchre,
Drive Whist, Bunco), against a bare bulk update of the seats it moved, in one run; and the
bell's SQL query count for 16 and for 500 players in each format.

For each format, in a throwaway test database (SQLite under ``var/bench-<pid>/`` by default;
any other with ``--database-url``): an evening of ``--players`` checked-in guests, the format's
digital draw, round 1 started and a report at every table (Progressive Poker: the first guest
wins the pool, the head table's winner takes 10 counters from its last guest; Euchre: North–
South 7 points to 3; Whist: North–South 8 tricks to 5; Bunco: North–South 21 to 9, North rolled
a bunco). Then, ``--repeat`` times: ``services.bell.bell_ring`` (lock, state, rules, the bell's
record, moves, seats, audit, version) is timed, then undone (not timed). The baseline, timed
the same way in the same run, is Django's ``bulk_update`` of the very ``Seat`` rows the bell
moved (table and seat) in one transaction, and, as a second floor, one raw UPDATE of those rows
with a CASE on the guest (what the bell itself sends for the seats): the least a bell could
cost in writes. The query
count of one bell must be the same for 16 players as for 500 (asserted in
``tests/test_bell_formats_scale.py`` too). Rules: ``docs/rules/tables-of-four.md``; issue 15 item 6.

Run: ``.venv/bin/python bench/bench_formats.py [--players 500] [--repeat 5] [--database-url URL]``.
"""

from __future__ import annotations

import argparse
import sys
import time

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from ratios import report  # noqa: E402

FORMATS = ("poker", "euchre", "whist", "bunco")


def report_for(fmt: str, table: tuple[int, ...]) -> dict:
    """The report every table of a format gives in this benchmark (module docstring)."""
    if fmt == "euchre":
        return {"points": {"NS": 7, "EW": 3}}
    if fmt == "whist":
        return {"tricks": {"NS": 8, "EW": 5}}
    return (
        {"points": {"NS": 21, "EW": 9}, "buncos": {str(table[0]): 1}}
        if table[0] > 0
        else {"points": {"NS": 21, "EW": 9}}
    )


def build(fmt: str, players: int, name: str):
    """An evening of ``players`` guests in format ``fmt``, drawn, round 1 started, a report at
    every table. Returns (evening, round, tables)."""
    from django.contrib.auth import get_user_model

    from tournament.formats.partnership.state import foursome_draw, foursome_state
    from tournament.models import Evening, Guest, Result
    from tournament.services.clock import round_start
    from tournament.services.draws import draw_digital
    from tournament.services.state import evening_state

    host, _ = get_user_model().objects.get_or_create(username="bench-host")
    evening = Evening.objects.create(host=host, name=name, date="2026-12-04", format=fmt)
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=f"Guest {i}",
                name_key=f"guest {i}",
                pack="red" if i % 2 else "blue",
                status=Guest.Status.HERE,
            )
            for i in range(players)
        ]
    )
    if fmt == "poker":
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
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    tables = foursome_state(evening).tables
    Result.objects.bulk_create([Result(round=rnd, table=n, report=report_for(fmt, t)) for n, t in enumerate(tables, 1)])
    return evening, rnd, len(tables)


def ring(rnd):
    """Ring round ``rnd``'s bell as the host does; returns the bell."""
    from tournament.models import Bell
    from tournament.services.bell import bell_ring

    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None
    return bell


def _raw_update(evening, seats) -> None:
    """One UPDATE of ``seats``' table and seat with a CASE on the guest (the least SQL there is)."""
    from django.db.models import IntegerField
    from django.db.models.expressions import RawSQL

    from tournament.models import Seat

    whens = " ".join(["WHEN %s THEN %s"] * len(seats))
    table = RawSQL(
        f"CAST(CASE guest_id {whens} END AS integer)",
        [v for s in seats for v in (s.guest_id, s.table)],
        output_field=IntegerField(),
    )
    position = RawSQL(
        f"CAST(CASE guest_id {whens} END AS integer)",
        [v for s in seats for v in (s.guest_id, s.position)],
        output_field=IntegerField(),
    )
    Seat.objects.filter(evening=evening, guest_id__in=[s.guest_id for s in seats]).update(
        table=table, position=position
    )


def time_one(evening, rnd, repeat: int) -> tuple[float, float, float, int, int]:
    """(best bell, best bare ``bulk_update``, best raw UPDATE, seats moved to another table,
    seats changed) over ``repeat`` runs; times in seconds."""
    from django.db import transaction

    from tournament.models import Seat
    from tournament.services.bell import bell_undo

    bell_times, bulk_times, raw_times, moved, changed = [], [], [], 0, 0
    for _ in range(repeat):
        start = time.perf_counter()
        ring(rnd)
        bell_times.append(time.perf_counter() - start)
        rows = Seat.objects.filter(evening=evening).values_list("guest_id", "table", "position")
        places = {g: (t, p) for g, t, p in rows}
        bell_undo(evening=evening)
        seats = [s for s in Seat.objects.filter(evening=evening) if (s.table, s.position) != places[s.guest_id]]
        moved = sum(1 for s in seats if s.table != places[s.guest_id][0])
        changed = len(seats)
        old = {s.pk: (s.table, s.position) for s in seats}
        for baseline, times in (
            (lambda rows=seats: Seat.objects.bulk_update(rows, ["table", "position"]), bulk_times),
            (lambda rows=seats: _raw_update(evening, rows), raw_times),
        ):
            for seat in seats:
                seat.table, seat.position = places[seat.guest_id]
            start = time.perf_counter()
            with transaction.atomic():
                baseline()
            times.append(time.perf_counter() - start)
            for seat in seats:
                seat.table, seat.position = old[seat.pk]
            Seat.objects.bulk_update(seats, ["table", "position"])
    return min(bell_times), min(bulk_times), min(raw_times), moved, changed


def statements(captured) -> int:
    """Statements, with consecutive INSERTs into one table (a bulk insert's batches) counted once
    (SQLite splits one bulk insert into batches of 999 parameters; PostgreSQL sends one)."""
    count, last = 0, None
    for query in captured:
        head = query["sql"].split("(", 1)[0] if query["sql"].startswith("INSERT") else None
        count += head is None or head != last
        last = head
    return count


def main() -> None:
    """Print, per format, the bell's query counts, its time, the bare bulk update's and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    constant = True
    with bench_database(args.database_url) as connection:
        from django.test.utils import CaptureQueriesContext

        from tournament.services.bell import bell_undo

        print(f"database: {connection.vendor}; {args.players} players; best of {args.repeat}")
        print(
            "format | statements (raw), 16 / N | tables | bell | bulk_update | raw UPDATE | moved / changed | "
            "bell / bulk_update | bell / raw UPDATE"
        )
        for fmt in FORMATS:
            counts = []
            for players in (16, args.players):
                evening, rnd, tables = build(fmt, players, f"Bench {fmt} {players}")
                with CaptureQueriesContext(connection) as queries:
                    ring(rnd)
                counts.append((statements(queries.captured_queries), len(queries)))
                bell_undo(evening=evening)
            bell, bulk, raw, moved, changed = time_one(evening, rnd, args.repeat)
            constant &= counts[0][0] == counts[1][0]
            print(
                f"{fmt} | {counts[0][0]} ({counts[0][1]}) / {counts[1][0]} ({counts[1][1]}) | {tables} | "
                f"{bell * 1000:.1f} ms | {bulk * 1000:.1f} ms | {raw * 1000:.1f} ms | {moved} / {changed} | "
                f"{bell / bulk:.2f} | {bell / raw:.1f}",
                flush=True,
            )
            report(
                f"one bell, {fmt}, {args.players} players ({connection.vendor})",
                bell / raw,
                f"one raw UPDATE of the {changed} seats it changed",
                3,
                detail=f"{counts[1][0]} statements",
            )
    print("query count constant in the number of players:", "yes" if constant else "NO")
    if not constant:
        sys.exit(1)


if __name__ == "__main__":
    main()
