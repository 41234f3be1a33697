"""``manage.py correct EVENING --round R --table N --winner NAME [--call NAME ...] [--counters NAME=N ...]``.

Corrects a table's result in a round whose bell has rung and plays every later step again
(``tournament.services.corrections.result_correct``); prints the rounds replayed and every
entry of the new bells that moved someone. After the prize ceremony began, a correction that
changes a prize or a place is refused with what it changes and a code: run it again with
``--confirm CODE`` to save it (house rule, ``docs/rules/progressive-poker.md``, "Corrections").
"""

from django.core.management.base import CommandError

from tables.errors import RuleError
from tournament.management.commands._common import (
    HeadTableCommand,
    counters_from_options,
    evening_by_id,
    guest_by_name,
    whole_number,
)
from tournament.models import BellEntry
from tournament.selectors.audit_sentences import seat_moves
from tournament.services.corrections import ConfirmCorrection, result_correct
from tournament.services.naming import error_message, guest_names


class Command(HeadTableCommand):
    help = "Correct a table's result in an earlier round; every bell from that round on is played again."

    def add_arguments(self, parser):
        parser.add_argument("evening")
        parser.add_argument("--round", required=True, dest="round_number", help="the round's number")
        parser.add_argument("--table", required=True, help="the table's number (1 is the head table)")
        parser.add_argument("--winner", required=True, help="the pool winner's name (or guest id)")
        parser.add_argument("--call", action="append", default=[], help="a guest who called the winner (repeat)")
        parser.add_argument("--counters", action="append", default=[], help="NAME=COUNT after the deal (repeat)")
        parser.add_argument(
            "--confirm", default=None, help="after the ceremony began: the code the command gave to confirm the changes"
        )

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        number = opts["round_number"] = whole_number(opts["round_number"], "--round", low=1, high=1000)
        table = opts["table"] = whole_number(opts["table"], "--table", low=1, high=1000)
        counters = counters_from_options(evening, opts["counters"])
        try:
            done = result_correct(
                evening=evening,
                round_number=number,
                table=table,
                pool_winner=guest_by_name(evening, opts["winner"]).pk,
                in_call=[guest_by_name(evening, n).pk for n in opts["call"]],
                counters=counters,
                confirm=opts["confirm"],
            )
        except ConfirmCorrection as changes:
            raise CommandError(
                f"{error_message(changes, evening)} To save it, run the command again with --confirm {changes.token}."
            ) from None
        except RuleError as error:
            raise CommandError(error_message(error, evening)) from None
        names = guest_names(evening)
        where = seat_moves((names.get(g, "A guest"), t) for g, t in done.moves) or "Nobody sits elsewhere."
        self.stdout.write(
            f"corrected round {opts['round_number']} table {opts['table']}; replayed rounds "
            f"{', '.join(map(str, done.rounds))}. {where}"
        )
        entries = (
            BellEntry.objects.filter(
                bell__round__evening=evening,
                bell__undone_at__isnull=True,
                bell__round__number__gte=opts["round_number"],
            )
            .select_related("guest", "bell__round")
            .order_by("bell__round__number", "id")
        )
        for e in entries:
            if e.from_table != e.to_table:
                self.stdout.write(
                    f"round {e.bell.round.number}\t{e.kind}\t{e.guest.name}\t{e.from_table}->{e.to_table}"
                )
        for table in done.report_again:
            self.stdout.write(f"table {table} must report the round in play again")
        for warning in done.warnings:
            self.stdout.write(f"warning\t{warning}")
