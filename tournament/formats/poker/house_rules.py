"""Progressive Poker's house rules for the cases its rules leave open: the bell's and the prizes'.

Stored in ``Evening.options["bell"]`` (``tables.formats.poker.bell.BellOptions``) and
``Evening.options["prizes"]`` (``tables.formats.poker.prizes.PrizeOptions``); only the values that differ
from the defaults are kept, so a later change of a default reaches evenings that never chose.
A new choice applies from the next bell on: every bell already rung keeps the options it was
rung with (in its record), also when a correction plays it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from django.db import transaction

from tables.formats.poker.bell import BellOptions
from tables.formats.poker.prizes import PrizeOptions
from tournament.models import Evening
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening
from tournament.services.versions import evening_touch


def house_rules_set(
    *,
    evening: Evening,
    bell: Mapping[str, Any],
    prizes: Mapping[str, Any],
    user=None,
    device: str = "",
) -> Evening:
    """Set the evening's bell and prize options; returns the evening.

    ``bell`` maps ``BellOptions`` field names to choices (e.g. ``{"no_result": "lot"}``),
    ``prizes`` maps ``PrizeOptions`` names (``{"booby_rule": "most_stakes"}``); missing names
    take the default. Raises ``RuleError`` naming an unknown option or a value that is not a
    choice; nothing is saved then. Other keys of ``Evening.options`` are kept.
    """
    bell_options = BellOptions.from_mapping(bell)
    prize_options = PrizeOptions.from_mapping(prizes)
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        before = dict(evening.options or {})
        options = dict(before)
        options["bell"] = _changed(asdict(bell_options), asdict(BellOptions()))
        options["prizes"] = _changed(asdict(prize_options), asdict(PrizeOptions()))
        evening.options = options
        evening.save(update_fields=["options"])
        audit_log(
            evening=evening,
            action="options.set",
            user=user,
            device=device,
            bell=options["bell"],
            prizes=options["prizes"],
            was={"bell": before.get("bell", {}), "prizes": before.get("prizes", {})},
        )
        evening_touch(evening=evening)
    return evening


def _changed(values: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in values.items() if defaults.get(name) != value}
