"""Benchmark: importing an evening of 500 guests against exporting it, in the same run.

Builds one evening of ``--guests`` checked-in guests in a throwaway database (SQLite, or
``--database-url``): drawn, ``--rounds`` rounds reported at every table and rung, then times,
interleaved and best of ``--repeat``: ``evening_export`` of it (the baseline: reading every row
the import writes, and building the JSON) and ``evening_import`` of that export (a new evening
each time: every row checked and written, every bell replayed through the rules). Statements
are counted with ``connection.execute_wrapper`` (no cap), raw and with a bulk insert's batches
counted once (SQLite splits one at 999 parameters), for ``--guests`` and for 30 guests.
Beside the times, the best CPU time of this process (``time.process_time``: steadier on a busy
machine; on PostgreSQL it leaves out the server's work).
Django's DEBUG is off, as on the site (with it on, Django keeps every statement with its
parameters written out, and on SQLite asks the database to quote them: one more query for
each batch of a bulk insert, which the site never pays); ``--debug`` times it on.
``--profile FILE`` writes a cProfile of the timed imports to FILE (read it with
``python -m pstats FILE``).

Run: ``.venv/bin/python bench/bench_import.py [--guests 500] [--rounds 3] [--repeat 5]
[--database-url URL] [--debug] [--profile FILE]``.
"""

from __future__ import annotations

import argparse
import cProfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from ratios import report  # noqa: E402


def counted(run) -> tuple[float, float, int, int]:
    """(seconds, this process's CPU seconds, statements with bulk batches once, raw statements)
    of one ``run()``."""
    from django.db import connection

    sent: list[str] = []

    def count(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    folded, last = 0, None
    for sql in sent:
        head = sql.split("(", 1)[0] if sql.startswith("INSERT") else None
        folded += head is None or head != last
        last = head
    return seconds, cpu, folded, len(sent)


@contextmanager
def profiled(profile: cProfile.Profile | None) -> Iterator[None]:
    """Within: ``profile`` (if any) records the calls (the times printed are then profiled ones)."""
    if profile is None:
        yield
        return
    profile.enable()
    try:
        yield
    finally:
        profile.disable()


def recorded(host, guests: int, rounds: int):
    """An evening of ``guests``, drawn, ``rounds`` rounds rung; returns it."""
    from tests.test_round_services import play_round
    from tournament.models import Bell, Evening, Guest
    from tournament.services.bell import bell_ring
    from tournament.services.draws import draw_digital

    evening = Evening.objects.create(host=host, name=f"{guests} guests", date="2026-12-04", minutes_per_round=20)
    Guest.objects.bulk_create(
        [
            Guest(evening=evening, name=f"Guest {i:04d}", name_key=f"guest {i:04d}", pack="red" if i % 2 else "blue")
            for i in range(guests)
        ]
    )
    Guest.objects.filter(evening=evening).update(status=Guest.Status.HERE)
    draw_digital(evening=evening)
    for _ in range(rounds):
        bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    evening.refresh_from_db()
    return evening


def main() -> None:
    """Print the export's and the import's best times, their ratio and the statements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--debug", action="store_true", help="time with Django's DEBUG on")
    parser.add_argument("--profile", default="", help="write a cProfile of the imports to this file")
    args = parser.parse_args()
    with bench_database(args.database_url) as connection:
        from django.conf import settings
        from django.contrib.auth import get_user_model

        settings.DEBUG = args.debug

        from tournament.exchange.export import evening_export
        from tournament.exchange.importer import evening_import

        host = get_user_model().objects.create_user("bench-host", password="pass-word-123")
        evening = recorded(host, args.guests, args.rounds)
        small = evening_export(recorded(host, 30, args.rounds))
        data = evening_export(evening)
        best = {"export": float("inf"), "import": float("inf")}
        best_cpu = dict(best)
        profile = cProfile.Profile() if args.profile else None
        statements = {}
        for _ in range(args.repeat):
            seconds, cpu, folded, raw = counted(lambda: evening_export(evening))
            best["export"], best_cpu["export"] = min(best["export"], seconds), min(best_cpu["export"], cpu)
            statements["export"] = (folded, raw)
            with profiled(profile):
                seconds, cpu, folded, raw = counted(lambda: evening_import(data=data, host=host))
            best["import"], best_cpu["import"] = min(best["import"], seconds), min(best_cpu["import"], cpu)
            statements["import"] = (folded, raw)
        if profile is not None:
            profile.dump_stats(args.profile)
        statements["import, 30 guests"] = counted(lambda: evening_import(data=small, host=host))[2:]
        print(
            f"{connection.vendor}: an evening of {args.guests} guests, {args.rounds} rounds rung, "
            f"best of {args.repeat} interleaved, DEBUG {'on' if args.debug else 'off'}"
        )
        for way in ("export", "import"):
            folded, raw = statements[way]
            print(
                f"  {way:8} {best[way] * 1000:8.1f} ms ({best_cpu[way] * 1000:.1f} ms CPU here)   "
                f"{folded:5d} statements ({raw} raw)"
            )
        folded, raw = statements["import, 30 guests"]
        print(f"  import of 30 guests: {folded} statements ({raw} raw)")
        print(f"  ratio import / export: {best['import'] / best['export']:.2f}x")
        print(f"  ratio of this process's CPU time: {best_cpu['import'] / best_cpu['export']:.2f}x")
        report(
            f"import of an evening, {args.guests} guests ({connection.vendor})",
            best["import"] / best["export"],
            "its export",
            3,
            detail=f"{statements['import'][0]} statements; {folded} for 30 guests",
        )


if __name__ == "__main__":
    main()
