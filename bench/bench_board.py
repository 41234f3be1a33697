"""Benchmark: the host's board poll at 500 guests (84 tables), changed and unchanged, against a
bare Django view in the same run.

Builds one evening of ``--guests`` checked-in guests in a throwaway SQLite database under
``var/bench-<pid>/`` (drawn, round 1 reported at every table and rung, round 2 running), logs
its host in, and for the board's live poll (htmx, every 5 s) prints, best of ``--repeat``:

- a poll after a change: 200 with the board (bytes, queries, milliseconds);
- a poll with nothing changed: 304 with no body (bytes, queries, milliseconds);

and, interleaved with them in the same rounds, the bare view ``/bench/bare/``
(``bench/phones_urls.py``: every middleware, two bytes, no database) through the same client.
Queries are counted with ``connection.execute_wrapper`` (no cap). The ratios: each poll over the
bare view (a host page at 500 guests: goal <= 50x, issue 26 item 3), and changed over unchanged
(what an unchanged poll saves the server, whatever the size).

Run: ``.venv/bin/python bench/bench_board.py [--guests 500] [--repeat 20]``.
"""

from __future__ import annotations

import argparse

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from pages import BARE, counted_get, interleaved, use_bare_urls  # noqa: E402
from ratios import report  # noqa: E402


def main() -> None:
    """Print both polls and the bare view, and the ratios of their times."""
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
        use_bare_urls()
        url = reverse("host-evening", args=[evening.pk])
        etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
        ways = {
            "bare": lambda: counted_get(client, BARE),
            "changed": lambda: counted_get(client, url, HTTP_HX_REQUEST="true"),
            "unchanged": lambda: counted_get(client, url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag),
        }
        best = interleaved(ways, args.repeat)
        print(f"board poll at {args.guests} guests, best of {args.repeat} interleaved")
        for label, t in best.items():
            print(f"  {label:9} {t.status}  {t.size:7d} bytes  {t.queries:2d} queries  {t.seconds * 1000:7.2f} ms")
        bare = best["bare"].seconds
        changed, unchanged = best["changed"], best["unchanged"]
        print(f"  ratio changed/unchanged: {changed.seconds / unchanged.seconds:.1f}×")
        assert unchanged.status == 304 and unchanged.size == 0, "an unchanged poll must be an empty 304"
        report(
            f"host board poll, changed, {args.guests} guests",
            changed.seconds / bare,
            "a bare Django view",
            50,
            detail=f"{changed.queries} queries",
        )
        report(
            f"host board poll, unchanged (304), {args.guests} guests",
            unchanged.seconds / bare,
            "a bare Django view",
            detail=f"{unchanged.queries} queries",
        )
        report(
            f"host board poll, {args.guests} guests, changed", changed.seconds / unchanged.seconds, "unchanged (304)"
        )


if __name__ == "__main__":
    main()
