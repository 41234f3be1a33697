"""Guests by name in the rules' messages.

The pure rules in ``tables/`` know guests only by id, so their messages and bell entries say
"Guest 17 is named as the pool winner ...". A host or a guest should read names.

A ``RuleError`` says which guests it is about in ``error.subjects`` and keeps its message as a
template (``tables.errors``): ``error_message`` writes it with the evening's names. It is the one
place names go into an error's message, called wherever a message leaves for a person (views,
commands, printed documents); services raise the rules' errors unchanged.

``name_guests`` still rewrites the bell's entries and warnings, which are stored as text with
ids in a bell's record (not errors).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tables.errors import GuestName, RuleError, id_words
from tables.formats.foursome import ghost_name, is_ghost
from tables.words import joined
from tournament.models import Evening

# "Guest 17", "guest 17's", "guests 3, 4", "guest(s) 3, 4", "guests there: 3, 4, 5".
_GUEST_IDS = re.compile(r"\b([Gg]uest(?:s|\(s\))?)( there:)? (\d+(?:, \d+)*(?: and \d+)?)\b")


def error_message(error: RuleError, evening: Evening | None = None, names: Mapping[int, str] | None = None) -> str:
    """The message of ``error`` for a person: its guests written by their names in ``evening``
    (or in ``names``, guest id -> name, when the caller has them already), tables and rounds
    by number. "Guest 17 is seated twice" -> "Ann Smith is seated twice"; a ghost is "Ghost 1".
    A guest id not in the evening stays "guest 17", so nothing is hidden. One query when ``names`` is not given
    and the error names a guest; none otherwise. Raises nothing."""
    if not error.subjects.guests:
        return str(error)
    return error.render(namer(names if names is not None else guest_names(evening) if evening is not None else {}))


def namer(names: Mapping[int, str]) -> GuestName:
    """How a page writes a guest: their name from ``names`` (guest id -> name), a ghost (a
    negative id, at tables of four) by its name ("Ghost 1", ``tables.formats.foursome``), or
    "guest 17" for an id not there, so nothing is hidden."""

    def name(guest: int) -> str:
        return names.get(guest) or (ghost_name(guest) if is_ghost(guest) else id_words(guest))

    return name


def guest_names(evening: Evening) -> dict[int, str]:
    """Guest id -> name for every guest registered for ``evening`` (one query)."""
    return dict(evening.guests.values_list("pk", "name"))


def name_guests(text: str, names: Mapping[int, str]) -> str:
    """``text`` with "guest 17" (and lists of ids) replaced by names from ``names``.

    "Guest 17 won" -> "Anne Smith won"; "missing guest(s) 3, 4 and 5" -> "missing Bob, Carl and
    Dee" (``tables.words.joined``); "(guests there: 3, 4)" -> "(guests there: Bob and Carl)". An id not in ``names`` is left as it
    was, so nothing is ever hidden."""

    def swap(match: re.Match) -> str:
        ids = [int(part) for part in re.split(r", | and ", match.group(3))]
        if not all(guest in names for guest in ids):
            return match.group(0)
        listed = joined(names[guest] for guest in ids)
        if match.group(2):
            return f"{match.group(1)}{match.group(2)} {listed}"
        return listed

    return _GUEST_IDS.sub(swap, text)
