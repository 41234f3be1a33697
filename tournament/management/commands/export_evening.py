"""``manage.py export_evening EVENING [--output evening.json]``: the whole evening as JSON."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from tournament.export import evening_export
from tournament.management.commands._common import evening_by_id


class Command(BaseCommand):
    help = "Export an evening as JSON (schema head-table/evening/1, see docs/export.md)."

    def add_arguments(self, parser):
        parser.add_argument("evening")
        parser.add_argument("--output", "-o", default="-")

    def handle(self, *args, **opts):
        text = json.dumps(evening_export(evening_by_id(opts["evening"])), ensure_ascii=False, indent=2)
        if opts["output"] == "-":
            self.stdout.write(text)
        else:
            Path(opts["output"]).write_text(text, encoding="utf-8")
