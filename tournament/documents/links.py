"""The guests' private links as printed under their QR codes (seating cards, score cards)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.urls import reverse


def guest_url(key: str, *, base_url: str | None = None) -> str:
    """The absolute private link of a guest (``SITE_URL`` unless ``base_url`` is given)."""
    return (base_url or settings.SITE_URL).rstrip("/") + reverse("guest-page", args=[key])


_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_STAND_IN_KEY = "STANDINKEY"


def guest_url_maker(base_url: str | None = None) -> Callable[[str], str]:
    """A function key -> ``guest_url(key, base_url=base_url)`` with the address reversed once
    for all the guests of a document (500 cards: one reverse, not 500); a key holding a
    character an address escapes goes through ``guest_url`` itself."""
    before, _, after = guest_url(_STAND_IN_KEY, base_url=base_url).rpartition(_STAND_IN_KEY)

    def link(key: str) -> str:
        if key and _KEY_CHARS.issuperset(key):
            return f"{before}{key}{after}"
        return guest_url(key, base_url=base_url)

    return link
