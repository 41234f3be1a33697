"""Reading rule options from a mapping (a form, the evening's settings, JSON).

Each game keeps its rule variants in one frozen dataclass (``PokerOptions``,
``CommerceOptions``, ``ThirtyOneOptions``, ``ShipOptions``), as do the bell's and the prizes'
house rules (``BellOptions``, ``PrizeOptions``); this module builds one from a mapping and refuses option names the game does not have (house rule of the product: an
unknown option is an error, never silently ignored).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

from tables.errors import RuleError

T = TypeVar("T")


class UnknownOptionError(RuleError):
    """An option name a game does not have, or a value of the wrong kind."""


def options_from_mapping(cls: type[T], values: Mapping[str, Any] | None, game: str) -> T:
    """Build the options dataclass ``cls`` from ``values`` (option name -> value).

    Missing names take their defaults. Raises ``UnknownOptionError`` naming (in quotes, as
    stored) any key that is not an option of ``game``, or a yes/no option given something other
    than true/false; never in Python's own spelling (house rule: a host reads these, from an
    imported file or an old link).
    """
    given = dict(values or {})
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(given) - known)
    if unknown:
        shown = ", ".join(f"“{name}”" for name in unknown)
        raise UnknownOptionError(
            f"{shown} {'is not an option' if len(unknown) == 1 else 'are not options'} of {game} "
            "(its options are on the Rules page)."
        )
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name in given and f.type in ("bool", bool) and not isinstance(given[f.name], bool):
            raise UnknownOptionError(f"The option “{f.name}” of {game} is yes or no (true or false), nothing else.")
    return cls(**given)
