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

With ``--cold`` every page but a guest's is also timed as its first draw after a change: the
evening's version bumped (``services.versions.evening_touch``, outside the timing) before each
of its GETs, in the same interleaved rounds as the page drawn again unchanged and the bare view
(the host's board, the room display and the standings keep their board per process and version,
``selectors.guest_boards``; without ``--cold`` they are timed warm). A guest's page is left out:
it reads the version from the cache, which a gunicorn's own in-memory cache learns only after
its second (``versions.LOCAL_TTL``). Its rows say "first draw after a change".

With ``--http`` (SQLite only) every page and the bare view are also fetched over HTTP from a
gunicorn (one worker, one thread) serving the same database file with the production settings
(``bench/phones_settings.py``, DEBUG off, the in-memory cache) and the host's session cookie,
interleaved the same way: the bare view then costs a request over the loopback, as in a run with
gunicorn, so these ratios are the ones to set beside figures measured that way (issue 26's).

With ``--forget`` (with ``--cold``, in process only) each first draw also follows forgetting
everything the process keeps (``kept.kept_forget``): what is kept under what it reads rather
than under the version (the steps decoded, the standings at tables of four, poker's board
standings) is computed again, as after a bell, which changes all of it (the evening here has
one bell, so this is a first draw after it, its record decoded once).

With ``--cpu`` (in process only) each GET and the bare view are timed in this process's CPU
seconds (``time.process_time``) instead of wall-clock seconds: on a machine shared with other
jobs a GET's wait for the processor is left out, so the ratios move less between runs.

Run: ``.venv/bin/python bench/bench_host_pages.py [--guests 500] [--repeat 5]
[--formats poker,bunco] [--database-url URL] [--http] [--cold] [--forget] [--cpu] [--pages guests,print]``
(``--pages``: only the pages of those labels of ``PAGES``).
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pages as page_timing  # noqa: E402
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
COLD = " (first draw after a change)"  # a cold row's label: its page's label and this
NEVER_COLD = {"a guest's page"}  # read from the cache's version (module docstring)


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


def bump(evening, *, forget: bool = False) -> None:
    """Bump ``evening``'s version as every change does (``services.versions.evening_touch``, in
    its own transaction): every page's board kept for the old version is stale. ``forget``
    (``--forget``): also forget all this process keeps (``kept.kept_forget``: the steps decoded,
    the standings kept under what they read), as after a bell, which changes all of these."""
    from django.db import transaction

    from tournament.kept import kept_forget
    from tournament.services.versions import evening_touch

    with transaction.atomic():
        evening_touch(evening=evening)
    if forget:
        kept_forget()


def urls(evening) -> dict[str, str]:
    """{page label: its URL} for ``evening`` (a guest's page: the head table's first guest)."""
    from django.urls import reverse

    guest = evening.guests.order_by("pk").first()
    args = {"evening": evening.pk, "public": evening.public_key, "guest": guest.key}
    return {label: reverse(name, args=[args[kind]]) for label, name, kind in PAGES}


def measure(
    get,
    urls_by_size: dict[int, dict[str, str]],
    repeat: int,
    *,
    ended: bool,
    only: set[str] | None = None,
    touch: Callable[[int], None] | None = None,
) -> dict:
    """{page label: ((queries at the smallest size, at the largest), Timing at the largest)}
    for the pages of
    ``urls_by_size`` ({guests: {label: URL}}) shown while the evening runs (``ended`` False:
    all but the finish page) or once it has ended (only the finish page), timed interleaved
    with the bare view, whose Timing is under "bare" (queries (0, 0)). ``get(url)`` fetches one
    page: (response, queries, seconds), in process (``pages.counted_get``) or over HTTP.
    ``only``: the labels to measure (``--pages``), None for every page. ``touch(guests)`` (``--cold``):
    bumps the version of the evening of that size; each page but a guest's is then also timed
    right after it (the big evening's), under its label plus ``COLD``, with the queries of such
    a GET at each size."""
    (small_size, small), (big_size, big) = sorted(urls_by_size.items())
    labels = [label for label in big if (label == "finish") == ended and (only is None or label in only)]
    cold = [label for label in labels if touch is not None and label not in NEVER_COLD]
    queries: dict[str, tuple[int, int]] = {}
    for label in labels:
        counts = []
        for url in (small[label], big[label]):  # each counted the same way: its second GET
            get(url)  # warm up (templates, caches of the process)
            response, count, _ = get(url)
            assert response.status_code == 200, f"{label}: {response.status_code}"
            counts.append(count)
        queries[label] = (counts[0], counts[1])
    for label in cold:  # a first draw's queries: its evening touched, then the page
        counts = [
            after(lambda s=size: touch(s), get, url)[1]
            for size, url in ((small_size, small[label]), (big_size, big[label]))
        ]
        queries[label + COLD] = (counts[0], counts[1])
    ways = {"bare": lambda: get(BARE)}
    for label in labels:  # each page's first draw after a change, then the same page drawn again (warm)
        if label in cold:
            ways[label + COLD] = lambda url=big[label]: after(lambda: touch(big_size), get, url)
        ways[label] = lambda url=big[label]: get(url)
    best = interleaved(ways, repeat)
    for label in ways:
        assert best[label].status == 200, f"{label}: {best[label].status}"
    return {label: (queries.get(label, (0, 0)), timing) for label, timing in best.items()}


def after(touch: Callable[[], None], get, url: str) -> tuple[object, int, float]:
    """``get(url)`` right after ``touch()`` (the evening's version bumped: the page's first draw
    after a change); the touch is not timed and its queries are not counted."""
    touch()
    return get(url)


class HttpResponse:
    """What ``pages.interleaved`` reads of a response fetched over HTTP: status and body."""

    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code, self.content = status_code, content


class Http:
    """A gunicorn serving this run's SQLite file (``--http``), and one keep-alive connection to it
    that sends the host's session cookie."""

    def __init__(self, database: str, secret_key: str, cookie: str) -> None:
        root = Path(__file__).resolve().parent.parent
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "phones_settings",
            "BENCH_CACHE": "locmem",
            "DATABASE_URL": f"sqlite:///{database}",
            "SECRET_KEY": secret_key,
            "DEBUG": "0",
            "CELERY_BROKER_URL": "",
            "REDIS_URL": "",
            "PYTHONPATH": os.pathsep.join([str(root / "bench"), str(root)]),
        }
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        command = [gunicorn, "phones_wsgi:application", "--bind", f"127.0.0.1:{self.port}", "--workers", "1"]
        command += ["--worker-class", "gthread", "--threads", "1", "--keep-alive", "30", "--log-level", "warning"]
        self.server = subprocess.Popen(command, cwd=root, env=env, start_new_session=True)
        self.cookie = cookie
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.get("/bench/bare/")[0].status_code == 200:
                    return
            except OSError:
                self.conn.close()
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit("gunicorn did not start within 60 s")
            time.sleep(0.3)

    def get(self, path: str) -> tuple[HttpResponse, int, float]:
        """(response, SQL queries the server ran, seconds) of one GET of ``path``. A connection
        the server closed while idle (its keep-alive ran out while the pages were measured in
        process, on a busy machine) is opened again once and the GET sent again."""
        try:
            return self._get(path)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.conn.close()
            return self._get(path)

    def _get(self, path: str) -> tuple[HttpResponse, int, float]:
        start = time.perf_counter()
        self.conn.request("GET", path, headers={"Host": "127.0.0.1", "Cookie": self.cookie})
        response = self.conn.getresponse()
        body = response.read()
        seconds = time.perf_counter() - start
        return HttpResponse(response.status, body), int(response.getheader("X-Bench-Queries", "-1")), seconds

    def stop(self) -> None:
        """Stop the gunicorn this started (its process group)."""
        self.conn.close()
        os.killpg(self.server.pid, 15)
        self.server.wait(timeout=30)


def print_rows(title: str, rows: dict, size: int, fmt: str, how: str) -> None:
    """Print ``measure``'s rows (with "bare") under ``title`` and report each page's ratio; a
    page's first draw after a change (``--cold``) follows it, as "<page>, cold"."""
    bare = rows.pop("bare")[1].seconds
    print(f"{title}; bare view {bare * 1000:.2f} ms")
    print(f"  {'page':22}{'KiB':>7}{'queries 60':>12}{f'/ {size}':>7}{'':7}{'ms':>9}{'ratio':>8}")
    for page, _, _ in PAGES:
        for label, shown, said in (
            (page, page, page),
            (page + COLD, f"{page}, cold", page + COLD.rstrip(")").replace(" (", ", ")),
        ):
            if label not in rows:  # left out by --pages, or not --cold
                continue
            (at_60, at_big), t = rows[label]
            grows = "grows" if at_big != at_60 else ""
            print(
                f"  {shown:22}{t.size / 1024:7.0f}{at_60:12d}{at_big:7d}{grows:>7}"
                f"{t.seconds * 1000:9.1f}{t.seconds / bare:8.0f}",
                flush=True,
            )
            report(
                f"{fmt}: {said}, {size} guests{how}",
                t.seconds / bare,
                "a bare Django view" + how,
                50,
                detail=f"{at_60} / {at_big} queries at 60 / {size}" + (", grows" if grows else ""),
            )


def main() -> None:
    """Print every page's size, queries, time and ratio to the bare view; report the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--formats", default="poker,bunco")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--http", action="store_true", help="also over HTTP from gunicorn (SQLite only)")
    parser.add_argument("--cold", action="store_true", help="also each page's first draw after a change")
    parser.add_argument("--pages", default="", help="only these pages, by label, comma-separated (e.g. guests,print)")
    parser.add_argument("--cpu", action="store_true", help="time in this process's CPU seconds (in process only)")
    parser.add_argument(
        "--forget",
        action="store_true",
        help="with --cold: forget all the process keeps too, as a bell does (in process only)",
    )
    args = parser.parse_args()
    only = {label.strip() for label in args.pages.split(",")} if args.pages else None
    if only and only - {label for label, _, _ in PAGES}:
        parser.error(f"--pages: choose among {', '.join(label for label, _, _ in PAGES)}")
    if args.http and args.database_url:
        parser.error("--http serves the SQLite file only")
    if args.forget and (args.http or not args.cold):
        parser.error("--forget: with --cold, in process only (a gunicorn's memory is its own)")
    if args.cpu and args.http:
        parser.error("--cpu times in process only: a page fetched over HTTP runs in gunicorn")
    if args.cpu:
        page_timing.CLOCK = time.process_time
    with bench_database(args.database_url) as connection:
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client

        use_bare_urls()
        host = get_user_model().objects.create_user("bench-host", password="pass-word-123")
        client = Client()
        client.force_login(host)
        for fmt in args.formats.split(","):
            evenings = {60: evening_for(fmt, host, 60), args.guests: evening_for(fmt, host, args.guests)}
            ways = [(" in CPU time" if args.cpu else "", lambda url: counted_get(client, url))]
            server = None
            if args.http:
                cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
                server = Http(connection.settings_dict["NAME"], settings.SECRET_KEY, cookie)
                ways.append((" over HTTP", server.get))
            touch = (lambda size, evenings=evenings: bump(evenings[size], forget=args.forget)) if args.cold else None
            try:
                pages = {size: urls(e) for size, e in evenings.items()}
                rows = {how: measure(get, pages, args.repeat, ended=False, only=only, touch=touch) for how, get in ways}
                if only is None or "finish" in only:
                    for evening in evenings.values():
                        end(fmt, evening)
                    for how, get in ways:
                        rows[how].update(measure(get, pages, args.repeat, ended=True, only=only, touch=touch))
            finally:
                if server is not None:
                    server.stop()
            for how, _ in ways:
                title = f"{fmt}, {args.guests} guests ({connection.vendor}{how}), best of {args.repeat} interleaved"
                print_rows(title, rows[how], args.guests, fmt, how)


if __name__ == "__main__":
    main()
