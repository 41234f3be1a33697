"""Counted words in the site's English: one rule for "1 round", "2 rounds", "table 4",
"tables 3 and 4" wherever a count or a list of numbers is written (issue 24 item 8: "1 rounds",
"table(s) 4"). Plain Python, no Django; the templates reach it through ``word_tags``."""

from __future__ import annotations

from collections.abc import Iterable

# The plurals that do not add "s" (house rule: the words the pages count).
IRREGULAR = {"person": "people", "pack": "packs", "is": "are", "was": "were", "has": "have"}


def plural(count: int, word: str, words: str = "") -> str:
    """``word`` for a ``count`` of 1 (or -1), else its plural: ``words`` when given, else the
    irregular plural of ``IRREGULAR`` or ``word`` + "s". ``plural(1, "round")`` is "round",
    ``plural(0, "table")`` "tables", ``plural(2, "was")`` "were"."""
    if abs(count) == 1:
        return word
    return words or IRREGULAR.get(word, word + "s")


def counted(count: int, word: str, words: str = "") -> str:
    """The count and its word: ``counted(1, "round")`` is "1 round", ``counted(3, "round")``
    "3 rounds", ``counted(0, "guest")`` "0 guests"."""
    return f"{count} {plural(count, word, words)}"


def joined(words: Iterable[object]) -> str:
    """Words as English lists them, every one kept (a hand's "seven, seven and two"): "a",
    "a and b", "a, b and c"; "" for none. The one list-joining rule of the site's words (house
    rule: no "A and B and C", no Oxford comma); ``listed`` for names and numbers each once."""
    items = [str(w) for w in words]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def listed(numbers: Iterable[object]) -> str:
    """Numbers or names in words, each once in the order first given: "4", "3 and 4",
    "2, 3 and 4"; "" for none (``joined``)."""
    return joined(dict.fromkeys(str(n) for n in numbers))


def once(lines: Iterable[str]) -> tuple[str, ...]:
    """``lines`` (warnings, messages) each said once, in the order first given: a line repeated
    word for word (two busts' "nobody at the booby table can change seats" for one guest, a
    warning of a bell played again) is said once."""
    return tuple(dict.fromkeys(lines))


def numbered(word: str, numbers: Iterable[object], words: str = "") -> str:
    """A word with the numbers it names, in the singular for one: ``numbered("table", [4])`` is
    "table 4", ``numbered("table", [3, 4])`` "tables 3 and 4", ``numbered("round", [2, 2])``
    "round 2" (a number named twice counts once)."""
    items = list(dict.fromkeys(str(n) for n in numbers))
    return f"{plural(len(items), word, words)} {listed(items)}"


# What a prize nobody won says wherever prizes are listed: the room display's summary, the host's
# standings and ceremony pages, the results PDF (house rule, issue 24 item 8).
NOT_AWARDED = "Not awarded"
