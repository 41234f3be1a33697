"""The models' database constraints checked in Python, for rows the import is about to write in
bulk (issue 26 item 4: "validate in Python, the model's rules in one place, shared with the
database constraints").

Django's ``full_clean`` checks each ``CheckConstraint`` by asking the database
(``SELECT 1 WHERE <condition>`` with the row's values) and each ``UniqueConstraint`` with a
``SELECT`` for an existing row: a query per constraint per row, 17,000 for a 500-guest import.
Here the same ``Meta.constraints`` (``tournament.models``: one definition, which the migrations
turn into the database's CHECK and UNIQUE constraints) are evaluated on the row itself:

* a check's condition (``Q`` trees of ``exact``, ``in``, ``gt(e)``, ``lt(e)``, ``isnull``
  lookups on fields, and comparisons of a field's ``Length`` or ``Lower``) in SQL's three-valued logic, so a
  NULL passes wherever the database lets it pass (a CHECK fails only when its condition is
  false); a condition this evaluator does not know is asked of the database as before
  (``CheckConstraint.validate``), so a new constraint is never skipped;
* a unique constraint (and its condition) against the rows checked before it in the same import
  (``Seen``): every row the import writes belongs to the new evening, so no row already in the
  database can clash with it.

The messages are Django's own (``Constraint “guest_pack_known” is violated.``, ``Drawn card with
this Draw and Guest already exists.``), under the keys ``full_clean`` would use. Each model's
constraints are read once per process into plain Python tests of a row (``_model_checks``), so
2,000 rows cost 2,000 calls of those tests rather than 2,000 walks of the ``Q`` trees.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length, Lower
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


Test = Callable[[models.Model], Any]  # a row -> a value, or True / False / None (SQL's NULL)
_COMPARE = {
    "exact": operator.eq,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}
_LOOKUPS = {Exact: "exact", GreaterThan: "gt", GreaterThanOrEqual: "gte", LessThan: "lt", LessThanOrEqual: "lte"}


def _value(model: type[models.Model], expression: Any) -> Test:
    """How to read ``expression`` off a row of ``model``: a field (``F`` or its name), a field's
    ``Length`` or ``Lower`` (None for NULL), or a plain value. Raises ``Unknown`` for anything else."""
    if isinstance(expression, F):
        field: Any = model._meta.get_field(expression.name)  # type: ignore[attr-defined]  # F's name
        return operator.attrgetter(field.attname)
    if isinstance(expression, Length):
        (inner,) = expression.get_source_expressions()
        text = _value(model, inner)
        return lambda row: None if (value := text(row)) is None else len(value)
    if isinstance(expression, Lower):  # Python's lower() folds at least what SQLite's (ASCII) does
        (inner,) = expression.get_source_expressions()
        text = _value(model, inner)
        return lambda row: None if (value := text(row)) is None else str(value).lower()
    if isinstance(expression, models.Value):
        return _constant(expression.value)
    if isinstance(expression, int | str | float):
        return _constant(expression)
    raise Unknown(repr(expression))


def _constant(value: Any) -> Test:
    return lambda row: value


def _lookup(name: str, lhs: Test, rhs: Any) -> Test:
    """One lookup in three-valued logic: its test gives None when SQL would give NULL. ``rhs``
    is the lookup's plain right-hand side (``isnull``, ``in``) or a test (the comparisons)."""
    if name == "isnull":
        wanted = bool(rhs)
        return lambda row: (lhs(row) is None) == wanted
    if name == "in":
        choices = list(rhs)
        return lambda row: None if (value := lhs(row)) is None else value in choices
    if name in _COMPARE:
        compare = _COMPARE[name]

        def compared(row: models.Model) -> bool | None:
            left, right = lhs(row), rhs(row)
            return None if left is None or right is None else compare(left, right)

        return compared
    raise Unknown(name)


def _both(tests: list[Test]) -> Test:
    """SQL's AND: False if any is False, else NULL if any is NULL, else True."""

    def every(row: models.Model) -> bool | None:
        results = [test(row) for test in tests]
        return False if False in results else (None if None in results else True)

    return every


def _either(tests: list[Test]) -> Test:
    """SQL's OR: True if any is True, else NULL if any is NULL, else False."""

    def some(row: models.Model) -> bool | None:
        results = [test(row) for test in tests]
        return True if True in results else (None if None in results else False)

    return some


def condition_test(model: type[models.Model], condition: Any) -> Test:
    """``condition`` (a ``Q``, a lookup expression) read once into a test of a row of ``model``
    giving True, False, or None (SQL's NULL). Raises ``Unknown`` for what it does not read."""
    if isinstance(condition, Q):
        tests = [condition_test(model, child) for child in condition.children]
        if condition.connector == Q.AND:
            test = _both(tests)
        elif condition.connector == Q.OR:
            test = _either(tests)
        else:
            raise Unknown(condition.connector)
        if not condition.negated:
            return test
        return lambda row: None if (result := test(row)) is None else not result
    if isinstance(condition, tuple):
        path, rhs = condition
        field, _, name = path.partition("__")
        if "__" in name:
            raise Unknown(path)
        name = name or "exact"
        if name in ("isnull", "in"):
            right = rhs
        elif hasattr(rhs, "resolve_expression"):  # another field, a Length
            right = _value(model, rhs)
        else:
            right = _constant(rhs)
        return _lookup(name, _value(model, F(field)), right)
    if isinstance(condition, In):
        return _lookup("in", _value(model, condition.lhs), condition.rhs)
    if isinstance(condition, IsNull):
        return _lookup("isnull", _value(model, condition.lhs), condition.rhs)
    for kind, name in _LOOKUPS.items():
        if type(condition) is kind:
            return _lookup(name, _value(model, condition.lhs), _value(model, condition.rhs))
    raise Unknown(repr(condition))


def holds(row: models.Model, condition: Any) -> bool | None:
    """``condition`` (a ``Q``, a lookup expression) for ``row``: True, False, or None (SQL's
    NULL). Raises ``Unknown`` for what it does not read."""
    return condition_test(type(row), condition)(row)


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
        return _unique_test(type(row), constraint.name)(row, self)

    def clashed(self, key: tuple[str, tuple[Any, ...]]) -> bool:
        """Whether ``key`` (a constraint's name and a row's values) was seen (and, if not,
        remember it)."""
        if any(part is None for part in key[1]):
            return False  # SQL: NULLs never clash
        if key in self.keys:
            return True
        self.keys.add(key)
        return False


def _constraint(model: type[models.Model], name: str) -> models.BaseConstraint:
    return next(c for c in model._meta.constraints if c.name == name)


@functools.cache
def _unique_test(model: type[models.Model], name: str) -> Callable[[models.Model, Seen], bool]:
    """The unique constraint ``name`` of ``model`` read once: a test of whether a row clashes
    with one seen before (remembering it if not)."""
    constraint: Any = _constraint(model, name)
    applies = condition_test(model, constraint.condition) if constraint.condition is not None else None
    fields = [model._meta.get_field(field) for field in constraint.fields]

    def clash(row: models.Model, seen: Seen) -> bool:
        if applies is not None and applies(row) is not True:
            return False
        return seen.clashed((name, tuple(_parent(row, field) for field in fields)))

    return clash


Check = Callable[[models.Model, Seen], ValidationError | None]


@functools.cache
def _constraint_check(model: type[models.Model], name: str) -> Check:
    """The constraint ``name`` of ``model`` read once: a check of a row giving Django's error
    when the row breaks it (None when it holds). Raises ``Unknown`` for a constraint this module
    does not read."""
    constraint = _constraint(model, name)
    if isinstance(constraint, models.CheckConstraint):
        test = condition_test(model, constraint.condition)

        def checked(row: models.Model, seen: Seen) -> ValidationError | None:
            if test(row) is not False:
                return None
            return ValidationError(constraint.get_violation_error_message(), code=constraint.violation_error_code)

        return checked
    if not isinstance(constraint, models.UniqueConstraint) or not constraint.fields or constraint.expressions:
        raise Unknown(constraint.name)
    clash = _unique_test(model, name)
    fields = tuple(constraint.fields)
    djangos = (
        constraint.condition is None
        and constraint.violation_error_message == constraint.default_violation_error_message
    )

    def unique(row: models.Model, seen: Seen) -> ValidationError | None:
        if not clash(row, seen):
            return None
        if djangos:
            message = row.unique_error_message(type(row), fields)
            return ValidationError(message, code=message.code)
        return ValidationError(constraint.get_violation_error_message(), code=constraint.violation_error_code)

    return unique


@functools.cache
def _model_checks(model: type[models.Model]) -> tuple[tuple[models.BaseConstraint, str, Check | None], ...]:
    """Each of ``model``'s constraints (``Meta.constraints`` order) with the key ``full_clean``
    files its message under and its check read in Python (None: the database is asked)."""
    checks = []
    for constraint in model._meta.constraints:
        try:
            check: Check | None = _constraint_check(model, constraint.name)
        except Unknown:
            check = None
        fields: tuple[str, ...] = tuple(getattr(constraint, "fields", ()))
        unique_key = fields[0] if len(fields) == 1 else NON_FIELD_ERRORS
        checks.append((constraint, unique_key, check))
    return tuple(checks)


def constraint_errors(row: models.Model, seen: Seen) -> dict[str, list[str]]:
    """The row's violated constraints, in ``Meta.constraints`` order, as ``full_clean`` reports
    them (field name or ``__all__`` -> messages); empty when every constraint holds."""
    errors: dict[str, list[str]] = {}
    model = type(row)
    for constraint, unique_key, check in _model_checks(model):
        if check is not None:
            error = check(row, seen)
        else:
            try:
                constraint.validate(model, row)  # as full_clean does: the database is asked
                error = None
            except ValidationError as raised:
                error = raised
        if error is None:
            continue
        key = unique_key if error.code == "unique" else NON_FIELD_ERRORS
        errors.setdefault(key, []).extend(error.messages)
    return errors


def violation(row: models.Model, constraint: models.BaseConstraint, seen: Seen) -> ValidationError | None:
    """Django's error for ``row`` breaking ``constraint`` (None when it holds), found in
    Python. Raises ``Unknown`` for a constraint this module does not read."""
    return _constraint_check(type(row), constraint.name)(row, seen)
