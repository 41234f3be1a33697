"""An action taken only on the evening as its page showed it: the lock and the check that a
stale page's button needs, around the service that does the action (issue 22 item 7).

``unchanged`` locks the evening's row (``tournament.services.locks.lock_evening``, the first
lock of every service) in one transaction with the action, asks the caller's check whether the
page is stale, and raises ``StalePage`` (a ``RuleError``) with its words before anything is
changed; otherwise the action runs inside the same transaction, so a double tap or a second
tab waits for the first and is then refused by its check. House rule: a stale button changes
nothing and says why (docs/host-guide.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import transaction

from tables.errors import RuleError
from tournament.models import Evening
from tournament.services.locks import lock_evening


class StalePage(RuleError):
    """A host action posted from a page drawn before a change that touches what it acts on;
    its message says what changed since, in words. Nothing was changed."""


@contextmanager
def unchanged(evening: Evening, refusal: Callable[[Evening], str | None]) -> Iterator[Evening]:
    """Run the ``with`` block (the action's service) in one transaction with ``evening``'s row
    locked, after ``refusal(locked evening)`` answered None; yields the locked evening. Raises
    ``StalePage`` with ``refusal``'s words (nothing runs, nothing changes), and whatever the
    block raises (the whole transaction is then rolled back). ``Evening.DoesNotExist`` when the
    evening is gone."""
    with transaction.atomic():
        locked = lock_evening(evening.pk)
        words = refusal(locked)
        if words:
            raise StalePage(words)
        yield locked
