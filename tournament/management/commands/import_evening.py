"""``manage.py import_evening evening.json [--host USER]``: an exported evening, replayed and checked."""

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tables.errors import RuleError
from tournament.importer import evening_import


class Command(BaseCommand):
    help = "Import an evening exported as JSON; every bell is replayed through the rules and checked. Prints the new id."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--host", default="host", help="the host's username (created if missing)")

    def handle(self, *args, **opts):
        path = Path(opts["file"])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        host, _ = get_user_model().objects.get_or_create(username=opts["host"])
        try:
            evening = evening_import(data=data, host=host)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(str(evening.pk))
