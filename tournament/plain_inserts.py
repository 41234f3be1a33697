"""Rows of plain values written in one multi-row INSERT, without the ORM preparing each value.

Django's ``bulk_create`` sends one INSERT (in batches) but prepares every value of every row
through its field (``get_db_prep_save``): for a bell's few hundred entries or a draw's cards
that preparation costs more than the database's work (issue 26 item 6). The rows a bell and a
draw write hold only whole numbers, text and nulls, which every database driver takes as they
are, so ``insert_plain`` writes them from plain mappings, no model instance made,
``INSERT INTO t (a, b) VALUES (%s, %s), (%s, %s), ...``, batched as Django batches a bulk
insert (``connection.ops.bulk_batch_size``). A model with any other kind of column (dates,
JSON, database defaults) is refused: ``bulk_create`` is the way for those.
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
    written; their new primary keys are not read back. Raises ``TypeError`` for a column, not
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
