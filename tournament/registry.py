"""The registry of formats: which formats this site plays, loaded once from the settings.

``settings.HEAD_TABLE_FORMATS`` lists the installed formats' plug-in classes by dotted path
(``"tournament.formats.bunco.BuncoFormat"``), as Django's ``DATABASES`` names a backend; the
first is the default for a new evening. ``format_for(evening)`` is how every view, service,
selector, document and command asks the evening's format (``tournament.plugin.FormatPlugin``);
nothing outside a format's own package asks which format it is. Adding a format is a package
with its plug-in class and one line in that setting (``docs/architecture.md``, "Add a format").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from tournament.format_setting import default_format, format_choices, installed_named, loaded_formats

if TYPE_CHECKING:
    from tournament.plugin import FormatPlugin

__all__ = ["default_format", "format_choices", "format_for", "format_named", "installed_formats"]


class PlaysAFormat(Protocol):
    """What ``format_for`` reads of an evening (``tournament.models.Evening``): the key of the
    format it plays, as stored (``Evening.format``). Named here, not imported: the registry
    stays below the models in the drawn tree."""

    @property
    def format(self) -> str: ...


def installed_formats() -> dict[str, FormatPlugin]:
    """Every installed format's plug-in by its key, in the settings' order (each made once per
    process, by ``tournament.format_setting.loaded_formats``). Raises ``ImproperlyConfigured``
    (Django's) for a path that does not import and ``ValueError`` for two plug-ins with one
    key: a site set up wrongly, not a host's mistake."""
    return cast("dict[str, FormatPlugin]", loaded_formats())


def format_named(key: str) -> FormatPlugin:
    """The installed format stored as ``key``; raises ``RuleError`` naming the formats this
    site plays for any other key (a stored or imported evening of a format not installed)."""
    return cast("FormatPlugin", installed_named(key))


def format_for(evening: PlaysAFormat) -> FormatPlugin:
    """The evening's format (``Evening.format``). No query. Raises ``RuleError`` as
    ``format_named``."""
    return format_named(evening.format)
