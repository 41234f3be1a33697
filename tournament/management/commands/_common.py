"""Shared bits of the management commands: the base class that turns every bad input into one
``CommandError`` line (exit status 1), the same field validators as the web's forms for numbers
and addresses, finding an evening and a guest, reading and writing files named on the command
line, and the host's account."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import models

from tables.errors import RuleError
from tournament.forms.fields import ID_MAX, WholeNumberField, ascii_whole_number
from tournament.models import COUNTERS_MAX, Evening, Guest
from tournament.services.naming import error_message

ASCII_DIGITS = re.compile(r"[+-]?[0-9]+")  # a number as typed: digits 0 to 9 ("٣" is not 3)


class HeadTableCommand(BaseCommand):
    """A management command whose every bad input ends as one ``CommandError`` line on stderr
    and exit status 1, never a traceback.

    Usage errors (an unknown option, a missing argument, a choice not offered) raise
    ``CommandError`` too, instead of argparse's usage text and exit status 2; a NUL character
    in any argument is refused before anything runs; a ``RuleError`` from the rules or a
    service becomes a ``CommandError`` with its message.
    """

    def create_parser(self, prog_name, subcommand, **kwargs):
        """Django's parser, raising ``CommandError`` for a usage error also from the terminal."""
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.called_from_command_line = False
        return parser

    def run_from_argv(self, argv):
        """As Django's, but a usage error (raised while parsing, before ``execute``) is printed
        as one line and exits with status 1, like every other ``CommandError``."""
        try:
            super().run_from_argv(argv)
        except CommandError as error:
            self.stderr.write(f"CommandError: {error} (`manage.py help {argv[1]}` lists the options)")
            sys.exit(error.returncode)

    def execute(self, *args, **options):
        """Refuse NUL characters in any argument; turn a ``RuleError`` into a ``CommandError``
        whose message names guests (``error_message``, with the names of the ``evening`` option's
        evening when the command has one)."""
        for name, value in [("an argument", arg) for arg in args] + list(options.items()):
            for text in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(text, str) and "\x00" in text:
                    raise CommandError(f"{name}: a NUL character is not allowed.")
        try:
            return super().execute(*args, **options)
        except RuleError as error:
            raise CommandError(error_message(error, _evening_or_none(options.get("evening")))) from None


def _evening_or_none(value) -> Evening | None:
    """The evening whose id is ``value``, or None (no such option, not an id, no such evening)."""
    try:
        return evening_by_id(value) if value is not None else None
    except CommandError:
        return None


def checked(field: forms.Field, value, option: str):
    """``value`` cleaned by the form field ``field`` (the web's own validation); ``CommandError``
    "``option``: <the field's message>" when the field refuses it."""
    try:
        return field.clean(value)
    except ValidationError as error:
        raise CommandError(f"{option}: {' '.join(error.messages)}") from None


def model_value(model, field: str, value, option: str):
    """``value`` cleaned by the model field ``model.field`` (its type, choices, length and range
    validators, as ``full_clean`` and the model forms check them; a number in the digits 0 to
    9 only, as ``tournament.forms.fields.WholeNumberField`` reads it); ``CommandError``
    "``option``: <the model's message>" when it refuses."""
    db_field = model._meta.get_field(field)
    if (
        isinstance(db_field, models.IntegerField)
        and isinstance(value, str)
        and not ASCII_DIGITS.fullmatch(value.strip())
    ):
        raise CommandError(f"{option}: {WholeNumberField().error_messages['invalid']}")
    try:
        return db_field.clean(value, None)
    except ValidationError as error:
        raise CommandError(f"{option}: {' '.join(error.messages)}") from None


def whole_number(value, option: str, *, low: int, high: int) -> int:
    """``value`` (text from the command line) as a whole number from ``low`` to ``high`` in the
    digits 0 to 9 ("٣" is refused, not read as 3), checked by the web's own
    ``tournament.forms.fields.WholeNumberField``; ``CommandError`` naming ``option`` otherwise."""
    return checked(WholeNumberField(min_value=low, max_value=high), value, option)


def evening_by_id(value: str | int) -> Evening:
    """The evening with this id; ``CommandError`` naming it when there is none (or when the
    text is not an id at all)."""
    try:
        number = WholeNumberField(min_value=1, max_value=ID_MAX).clean(value)
        return Evening.objects.get(pk=number)
    except (ValidationError, Evening.DoesNotExist):
        shown = str(value) if len(str(value)) <= 30 else str(value)[:27] + "..."
        raise CommandError(
            f"No evening with id “{shown}”: an evening's id is the number in the address of its "
            "page on the site (/host/e/<id>/)."
        ) from None


def guest_by_name(evening: Evening, name: str) -> Guest:
    """The evening's guest with this name (spaces and case ignored) or, failing that, this id
    (a whole number in the digits 0 to 9: "²" or "٣" is only ever a name); ``CommandError``
    naming the text when there is none."""
    guest = evening.guests.filter(name_key=Guest.fold_name(name)).first()
    number = ascii_whole_number(name)
    if guest is None and number is not None and number >= 1:
        guest = evening.guests.filter(pk=number).first()
    if guest is None:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise CommandError(f"No guest called “{shown}” at this evening.")
    return guest


def counters_from_options(evening: Evening, items: list[str]) -> dict[int, int]:
    """``--counters NAME=COUNT`` options as guest id -> counters; ``CommandError`` for a bad item
    (a count is a whole number from 0 to ``COUNTERS_MAX``, the result form's own bounds)."""
    counters = {}
    for item in items:
        name, sep, count = item.rpartition("=")
        if not sep:
            raise CommandError(f"Write counters as NAME=COUNT, not “{item}”.")
        guest = guest_by_name(evening, name)
        counters[guest.pk] = whole_number(count, f"--counters {guest.name}", low=0, high=COUNTERS_MAX)
    return counters


def file_bytes(path: Path, *, what: str, limit: int) -> bytes:
    """The bytes of the file at ``path`` (at most ``limit`` + 1, so a caller can tell it is too
    big); ``CommandError`` when it is missing, a folder, not readable, or over ``limit`` bytes
    (``what`` names the file in the message: "The export")."""
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
    username = model_value(model, model.USERNAME_FIELD, username, "--host")
    return model.objects.get_or_create(defaults=None, **{model.USERNAME_FIELD: username})[0]


def output_path(value: str, *, what: str) -> Path:
    """The file ``value`` to write, checked before any work: its folder exists and it is not a
    folder itself; ``CommandError`` with the reason otherwise (``what``: "The PDF")."""
    path = Path(value)
    try:
        if path.is_dir():
            raise CommandError(f"{what} {path} is a folder: give a file name, such as {path / 'out'}.")
        if not path.parent.is_dir():
            raise CommandError(f"{what} cannot be written: the folder {path.parent} does not exist.")
    except (OSError, ValueError) as error:
        raise CommandError(f"{what} {str(path)[:80]} cannot be written ({error}).") from None
    return path


def write_output(path: Path, data: bytes, *, what: str) -> None:
    """Write ``data`` to ``path``; ``CommandError`` with the system's reason when it cannot."""
    try:
        path.write_bytes(data)
    except OSError as error:
        raise CommandError(f"{what} {path} cannot be written ({error.strerror or error}).") from None
