"""The rules page of a format at tables of four (``/rules/euchre/``, ``/rules/whist/``,
``/rules/bunco/``, and an evening's rules page when it plays one): the format's rules
(``templates/<key>/rules.html`` in the format's package, or the one of the format it builds on:
``FormatPlugin.template``), the host's options in words with the defaults, and the cases
the sources leave open as the product decides them (``docs/rules/tables-of-four.md``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tables.errors import RuleError
from tables.formats import FoursomeFormat, FoursomeOptions
from tournament.formats.partnership.state import foursome_rules
from tournament.models import Evening
from tournament.registry import format_named, installed_formats

MOVEMENT_WORDS = {
    "ladder": "Winners move up one table; the head table's winners stay; the losers stay, "
    "except the head table's, who go down to the foot table.",
    "ladder_down": "Winners move up one table; losers move down one table (the head table's to "
    "table 2; the foot table's losers stay).",
    "circle": "Winners move one table towards the head; the head table's winners go round to the "
    "foot table; the losers stay.",
}


def format_option_rows(fmt: FoursomeFormat, options: FoursomeOptions | None) -> list[dict[str, str]]:
    """The host's options for a format at tables of four, in words: label, meaning, the value
    (the evening's when ``options`` is given) and the default; the prizes by points only for a
    format that has them (``FoursomeFormat.prizes_by_points``: Euchre's)."""
    default = FoursomeOptions()

    def values(o: FoursomeOptions) -> tuple[str, ...]:
        return (
            MOVEMENT_WORDS[str(o.movement or fmt.movement)],
            "Every round" if (fmt.partners_change if o.partners_change is None else o.partners_change) else "Kept",
            "Played off" if o.ties == "playoff" else "Cut",
            "Cut" if o.prize_ties == "cut" else "Shared",
            "Total points" if o.prize_by_points else "Stars",
        )

    labels = (
        ("Movement", "Who moves where at the bell."),
        ("Partners change", "Whether the partnerships change at every bell or are kept."),
        ("A tie at a table", "Played off (one more hand, one more turn of the dice), or the two sides cut."),
        ("Tied prizes", "Two guests tied for a prize cut for it, or share it."),
        ("Euchre prizes by", "The prizes count stars (the books' way) or total points."),
    )
    shown = zip(labels, values(options or default), values(default), strict=True)
    return [
        {"label": label, "meaning": meaning, "value": value, "default": dflt}
        for (label, meaning), value, dflt in shown
        if label != "Euchre prizes by" or fmt.prizes_by_points
    ]


def rules_page(request: HttpRequest, fmt: FoursomeFormat, evening: Evening | None) -> HttpResponse:
    """A format at tables of four: its rules and the host's options (the evening's if it plays it)."""
    plays_it = evening is not None and evening.format == fmt.key
    options = None
    if evening is not None and plays_it:
        try:
            options = foursome_rules(evening)[1]
        except RuleError:
            plays_it = False  # a stored option the rules do not know: the defaults are shown
    context = {
        "fmt": fmt,
        "formats": [p.entry.foursome for p in installed_formats().values() if p.entry.foursome is not None],
        "fragment": format_named(fmt.key).template("rules"),
        "evening": evening,
        "plays_it": plays_it,
        "rows": format_option_rows(fmt, options),
    }
    return render(request, "partnership/rules_page.html", context)
