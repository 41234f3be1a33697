"""The one check every host POST view makes before its service: a button from a page drawn
before a change to what it acts on is refused with what changed since (issue 22 item 7).

``unchanged_since(evening, form, acts_on)`` reads the form's ``seen`` mark
(``tournament.forms.seen.SeenVersionForm``) and wraps the service call::

    with unchanged_since(evening, form, ANY_CHANGE):
        draws.draw_digital(...)

A refusal is a ``RuleError`` (``tournament.services.fresh.StalePage``) that the view shows as
its message, as every other refusal; nothing is changed. What each action acts on, and so
which changes refuse it, is the house rule in ``tournament.selectors.stale``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol

from django.http import HttpRequest

from tournament.forms.seen import SEEN_DAMAGED, Seen, SeenVersionForm
from tournament.models import Evening
from tournament.selectors.stale import (
    ANY_CHANGE,
    CEREMONY_STEP,
    CLOCK_BUTTONS,
    SEATS,
    SETTINGS,
    ActsOn,
    acts_on_guest,
    acts_on_result,
    report_came_in,
    stale_refusal,
)
from tournament.services.fresh import unchanged

__all__ = [
    "ANY_CHANGE",
    "CEREMONY_STEP",
    "CLOCK_BUTTONS",
    "SEATS",
    "SETTINGS",
    "ActsOn",
    "acts_on_guest",
    "acts_on_result",
    "report_unchanged_since",
    "seen_beside",
    "unchanged_since",
]


def unchanged_since(
    evening: Evening, form: SeenVersionForm | Seen | None, acts_on: ActsOn
) -> AbstractContextManager[Any]:
    """The ``with`` around a host action's service: refuses (``StalePage``, a ``RuleError``)
    when something ``acts_on`` names changed since the page of ``form`` (a valid
    ``SeenVersionForm``, or its ``Seen``) was drawn, else runs the block in one transaction with
    the evening locked. A form without the mark is not checked (the block runs as it is)."""
    seen = form.seen_at() if isinstance(form, SeenVersionForm) else form
    if seen is None:
        return nullcontext()
    return unchanged(evening, lambda locked: stale_refusal(locked, seen, acts_on))


def report_unchanged_since(
    evening: Evening, seen: SeenVersionForm | Seen | None, round_number: int, table: int
) -> AbstractContextManager[Any]:
    """The ``with`` around a scorer's report of round ``round_number``'s table ``table``:
    refuses (``StalePage``, a ``RuleError``, its words ``report_came_in``'s) when a report of
    that table arrived or changed since the form of ``seen`` was drawn, else runs the block in
    one transaction with the evening locked. No mark (None): not checked. House rule: a
    helper's stale form never replaces a report it did not show."""
    mark = seen.seen_at() if isinstance(seen, SeenVersionForm) else seen
    if mark is None:
        return nullcontext()
    return unchanged(evening, lambda locked: report_came_in(locked, mark, round_number, table))


class TakesErrors(Protocol):
    """A form that shows errors beside its fields (a Django form, a format's correction form)."""

    def add_error(self, field: str | None, error: Any) -> None:
        """Add ``error`` to ``field`` (None: the form's own errors)."""
        ...


def seen_beside(request: HttpRequest, form: TakesErrors) -> SeenVersionForm | None:
    """For a valid posted ``form`` that is no ``SeenVersionForm`` (a model form, a result form
    shared with the phones): the POST's ``seen`` mark read on its own (a valid
    ``SeenVersionForm``), or None after adding ``SEEN_DAMAGED`` to ``form``'s errors, which the
    page shows; nothing changes then."""
    seen = SeenVersionForm(request.POST)
    if seen.is_valid():
        return seen
    form.add_error(None, SEEN_DAMAGED)
    return None
