"""``manage.py result EVENING --table N --winner NAME [--call NAME ...] [--counters NAME=N ...]``."""

from django.core.management.base import CommandError

from tables.errors import RuleError
from tournament.management.commands._common import (
    HeadTableCommand,
    counters_from_options,
    evening_by_id,
    guest_by_name,
    whole_number,
)
from tournament.services.naming import error_message
from tournament.services.results import result_record
from tournament.services.state import current_round


class Command(HeadTableCommand):
    help = "Record a table's result for the round in play: pool winner, who was in the call, counters."

    def add_arguments(self, parser):
        parser.add_argument("evening")
        parser.add_argument("--table", required=True, help="the table's number (1 is the head table)")
        parser.add_argument("--winner", required=True, help="the pool winner's name (or guest id)")
        parser.add_argument("--call", action="append", default=[], help="a guest who called the winner (repeat)")
        parser.add_argument("--counters", action="append", default=[], help="NAME=COUNT after the deal (repeat)")

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        opts["table"] = whole_number(opts["table"], "--table", low=1, high=1000)
        rnd = current_round(evening)
        if rnd is None:
            raise CommandError("No round is in play: start one with round_start.")
        counters = counters_from_options(evening, opts["counters"])
        try:
            result_record(
                round=rnd,
                table=opts["table"],
                pool_winner=guest_by_name(evening, opts["winner"]).pk,
                in_call=[guest_by_name(evening, n).pk for n in opts["call"]],
                counters=counters,
            )
        except RuleError as error:
            raise CommandError(error_message(error, evening)) from None
        self.stdout.write(f"round {rnd.number}\ttable {opts['table']}\tsaved")
