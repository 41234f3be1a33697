"""Whole numbers as a person types them: the digits 0 to 9 only, within what a database column
holds (issue 12 item 1). Python's ``int()`` reads any Unicode decimal digit ("٣" is 3) and
``str.isdigit()`` is true for "²" and "①": a number typed into Head Table (on a form, a score
sheet or a terminal) is read by ``ascii_whole_number`` instead. The forms' fields
(``tournament.forms.fields``) and the services that read a number from text both use it."""

from __future__ import annotations

import re

ID_MAX = 2**63 - 1  # the largest id a database row can have (a signed 64-bit integer)
_WHOLE = re.compile(r"[+-]?[0-9]{1,19}")


def ascii_whole_number(value) -> int | None:
    """``value`` (text or int) as an int when it is a whole number written in the digits 0 to 9
    (an optional sign, spaces around ignored) within a signed 64-bit integer; None otherwise
    (``"²"``, ``"٣"``, ``"①"``, ``"3.0"``, ``"9223372036854775808"``, a bool)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if not _WHOLE.fullmatch(text):
            return None
        number = int(text)
    return number if -ID_MAX - 1 <= number <= ID_MAX else None
