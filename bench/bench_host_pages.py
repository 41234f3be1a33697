"""Benchmark: the host's pages (and the room's and a guest's) at 500 guests against a bare Django
view in the same run, in Progressive Poker and at tables of four (Bunco); and each page's SQL
queries at 60 and at 500 guests, which must not grow.

Builds, in a throwaway SQLite database under ``var/bench-<pid>/`` (or ``--database-url``), for
each format an evening of 60 and one of ``--guests`` checked-in guests with names as long as
real ones, drawn, round 1 reported at every table and rung, round 2 running (Progressive Poker:
``tests/fixtures_room.played_evening``; Bunco: ``bench_formats.build``'s reports, North–South 21
to 9 with a bunco, then the bell). Logs the host in and, for each page of ``PAGES`` (the host's
board, guests, draw, print, standings, finish, corrections and audit pages, the room display and
a guest's page), GETs it through Django's test client: twice per evening for its queries (the
second GET's, the first warming the process up; counted with ``connection.execute_wrapper``,
no cap), then on the big evening ``--repeat``
rounds interleaved with the bare view ``/bench/bare/`` (``bench/phones_urls.py``: every
middleware, two bytes, no database), the best of each kept. Prints per page the bytes, the
queries at 60 and at ``--guests`` ("grows" where they differ), the best time and its ratio to
the bare view; the goal is <= 50x (issue 26 item 3), reported through ``bench/ratios.py``.
The finish page shows only once the evening has ended, so it is measured last, the same way,
after the host ends the evenings (``evening_end``: round 2 becomes the last round), every table
reports round 2 and its bell ends them.

Run: ``.venv/bin/python bench/bench_host_pages.py [--guests 500] [--repeat 5]
[--formats poker,bunco] [--database-url URL]``.
"""

from __future__ import annotations

import argparse

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from pages import BARE, counted_get, interleaved, use_bare_urls  # noqa: E402
from ratios import report  # noqa: E402

# (label, URL name, what its argument is: "evening" (the id), "public" (the room's key) or "guest")
PAGES = (
    ("board", "host-evening", "evening"),
    ("guests", "host-guests", "evening"),
    ("draw", "host-draw", "evening"),
    ("print", "host-print", "evening"),
    ("standings", "host-standings", "evening"),
    ("finish", "host-finish", "evening"),
    ("corrections", "host-corrections", "evening"),
    ("audit", "host-audit", "evening"),
    ("room display", "room", "public"),
    ("a guest's page", "guest-page", "guest"),
)


def bunco_evening(host, size: int):
    """A Bunco evening of ``size`` guests with real-length names: drawn, round 1 reported at
    every table (``bench_formats.report_for``) and rung, round 2 running. Returns the evening."""
    from bench_formats import build

    from tests.fixtures_room import guest_names
    from tournament.models import Bell, Guest
    from tournament.services.bell import bell_ring
    from tournament.services.clock import round_start

    evening, rnd, _ = build("bunco", size, f"The {size}-guest Bunco party")
    guests = list(evening.guests.order_by("pk"))
    for guest, name in zip(guests, guest_names(size), strict=True):
        guest.name, guest.name_key = name, Guest.fold_name(name)
    Guest.objects.bulk_update(guests, ["name", "name_key"])
    evening.host = host
    evening.save(update_fields=["host"])
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    round_start(evening=evening)
    evening.refresh_from_db()
    return evening


def evening_for(fmt: str, host, size: int):
    """The evening of the module docstring in ``fmt`` ("poker" or "bunco")."""
    from tests.fixtures_room import played_evening

    return played_evening(host, size) if fmt == "poker" else bunco_evening(host, size)


def end(fmt: str, evening) -> None:
    """End ``evening`` (round 2 running) as a host does: *End the evening* makes round 2 the
    last, every table reports it (as in round 1) and its bell ends the evening."""
    from bench_formats import report_for

    from tournament.formats.partnership.state import foursome_state
    from tournament.models import Bell, Evening, Result
    from tournament.services.bell import bell_ring
    from tournament.services.ending import evening_end
    from tournament.services.results import result_record
    from tournament.services.state import evening_state

    rnd = evening.rounds.order_by("-number").first()
    evening_end(evening=evening, seen_round=rnd.number)
    if fmt == "poker":
        state = evening_state(evening)
        for number, ids in enumerate(state.tables, 1):
            counters = None
            if number == 1:
                counters = {g: state.counters[g] for g in ids}
                counters[ids[0]] += 10
                counters[ids[-1]] -= 10
            result_record(round=rnd, table=number, pool_winner=ids[0], counters=counters)
    else:
        tables = foursome_state(evening).tables
        Result.objects.bulk_create(
            [Result(round=rnd, table=n, report=report_for(fmt, t)) for n, t in enumerate(tables, 1)]
        )
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED, evening.stage


def urls(evening) -> dict[str, str]:
    """{page label: its URL} for ``evening`` (a guest's page: the head table's first guest)."""
    from django.urls import reverse

    guest = evening.guests.order_by("pk").first()
    args = {"evening": evening.pk, "public": evening.public_key, "guest": guest.key}
    return {label: reverse(name, args=[args[kind]]) for label, name, kind in PAGES}


def measure(client, urls_by_size: dict[int, dict[str, str]], repeat: int, *, ended: bool) -> dict:
    """{page label: ((queries at the smallest size, at the largest), Timing at the largest)}
    for the pages of
    ``urls_by_size`` ({guests: {label: URL}}) shown while the evening runs (``ended`` False:
    all but the finish page) or once it has ended (only the finish page), timed interleaved
    with the bare view, whose Timing is under "bare" (queries (0, 0))."""
    small, big = (urls_by_size[size] for size in sorted(urls_by_size))
    labels = [label for label in big if (label == "finish") == ended]
    queries: dict[str, tuple[int, int]] = {}
    for label in labels:
        counts = []
        for url in (small[label], big[label]):  # each counted the same way: its second GET
            counted_get(client, url)  # warm up (templates, caches of the process)
            response, count, _ = counted_get(client, url)
            assert response.status_code == 200, f"{label}: {response.status_code}"
            counts.append(count)
        queries[label] = (counts[0], counts[1])
    ways = {"bare": lambda: counted_get(client, BARE)}
    ways.update({label: (lambda url=big[label]: counted_get(client, url)) for label in labels})
    best = interleaved(ways, repeat)
    for label in labels:
        assert best[label].status == 200, f"{label}: {best[label].status}"
    return {label: (queries.get(label, (0, 0)), timing) for label, timing in best.items()}


def main() -> None:
    """Print every page's size, queries, time and ratio to the bare view; report the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--formats", default="poker,bunco")
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with bench_database(args.database_url) as connection:
        from django.contrib.auth import get_user_model
        from django.test import Client

        use_bare_urls()
        host = get_user_model().objects.create_user("bench-host", password="pass-word-123")
        client = Client()
        client.force_login(host)
        for fmt in args.formats.split(","):
            evenings = {60: evening_for(fmt, host, 60), args.guests: evening_for(fmt, host, args.guests)}
            rows = measure(client, {size: urls(e) for size, e in evenings.items()}, args.repeat, ended=False)
            for evening in evenings.values():
                end(fmt, evening)
            rows.update(measure(client, {size: urls(e) for size, e in evenings.items()}, args.repeat, ended=True))
            bare = rows.pop("bare")[1].seconds
            print(
                f"{fmt}, {args.guests} guests ({connection.vendor}), best of {args.repeat} interleaved; "
                f"bare view {bare * 1000:.2f} ms"
            )
            print(f"  {'page':16}{'KiB':>7}{'queries 60':>12}{f'/ {args.guests}':>7}{'':7}{'ms':>9}{'ratio':>8}")
            for label, _, _ in PAGES:
                (at_60, at_big), t = rows[label]
                grows = "grows" if at_big != at_60 else ""
                print(
                    f"  {label:16}{t.size / 1024:7.0f}{at_60:12d}{at_big:7d}{grows:>7}"
                    f"{t.seconds * 1000:9.1f}{t.seconds / bare:8.0f}",
                    flush=True,
                )
                report(
                    f"{fmt}: {label}, {args.guests} guests",
                    t.seconds / bare,
                    "a bare Django view",
                    50,
                    detail=f"{at_60} / {at_big} queries at 60 / {args.guests}" + (", grows" if grows else ""),
                )


if __name__ == "__main__":
    main()
