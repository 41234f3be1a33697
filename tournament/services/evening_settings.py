"""The evening's settings page, saved: its name, date, format and options, Progressive Poker's
game and counters, minutes per round, rounds, how a round ends, pack labels, self-registration.

The form (``forms.evening.EveningForm``) checks the values; this service saves them against the
evening as it is now, under its lock, so a bell, a draw or another page that changed the
evening while the form was filled in is neither undone nor contradicted: only the settings
the form holds are written (never the evening's stage, clock or version), the format's
options are merged into the stored options (the house rules and prizes' options stay as
stored), and the rules the form checked against the evening are checked again under the lock:
the format and its options of play are fixed once the seats are drawn, and the planned rounds
cannot be fewer than the rounds played (as on the clock's settings page).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from tables.errors import RuleError
from tournament.models import Evening
from tournament.registry import format_for, format_named
from tournament.services.audit import audit_log
from tournament.services.clock import rounds_planned_refused
from tournament.services.locks import lock_evening
from tournament.services.versions import evening_touch

SETTINGS = (
    "name",
    "date",
    "format",
    "game",
    "counters_per_stake",
    "minutes_per_round",
    "rounds_planned",
    "round_end",
    "red_label",
    "blue_label",
    "counter_value",
    "self_registration",
)
"""The evening's fields the settings page may write."""


def drawn(evening: Evening) -> bool:
    """Whether ``evening``'s seats are drawn (or play has begun). One query."""
    return evening.stage != Evening.Stage.REGISTRATION or evening.draws.filter(superseded_at__isnull=True).exists()


def options_change_refused(evening: Evening, chosen: dict[str, Any]) -> str | None:
    """Why ``evening`` may not take its format's options ``chosen`` (the form's values), or
    None when it may: the format decides (``FormatPlugin.options_change_refused``; at tables of
    four the options of play are fixed once seats are drawn). One query at most."""
    if evening.pk is None:
        return None
    return format_for(evening).options_change_refused(evening, chosen)


def format_change_refused(evening: Evening, chosen: str) -> str | None:
    """Why ``evening`` may not change to format ``chosen``, or None when it may: the format is
    fixed once seats are drawn (house rule: a draw deals tables for one format, so a changed
    format would leave tables of the wrong size). One query for a saved evening."""
    if evening.pk is None or chosen == evening.format:
        return None
    if not drawn(evening):
        return None
    return (
        f"The format cannot change after the draw: this evening plays {evening.get_format_display()}. "
        "Nothing was saved. To play another format, create a new evening."
    )


def evening_settings_save(
    *,
    evening: Evening,
    settings: Mapping[str, Any],
    format_options: Mapping[str, Any] | None = None,
    user=None,
    device: str = "",
) -> Evening:
    """Save ``settings`` (field name -> value, names from ``SETTINGS``) and, for a format at
    tables of four, ``format_options`` (the format's options, as its form fields give them) on
    ``evening``, in one transaction under the evening's lock. Returns the evening as saved.
    Raises ``RuleError`` (nothing saved) for a field that is not a setting, a format or option
    of play changed after the draw, or fewer planned rounds than were played."""
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise RuleError(f"Not a setting of the evening: {', '.join(unknown)}.")
    with transaction.atomic():
        row = lock_evening(evening.pk)
        refused = format_change_refused(row, settings.get("format", row.format))
        fmt = settings.get("format", row.format)
        if refused is None and format_options is not None and fmt == row.format:
            refused = options_change_refused(row, dict(format_options))
        refused = refused or rounds_planned_refused(row, settings.get("rounds_planned", row.rounds_planned))
        if refused:
            raise RuleError(refused)
        changed = sorted(name for name, value in settings.items() if getattr(row, name) != value)
        for name, value in settings.items():
            setattr(row, name, value)
        fields = list(settings)
        plugin = format_named(fmt)
        stored = dict(row.options or {})
        options = plugin.options_stored(stored, format_options)
        if options is not None:
            if plugin.options_differ(stored, format_options or {}):
                changed.append("options")
            row.options = options
            fields.append("options")
        row.save(update_fields=fields)
        audit_log(evening=row, action="evening.settings", user=user, device=device, changed=changed)
        evening_touch(evening=row)
    return row
