"""Progressive Poker's table game of the evening and its options: reading them, and the host setting them.

The game is stored in ``Evening.game`` (a ``tables.formats.poker.showdown.Game`` value) and its options in
``Evening.options["game"]`` (option name -> True/False), next to the bell's and the prizes' own
options, which are left alone here. The options are checked by the game's options dataclass
(``PokerOptions``, ``CommerceOptions``, ``ThirtyOneOptions``, ``ShipOptions``): an unknown name
is refused (house rule of the product: an unknown option is an error, never ignored).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from django.db import transaction

from tables.errors import RuleError
from tables.formats.poker.showdown import Game, GameOptions, options_for
from tournament.models import Evening
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening
from tournament.services.versions import evening_touch


@dataclass(frozen=True)
class EveningGame:
    """The game an evening plays and its options, as the showdown helper uses them.

    ``problem`` is empty, or says why the stored options could not be used (for instance the
    host changed the game on the evening's form and the old game's options no longer fit): the
    game's default options are used then, and pages show the problem to the host.
    """

    game: Game
    options: GameOptions
    problem: str = ""


def evening_game(evening: Evening) -> EveningGame:
    """The evening's game and options, read from the evening row (no query).

    Never raises: stored options that do not fit the game give the defaults and a ``problem``.
    """
    try:
        game = Game.parse(evening.game or Game.DRAW_POKER)
    except RuleError as error:
        return EveningGame(Game.DRAW_POKER, options_for(Game.DRAW_POKER), str(error))
    stored = (evening.options or {}).get("game") or {}
    try:
        if not isinstance(stored, Mapping):
            raise RuleError("The stored game options are not a list of named options.")
        return EveningGame(game, options_for(game, stored))
    except RuleError as error:
        return EveningGame(
            game,
            options_for(game),
            f"The stored options do not fit {game.title} ({error}) The defaults are used until the host sets them again.",
        )


def evening_game_set(
    *, evening: Evening, game: str | Game, options: Mapping[str, Any], user=None, device: str = ""
) -> Evening:
    """Set the evening's table game and its options; returns the evening (reloaded).

    ``options`` maps option names to True/False for that game; names it leaves out take their
    defaults, and only the options that differ from the defaults are stored. Raises
    ``RuleError`` for an unknown game, an unknown option name, or a value that is not yes/no;
    nothing is saved then. Other keys of ``Evening.options`` (the bell's, the prizes') are kept.
    """
    chosen = Game.parse(game)
    checked = options_for(chosen, dict(options))
    defaults = options_for(chosen)
    stored = {
        f.name: getattr(checked, f.name)
        for f in fields(checked)
        if getattr(checked, f.name) != getattr(defaults, f.name)
    }
    with transaction.atomic():
        row = lock_evening(evening.pk)
        before = {"game": row.game, "options": (row.options or {}).get("game", {})}
        row.game = chosen.value
        row.options = {**(row.options or {}), "game": stored}
        row.save(update_fields=["game", "options"])
        audit_log(
            evening=row,
            action="game.set",
            user=user,
            device=device,
            before=before,
            after={"game": chosen.value, "options": stored},
        )
        evening_touch(evening=row)
    evening.refresh_from_db()
    return evening
