"""``manage.py load_demo``: the host account and a demo evening of 32 guests (seeds/demo_guests.csv).

``--format`` picks what the evening plays: Progressive Poker (the default), or another installed
format (``euchre``, ``whist``, ``bunco``, ...): the same guests, drawn and seated by the format's
draw. ``--played N`` plays N rounds forward (each table's result is the format's example result,
``FormatPlugin.example_result``, and the host rings every bell), to see an evening under way.
Each format's demo evening is loaded once."""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import transaction

from tables.errors import RuleError
from tournament.management.commands._common import HeadTableCommand, model_value, whole_number
from tournament.models import Evening, Round
from tournament.registry import default_format, format_named, installed_formats
from tournament.services.draws import draw_digital
from tournament.services.guests import guests_register, parse_guest_list


class Command(HeadTableCommand):
    help = "Create the host account (if missing) and a demo evening with its guests checked in and drawn."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="host")
        parser.add_argument("--password", default="head-table")
        parser.add_argument("--minutes", default="5", help="minutes per round (1 to 180)")
        parser.add_argument(
            "--played",
            default="0",
            help="rounds to play forward (0 to 8): every table reports a result and the host rings the bell",
        )
        parser.add_argument(
            "--format",
            default=None,
            choices=list(installed_formats()),
            help="what the evening plays: one of the installed formats (poker, the default, euchre, whist, bunco, ...)",
        )

    def handle(self, *args, **opts):
        User = get_user_model()
        minutes = model_value(Evening, "minutes_per_round", opts["minutes"], "--minutes")
        played = whole_number(opts["played"], "--played", low=0, high=8)
        username = model_value(User, User.USERNAME_FIELD, opts["username"], "--username")
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_superuser(username, password=opts["password"])
        fmt = opts["format"] or default_format()
        name = "Demo evening" if fmt == default_format() else f"Demo evening ({format_named(fmt).title})"
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
            draw_digital(evening=evening)  # every format's draw, by its rules
            for _ in range(played):  # a demo that cannot be played forward is not loaded
                play_round(evening=evening, user=user)
        self.stdout.write(
            f"Demo evening {evening.pk} loaded ({evening.get_format_display()}): {evening.guests.count()} guests, drawn and seated"
            + (f", {played} round{'' if played == 1 else 's'} played." if played else ".")
        )


def play_round(*, evening: Evening, user) -> None:
    """Start the next round, record every table's example result (``FormatPlugin.example_result``)
    and ring the bell as the host. Raises ``CommandError`` with the rules' words when they refuse."""
    from tournament.registry import format_for
    from tournament.services.clock import round_ring, round_start
    from tournament.services.naming import error_message

    evening.refresh_from_db()
    fmt = format_for(evening)
    try:
        rnd = round_start(evening=evening, user=user)
        for table in range(1, len(fmt.state(evening).tables) + 1):
            fmt.example_result(evening=evening, rnd=rnd, table=table, user=user)
        evening.refresh_from_db()
        if Round.objects.filter(pk=rnd.pk, state__in=(Round.State.RUNNING, Round.State.PAUSED)).exists():
            round_ring(evening=evening, user=user)
    except RuleError as error:
        raise CommandError(
            f"Round {evening.rounds.count()} could not be played: {error_message(error, evening)}"
        ) from None
