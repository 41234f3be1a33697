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
import re
import unicodedata
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

    The message names the place in the file in a host's words (``where``: "Guest 4 in the
    file, its pack: ...") and what is wrong there.
    """


_ITEMS = {
    "guests": "guest",
    "draws": "draw",
    "cards": "card",
    "rounds": "round",
    "results": "result",
    "bells": "bell",
    "entries": "line",
    "votes": "vote",
    "final_counts": "final count",
    "moves": "move",
    "stakes": "fresh stake",
    "standings": "standings row",
    "prizes": "prize",
    "tables": "table",
    "helper_links": "helper link",
}
"""The lists of an export whose items a host can count ("guest 33 in the file"), in words."""

_FIELDS = {
    "schema": "kind",
    "guests": "guest list",
    "draws": "draws",
    "cards": "cards",
    "rounds": "rounds",
    "results": "results",
    "bells": "bells",
    "entries": "lines",
    "votes": "votes",
    "final_counts": "final counts",
    "moves": "moves",
    "stakes": "fresh stakes",
    "standings": "standings",
    "prizes": "prizes",
    "tables": "tables",
    "helper_links": "list of helpers' links",
    "role": "role",
    "label": "label",
    "revoked_at": "time revoked",
    "reported_by_helper": "scorer's link",
    "evening": "evening",
    "packs": "pack labels",
    "red": "red pack's label",
    "blue": "blue pack's label",
    "id": "number",
    "name": "name",
    "date": "date",
    "format": "format",
    "game": "table game",
    "options": "house rules",
    "bell": "the bell's rules",
    "prize_seed": "draw for tied prizes",
    "counters_per_stake": "counters per stake",
    "minutes_per_round": "minutes per round",
    "rounds_planned": "number of rounds",
    "round_end": "way a round ends",
    "stage": "stage",
    "ended_at": "end time",
    "ceremony_step": "prize ceremony",
    "counter_value": "counter's money value",
    "pack": "pack",
    "contact": "contact",
    "status": "status",
    "kind": "kind",
    "sizes": "table sizes",
    "relaxed": "relaxed plan",
    "complete": "completeness",
    "created_at": "time",
    "superseded_at": "time superseded",
    "layout": "seats",
    "guest": "guest",
    "rank": "table",
    "seat": "seat",
    "number": "number",
    "state": "state",
    "started_at": "start time",
    "deadline": "deadline",
    "reopened": "reopening",
    "table": "table",
    "pool_winner": "pool winner",
    "in_call": "guests in the call",
    "tied": "guests who tied",
    "counters": "counters",
    "report": "report",
    "reported_by_guest": "reporter",
    "count_off": "count off",
    "verdict": "verdict",
    "note": "note",
    "cause": "cause",
    "rung_at": "time rung",
    "undone_at": "time undone",
    "warnings": "warnings",
    "record": "record",
    "from_table": "table moved from",
    "to_table": "table moved to",
    "amount": "amount",
    "rule": "rule",
    "text": "words",
    "off_by": "difference agreed",
    "winners": "winners",
    "words": "words",
    "round": "round",
    "seats": "seats",
    "points": "points",
    "tricks": "tricks",
    "buncos": "buncos",
    "minis": "mini buncos",
    "rolls": "rolls",
    "hands": "hands",
    "NS": "North–South",
    "EW": "East–West",
    "before": "tables before",
    "after": "tables after",
}
"""What each field of an export is, in a host's words ("the pool winner", not ``pool_winner``)."""


def _field_words(part: Any) -> str:
    """One step into an item, in words: a field's name (``_FIELDS``), a guest's counters key
    ("guest 12"), a position in a list ("item 3"), or a name the file made up, quoted."""
    if isinstance(part, int):
        return f"item {part + 1}"
    text = str(part)
    if text in _FIELDS:
        return _FIELDS[text]
    if text.isascii() and text.isdigit():
        return f"guest {text}"
    return f"“{text if len(text) <= 30 else text[:27] + '...'}”"


def where(path: Iterator[Any] | list[Any]) -> str:
    """A place in the file as a host reads it: ``["guests", 32, "id"]`` -> "Guest 33 in the
    file, its number"; ``["rounds", 0, "bells", 1, "entries", 4]`` -> "Line 5 of bell 2 of
    round 1 in the file"; ``["evening", "name"]`` -> "The evening's name"; ``["packs",
    "red"]`` -> "The red pack's label"; ``[]`` -> "The file". Items are counted from 1 in the
    order the file lists them; at most four steps inside an item are named (a place nested
    deeper says "deep inside"). Returns the words; raises nothing."""
    parts = list(path)
    items: list[str] = []
    at = 0
    while at + 1 < len(parts) and parts[at] in _ITEMS and isinstance(parts[at + 1], int):
        items.append(f"{_ITEMS[parts[at]]} {parts[at + 1] + 1}")
        at += 2
    head = "" if items or not parts else str(parts[0])
    if head in ("evening", "packs") and len(parts) > 1:
        at = 1  # "The evening's name", "The red pack's label"
    rest = [_field_words(part) for part in parts[at:]]
    if len(rest) > 4:
        rest = [*rest[:3], "deep inside"]
    if items:
        subject = " of ".join(reversed(items)) + " in the file"
        subject = subject[:1].upper() + subject[1:]
        return f"{subject}, its {', '.join(rest)}" if rest else subject
    if not rest:
        return "The file"
    if head == "evening" and len(parts) > 1:
        return f"The evening's {', '.join(rest)}"
    if head in ("evening", "packs"):
        return f"The {', '.join(rest)}"
    return f"The file's {', '.join(rest)}"


def _shown(value: Any) -> str:
    """A value from the file as a host reads it: text in quotes (“green”), a number, true, false or null
    as JSON writes them, a list or an object by what it is ("a list of 3 items"); cut to 40
    characters. Raises nothing."""
    if isinstance(value, list):
        return f"a list of {len(value):,} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        return f"a group of {len(value):,} named value{'s' if len(value) != 1 else ''}"
    if isinstance(value, str):  # in quotes, a character that does not print as "�"
        text = "".join("�" if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in value)
        return f"“{text}”" if len(text) <= 38 else f"“{text[:35]}...”"
    if isinstance(value, int) and not isinstance(value, bool) and len(digits := str(abs(value))) > 30:
        return f"a number of {len(digits):,} digits"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = "a value JSON does not have"
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


_DJANGOS = {
    "This field cannot be null.": "it is missing (null).",
    "This field cannot be blank.": "it is empty.",
}
"""Django's own field messages that a field of ours keeps, in a host's words."""
_CONSTRAINT = re.compile(r"^Constraint “[^”]*” is violated\.$")


def _host_words(message: str) -> str:
    """A model's message as a host reads it: Django's defaults reworded (``_DJANGOS``), and a
    constraint's code name never shown (``models.CHECK_WORDS``)."""
    from tournament.models import CHECK_WORDS

    if _CONSTRAINT.match(message):
        return CHECK_WORDS
    return _DJANGOS.get(message, message)


def _refuse(errors: dict[str, list[str]], place: list[Any], fields: dict[str, list[Any]] | None) -> None:
    """Raise ``EveningImportError`` for the first field's messages (``full_clean``'s order),
    at its place in the file, in a host's words (``_host_words``)."""
    field, messages = next(iter(errors.items()))
    at = (fields or {}).get(field) or (place + [field] if field != "__all__" else place)
    raise EveningImportError(f"{where(at)}: {' '.join(_host_words(m) for m in messages)}") from None


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
