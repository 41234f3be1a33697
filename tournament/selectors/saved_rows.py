"""Rows read as saved model objects without ``Model.__init__``: the board's first draw after a
change reads 500 guests and 250 to 500 bell entries (issue 26 item 3), and Django's ``__init__``
setting each field through its descriptor is two thirds of such a read.

``saved_rows(rows)`` makes each object as Django's own ``Model.from_db`` would (every concrete
field loaded, ``_state.adding`` false, ``_state.db`` the database read) from the rows' values,
for a model with no ``__init__`` of its own and no receiver of Django's ``pre_init`` or
``post_init`` signal (else it falls back to the queryset's own objects, made by ``__init__``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from django.db.models import Model, QuerySet, signals
from django.db.models.base import ModelState

M = TypeVar("M", bound=Model)


def saved_rows(rows: QuerySet[M]) -> Iterator[M]:
    """Each row of ``rows`` (a plain queryset of one model: no ``only``, ``defer``,
    ``select_related`` or annotation; its filters and order as given) as a saved object of its
    model, the same fields with the same values as iterating ``rows`` gives. One query."""
    model = rows.model
    if "__init__" in vars(model) or signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model):
        yield from rows  # something hooks the making of an object: Django makes each one
        return
    names = [f.attname for f in model._meta.concrete_fields]
    make, db = model.__new__, rows.db
    for values in rows.values_list(*names):
        row = make(model)
        row.__dict__.update(zip(names, values, strict=True))
        row._state = ModelState()
        row._state.adding, row._state.db = False, db
        yield row
