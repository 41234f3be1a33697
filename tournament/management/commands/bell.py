"""``manage.py bell EVENING``: ring the bell of the round in play now (or ``--undo`` the last)."""

from django.core.management.base import CommandError

from tables.errors import RuleError
from tournament.management.commands._common import HeadTableCommand, evening_by_id
from tournament.models import Bell
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.naming import error_message
from tournament.services.state import current_round


class Command(HeadTableCommand):
    help = "Ring the bell now: apply the moves; prints each entry (kind, guest, from, to, text)."

    def add_arguments(self, parser):
        parser.add_argument("evening")
        parser.add_argument("--undo", action="store_true", help="undo the last bell instead")

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        try:
            if opts["undo"]:
                bell = bell_undo(evening=evening)
                self.stdout.write(f"round {bell.round.number}\tbell undone")
                return
            rnd = current_round(evening)
            if rnd is None:
                raise CommandError("No round is in play.")
            bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
        except RuleError as error:
            raise CommandError(error_message(error, evening)) from None
        if bell is None:
            raise CommandError("The bell had already rung for this round.")
        for e in bell.entries.select_related("guest"):
            self.stdout.write(f"{e.kind}\t{e.guest.name}\t{e.from_table or ''}\t{e.to_table or ''}\t{e.about}")
