"""The audit log: who did what to an evening, when, from which device (the evening's version
counter is ``tournament.services.versions``)."""

from __future__ import annotations

from typing import Any

from tournament.models import AuditEntry, Evening, Guest


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
        evening=evening,
        action=action,
        user=user,
        guest=guest,
        helper=helper,
        device=(device or "")[:200],
        detail=detail,
    )
