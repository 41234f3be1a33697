"""Shared bits of the management commands: finding an evening and a guest by name, reading a
file given on the command line, and the host's account."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from tournament.models import Evening, Guest


def evening_by_id(value: str | int) -> Evening:
    """The evening with this id; ``CommandError`` naming it when there is none."""
    try:
        return Evening.objects.get(pk=int(value))
    except (ValueError, Evening.DoesNotExist):
        raise CommandError(f"No evening with id {value}: an evening's id is the number in the address of its "
                           "page on the site (/host/e/<id>/).") from None


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


def file_bytes(path: Path, *, what: str, limit: int) -> bytes:
    """The bytes of the file at ``path`` (at most ``limit`` + 1, so a caller can tell it is too
    big); ``CommandError`` when it is missing, a folder, not readable, or over ``limit`` bytes (``what`` names the file in the message: "The export")."""
    try:
        if path.is_dir():
            raise CommandError(f"{what} {path} is a folder: give the file itself.")
        size = path.stat().st_size
        if size > limit:
            raise CommandError(f"{what} {path} is {size:,} bytes: at most {limit:,} can be read.")
        with path.open("rb") as handle:
            return handle.read(limit + 1)
    except FileNotFoundError:
        raise CommandError(f"{what} {path} does not exist.") from None
    except OSError as error:
        raise CommandError(f"{what} {path} cannot be read ({error.strerror or error}).") from None
    except ValueError:  # a NUL character in the path
        raise CommandError(f"{what}: {str(path)[:80]!r} is not a file name.") from None


def host_user(username: str):
    """The host's account called ``username``, created (without a password) if missing.

    The name is checked by the user model's own field (length, allowed characters), as the
    admin's form checks it; ``CommandError`` with the reason when it cannot be a username.
    """
    model = get_user_model()
    try:
        username = model._meta.get_field(model.USERNAME_FIELD).clean(username, None)
    except ValidationError as error:
        raise CommandError(f"--host: {' '.join(error.messages)}") from None
    return model.objects.get_or_create(**{model.USERNAME_FIELD: username})[0]
