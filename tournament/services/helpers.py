"""Helpers' links: a volunteer works the door or enters the scores on their own phone, without
the host's password (issue 11 deliver 7).

A helper's link (``HelperLink``) carries a random 192-bit key like a guest's private link and
gives exactly one job: **the door** (the guests list: find, check in and out, add a guest) or
**the scores** (the round in play: enter a table's result). The host creates, shows (as a QR
code) and revokes links from the door page; a revoked or unknown key answers the guest pages'
one 404. Every change a helper makes goes through the same services as the host's, and the
audit log names the helper ("the door helper (link 2)").
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Now

from tables.errors import RuleError
from tournament.models import Evening, HelperLink
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening, lock_round_number

SCORER_NEXT_STEP = (
    "Count again. If the table agrees the count is off, ask the host to record it: only the host "
    "can record counts that do not add up."
)
MAX_LIVE_LINKS = 20  # house rule: a door or two and a scorer per few tables is plenty


class HelperRefused(RuleError):
    """A helper's link was used for something it does not allow (a host action, or the other
    helper's job); the message says what the link is for. Nothing is changed."""


def helper_link_create(*, evening: Evening, role: str, label: str = "", user=None, device: str = "") -> HelperLink:
    """Create a helper's link for ``role`` ("door" or "scorer"), numbered after the evening's
    last link; ``label`` says for whom (60 characters at most). Returns the new ``HelperLink``.
    Raises ``RuleError`` for an unknown role or when the evening already has 20 live links."""
    if role not in HelperLink.Role.values:
        raise RuleError("Choose what the helper does: the door or the scores.")
    with transaction.atomic():
        evening = lock_evening(evening.pk)  # the lock order: tournament.services.locks
        live = HelperLink.objects.filter(evening=evening, revoked_at__isnull=True).count()
        if live >= MAX_LIVE_LINKS:
            raise RuleError(f"This evening has {live} helpers' links already: revoke one you no longer need first.")
        number = (HelperLink.objects.filter(evening=evening).aggregate(n=Max("number"))["n"] or 0) + 1
        link = HelperLink.objects.create(evening=evening, number=number, role=role, label=" ".join(label.split())[:60])
        audit_log(
            evening=evening, action="helper.create", user=user, device=device, link=number, role=link.get_role_display()
        )
    return link


def helper_link_revoke(*, evening: Evening, number: int, user=None, device: str = "") -> HelperLink:
    """Revoke the evening's helper link ``number``: from now on it answers "Not found". Returns
    the link. Raises ``RuleError`` when the evening has no such link or it is revoked already."""
    with transaction.atomic():
        lock_evening(evening.pk)  # the lock order: tournament.services.locks
        link = HelperLink.objects.filter(evening=evening, number=number).first()
        if link is None:
            raise RuleError(f"This evening has no helper's link {number}.")
        if link.revoked_at is not None:
            raise RuleError(f"Link {number} is revoked already.")
        HelperLink.objects.filter(pk=link.pk).update(revoked_at=Now())
        link.refresh_from_db(fields=["revoked_at"])
        audit_log(
            evening=evening, action="helper.revoke", user=user, device=device, link=number, role=link.get_role_display()
        )
    return link


def helper_lookup(key: str) -> HelperLink | None:
    """The live helper link (with its evening) of ``key``, or None for an unknown, malformed or
    revoked key. One query."""
    if not key or len(key) > 64:
        return None
    return HelperLink.objects.select_related("evening").filter(key=key, revoked_at__isnull=True).first()


def helper_require(link: HelperLink, role: str) -> None:
    """Raise ``HelperRefused`` unless ``link`` is for ``role`` ("door" or "scorer")."""
    if link.role != role:
        job = "checks guests in at the door" if link.role == HelperLink.Role.DOOR else "enters table results"
        raise HelperRefused(f"This link {job}; it cannot do that. Ask the host.")


def scorer_report(
    *,
    link: HelperLink,
    round_number: int,
    table: int,
    pool_winner: int,
    in_call=(),
    counters=None,
    tied=(),
    device: str = "",
):
    """A scorer's result for ``table`` in round ``round_number`` (the round their form showed),
    recorded like the host's (``result_record``; an earlier result for the table is replaced).
    As on the captains' phones, counters are everyone's at the table or no one's (the head table
    and the last round need them: the form says so), and they must add up to what the table
    held before the deal. Returns the ``Result``. Raises ``RuleError`` (``CountersDoNotAddUp``
    with the difference; "Round 1 is closed" after its bell); nothing is saved then.
    House rule: a scorer corrects the round in play only; earlier rounds are the host's; and
    only the host records counts the table agrees are off (issue 11 deliver 2)."""
    from tournament.services.results import counters_add_up, result_record
    from tournament.services.state import OPEN_STATES, evening_state

    helper_require(link, HelperLink.Role.SCORER)
    counters = dict(counters or {})
    with transaction.atomic():
        evening = lock_evening(link.evening_id)  # the lock order: evening, then round
        rnd = lock_round_number(evening, round_number)
        if rnd is None:
            raise RuleError("That round does not exist: go back to the tables and reload.")
        if rnd.state not in OPEN_STATES:
            raise RuleError(
                "Round {round} is closed: its bell has rung, so its results are the host's to correct. Tell the host.",
                rounds=(rnd.number,),
            )
        counters_add_up(evening, evening_state(evening), table, counters, SCORER_NEXT_STEP)
        return result_record(
            round=rnd,
            table=table,
            pool_winner=pool_winner,
            in_call=in_call,
            counters=counters,
            tied=tied,
            helper=link,
            device=device,
        )
