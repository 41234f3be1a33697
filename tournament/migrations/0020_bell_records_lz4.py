"""On PostgreSQL, a bell's record and state after are compressed with lz4, not pglz (issue 26
item 6: the bell near its floor).

A bell at 500 guests stores some 85 KB of JSON in these two columns; PostgreSQL compresses a
value that large before writing it (TOAST), and its default compressor, pglz, took half of the
bell's INSERT (about 2.9 ms of 4.5 for a 67 KB record; lz4 1.45 ms), measured on PostgreSQL 15.
Rows written before keep their pglz values, which PostgreSQL reads as before. Nothing changes
on SQLite, or on a PostgreSQL built without lz4 (before 14, or without the library): there the
columns keep the server's default.
"""

from __future__ import annotations

from django.db import DatabaseError, migrations, transaction

COLUMNS = ("record", "state_after")


def _set_compression(apps, schema_editor, method: str) -> None:
    """Set the compression of the bell's big JSON columns to ``method`` on PostgreSQL 14+."""
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    table = schema_editor.quote_name(apps.get_model("tournament", "Bell")._meta.db_table)
    columns = ", ".join(f"ALTER COLUMN {schema_editor.quote_name(c)} SET COMPRESSION {method}" for c in COLUMNS)
    try:
        with transaction.atomic(using=connection.alias):
            schema_editor.execute(f"ALTER TABLE {table} {columns}")
    except DatabaseError:  # built without lz4: the server's default compression stays
        return


def lz4(apps, schema_editor) -> None:
    """Compress new bells' records with lz4."""
    _set_compression(apps, schema_editor, "lz4")


def server_default(apps, schema_editor) -> None:
    """Back to the server's default compression."""
    _set_compression(apps, schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [("tournament", "0019_shared_evening_rules")]

    operations = [migrations.RunPython(lz4, server_default)]
