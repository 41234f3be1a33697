"""The registry of formats: which formats this site plays, loaded once from the settings.

``settings.HEAD_TABLE_FORMATS`` lists the installed formats' plug-in classes by dotted path
(``"tournament.formats.bunco.BuncoFormat"``), as Django's ``DATABASES`` names a backend; the
first is the default for a new evening. ``format_for(evening)`` is how every view, service,
selector, document and command asks the evening's format (``tournament.plugin.FormatPlugin``);
nothing outside a format's own package asks which format it is. Adding a format is a package
with its plug-in class and one line in that setting (``docs/architecture.md``, "Add a format").
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.module_loading import import_string

from tables.errors import RuleError

if TYPE_CHECKING:
    from tournament.models import Evening
    from tournament.plugin import FormatPlugin


@cache
def installed_formats() -> dict[str, FormatPlugin]:
    """Every installed format's plug-in by its key, in the settings' order (each made once per
    process). Raises ``ImproperlyConfigured`` (Django's) for a path that does not import and
    ``ValueError`` for two plug-ins with one key: a site set up wrongly, not a host's mistake."""
    made: dict[str, FormatPlugin] = {}
    for path in settings.HEAD_TABLE_FORMATS:
        plugin = import_string(path)()
        if plugin.key in made:
            raise ValueError(f"HEAD_TABLE_FORMATS lists two formats with the key {plugin.key!r}.")
        made[plugin.key] = plugin
    return made


def format_named(key: str) -> FormatPlugin:
    """The installed format stored as ``key``; raises ``RuleError`` naming the formats this
    site plays for any other key (a stored or imported evening of a format not installed)."""
    try:
        return installed_formats()[key]
    except KeyError:
        titles = ", ".join(p.title for p in installed_formats().values())
        raise RuleError(f"“{key}” is not a format this site plays: it plays {titles}.") from None


def format_for(evening: Evening) -> FormatPlugin:
    """The evening's format (``Evening.format``). No query. Raises ``RuleError`` as
    ``format_named``."""
    return format_named(evening.format)


def format_choices() -> list[tuple[str, str]]:
    """(key, title) for every installed format, the default first: the evening form's choices."""
    return [(key, plugin.title) for key, plugin in installed_formats().items()]


def default_format() -> str:
    """The key of the format a new evening plays unless the host chooses another."""
    return next(iter(installed_formats()))
