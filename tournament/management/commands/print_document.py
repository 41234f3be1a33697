"""``manage.py print_document EVENING seating-cards --output cards.pdf [--paper letter]``."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tables.errors import RuleError
from tournament.documents import seating_cards_pdf
from tournament.management.commands._common import evening_by_id

DOCUMENTS = {"seating-cards": seating_cards_pdf}


class Command(BaseCommand):
    help = "Write a printed document of the evening to a PDF file."

    def add_arguments(self, parser):
        parser.add_argument("evening")
        parser.add_argument("document", choices=sorted(DOCUMENTS))
        parser.add_argument("--output", "-o", required=True)
        parser.add_argument("--paper", default="A4", help="A4 or letter")

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        try:
            pdf = DOCUMENTS[opts["document"]](evening=evening, paper=opts["paper"])
        except RuleError as error:
            raise CommandError(str(error)) from None
        Path(opts["output"]).write_bytes(pdf)
        self.stdout.write(f"{opts['output']}\t{len(pdf)} bytes")
