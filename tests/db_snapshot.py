"""A snapshot of the whole database for "nothing changed" checks: every table's row count and a
hash of its rows, read with plain SQL (so a model the tests do not know is counted too).

Django's session table is left out: a message shown after a refused post is kept in the
session, which is the point of the message, not a change to the evening.
"""

from __future__ import annotations

import hashlib

from django.db import connection

SKIPPED = {"django_session"}


def db_snapshot() -> dict[str, tuple[int, str]]:
    """Table name -> (row count, SHA-256 of its rows in primary-key order)."""
    snapshot = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            if table in SKIPPED:
                continue
            quoted = connection.ops.quote_name(table)
            cursor.execute(f"SELECT * FROM {quoted} ORDER BY 1")  # noqa: S608 (names from the schema)
            rows = cursor.fetchall()
            digest = hashlib.sha256(repr(rows).encode("utf-8", "surrogatepass")).hexdigest()
            snapshot[table] = (len(rows), digest)
    return snapshot


def changed_tables(before: dict, after: dict) -> list[str]:
    """The tables whose count or rows differ between two snapshots."""
    return sorted(t for t in set(before) | set(after) if before.get(t) != after.get(t))
