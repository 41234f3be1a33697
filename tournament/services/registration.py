"""Guests registering themselves from the evening's public link (or the QR code at the door),
and checking themselves in from their own private link when they arrive.

The host turns it on with ``Evening.self_registration``. A guest gives a name and a pack; the
name is cleaned and checked exactly as at the host's door (``tournament.services.guests``):
empty, over 120 characters, markup, or a name already registered is refused with a message
and nothing is saved. House rules (issue 6 item 5): a duplicate name is not registered twice;
the guest is told to use the link they already have or to add an initial, and the host's
audit log records the attempt (flagged). Self check-in needs the guest's private link, so
nobody can check in someone else from the public page.
"""

from __future__ import annotations

from django.db import transaction

from tables.errors import RuleError
from tournament.models import Evening, Guest
from tournament.names import clean_name
from tournament.services.audit import audit_log
from tournament.services.guests import GuestListError, guest_add, guest_set_status, near_duplicates
from tournament.services.versions import evening_touch


class DuplicateName(RuleError):
    """The name is already registered at this evening (folded: spaces and case ignored)."""


def registration_open(evening: Evening) -> bool:
    """True when guests may register themselves now: the host's switch is on and the evening
    has not ended."""
    return evening.self_registration and evening.stage != Evening.Stage.ENDED


def self_register(*, evening: Evening, name: str, pack: str, here_now: bool = False, device: str = "") -> Guest:
    """Register a guest from the public link; returns the new ``Guest`` (their private link is
    ``guest.key``). ``here_now`` checks them in at once (they are at the door).

    Raises ``RuleError`` when registration is closed, for a bad name or pack, and
    ``DuplicateName`` for a name already registered, or registered apart from accents or
    spacing (a near-duplicate, which only the host may add; the attempt is logged for the host).
    """
    if not registration_open(evening):
        raise RuleError("Registration from this link is closed: ask the host to register you.")
    cleaned = clean_name(name)
    if Guest.objects.filter(evening=evening, name_key=Guest.fold_name(cleaned)).exists():
        with transaction.atomic():
            audit_log(evening=evening, action="guest.self_register_duplicate", device=device, name=cleaned)
        raise DuplicateName(
            f"“{cleaned}” is already registered. If that is you, open the link the host gave you (or ask the "
            "host for it); if not, add a surname or an initial."
        )
    alike = near_duplicates(evening, [cleaned]).get(cleaned)
    if alike is not None:  # the host decides whether it is another guest (house rule, issue 24)
        with transaction.atomic():
            audit_log(evening=evening, action="guest.self_register_duplicate", device=device, name=cleaned)
        raise DuplicateName(
            f"“{cleaned}” looks like “{alike}”, who is already registered (the same name apart from accents or "
            "spacing). If that is you, open the link the host gave you; if not, ask the host to register you."
        )
    try:
        return guest_add(evening=evening, name=cleaned, pack=pack, check_in=here_now, device=device)
    except GuestListError as error:
        message = error.problems[0] if error.problems else str(error)
        if "already registered" in message:
            raise DuplicateName(message) from None
        raise RuleError(message) from None


def self_check_in(*, guest: Guest, device: str = "") -> Guest:
    """A guest checks themself in from their private link ("I am here"); returns the guest.

    Checking in twice does nothing the second time. Raises ``RuleError`` for a guest the host
    marked as left (the host decides whether they come back) or when the evening has ended.
    """
    guest = Guest.objects.select_related("evening").get(pk=guest.pk)
    if guest.status == Guest.Status.HERE:
        return guest
    if guest.evening.stage == Evening.Stage.ENDED:
        raise RuleError("The evening has ended.")
    if guest.status == Guest.Status.LEFT:
        raise RuleError("The host marked you as gone for the evening: ask the host to check you in again.")
    return guest_set_status(guest=guest, status=Guest.Status.HERE, device=device)


def registration_switch(*, evening: Evening, on: bool, user=None, device: str = "") -> Evening:
    """The host turns self-registration from the public link on or off; returns the evening."""
    with transaction.atomic():
        Evening.objects.filter(pk=evening.pk).update(self_registration=on)
        evening.self_registration = on
        audit_log(evening=evening, action="registration.switch", user=user, device=device, on=on)
        evening_touch(evening=evening)
    return evening
