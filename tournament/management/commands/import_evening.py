"""``manage.py import_evening evening.json [--host USER]``: an exported evening, replayed and checked.

The file is read whole (at most ``tournament.exchange.importer.MAX_BYTES``), checked against the export
schema and the models' validation, and only then saved (``tournament.exchange.importer``). A file that
is missing, a folder, unreadable, empty, not UTF-8, not JSON or not a valid export is a
``CommandError`` naming the reason (and the place in the file), and nothing is saved.
"""

from pathlib import Path

from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse

from tables.errors import RuleError
from tables.words import counted
from tournament.exchange.importer import MAX_BYTES, evening_import, export_read
from tournament.management.commands._common import HeadTableCommand, file_bytes, host_user


class Command(HeadTableCommand):
    help = (
        "Import an evening exported as JSON; every bell is replayed through the rules and checked. Says what was"
        " imported and where the host finds it."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--host", default="host", help="the host's username (created if missing)")

    def handle(self, *args, **opts):
        raw = file_bytes(Path(opts["file"]), what="The export", limit=MAX_BYTES)
        try:
            data = export_read(raw)
            with transaction.atomic():
                evening = evening_import(data=data, host=host_user(opts["host"]))
        except RuleError as error:
            raise CommandError(str(error)) from None
        guests = counted(evening.guests.count(), "guest")
        self.stdout.write(
            f"Imported “{evening.name}” ({evening.get_format_display()}, {guests}) as evening {evening.pk}:"
            f" the host finds it at {reverse('host-evening', args=[evening.pk])}."
        )
