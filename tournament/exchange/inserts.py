"""Rows of one model written by the import in one INSERT per batch, each value prepared once
(issue 26 item 4: "write with bulk_create; 500 guests within 3x the export's time").

Django's ``bulk_create`` compiles every value of every row as an expression would be (the
field's ``pre_save``, a placeholder and its parameters, the backend's hook for each), and a
column the database fills (``db_default=Now()``: the times a row is written at) is written as
that expression again in every row: 2,000 rows of an evening took most of the import's time
there. Here each column's values go through the field's own ``get_db_prep_save`` (the same
conversion ``bulk_create`` makes: JSON, choices' text, ids), a column the database fills for
every row is left out of the INSERT (so the database's DEFAULT writes it, as ``Now()`` did),
and the ids and the database's values come back by ``RETURNING``, converted as Django reads
them, so each row is as ``bulk_create`` leaves it (saved, its id and times set).

Anything this does not write the same way goes to ``bulk_create`` itself: a row with its id
already set, a column the database fills for some rows but not others, a field with its own
placeholder, a database that cannot return rows from one INSERT. On PostgreSQL each column's
values go as one array (``UNNEST``), as ``bulk_create`` sends them there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from django.db import connections, models, router, transaction
from django.db.models.expressions import DatabaseDefault

M = TypeVar("M", bound=models.Model)


def _plain(model: type[models.Model], rows: Sequence[models.Model], connection: Any) -> bool:
    """Whether ``rows`` can be written here as ``bulk_create`` would write them."""
    opts = model._meta
    return (
        connection.features.can_return_rows_from_bulk_insert
        and isinstance(opts.pk, models.AutoField)
        and not opts.parents
        and all(row.pk is None for row in rows)
        and not any(hasattr(field, "get_placeholder") for field in opts.concrete_fields)
    )


def rows_inserted(rows: Sequence[M]) -> list[M]:
    """Write ``rows`` (new rows of one model, already checked: ``rows._checked``) with one
    INSERT per batch the database allows (SQLite: 999 values); returns them with their ids and
    the values the database filled set, each marked saved. A foreign key set as a row (a
    parent saved before, or written by an earlier call) is taken from that row's id, as
    ``bulk_create`` takes it. Raises ``ValueError`` for a row whose parent is not saved, and
    the database's ``IntegrityError`` for a row its constraints refuse."""
    if not rows:
        return []
    model = type(rows[0])
    using = router.db_for_write(model)
    connection: Any = connections[using]  # the backend's insert operations are not in its stubs
    if not _plain(model, rows, connection):
        return model._default_manager.using(using).bulk_create(rows)
    opts = model._meta
    filled, written = [], []
    for field in opts.concrete_fields:
        if field.primary_key or field.generated:
            continue
        defaulted = [isinstance(getattr(row, field.attname), DatabaseDefault) for row in rows]
        if all(defaulted):
            filled.append(field)
        elif any(defaulted):  # the database fills it for some rows only
            return model._default_manager.using(using).bulk_create(rows)
        else:
            written.append(field)
    for row in rows:  # a parent given as a row: its id, checked saved (as bulk_create does)
        row._prepare_related_fields_for_save(operation_name="bulk_create")  # type: ignore[attr-defined]
    returning = [opts.pk, *filled]
    readers = [_reader(field, opts.db_table, connection) for field in returning]
    quote = connection.ops.quote_name
    into = f"INSERT INTO {quote(opts.db_table)} ({', '.join(quote(cast(str, field.column)) for field in written)}) "
    back, back_params = connection.ops.return_insert_columns(returning)
    arrays = _array_types(written, connection)
    one_row = "(" + ", ".join(["%s"] * len(written)) + ")"
    batch = len(rows) if arrays else max(connection.ops.bulk_batch_size(written, rows), 1)
    prepare = [(field.attname, field.get_db_prep_save) for field in written]
    with transaction.atomic(using=using, savepoint=False), connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            part = rows[start : start + batch]
            if arrays:  # one array of values per column: a short statement however many rows
                params: list[Any] = [[save(getattr(row, name), connection) for row in part] for name, save in prepare]
                values = f"SELECT * FROM UNNEST({', '.join(f'%s::{kind}[]' for kind in arrays)})"
            else:
                params = [save(getattr(row, name), connection) for row in part for name, save in prepare]
                values = f"VALUES {', '.join([one_row] * len(part))}"
            cursor.execute(f"{into}{values} {back}", (*params, *back_params))
            for row, values in zip(part, connection.ops.fetch_returned_insert_rows(cursor), strict=True):
                for field, value, (column, converters) in zip(returning, values, readers, strict=True):
                    for converter in converters:
                        value = converter(value, column, connection)
                    setattr(row, field.attname, value)
                row._state.adding = False
                row._state.db = using
    return list(rows)


def _array_types(fields: list[models.Field], connection: Any) -> list[str]:
    """PostgreSQL's column types for writing ``fields`` as arrays (``INSERT ... SELECT * FROM
    UNNEST(%s::integer[], ...)``, as Django's own ``bulk_create`` does there: a statement of a
    few placeholders that the driver and the planner read at once, where 500 rows of values
    give thousands); empty where that does not apply (another database, a type of its own)."""
    if connection.vendor != "postgresql" or not fields:
        return []
    columns: list[Any] = fields  # a foreign key's type is its target's
    kinds = [(field.target_field if field.is_relation else field).get_internal_type() for field in columns]
    if any(kind not in connection.data_types for kind in kinds):
        return []
    return [str(field.db_type(connection)).split("(")[0] for field in fields]


def _reader(field: models.Field, table: str, connection: Any) -> tuple[Any, list[Any]]:
    """``field``'s column and how Django reads it from this database (the backend's converters,
    then the field's own), as a query's compiler reads a returned column."""
    column = field.get_col(table)
    return column, [*connection.ops.get_db_converters(column), *column.get_db_converters(connection)]
