"""Shared bits of the management commands: finding an evening and a guest by name."""

from __future__ import annotations

from django.core.management.base import CommandError

from tournament.models import Evening, Guest


def evening_by_id(value: str | int) -> Evening:
    """The evening with this id; ``CommandError`` naming it when there is none."""
    try:
        return Evening.objects.get(pk=int(value))
    except (ValueError, Evening.DoesNotExist):
        raise CommandError(f"No evening with id {value}; `python manage.py evening_list` lists them.") from None


def guest_by_name(evening: Evening, name: str) -> Guest:
    """The evening's guest with this name (spaces and case ignored) or this id."""
    guest = evening.guests.filter(name_key=Guest.fold_name(name)).first()
    if guest is None and name.isdigit():
        guest = evening.guests.filter(pk=int(name)).first()
    if guest is None:
        raise CommandError(f"No guest called “{name}” at this evening.")
    return guest


def counters_from_options(evening: Evening, items: list[str]) -> dict[int, int]:
    """``--counters NAME=COUNT`` options as guest id -> counters; ``CommandError`` for a bad item."""
    counters = {}
    for item in items:
        name, sep, count = item.rpartition("=")
        if not sep:
            raise CommandError(f"Write counters as NAME=COUNT, not “{item}”.")
        try:
            counters[guest_by_name(evening, name).pk] = int(count)
        except ValueError:
            raise CommandError(f"“{count}” is not a whole number of counters.") from None
    return counters
