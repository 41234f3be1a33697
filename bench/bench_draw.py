"""Benchmark: the digital draw for 500 guests, saved, against a bare bulk_create of the same
number of seat rows in the same run; the draw's SQL query count for 50 and 500 guests; and one
card recorded in a physical draw of 500 guests with 499 cards already in.

Builds, in a throwaway test database (SQLite under ``var/bench-<pid>/`` by default; PostgreSQL
or any other with ``--database-url``, which creates and drops ``test_<name>``), an evening of
``--guests`` checked-in guests (red and blue unequal, so some represent the other pack). Then,
``--repeat`` times: ``draw_digital`` (locks the evening, loads the guests, plans the tables,
deals with ``random.SystemRandom``, supersedes the earlier draw, stores the draw, its cards and
the seats, the audit entry, bumps the version) is timed. The baseline, timed the same way in
the same run, is Django's ``bulk_create`` of as many bare ``Seat`` rows in one transaction (the
old rows deleted first, untimed): the least a draw could cost in writes. The ratio says what the
plan, the deal, the cards and the bookkeeping cost on top.

Query counts are printed raw and as statements (a bulk insert counted once: SQLite splits one
into batches of 999 parameters, so 500 cards take a few INSERTs there; PostgreSQL sends one).
The statements must be the same for 50 and 500 guests (also asserted in
``tests/test_draw_services.py``).

Run: ``.venv/bin/python bench/bench_draw.py [--guests 500] [--repeat 5] [--database-url URL]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from ratios import report  # noqa: E402


def build(guests: int, name: str):
    """An evening of ``guests`` checked-in guests, about 55% red. Returns the ``Evening``."""
    from django.contrib.auth import get_user_model

    from tournament.models import Evening, Guest

    host, _ = get_user_model().objects.get_or_create(username="bench-host")
    evening = Evening.objects.create(host=host, name=name, date="2026-12-04")
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=f"Guest {i}",
                name_key=f"guest {i}",
                pack="red" if i % 20 < 11 else "blue",
                status=Guest.Status.HERE,
            )
            for i in range(guests)
        ]
    )
    return evening


def statements(captured) -> int:
    """Statements, with consecutive INSERTs into one table (a bulk insert's batches) counted once."""
    count, last = 0, None
    for query in captured:
        head = query["sql"].split("(", 1)[0] if query["sql"].startswith("INSERT") else None
        count += head is None or head != last
        last = head
    return count


def physical_last_card(evening):
    """Start a physical draw, record all cards but one (untimed), return (guest id, card text)."""
    from tournament.formats.poker.physical_draw import physical_state
    from tournament.services.draw_physical import draw_physical_record, draw_physical_start, open_physical_draw

    draw_physical_start(evening=evening)
    value = physical_state(open_physical_draw(evening)).value
    deck = {p: [r for r, n in cards for _ in range(n)] for p, cards in value.remaining_cards().items()}
    plan = []
    for guest, pack in value.guests:
        take = pack if deck[pack] else pack.other
        rank = deck[take].pop()
        plan.append((guest, f"{rank} {take.value}"))
    random.Random(3).shuffle(plan)
    for guest, card in plan[:-1]:
        draw_physical_record(evening=evening, guest_id=guest, card=card)
    return plan[-1]


def main() -> None:
    """Print the draw's query counts, its time, the bare bulk_create's time and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with bench_database(args.database_url) as connection:
        from django.db import transaction
        from django.test.utils import CaptureQueriesContext

        from tournament.models import Seat
        from tournament.services.draw_physical import draw_physical_record
        from tournament.services.draws import draw_digital

        counts = {}
        for guests in (50, args.guests):
            evening = build(guests, f"Bench {guests}")
            draw_digital(evening=evening)  # the first draw (nothing to supersede) warms up
            with CaptureQueriesContext(connection) as queries:
                draw_digital(evening=evening)
            counts[guests] = (statements(queries.captured_queries), len(queries))
        draw_times, bulk_times = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            draw_digital(evening=evening)
            draw_times.append(time.perf_counter() - start)
            ids = list(Seat.objects.filter(evening=evening).values_list("guest_id", flat=True))
            Seat.objects.filter(evening=evening).delete()
            rows = [Seat(evening=evening, guest_id=g, table=1 + i // 6) for i, g in enumerate(ids)]
            start = time.perf_counter()
            with transaction.atomic():
                Seat.objects.bulk_create(rows)
            bulk_times.append(time.perf_counter() - start)
        guest, card = physical_last_card(evening)
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            draw_physical_record(evening=evening, guest_id=guest, card=card)
            record_time = time.perf_counter() - start
        record_queries = len(queries)
        vendor = connection.vendor

    draw_best, bulk_best = min(draw_times), min(bulk_times)
    print(f"database: {vendor}")
    for guests, (stmts, raw) in counts.items():
        print(f"digital draw, {guests:4d} guests: {stmts} SQL statements ({raw} queries with insert batches)")
    print(f"digital draw and save, {args.guests} guests, best of {args.repeat}: {draw_best * 1000:8.1f} ms")
    print(f"bare bulk_create of {args.guests} seat rows:              {bulk_best * 1000:8.1f} ms")
    print(f"ratio draw / bare bulk_create: {draw_best / bulk_best:.1f}")
    report(
        f"digital draw and save, {args.guests} guests ({vendor})",
        draw_best / bulk_best,
        "a bare bulk_create of its seats",
        2.5,
        detail=f"{counts[args.guests][0]} statements",
    )
    print(
        f"physical draw, the last of {args.guests} cards recorded: {record_time * 1000:.1f} ms, "
        f"{record_queries} SQL queries"
    )
    same = len({stmts for stmts, _ in counts.values()}) == 1
    print("statement count constant in the number of guests:", "yes" if same else "NO")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
