"""The guests' private links as printed under their QR codes (seating cards, score cards)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse


def guest_url(key: str, *, base_url: str | None = None) -> str:
    """The absolute private link of a guest (``SITE_URL`` unless ``base_url`` is given)."""
    return (base_url or settings.SITE_URL).rstrip("/") + reverse("guest-page", args=[key])
