"""Progressive Poker's pages of the game at the tables (its own pages, ``PokerFormat.pages`` and
its rules pages): the rules of each seed game, the evening's rules, and the host's game page.

* a seed game's rules (``/rules/<game>/``, ``PokerFormat.game_rules_page``): the game's rules
  (the fragment in ``templates/rules/<game>.html``) and every option it has, with the defaults,
  or with the evening's values when reached with ``?evening=<public key>``;
* the evening's rules (``/e/<public key>/rules/``, ``PokerFormat.evening_rules_page``): the whole
  rules page headed by the evening's game and every option in force;
* the host's game page (``/host/e/<id>/game/``, the page "game"): the host picks the table
  game and its options (checked by the game's options class; an unknown option is refused by
  name).

Sources: ``docs/rules/progressive-poker.md`` and each game's page in ``docs/rules/``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tables.errors import RuleError
from tables.formats.poker.showdown import Game
from tournament.formats.poker.game_forms import GameChoiceForm, option_rows, options_from_post, options_summary
from tournament.formats.poker.games import evening_game, evening_game_set
from tournament.forms.actions import form_problems
from tournament.models import Evening


def game_rules_page(request: HttpRequest, game: str, evening: Evening | None) -> HttpResponse | None:
    """One seed game's rules and options (``evening``'s values when it plays that game), or
    None when ``game`` names no seed game (the product's page answers 404)."""
    try:
        chosen = Game.parse(game)
    except RuleError:
        return None
    options = None
    if evening is not None:
        setting = evening_game(evening)
        if setting.game is chosen:
            options = setting.options
    return render(
        request,
        "poker/game_rules.html",
        {
            "game": chosen,
            "games": list(Game),
            "fragment": f"rules/{chosen.value}.html",
            "evening": evening,
            "plays_it": options is not None,
            "rows": option_rows(chosen, options),
        },
    )


def evening_rules_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """The rules page headed by ``evening``'s game and every option in force."""
    setting = evening_game(evening)
    return render(
        request,
        "poker/evening_rules.html",
        {
            "evening": evening,
            "setting": setting,
            "rows": option_rows(setting.game, setting.options),
            "summary": options_summary(setting.game, setting.options),
            "games": list(Game),
        },
    )


def host_game_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """Pick ``evening``'s table game and its options (the host's own evening, found by the
    product's ``views.rules.host_game``): a refused choice is shown again with the reason and
    saves nothing; a saved one goes back to the evening's page, saying what the tables play."""
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
            now = evening_game(evening)
            messages.success(request, f"The tables play {chosen.title} ({options_summary(now.game, now.options)}).")
            return redirect("host-evening", evening.pk)
    games = [
        {"game": g, "rows": option_rows(g, setting.options if g is setting.game else None), "checked": g is chosen}
        for g in Game
    ]
    return render(
        request, "poker/host_game.html", {"evening": evening, "games": games, "error": error, "setting": setting}
    )
