"""What the page benchmarks share (``bench_board.py``, ``bench_host_pages.py``): the bare Django
view as the baseline, a GET through Django's test client with its SQL queries counted (no cap:
``connection.execute_wrapper``, not ``CaptureQueriesContext``), and ways timed interleaved,
best of N. Import after ``bench_django`` (which sets Django's settings up)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

BARE = "/bench/bare/"
CLOCK: Callable[[], float] = time.perf_counter
"""What ``counted_get`` times with: wall-clock seconds, or this process's CPU seconds
(``time.process_time``, ``bench_host_pages.py --cpu``), which waiting on a busy machine does
not inflate."""


def use_bare_urls() -> None:
    """Serve the site's URLs plus ``/bench/bare/`` (``bench/phones_urls.py``) in this process."""
    from django.conf import settings
    from django.urls import clear_url_caches

    settings.ROOT_URLCONF = "phones_urls"
    clear_url_caches()


@dataclass(frozen=True)
class Timing:
    """One way's best time in seconds, and its last response's status, size in bytes and SQL
    queries."""

    seconds: float
    status: int
    size: int
    queries: int


def counted_get(client, url: str, **headers) -> tuple[object, int, float]:
    """(response, SQL queries, seconds by ``CLOCK``) of one GET of ``url`` through the test
    ``client``."""
    from django.db import connection

    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        start = CLOCK()
        response = client.get(url, **headers)
        seconds = CLOCK() - start
    return response, queries, seconds


def interleaved(ways: dict[str, Callable[[], tuple[object, int, float]]], repeat: int, bare_calls: int = 10):
    """Time every way of ``ways`` (label: a ``counted_get`` call) once per round, ``repeat``
    rounds, in order, so a change in the machine's load falls on all alike; a way labelled
    "bare" is called ``bare_calls`` times per round (it takes a millisecond). Returns
    {label: Timing} with each way's best time. Raises ``AssertionError`` for a response that is
    an error (status 400 or more: a page that breaks is no measurement)."""
    best: dict[str, Timing] = {}
    for _ in range(repeat):
        for label, way in ways.items():
            for _ in range(bare_calls if label == "bare" else 1):
                response, queries, seconds = way()
                status = response.status_code  # type: ignore[attr-defined]
                assert status < 400, f"{label}: {status}"
                if label not in best or seconds < best[label].seconds:
                    best[label] = Timing(seconds, status, len(response.content), queries)  # type: ignore[attr-defined]
    return best
