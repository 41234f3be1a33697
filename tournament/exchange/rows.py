"""The pieces every part of the import shares: its error, places in the file, times, and a
row checked by the models' own validation before it is saved (docs/export.md).

Inside ``rows_checked_in_python()`` (the whole import) a row's fields are checked by
``full_clean`` as the forms check them, and its constraints in Python
(``tournament.exchange.constraints``: the models' own ``Meta.constraints``, against the rows
checked before it), so checking asks the database nothing; rows of one kind are then written
in one ``bulk_create`` (``_all_saved``). The messages are
``full_clean``'s. A foreign key is not looked up: every one the import sets points at a row it
has just written, or at the host.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.expressions import DatabaseDefault
from django.db.models.functions import Now
from django.utils.dateparse import parse_datetime

from tables.errors import RuleError
from tournament.exchange.constraints import Seen, constraint_errors
from tournament.models import Evening


class EveningImportError(RuleError):
    """The file is not an evening this version can import, or its bells do not replay.

    The message names the place in the file (``guests[3].pack: ...``) and what is wrong there.
    """


def where(path: Iterator[Any] | list[Any]) -> str:
    """A place in the file as it reads: ``["guests", 3, "pack"]`` -> ``guests[3].pack``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the file"


def _shown(value: Any) -> str:
    """A value from the file as JSON, cut to 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _time(value: str | None, place: list[Any]) -> datetime.datetime | None:
    if not value:
        return None
    try:
        return parse_datetime(value)
    except ValueError:
        raise EveningImportError(f"{where(place)}: {_shown(value)} is not a time that exists.") from None


def _time_required(value: str, place: list[Any]) -> datetime.datetime:
    """A time the schema requires (``_time``); raises ``EveningImportError`` when it is empty."""
    time = _time(value, place)
    if time is None:
        raise EveningImportError(f"{where(place)}: a time is required here.")
    return time


M = TypeVar("M", bound=models.Model)  # a model: _saved gives back the row it saved
_SEEN: ContextVar[Seen | None] = ContextVar("import_rows_seen", default=None)


@contextmanager
def rows_checked_in_python() -> Iterator[None]:
    """Within: rows are checked in Python (``_checked``), each against those checked before it."""
    token = _SEEN.set(Seen())
    try:
        yield
    finally:
        _SEEN.reset(token)


def _refuse(errors: dict[str, list[str]], place: list[Any], fields: dict[str, list[Any]] | None) -> None:
    """Raise ``EveningImportError`` for the first field's messages (``full_clean``'s order)."""
    field, messages = next(iter(errors.items()))
    at = (fields or {}).get(field) or (place + [field] if field != "__all__" else place)
    raise EveningImportError(f"{where(at)}: {' '.join(messages)}") from None


def _checked(row: M, place: list[Any], fields: dict[str, list[Any]] | None = None) -> M:
    """``row`` checked as ``full_clean`` checks it (as the forms check it), without a query
    inside ``rows_checked_in_python()`` (else ``full_clean`` itself); returns it. ``fields``
    maps a model field to its place in the file where that is not ``place + [field]``. Raises
    ``EveningImportError`` naming the place and the models' own message."""
    seen = _SEEN.get()
    try:
        if seen is None:
            row.full_clean()
        else:
            keys = [field.name for field in row._meta.concrete_fields if field.is_relation]
            row.full_clean(exclude=keys, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        _refuse(error.message_dict, place, fields)
    if seen is not None:
        errors = constraint_errors(row, seen)
        if errors:
            _refuse(errors, place, fields)
    return row


def _saved(row: M, place: list[Any], fields: dict[str, list[Any]] | None = None) -> M:
    """``row`` checked (``_checked``) and saved; returns it. Raises ``EveningImportError``."""
    _checked(row, place, fields)
    row.save()
    return row


def _all_saved(rows: Sequence[M]) -> list[M]:
    """Rows of one model, each already ``_checked``, written with one ``bulk_create`` (their ids
    set); returns them. A column the database fills with its clock (``db_default=Now()``: the
    time a row is written) gets the database's time read once (``_database_time``), where
    ``bulk_create`` would compile a ``Now()`` in every row (half the import's time for 2,000
    rows): the same moment, since every row of an import is written in one transaction."""
    if not rows:
        return []
    model = type(rows[0])
    clocked = [
        field.attname
        for field in model._meta.concrete_fields
        if isinstance(field.db_default, Now)
        and any(isinstance(getattr(r, field.attname), DatabaseDefault) for r in rows)
    ]
    if clocked:
        now = _database_time()
        for row in rows:
            for name in clocked:
                if isinstance(getattr(row, name), DatabaseDefault):
                    setattr(row, name, now)
    return model._default_manager.bulk_create(rows)


def _database_time() -> datetime.datetime:
    """The database's clock now, as ``Now()`` writes it (PostgreSQL: the transaction's start;
    SQLite: this moment): one query."""
    return Evening.objects.annotate(clock=Now()).values_list("clock", flat=True)[:1].get()
