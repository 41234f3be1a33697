"""The rules pages of each seed game, the evening's rules, and the host's game page.

* ``/rules/<game>/``: one game's rules (the fragment in ``templates/rules/<game>.html``) and
  every option it has, with the defaults, or with the evening's values when reached with
  ``?evening=<public key>``. The formats at tables of four (``/rules/euchre/``, ``/rules/whist/``,
  ``/rules/bunco/``: the host's board links there) have their own page: the format's rules, the
  host's options in words, and the cases the sources leave open as the product decides them.
* ``/e/<public key>/rules/``: the whole rules page headed by what this evening plays: its game
  and every option in force.
* ``/host/e/<id>/game/``: the host picks the table game and its options (checked by the
  game's options class; an unknown option is refused by name).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from tables.errors import RuleError
from tables.formats import FORMATS, FoursomeFormat, FoursomeOptions
from tables.showdown import Game
from tournament.forms.actions import EveningLinkQuery, GameChoiceForm, form_problems
from tournament.forms.game import option_rows, options_from_post, options_summary
from tournament.models import Evening
from tournament.services.foursomes import foursome_rules
from tournament.services.games import evening_game, evening_game_set

MOVEMENT_WORDS = {
    "ladder": "Winners move up one table; the head table's winners stay; the losers stay, "
    "except the head table's, who go down to the foot table.",
    "ladder_down": "Winners move up one table; losers move down one table (the head table's to "
    "table 2; the foot table's losers stay).",
    "circle": "Winners move one table towards the head; the head table's winners go round to the "
    "foot table; the losers stay.",
}


def _game_or_404(value: str) -> Game:
    try:
        return Game.parse(value)
    except RuleError:
        raise Http404("No such game.") from None


def format_option_rows(fmt: FoursomeFormat, options: FoursomeOptions | None) -> list[dict[str, str]]:
    """The host's options for a format at tables of four, in words: label, meaning, the value
    (the evening's when ``options`` is given) and the default."""
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
        if label != "Euchre prizes by" or fmt.key == "euchre"
    ]


def _format_page(request: HttpRequest, fmt: FoursomeFormat, evening: Evening | None) -> HttpResponse:
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
        "formats": list(FORMATS.values()),
        "games": list(Game),
        "fragment": f"rules/{fmt.key}.html",
        "evening": evening,
        "plays_it": plays_it,
        "rows": format_option_rows(fmt, options),
    }
    return render(request, "rulebook/format.html", context)


def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    """One game's rules and options (the evening's values with ``?evening=<public key>``); a
    format at tables of four has its own page (``_format_page``)."""
    chosen = None if game in FORMATS else _game_or_404(game)
    evening = None
    options = None
    query = EveningLinkQuery(request.GET)
    if not query.is_valid():
        raise Http404("No such evening.")
    if query.cleaned_data["evening"]:
        evening = get_object_or_404(Evening, public_key=query.cleaned_data["evening"])
    if chosen is None:
        return _format_page(request, FORMATS[game], evening)
    if evening is not None:
        setting = evening_game(evening)
        if setting.game is chosen:
            options = setting.options
    return render(
        request,
        "rulebook/game.html",
        {
            "game": chosen,
            "games": list(Game),
            "fragment": f"rules/{chosen.value}.html",
            "evening": evening,
            "plays_it": options is not None,
            "rows": option_rows(chosen, options),
        },
    )


def rules_evening(request: HttpRequest, public_key: str) -> HttpResponse:
    """The rules page headed by this evening's game and every option in force; an evening at
    tables of four shows its format's page with the evening's options (``_format_page``)."""
    evening = get_object_or_404(Evening, public_key=public_key)
    if evening.format in FORMATS:
        return _format_page(request, FORMATS[evening.format], evening)
    setting = evening_game(evening)
    return render(
        request,
        "rulebook/evening.html",
        {
            "evening": evening,
            "setting": setting,
            "rows": option_rows(setting.game, setting.options),
            "summary": options_summary(setting.game, setting.options),
            "games": list(Game),
        },
    )


@login_required
def host_game(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Pick the evening's table game and its options (Progressive Poker's; an evening at tables
    of four goes to its settings, where its format's options are, with a message saying so)."""
    evening = get_object_or_404(Evening, pk=evening_id, host=request.user)
    if evening.format in FORMATS:
        messages.info(
            request,
            f"The table game is Progressive Poker's choice; this evening plays {FORMATS[evening.format].title}, "
            "whose options are here.",
        )
        return redirect("host-evening-edit", evening.pk)
    setting = evening_game(evening)
    chosen, error = setting.game, ""
    if request.method == "POST":
        form = GameChoiceForm(request.POST)
        try:
            if not form.is_valid():
                raise RuleError(" ".join(form_problems(form)))
            chosen = Game.parse(form.cleaned_data["game"])
            evening_game_set(
                evening=evening,
                game=chosen,
                options=options_from_post(chosen, request.POST),
                user=request.user,
                device=request.META.get("HTTP_USER_AGENT", "")[:200],
            )
        except RuleError as problem:
            error = str(problem)
        else:
            messages.success(request, f"The tables play {chosen.title} ({options_summary(*_now(evening))}).")
            return redirect("host-evening", evening.pk)
    games = [
        {"game": g, "rows": option_rows(g, setting.options if g is setting.game else None), "checked": g is chosen}
        for g in Game
    ]
    return render(
        request, "rulebook/host_game.html", {"evening": evening, "games": games, "error": error, "setting": setting}
    )


def _now(evening: Evening):
    setting = evening_game(evening)
    return setting.game, setting.options
