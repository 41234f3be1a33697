"""``manage.py evening_create NAME --csv guests.csv``: create an evening from a guest CSV.

Everything goes through the web's own forms: the evening's settings through ``EveningForm``
(name, date, counters per stake, minutes per round, number of rounds, with the same bounds),
the file through ``GuestListForm`` (at most 1 MB; UTF-8, with or without a byte order mark, or
UTF-16 with its byte order mark; anything else is refused with "save it as UTF-8"), each row
through ``parse_guest_list``. Any bad input is a ``CommandError`` naming the option and the
reason, and nothing is saved.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.db import transaction

from tournament.format_setting import default_game
from tournament.forms.evening import EveningForm, GuestListForm
from tournament.management.commands._common import HeadTableCommand, file_bytes, host_user
from tournament.models import Evening
from tournament.services.guests import GuestListError, guests_register, parse_guest_list

OPTIONS = {
    "name": "NAME",
    "date": "--date",
    "counters_per_stake": "--stake",
    "minutes_per_round": "--minutes",
    "rounds_planned": "--rounds",
}


class Command(HeadTableCommand):
    help = "Create an evening from a guest CSV (name, pack[, contact]); prints the new evening's id."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--csv", required=True, help="UTF-8 CSV: name, pack[, contact]; header optional")
        parser.add_argument("--host", default="host", help="the host's username (created if missing)")
        parser.add_argument("--date", default=None, help="YYYY-MM-DD (default: today)")
        parser.add_argument("--minutes", default="10", help="minutes per round (1 to 180)")
        parser.add_argument("--stake", default="50", help="counters per stake (1 to 10,000)")
        parser.add_argument("--rounds", default=None, help="number of rounds, 1 to 100 (default: until ended)")
        parser.add_argument("--check-in", action="store_true", help="mark every guest as here")
        parser.add_argument(
            "--different-guests",
            action="store_true",
            help="names alike apart from accents or spacing (José Núñez, Jose Nunez) are different guests",
        )

    def handle(self, *args, **opts):
        form = EveningForm(
            data={
                "name": opts["name"],
                "date": opts["date"] or datetime.date.today().isoformat(),
                "game": default_game(),
                "counters_per_stake": opts["stake"],
                "minutes_per_round": opts["minutes"],
                "rounds_planned": opts["rounds"] or "",
                "round_end": Evening.RoundEnd.CLOCK,
                "red_label": "Red pack",
                "blue_label": "Blue pack",
            }
        )
        if not form.is_valid():
            field, messages = next(iter(form.errors.items()))
            raise CommandError(f"{OPTIONS.get(field, field)}: {' '.join(messages)}")
        path = Path(opts["csv"])
        raw = file_bytes(path, what="The guest list", limit=GuestListForm.MAX_BYTES)
        upload = GuestListForm(data={}, files={"file": SimpleUploadedFile(path.name or "guests.csv", raw)})
        if not upload.is_valid():
            raise CommandError(f"--csv {path}: {' '.join(m for ms in upload.errors.values() for m in ms)}")
        with transaction.atomic():
            evening = form.save(commit=False)
            evening.host = host_user(opts["host"])
            evening.save()
            try:
                rows = parse_guest_list(
                    upload.cleaned_data["text"], evening=evening, different=opts["different_guests"]
                )
            except GuestListError as error:
                if not error.near:
                    raise
                alike = " ".join(error.problems[:-1])
                raise CommandError(
                    f"--csv {path}: {alike} If they are different guests, run again with --different-guests."
                ) from None
            guests_register(evening=evening, rows=rows, check_in=opts["check_in"])
        self.stdout.write(str(evening.pk))
        self.stderr.write(f"Evening {evening.pk} “{evening.name}”: {len(rows)} guests registered.")
