"""Guests by name in the rules' messages.

The pure rules in ``tables/`` know guests only by id, so their messages and bell entries say
"Guest 17 is named as the pool winner ..." or "missing guest(s) 3, 4". A host or a guest should
read names: ``name_guests`` rewrites those phrases with the evening's names, and
``named_error`` re-raises a ``RuleError`` with the rewritten message (same class, so callers
still tell a ``ResultError`` from another ``RuleError``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tables.errors import RuleError
from tournament.models import Evening

# "Guest 17", "guest 17's", "guests 3, 4", "guest(s) 3, 4", "guests there: 3, 4, 5".
_GUEST_IDS = re.compile(r"\b([Gg]uest(?:s|\(s\))?)( there:)? (\d+(?:, \d+)*)\b")


def guest_names(evening: Evening) -> dict[int, str]:
    """Guest id -> name for every guest registered for ``evening`` (one query)."""
    return dict(evening.guests.values_list("pk", "name"))


def name_guests(text: str, names: Mapping[int, str]) -> str:
    """``text`` with "guest 17" (and lists of ids) replaced by names from ``names``.

    "Guest 17 won" -> "Anne Smith won"; "missing guest(s) 3, 4" -> "missing Bob, Carl";
    "(guests there: 3, 4)" -> "(guests there: Bob, Carl)". An id not in ``names`` is left as it
    was, so nothing is ever hidden."""

    def swap(match: re.Match) -> str:
        ids = [int(part) for part in match.group(3).split(", ")]
        if not all(guest in names for guest in ids):
            return match.group(0)
        listed = ", ".join(names[guest] for guest in ids)
        if match.group(2):
            return f"{match.group(1)}{match.group(2)} {listed}"
        return listed

    return _GUEST_IDS.sub(swap, text)


def named_error(error: RuleError, names: Mapping[int, str]) -> RuleError:
    """A ``RuleError`` of the same class as ``error`` whose message names guests; raise it
    ``from error``. Subclasses that take other constructor arguments fall back to ``RuleError``."""
    message = name_guests(str(error), names)
    try:
        return type(error)(message)
    except TypeError:
        return RuleError(message)
