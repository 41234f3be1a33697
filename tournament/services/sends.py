"""Forms sent from guests' and helpers' phones, recorded once however often they are sent.

A phone keeps what a guest or a helper entered (a report, a vote, a check-in, a registration)
until the server confirms it, and sends it again by itself when the connection returns
(``static/keep.js``). Each form carries a one-time ``request_id`` (made on the phone, or by the
server for a captain's report). ``send_once`` records the form through its service and
remembers the id in the same transaction (``PhoneSend``), so a resend of a form that reached
the server (its answer lost with the Wi-Fi) is answered "recorded already" and records nothing
twice; a refused form (the round's bell rang meanwhile, a guest removed meanwhile) leaves no id
behind, and its resend is refused again with the same reason.

House rule (issue 24 item 1): an id is remembered per evening; a form without an id (a phone
without JavaScript, a double tap on a plain form) is recorded as the services always did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.db import transaction

from tables.errors import RuleError
from tournament.models import Evening, Guest, PhoneSend
from tournament.services.locks import lock_evening

T = TypeVar("T")


@dataclass(frozen=True)
class Sent(Generic[T]):
    """What became of a sent form: ``value``, what its service returned (None when it was
    recorded already), and ``first``, the remembered send when it was (None when recorded now)."""

    value: T | None
    first: PhoneSend | None

    @property
    def already(self) -> bool:
        """True when this form was recorded by an earlier send with the same id."""
        return self.first is not None


def send_seen(*, evening: Evening, request_id: str) -> PhoneSend | None:
    """The remembered send of ``evening`` with this ``request_id``, or None (always None for a
    blank id). Reads only."""
    if not request_id:
        return None
    return PhoneSend.objects.filter(evening_id=evening.pk, request_id=request_id[:64]).first()


def send_once(
    *,
    evening: Evening,
    request_id: str,
    action: str,
    record: Callable[[], T],
    words: Callable[[T], str],
    guest: Callable[[T], Guest | None] = lambda value: None,
) -> Sent[T]:
    """Record a phone's form once: under the evening's lock, a ``request_id`` already remembered
    returns ``Sent(None, first)`` and calls nothing; otherwise ``record()`` (the form's service,
    with its own audit entry) runs and the id is remembered with ``action`` (at most 40
    characters), ``words(value)`` (what the phone is told, cut to 300 characters) and
    ``guest(value)`` (the guest it is about), all in one transaction. A blank id records
    without remembering. Raises what ``record`` raises: after a ``RuleError`` the id is not
    remembered (what the service itself keeps of a refusal, such as an audit entry, stays, as
    without an id), so a resend is refused again with the reason."""
    if not request_id:
        return Sent(value=record(), first=None)
    refused: RuleError | None = None
    with transaction.atomic():
        lock_evening(evening.pk)  # the lock order: tournament.services.locks
        first = send_seen(evening=evening, request_id=request_id)
        if first is not None:
            return Sent(value=None, first=first)
        try:
            value = record()
        except RuleError as error:  # what the service wrote before refusing stays, as without an id
            refused = error
        else:
            PhoneSend.objects.create(
                evening_id=evening.pk,
                request_id=request_id[:64],
                action=action[:40],
                words=words(value)[:300],
                guest=guest(value),
            )
    if refused is not None:
        raise refused
    return Sent(value=value, first=None)
