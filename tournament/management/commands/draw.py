"""``manage.py draw EVENING``: the digital seating draw for the guests checked in."""

from django.core.management.base import CommandError

from tables.errors import RuleError
from tournament.management.commands._common import HeadTableCommand, evening_by_id
from tournament.name_keys import name_order
from tournament.services.draws import draw_digital
from tournament.services.naming import error_message


class Command(HeadTableCommand):
    help = "Deal every checked-in guest a table card of their pack and seat them; prints the tables."

    def add_arguments(self, parser):
        parser.add_argument("evening")
        parser.add_argument("--accept-relaxed", action="store_true", help="accept the relaxed plan for 9 to 11 guests")

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        try:
            draw = draw_digital(evening=evening, accept_relaxed=opts["accept_relaxed"])
        except RuleError as error:
            raise CommandError(error_message(error, evening)) from None
        cards = draw.cards.select_related("guest")
        for card in sorted(cards, key=lambda c: (c.rank, name_order(c.guest.name), c.guest_id)):
            self.stdout.write(f"table {card.rank}\t{card.pack}\t{card.guest.name}")
