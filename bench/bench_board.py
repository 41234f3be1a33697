"""Benchmark: the host's board poll at 500 guests (84 tables), changed against unchanged.

Builds one evening of ``--guests`` checked-in guests in a throwaway SQLite database under
``var/bench-<pid>/`` (drawn, round 1 reported at every table and rung, round 2 running), logs
its host in, and for the board's live poll (htmx, every 5 s) prints, best of ``--repeat``:

- a poll after a change: 200 with the board (bytes, queries, milliseconds);
- a poll with nothing changed: 304 with no body (bytes, queries, milliseconds);

and the ratio of their times: what an unchanged poll saves the server, whatever the size.

Run: ``.venv/bin/python bench/bench_board.py [--guests 500] [--repeat 20]``.
"""

from __future__ import annotations

import argparse
import time

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)


def measure(client, url: str, repeat: int, **headers) -> tuple[int, int, int, float]:
    """(status, bytes, queries, best milliseconds) of ``repeat`` GETs of ``url``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    top, response, queries = float("inf"), None, 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(url, **headers)
            top = min(top, time.perf_counter() - start)
        queries = len(captured)
    return response.status_code, len(response.content), queries, top * 1000


def main() -> None:
    """Print both polls and the ratio of their times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with bench_database():
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.urls import reverse

        from tests.fixtures_room import played_evening

        host = get_user_model().objects.create_user("bench-host", password="pass-word-123")
        evening = played_evening(host, args.guests)
        client = Client()
        client.force_login(host)
        url = reverse("host-evening", args=[evening.pk])
        changed = measure(client, url, args.repeat, HTTP_HX_REQUEST="true")
        etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
        unchanged = measure(client, url, args.repeat, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
        print(f"board poll at {args.guests} guests")
        for label, (status, size, queries, ms) in (("changed", changed), ("unchanged", unchanged)):
            print(f"  {label:9} {status}  {size:7d} bytes  {queries:2d} queries  {ms:7.2f} ms")
        print(f"  ratio changed/unchanged: {changed[3] / unchanged[3]:.1f}×")
        assert unchanged[0] == 304 and unchanged[1] == 0, "an unchanged poll must be an empty 304"


if __name__ == "__main__":
    main()
