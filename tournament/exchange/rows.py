"""The pieces every part of the import shares: its error, places in the file, times, and a
row checked by the models' own validation before it is saved (docs/export.md)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.dateparse import parse_datetime

from tables.errors import RuleError


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


def _saved(row: M, place: list[Any], fields: dict[str, list[Any]] | None = None) -> M:
    """``row`` checked with ``full_clean`` (as the forms check it) and saved; returns it.
    ``fields`` maps a model field to its place in the file where that is not ``place + [field]``.
    Raises ``EveningImportError`` naming the place and the models' own message."""
    try:
        row.full_clean()
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        at = (fields or {}).get(field) or (place + [field] if field != "__all__" else place)
        raise EveningImportError(f"{where(at)}: {' '.join(messages)}") from None
    row.save()
    return row
