"""The models' database constraints checked in Python, for rows the import is about to write in
bulk (issue 26 item 4: "validate in Python, the model's rules in one place, shared with the
database constraints").

Django's ``full_clean`` checks each ``CheckConstraint`` by asking the database
(``SELECT 1 WHERE <condition>`` with the row's values) and each ``UniqueConstraint`` with a
``SELECT`` for an existing row: a query per constraint per row, 17,000 for a 500-guest import.
Here the same ``Meta.constraints`` (``tournament.models``: one definition, which the migrations
turn into the database's CHECK and UNIQUE constraints) are evaluated on the row itself:

* a check's condition (``Q`` trees of ``exact``, ``in``, ``gt(e)``, ``lt(e)``, ``isnull``
  lookups on fields, and comparisons of a field's ``Length``) in SQL's three-valued logic, so a
  NULL passes wherever the database lets it pass (a CHECK fails only when its condition is
  false); a condition this evaluator does not know is asked of the database as before
  (``CheckConstraint.validate``), so a new constraint is never skipped;
* a unique constraint (and its condition) against the rows checked before it in the same import
  (``Seen``): every row the import writes belongs to the new evening, so no row already in the
  database can clash with it.

The messages are Django's own (``Constraint “guest_pack_known” is violated.``, ``Drawn card with
this Draw and Guest already exists.``), under the keys ``full_clean`` would use.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import (
    Exact,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    IsNull,
    LessThan,
    LessThanOrEqual,
)


class Unknown(Exception):
    """A condition this evaluator does not read (the database is asked instead)."""


_COMPARE = {
    "exact": lambda a, b: a == b,
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}
_LOOKUPS = {Exact: "exact", GreaterThan: "gt", GreaterThanOrEqual: "gte", LessThan: "lt", LessThanOrEqual: "lte"}


def _value(row: models.Model, expression: Any) -> Any:
    """The value of ``expression`` for ``row``: a field (``F`` or its name), a field's
    ``Length`` (None for NULL), or a plain value."""
    if isinstance(expression, F):
        field: Any = row._meta.get_field(expression.name)  # type: ignore[attr-defined]  # F's name
        return getattr(row, field.attname)
    if isinstance(expression, Length):
        (inner,) = expression.get_source_expressions()
        text = _value(row, inner)
        return None if text is None else len(text)
    if isinstance(expression, models.Value):
        return expression.value
    if isinstance(expression, int | str | float):
        return expression
    raise Unknown(repr(expression))


def _lookup(row: models.Model, name: str, lhs: Any, rhs: Any) -> bool | None:
    """One lookup in three-valued logic: None when SQL would give NULL."""
    if name == "isnull":
        return (lhs is None) == bool(rhs)
    if lhs is None:
        return None
    if name == "in":
        return lhs in list(rhs)
    if name in _COMPARE:
        return None if rhs is None else _COMPARE[name](lhs, rhs)
    raise Unknown(name)


def holds(row: models.Model, condition: Any) -> bool | None:
    """``condition`` (a ``Q``, a lookup expression) for ``row``: True, False, or None (SQL's
    NULL). Raises ``Unknown`` for what it does not read."""
    if isinstance(condition, Q):
        results = [holds(row, child) for child in condition.children]
        if condition.connector == Q.AND:
            result = False if False in results else (None if None in results else True)
        elif condition.connector == Q.OR:
            result = True if True in results else (None if None in results else False)
        else:
            raise Unknown(condition.connector)
        return (None if result is None else not result) if condition.negated else result
    if isinstance(condition, tuple):
        path, rhs = condition
        field, _, name = path.partition("__")
        if "__" in name:
            raise Unknown(path)
        return _lookup(row, name or "exact", _value(row, F(field)), rhs)
    if isinstance(condition, In):
        return _lookup(row, "in", _value(row, condition.lhs), condition.rhs)
    if isinstance(condition, IsNull):
        return _lookup(row, "isnull", _value(row, condition.lhs), condition.rhs)
    for kind, name in _LOOKUPS.items():
        if type(condition) is kind:
            return _lookup(row, name, _value(row, condition.lhs), _value(row, condition.rhs))
    raise Unknown(repr(condition))


def _parent(row: models.Model, field: Any) -> Any:
    """A unique constraint's part for ``field``: the value, or for a foreign key to a row not
    yet written (no id yet) that row itself."""
    value = getattr(row, field.attname)
    if value is None and field.is_relation and field.is_cached(row):
        return ("row", id(field.get_cached_value(row)))
    return value


class Seen:
    """The unique constraints' keys of the rows checked so far in one import."""

    def __init__(self) -> None:
        self.keys: set[tuple[str, tuple[Any, ...]]] = set()

    def clash(self, row: models.Model, constraint: models.UniqueConstraint) -> bool:
        """Whether ``row`` clashes with a row checked before it (and, if not, remember it)."""
        if constraint.condition is not None and holds(row, constraint.condition) is not True:
            return False
        fields = [row._meta.get_field(name) for name in constraint.fields]
        key = (constraint.name, tuple(_parent(row, field) for field in fields))
        if any(part is None for part in key[1]):
            return False  # SQL: NULLs never clash
        if key in self.keys:
            return True
        self.keys.add(key)
        return False


def constraint_errors(row: models.Model, seen: Seen) -> dict[str, list[str]]:
    """The row's violated constraints, in ``Meta.constraints`` order, as ``full_clean`` reports
    them (field name or ``__all__`` -> messages); empty when every constraint holds."""
    errors: dict[str, list[str]] = {}
    model = type(row)
    for constraint in model._meta.constraints:
        try:
            error = violation(row, constraint, seen)
        except Unknown:
            try:
                constraint.validate(model, row)  # as full_clean does: the database is asked
                error = None
            except ValidationError as raised:
                error = raised
        if error is None:
            continue
        fields: tuple[str, ...] = tuple(getattr(constraint, "fields", ()))
        key = fields[0] if error.code == "unique" and len(fields) == 1 else NON_FIELD_ERRORS
        errors.setdefault(key, []).extend(error.messages)
    return errors


def violation(row: models.Model, constraint: models.BaseConstraint, seen: Seen) -> ValidationError | None:
    """Django's error for ``row`` breaking ``constraint`` (None when it holds), found in
    Python. Raises ``Unknown`` for a constraint this module does not read."""
    if isinstance(constraint, models.CheckConstraint):
        if holds(row, constraint.condition) is not False:
            return None
        return ValidationError(constraint.get_violation_error_message(), code=constraint.violation_error_code)
    if not isinstance(constraint, models.UniqueConstraint) or not constraint.fields or constraint.expressions:
        raise Unknown(constraint.name)
    if not seen.clash(row, constraint):
        return None
    if (
        constraint.condition is None
        and constraint.violation_error_message == constraint.default_violation_error_message
    ):
        message = row.unique_error_message(type(row), tuple(constraint.fields))
        return ValidationError(message, code=message.code)
    return ValidationError(constraint.get_violation_error_message(), code=constraint.violation_error_code)
