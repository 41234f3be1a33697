"""Reads that see one moment of the database: a page drawn from several queries never shows half
of a change (a guest told "move down to table 2" under "Go to table 1").

Every change to an evening is written in one transaction (the bell moves the seats, stores its
record and bumps the evening's version together), but a page reads the evening, its seats, its
results and its bells in several queries. Under PostgreSQL's default isolation (READ COMMITTED)
each query sees what was committed when it ran, so a bell committed between two of them gives a
page, and the memo kept under the version read first (``tournament.kept``), half of it.
``one_snapshot`` reads them all in one REPEATABLE READ transaction, PostgreSQL's snapshot
(https://www.postgresql.org/docs/current/transaction-iso.html); SQLite's transactions are
serializable already, so there it is a plain transaction. Reads only: a snapshot that wrote
could fail on a row changed since it began.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse

_SERIALS = itertools.count(1)
_NOW = threading.local()  # .serial: the snapshot this thread reads in, if any


def snapshot_serial() -> int | None:
    """A number naming the snapshot this thread reads in now (``one_snapshot``), the same for
    every read inside it and never given to another; None outside one. A value read with a
    serial equal to the current one was read at this snapshot's moment."""
    return getattr(_NOW, "serial", None)


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Run the block's queries in one snapshot of the database (module docstring). Inside
    another ``one_snapshot`` the block is part of it; inside a transaction begun otherwise (a
    service that writes, a test's transaction) the block joins it and sees what that
    transaction sees. Yields nothing; raises what the block raises (the transaction is rolled
    back, which for reads changes nothing)."""
    if snapshot_serial() is not None:
        yield
        return
    _NOW.serial = next(_SERIALS)
    try:
        if connection.in_atomic_block:
            yield
            return
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield
    finally:
        _NOW.serial = None


def read_in_one_snapshot(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view decorator: a GET or HEAD request's reads, the page's rendering included, in one
    snapshot (``one_snapshot``); a request of any other method runs as it is (it writes). Not for
    a view that waits for a change (a long poll): a snapshot never sees one."""

    @functools.wraps(view)
    def in_one_snapshot(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        with one_snapshot():
            return view(request, *args, **kwargs)

    return in_one_snapshot
