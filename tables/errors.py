"""The two kinds of error the rules can raise.

``RuleError`` is a mistake a host or a guest made and can fix: its message is plain words that
say what is wrong and what to do, fit to show on a page. ``InvariantBroken`` means the program
itself is wrong (a rule produced an impossible state); it is never shown as a form error.

The rules know guests only by id, so a ``RuleError`` that is about guests, tables or rounds
says so in structured fields, not only in its text::

    RuleError("{guest} is seated twice (at table {tables[0]} and again at table {tables[1]}).",
              guests=(17,), tables=(2, 5))

``str(error)`` is that sentence with ids ("Guest 17 is seated twice (at table 2 and again at
table 5)."), for logs and for the tests of ``tables/``. Where a message leaves for a person,
``tournament.services.naming.error_message`` renders the same template with the guests' names
("Ann Smith is seated twice ..."): names are put in once, from these fields, never by rewriting
the text.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tables.words import joined

GuestName = Callable[[int], str]
"""How a guest id is written in a message: ``id_words`` in logs, a name on a page."""


def id_words(guest: int) -> str:
    """A guest written by id, as logs and the tests of ``tables/`` read it: 17 -> "guest 17".

    The first letter of a message is capitalised when it is rendered, so a sentence that starts
    with a guest reads "Guest 17 ..."."""
    return f"guest {guest}"


@dataclass(frozen=True, slots=True)
class Subjects:
    """What a ``RuleError`` is about: guest ids, table numbers (1-based) and round numbers.

    Each is a tuple in the order the message template uses them (``{guests[1]}`` is the second
    guest). Empty when the message names none."""

    guests: tuple[int, ...] = ()
    tables: tuple[int, ...] = ()
    rounds: tuple[int, ...] = ()


class _Guest:
    """One guest in a template: ``{guest}`` or ``{guests[0]}``; written by ``name``."""

    __slots__ = ("guest", "name")

    def __init__(self, guest: int, name: GuestName) -> None:
        self.guest, self.name = guest, name

    def __format__(self, spec: str) -> str:
        return format(self.name(self.guest), spec)


class _Guests:
    """All the guests of a template: ``{guests}`` lists them ("Ann, Bob and Cleo"; with ids
    "guests 3, 4 and 5"), ``{guests[1]}`` is one of them."""

    __slots__ = ("guests", "name")

    def __init__(self, guests: tuple[int, ...], name: GuestName) -> None:
        self.guests, self.name = guests, name

    def __getitem__(self, index: int) -> _Guest:
        return _Guest(self.guests[index], self.name)

    def __len__(self) -> int:
        return len(self.guests)

    def __format__(self, spec: str) -> str:
        if self.name is id_words and len(self.guests) > 1:
            return "guests " + and_list([str(guest) for guest in self.guests])
        return and_list([self.name(guest) for guest in self.guests])


class GuestIds(tuple[int, ...]):
    """A list of guest ids given to ``RuleError`` as a named value (``there=GuestIds(seated)``):
    written like ``{guests}``, with names on a page and "guests 3 and 4" in logs; its ids are
    added to the error's ``subjects.guests``."""


class _Numbers(tuple[int, ...]):
    """Table or round numbers in a template: ``{tables}`` lists them ("2 and 5"), ``{tables[0]}``
    is one of them."""

    def __format__(self, spec: str) -> str:
        return and_list([str(number) for number in self])


def and_list(words: list[str]) -> str:
    """``["a"]`` -> "a", ``["a", "b"]`` -> "a and b", ``["a", "b", "c"]`` -> "a, b and c"
    (``tables.words.joined``, the one list-joining rule)."""
    return joined(words)


def fill(
    template: str,
    name: GuestName,
    *,
    guests: Iterable[int] = (),
    tables: Iterable[int] = (),
    rounds: Iterable[int] = (),
    **values: Any,
) -> str:
    """``template`` written out (``str.format``) with guests by ``name``, tables and rounds by
    number, as ``RuleError`` describes: ``{guest}``/``{table}``/``{round}`` the first of each,
    ``{guests[1]}`` a later one, ``{guests}`` all in words, ``GuestIds`` values as lists of
    guests, other ``{name}`` one of ``values``. The first letter is capitalised. Raises
    ``KeyError``/``IndexError`` for a field the template names but nobody gave (a bug)."""
    own = tuple(guests)
    listed = _Guests(own, name)
    numbers_of_tables, numbers_of_rounds = _Numbers(tables), _Numbers(rounds)
    fields: dict[str, Any] = {
        key: _Guests(tuple(value), name) if isinstance(value, GuestIds) else value for key, value in values.items()
    }
    fields |= {"guests": listed, "tables": numbers_of_tables, "rounds": numbers_of_rounds}
    if own:
        fields["guest"] = listed[0]
    if numbers_of_tables:
        fields["table"] = numbers_of_tables[0]
    if numbers_of_rounds:
        fields["round"] = numbers_of_rounds[0]
    text = string.Formatter().vformat(template, (), fields)
    return text[:1].upper() + text[1:]


class RuleError(ValueError):
    """Bad input that a person can fix; ``str(error)`` says what to fix, in plain words.

    ``template`` is the message. When ``guests``, ``tables``, ``rounds`` or other ``values`` are
    given it is a ``str.format`` template: ``{guest}``/``{table}``/``{round}`` are the first of
    each, ``{guests[1]}`` a later one, ``{guests}`` all of them as a list in words, and any
    other ``{name}`` one of ``values`` (so text a person typed is never read as a template).
    Without them the message is taken as it is. ``subjects`` holds the ids; ``render`` writes
    the message with any way of naming a guest (house rule: guests are named on every page,
    by id only in logs)."""

    def __init__(
        self,
        template: str = "",
        *,
        guests: Iterable[int] = (),
        tables: Iterable[int] = (),
        rounds: Iterable[int] = (),
        **values: Any,
    ) -> None:
        self.template = template
        self._guests = tuple(guests)
        listed = [guest for value in values.values() if isinstance(value, GuestIds) for guest in value]
        about = self._guests + tuple(dict.fromkeys(g for g in listed if g not in self._guests))
        self.subjects = Subjects(about, tuple(tables), tuple(rounds))
        self.values: Mapping[str, Any] = values
        super().__init__(self.render(id_words))

    def render(self, name: GuestName) -> str:
        """The message with each guest written by ``name`` (a guest id -> words), tables and
        rounds by number. Returns the template unchanged when it has no fields."""
        subjects = self.subjects
        if not (subjects.guests or subjects.tables or subjects.rounds or self.values):
            return self.template
        return fill(
            self.template, name, guests=self._guests, tables=subjects.tables, rounds=subjects.rounds, **self.values
        )


class InvariantBroken(AssertionError):
    """A rule produced an impossible state: a bug, never the user's fault."""
