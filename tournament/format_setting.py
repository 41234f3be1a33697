"""The formats the setting installs, loaded once: what the models ask of them.

``settings.HEAD_TABLE_FORMATS`` lists the installed formats' plug-in classes by dotted path;
``loaded_formats`` makes each once per process. The models ask only a format's key, title,
evening fields and default round end (``InstalledFormat``), so they read them here, below the
plug-in interface (``tournament.plugin``) that names the models: the drawn tree keeps no circle.
Everything else asks ``tournament.registry.format_for``, which hands out the same objects as
``FormatPlugin``.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from tables.errors import RuleError


class InstalledFormat(Protocol):
    """What the models read of an installed format (``tournament.plugin.FormatPlugin`` has
    all of it): its stored ``key``, its ``title`` in the host's words, the evening form's
    fields that are its own (``evening_fields``), the round end a new evening takes
    (``default_round_end``: "clock" or "head_pool") and the table games it offers
    (``table_games``: stored value, name)."""

    key: ClassVar[str]
    evening_fields: ClassVar[tuple[str, ...]]
    default_round_end: ClassVar[str]
    table_games: ClassVar[tuple[tuple[str, str], ...]]

    @property
    def title(self) -> str: ...


@cache
def loaded_formats() -> dict[str, InstalledFormat]:
    """Every installed format's plug-in by its key, in the settings' order (each made once per
    process). Raises ``ImproperlyConfigured`` (Django's) for a path that does not import and
    ``ValueError`` for two plug-ins with one key: a site set up wrongly, not a host's mistake."""
    made: dict[str, InstalledFormat] = {}
    for path in settings.HEAD_TABLE_FORMATS:
        plugin = import_string(path)()
        if plugin.key in made:
            raise ValueError(f"HEAD_TABLE_FORMATS lists two formats with the key {plugin.key!r}.")
        made[plugin.key] = plugin
    return made


def installed_named(key: str) -> InstalledFormat:
    """The installed format stored as ``key``; raises ``RuleError`` naming the formats this
    site plays for any other key (a stored or imported evening of a format not installed)."""
    try:
        return loaded_formats()[key]
    except KeyError:
        titles = ", ".join(p.title for p in loaded_formats().values())
        raise RuleError(f"“{key}” is not a format this site plays: it plays {titles}.") from None


def format_choices() -> list[tuple[str, str]]:
    """(key, title) for every installed format, the default first: the evening form's choices."""
    return [(key, plugin.title) for key, plugin in loaded_formats().items()]


def default_format() -> str:
    """The key of the format a new evening plays unless the host chooses another."""
    return next(iter(loaded_formats()))


def game_choices() -> list[tuple[str, str]]:
    """(stored value, name) of every table game an installed format offers, each once, in the
    settings' order: ``Evening.game``'s choices (Progressive Poker's Draw Poker and seed games)."""
    seen: dict[str, str] = {}
    for plugin in loaded_formats().values():
        for value, name in plugin.table_games:
            seen.setdefault(value, name)
    return list(seen.items())


def default_game() -> str:
    """The table game a new evening plays unless the host chooses another: the default format's
    first, or "" when it offers none."""
    games = next(iter(loaded_formats().values())).table_games
    return games[0][0] if games else ""
