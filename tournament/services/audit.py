"""The audit log and the evening's version counter."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from tournament.models import AuditEntry, Evening, Guest


def evening_touch(*, evening: Evening) -> None:
    """Bump ``evening.version`` by one (in the database and on the instance), so every live
    page showing this evening refetches. Call inside the service's transaction."""
    Evening.objects.filter(pk=evening.pk).update(version=F("version") + 1)
    evening.refresh_from_db(fields=["version"])
    _publish_on_commit(evening=evening)


def _publish_on_commit(*, evening: Evening) -> None:
    """Drop the cached version now and put the new one in the cache after commit (issue 6: an
    unchanged poll answers 304 with no query; see ``tournament.services.links``). Until the
    commit, readers refill the cache from the database with the version they can see."""
    from django.db import transaction

    from tournament.services.links import evening_token, version_forget, version_publish

    token, version = evening_token(evening.pk, evening.public_key), evening.version
    version_forget(token=token)
    transaction.on_commit(lambda: version_publish(token=token, version=version))


def audit_log(
    *,
    evening: Evening,
    action: str,
    user: Any = None,
    guest: Guest | None = None,
    device: str = "",
    helper: Any = None,
    **detail: Any,
) -> AuditEntry:
    """Write one audit entry: ``action`` (a short verb such as "bell.ring"), who (a host user, a
    guest's private link, or a helper's link: ``helper``, a ``HelperLink``), the device (user
    agent, cut to 200 characters) and a JSON detail."""
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    return AuditEntry.objects.create(
        evening=evening, action=action, user=user, guest=guest, helper=helper, device=(device or "")[:200],
        detail=detail,
    )
