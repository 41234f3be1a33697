"""``manage.py load_demo``: the host account and a demo evening of 32 guests (seeds/demo_guests.csv).

``--format`` picks what the evening plays: Progressive Poker (the default), or Progressive Euchre,
Drive Whist or Bunco at tables of four (``euchre``, ``whist``, ``bunco``): the same guests, drawn
and seated by the format's partnership draw. Each format's demo evening is loaded once."""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from tournament.management.commands._common import HeadTableCommand, model_value
from tournament.models import Evening
from tournament.services.draws import draw_digital
from tournament.services.foursomes import foursome_draw
from tournament.services.guests import guests_register, parse_guest_list


class Command(HeadTableCommand):
    help = "Create the host account (if missing) and a demo evening with its guests checked in and drawn."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="host")
        parser.add_argument("--password", default="head-table")
        parser.add_argument("--minutes", default="5", help="minutes per round (1 to 180)")
        parser.add_argument(
            "--format",
            default="poker",
            choices=[value for value, _ in Evening.Format.choices],
            help="what the evening plays: poker (the default), euchre, whist or bunco",
        )

    def handle(self, *args, **opts):
        User = get_user_model()
        minutes = model_value(Evening, "minutes_per_round", opts["minutes"], "--minutes")
        username = model_value(User, User.USERNAME_FIELD, opts["username"], "--username")
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_superuser(username, password=opts["password"])
        fmt = opts["format"]
        name = "Demo evening" if fmt == "poker" else f"Demo evening ({Evening.Format(fmt).label})"
        if Evening.objects.filter(host=user, name=name).exists():
            self.stdout.write(f"{name} is already loaded.")
            return
        text = (settings.BASE_DIR / "seeds" / "demo_guests.csv").read_text(encoding="utf-8")
        with transaction.atomic():
            evening = Evening.objects.create(
                host=user,
                name=name,
                format=fmt,
                date=datetime.date.today(),
                minutes_per_round=minutes,
                rounds_planned=8,
                round_end=Evening.round_end_for(fmt),  # Bunco's demo ends each round at the head table's 21
            )
            guests_register(evening=evening, rows=parse_guest_list(text, evening=evening), check_in=True)
        if fmt == "poker":
            draw_digital(evening=evening)
        else:
            foursome_draw(evening=evening)
        self.stdout.write(
            f"Demo evening {evening.pk} loaded ({evening.get_format_display()}): {evening.guests.count()} guests, drawn and seated."
        )
