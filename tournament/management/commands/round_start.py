"""``manage.py round_start EVENING``: start the next round (its timed bell is queued)."""

from django.core.management.base import CommandError

from tables.errors import RuleError
from tournament.management.commands._common import HeadTableCommand, evening_by_id
from tournament.services.clock import round_start
from tournament.services.naming import error_message


class Command(HeadTableCommand):
    help = "Start the next round; prints its number and deadline (UTC)."

    def add_arguments(self, parser):
        parser.add_argument("evening")

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        try:
            rnd = round_start(evening=evening)
        except RuleError as error:
            raise CommandError(error_message(error, evening)) from None
        self.stdout.write(f"round {rnd.number}\tdeadline {rnd.deadline.isoformat()}")
