"""Rows of plain values written in one multi-row INSERT, without the ORM preparing each value.

Django's ``bulk_create`` sends one INSERT (in batches) but prepares every value of every row
through its field (``get_db_prep_save``): for a bell's few hundred entries or a draw's cards
that preparation costs more than the database's work (issue 26 item 6). The rows a bell and a
draw write hold only whole numbers, text and nulls, which every database driver takes as they
are, so ``insert_plain`` writes them from plain mappings, no model instance made,
``INSERT INTO t (a, b) VALUES (%s, %s), (%s, %s), ...``, batched as Django batches a bulk
insert (``connection.ops.bulk_batch_size``). A model with any other kind of column (dates,
JSON, database defaults) is refused: ``bulk_create`` is the way for those.

On PostgreSQL the rows go as one array a column instead (``INSERT ... SELECT ... FROM
UNNEST(...)``, as Django's own bulk insert does there): psycopg finds a query's placeholders in
Python, and a draw's 500 cards and 500 seats were some 4,500 of them, more time than the
database's.

The bell's seats are the same kind of rows updated: ``update_plain`` moves many rows to values
of their own in one ``UPDATE ... FROM (VALUES ...)`` (issue 26 item 6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import connections, models, router

PLAIN_COLUMNS = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "BooleanField",
        "CharField",
        "ForeignKey",
        "IntegerField",
        "OneToOneField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SmallIntegerField",
        "TextField",
    }
)
"""The kinds of column whose Python values (int, str, bool, None) the drivers take as they are."""


Plain = int | str | bool | None
"""A value every driver takes as it is."""


def insert_plain(
    model: type[models.Model], rows: Sequence[Mapping[str, Plain]], *, constants: Mapping[str, object] | None = None
) -> int:
    """Insert ``rows`` of ``model`` in one INSERT per batch, each row a mapping of column
    attribute names (``bell_id``, ``kind``, ...) to plain values; a column a row leaves out
    takes its field's default (``""`` for blank text, ``None`` where null). ``constants``
    (attribute name -> value) are columns every row shares, of any kind (a draw's time): each
    is prepared once by its field, as Django prepares a value. Returns how many rows were
    written; their new primary keys are not read back. On PostgreSQL the rows go as one array a
    column (``_insert_arrays``), in one statement. Raises ``TypeError`` for a column, not
    among ``constants``, that is not plain (``PLAIN_COLUMNS``) or has a database default, and
    ``KeyError`` for a row naming a column the model has not: nothing is written then."""
    if not rows:
        return 0
    constants = constants or {}
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    for f in fields:
        if f.attname not in constants and (f.get_internal_type() not in PLAIN_COLUMNS or f.has_db_default()):
            raise TypeError(f"{model.__name__}.{f.name} is not a plain column: use bulk_create.")
    names = [f.attname for f in fields]
    unknown = ({key for row in rows for key in row} | set(constants)) - set(names)
    if unknown:
        raise KeyError(f"{model.__name__} has no column {sorted(unknown)[0]}.")
    connection = connections[router.db_for_write(model)]
    defaults: dict[str, Plain] = {f.attname: f.get_default() for f in fields if f.attname not in constants}
    shared = {f.attname: f.get_db_prep_save(constants[f.attname], connection) for f in fields if f.attname in constants}
    quote = connection.ops.quote_name
    table = str(model._meta.db_table)
    columns = ", ".join(quote(str(f.column)) for f in fields)
    if connection.vendor == "postgresql":
        _insert_arrays(connection, f"INSERT INTO {quote(table)} ({columns})", fields, rows, shared, defaults)
        return len(rows)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    size = max(1, connection.ops.bulk_batch_size(fields, list(rows)))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            batch = rows[start : start + size]
            values = [
                shared[name] if name in shared else row.get(name, defaults[name]) for row in batch for name in names
            ]
            cursor.execute(f"INSERT INTO {quote(table)} ({columns}) VALUES {', '.join([one] * len(batch))}", values)
    return len(rows)


def update_plain(
    model: type[models.Model],
    rows: Sequence[Sequence[Plain]],
    *,
    key: str,
    columns: Sequence[str],
    where: Mapping[str, Plain],
) -> int:
    """Update many rows of ``model`` to values of their own in one statement:
    ``UPDATE t SET a = v.column2, ... FROM (VALUES (%s, %s, ...), ...) AS v WHERE t.key =
    v.column1 AND t.w = %s`` (on PostgreSQL ``FROM UNNEST(...)``, one array a column, as
    ``insert_plain``), which both databases (SQLite 3.33+) run as a join,
    where a ``CASE key WHEN ... END`` per column is read through once per row. Each of
    ``rows`` is the ``key`` column's value then the ``columns``' new values (attribute names,
    plain values: ``PLAIN_COLUMNS``); ``where`` (attribute name -> value) narrows the rows
    updated (e.g. to one evening). Each new value is cast to its column's type, so a column of
    nulls or of small numbers reads the same on both databases. Returns how many rows the
    database updated. Raises ``TypeError`` for a column that is not plain and ``KeyError`` for
    one the model has not; nothing is written then."""
    if not rows:
        return 0
    by_name = {f.attname: f for f in model._meta.concrete_fields}
    unknown = [name for name in (key, *columns, *where) if name not in by_name]
    if unknown:
        raise KeyError(f"{model.__name__} has no column {unknown[0]}.")
    for name in (key, *columns):
        if by_name[name].get_internal_type() not in PLAIN_COLUMNS:
            raise TypeError(f"{model.__name__}.{name} is not a plain column.")
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    table = quote(str(model._meta.db_table))
    if connection.vendor == "postgresql":  # one array a column (``_insert_arrays``)
        names = (key, *columns)
        arrays = ", ".join(f"(%s)::{_array_type(by_name[name], connection)}" for name in names)
        aliases = ", ".join(f"c{i}" for i in range(1, len(names) + 1))
        sets = ", ".join(f"{quote(str(by_name[name].column))} = v.c{i}" for i, name in enumerate(columns, 2))
        conditions = [f"{table}.{quote(str(by_name[key].column))} = v.c1"]
        conditions += [f"{table}.{quote(str(by_name[name].column))} = %s" for name in where]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM UNNEST({arrays}) AS v({aliases}) WHERE {' AND '.join(conditions)}",
                [[row[i] for row in rows] for i in range(len(names))] + list(where.values()),
            )
            return cursor.rowcount
    sets = ", ".join(
        f"{quote(str(by_name[name].column))} = CAST(v.column{i} AS {by_name[name].cast_db_type(connection)})"
        for i, name in enumerate(columns, 2)
    )
    one = "(" + ", ".join(["%s"] * (1 + len(columns))) + ")"
    conditions = [f"{table}.{quote(str(by_name[key].column))} = v.column1"]
    conditions += [f"{table}.{quote(str(by_name[name].column))} = %s" for name in where]
    values = [value for row in rows for value in row] + list(where.values())
    sql = (
        f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([one] * len(rows))}) AS v WHERE {' AND '.join(conditions)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return cursor.rowcount


def _array_type(field: models.Field, connection) -> str:
    """The PostgreSQL array type of ``field``'s column, its length left out as Django's own
    bulk insert does (``varchar[]``, not ``varchar(300)[]``: no value is cut)."""
    return str(field.db_type(connection)).split("(")[0] + "[]"


def _insert_arrays(
    connection,
    insert: str,
    fields: Sequence[models.Field],
    rows: Sequence[Mapping[str, Plain]],
    shared: Mapping[str, object],
    defaults: Mapping[str, Plain],
) -> None:
    """On PostgreSQL: ``insert`` (``INSERT INTO t (a, b, ...)``) of ``rows`` as ``SELECT ...
    FROM UNNEST((%s)::bigint[], ...)``, one array a column, as Django's own bulk insert does
    there: psycopg finds a query's placeholders in Python, some microseconds each, so a few
    thousand of them cost more than the database's work. A column in ``shared`` is one value
    (cast to its column's type), the same in every row."""
    plain = [f for f in fields if f.attname not in shared]
    select = ", ".join(
        f"CAST(%s AS {str(f.db_type(connection))})" if f.attname in shared else f"u.c{plain.index(f)}" for f in fields
    )
    arrays = ", ".join(f"(%s)::{_array_type(f, connection)}" for f in plain)
    aliases = ", ".join(f"c{i}" for i in range(len(plain)))
    params: list[object] = [shared[f.attname] for f in fields if f.attname in shared]
    params += [[row.get(f.attname, defaults[f.attname]) for row in rows] for f in plain]
    with connection.cursor() as cursor:
        cursor.execute(f"{insert} SELECT {select} FROM UNNEST({arrays}) AS u({aliases})", params)
