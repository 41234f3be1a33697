"""``manage.py evening_create NAME --csv guests.csv``: create an evening from a guest CSV."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tables.errors import RuleError
from tournament.models import Evening
from tournament.services.guests import guests_register, parse_guest_list


class Command(BaseCommand):
    help = "Create an evening from a guest CSV (name, pack[, contact]); prints the new evening's id."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--csv", required=True, help="UTF-8 CSV: name, pack[, contact]; header optional")
        parser.add_argument("--host", default="host", help="the host's username (created if missing)")
        parser.add_argument("--date", default=None, help="YYYY-MM-DD (default: today)")
        parser.add_argument("--minutes", type=int, default=10, help="minutes per round")
        parser.add_argument("--stake", type=int, default=50, help="counters per stake")
        parser.add_argument("--rounds", type=int, default=None, help="number of rounds (default: until ended)")
        parser.add_argument("--check-in", action="store_true", help="mark every guest as here")

    def handle(self, *args, **opts):
        path = Path(opts["csv"])
        if not path.exists():
            raise CommandError(f"No such file: {path}")
        try:
            date = datetime.date.fromisoformat(opts["date"]) if opts["date"] else datetime.date.today()
        except ValueError:
            raise CommandError("Give the date as YYYY-MM-DD.") from None
        if not 1 <= opts["minutes"] <= 180:
            raise CommandError("A round lasts between 1 and 180 minutes.")
        host, _ = get_user_model().objects.get_or_create(username=opts["host"])
        text = path.read_bytes().decode("utf-8-sig", errors="strict")
        try:
            with transaction.atomic():
                evening = Evening.objects.create(
                    host=host, name=opts["name"], date=date, minutes_per_round=opts["minutes"],
                    counters_per_stake=opts["stake"], rounds_planned=opts["rounds"],
                )
                rows = parse_guest_list(text, evening=evening)
                guests_register(evening=evening, rows=rows, check_in=opts["check_in"])
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(str(evening.pk))
        self.stderr.write(f"Evening {evening.pk} “{evening.name}”: {len(rows)} guests registered.")
