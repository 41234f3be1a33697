"""``manage.py export_evening EVENING [--output evening.json]``: the whole evening as JSON."""

import json

from tournament.exchange.export import evening_export
from tournament.management.commands._common import HeadTableCommand, evening_by_id, output_path, write_output


class Command(HeadTableCommand):
    help = "Export an evening as JSON (schema head-table/evening/1, see docs/export.md)."

    def add_arguments(self, parser):
        parser.add_argument("evening")
        parser.add_argument("--output", "-o", default="-", help="the JSON file to write (default: print it)")

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        path = None if opts["output"] == "-" else output_path(opts["output"], what="The export")
        text = json.dumps(evening_export(evening), ensure_ascii=False, indent=2)
        if path is None:
            self.stdout.write(text)
        else:
            write_output(path, text.encode("utf-8"), what="The export")
