"""Benchmark: the room display and the clock's sweeper, each against a baseline in the same run.

Builds ``--evenings`` evenings of ``--guests`` checked-in guests each in a throwaway SQLite
database under ``var/bench-<pid>/``, draws them and starts a round in each, then times, the
four ways interleaved (full, 304, sweep, baseline, full, ...) and the best of ``--repeat`` kept:

- the room display's full render (``?mode=full``, htmx partial) against its conditional poll
  answered 304 (the ETag path every screen takes between changes): the ratio is what an
  unchanged poll saves;
- one sweep of ``ring_overdue_bells`` with every round running and none due (what beat does
  every 5 s all evening) against a bare ``SELECT 1``-like query (``Round.objects.exists()``):
  the ratio says the sweep stays a couple of indexed queries whatever the number of evenings.

Run: ``.venv/bin/python bench/bench_clock.py [--evenings 20] [--guests 120] [--repeat 20]``.
"""

from __future__ import annotations

import argparse
import os
import time

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from ratios import report  # noqa: E402

os.environ.pop("CELERY_BROKER_URL", None)


def interleaved(ways: dict, repeat: int) -> dict[str, float]:
    """Best wall time in seconds of each of ``ways`` (label: a callable), called in turn
    ``repeat`` rounds over, so a change in the machine's load falls on all alike."""
    top = dict.fromkeys(ways, float("inf"))
    for _ in range(repeat):
        for label, fn in ways.items():
            start = time.perf_counter()
            fn()
            top[label] = min(top[label], time.perf_counter() - start)
    return top


def main() -> None:
    """Print the timings and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=20)
    parser.add_argument("--guests", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    with bench_database():
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.urls import reverse

        from tournament import tasks
        from tournament.models import Evening, Guest, Round
        from tournament.services.clock import round_start
        from tournament.services.draws import draw_digital

        host = get_user_model().objects.create_user("bench-host", password="x")
        evenings = []
        for n in range(args.evenings):
            evening = Evening.objects.create(host=host, name=f"Bench {n}", date="2026-12-04")
            Guest.objects.bulk_create(
                [
                    Guest(
                        evening=evening,
                        name=f"Guest {i}",
                        name_key=f"guest {i}",
                        pack="red" if i % 2 else "blue",
                        status=Guest.Status.HERE,
                    )
                    for i in range(args.guests)
                ]
            )
            draw_digital(evening=evening)
            round_start(evening=evening)
            evenings.append(Evening.objects.get(pk=evening.pk))
        client = Client()
        url = reverse("room", args=[evenings[0].public_key]) + "?mode=full"
        first = client.get(url, HTTP_HX_REQUEST="true")
        etag = first["ETag"]
        assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
        times = interleaved(
            {
                "full": lambda: client.get(url, HTTP_HX_REQUEST="true"),
                "304": lambda: client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag),
                "sweep": tasks.ring_overdue_bells,
                "baseline": lambda: Round.objects.exists(),
            },
            args.repeat,
        )
        full, cached, sweep, baseline = times["full"], times["304"], times["sweep"], times["baseline"]
        print(
            f"room display, {args.guests} guests: full render {full * 1000:.2f} ms, "
            f"304 poll {cached * 1000:.2f} ms, ratio {full / cached:.1f}x"
        )
        print(
            f"sweeper, {args.evenings} running rounds, none due: {sweep * 1000:.2f} ms, "
            f"baseline query {baseline * 1000:.3f} ms, ratio {sweep / baseline:.1f}x"
        )
        report(f"room display, {args.guests} guests, full render", full / cached, "its 304 poll")
        report(
            f"the clock's sweep, {args.evenings} running rounds, none due",
            sweep / baseline,
            "one bare Round.objects.exists()",
        )


if __name__ == "__main__":
    main()
