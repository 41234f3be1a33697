"""The one rule a guest's name meets wherever it comes in: it must print.

House rule (issue 13 item 2): a name is taken when every character in it prints in one of the
printing fonts (``tournament.printing.fonts``: Noto for every script a guest list may hold,
and Noto Emoji in black and white, so "🎲" is a name). It is refused, with the reason, when
nothing printable is left (only spaces, control or formatting characters) or when it holds a
character no printing font has (Egyptian hieroglyphs, say): such a name would print as
nothing. The same rule runs at print time (``printing.text.name_problem``): a name stored
before this rule prints as "Guest no. N" and the print page lists it with a link to fix it.

Every way a name comes in goes through ``validate_printable_name``: the model field's
validators (so ``full_clean``: the JSON import) and ``clean_name`` (the host's
add form, the pasted list and the CSV upload, self-registration at the door, the
``evening_create`` command, renaming a guest).
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError

from tables.errors import RuleError
from tournament.name_keys import normal_name
from tournament.printing.text import name_problem, normalise

MAX_NAME = 120  # characters, the longest name a guest may have (the model's max_length)


def unprintable_reason(name: str) -> str | None:
    """Why ``name`` cannot be a guest's name, as one sentence for the host, or None when it
    can (see the module docstring)."""
    problem = name_problem(name)
    if problem is None:
        return None
    shown = normalise(name)
    who = f"The name “{shown}”" if shown.strip() else "The name"
    return f"{who} cannot be printed: {problem}. Write the guest's name in letters of any script (emoji are fine)."


MARKUP = "A name cannot hold < or >: write it as plain text."


def validate_printable_name(value: str) -> None:
    """Django validator for a guest's name, the model field's, so every way a name comes in
    (the forms through ``clean_name``, the JSON import and the admin through ``full_clean``)
    refuses the same names: raises ``ValidationError`` (code "markup") for ``<`` or ``>``
    (house rule: a name is plain text; found by trying the product: an import took
    "<b>Evil</b>", which the guest form refuses), (code "unprintable") with
    ``unprintable_reason`` when the name cannot be printed; returns None otherwise."""
    if "<" in value or ">" in value:
        raise ValidationError(MARKUP, code="markup")
    reason = unprintable_reason(value)
    if reason:
        raise ValidationError(reason, code="unprintable")


def clean_name(raw: str) -> str:
    """A guest's name as stored: control and format characters removed (not the zero width
    joiner and non-joiner, which some scripts spell with), line breaks and tabs made spaces
    (a name cut over two lines in a quoted CSV cell), spaces collapsed, in Unicode NFC
    (``tournament.name_keys.normal_name``: "Zoë" typed with e + U+0308 is stored composed).

    Raises ``RuleError`` when nothing is left, when it is longer than 120 characters, when it
    holds markup (``<`` or ``>``), or when it cannot be printed
    (``tournament.names.validate_printable_name``: the one rule every way in applies).
    """
    text = "".join(
        ch for ch in (raw or "") if unicodedata.category(ch) not in ("Cc", "Cf") or ch in " \t\n\r\u200c\u200d"
    )
    text = normal_name(text)
    if not text.replace("\u200c", "").replace("\u200d", ""):
        raise RuleError("The name is empty: write the guest's name.")
    if len(text) > MAX_NAME:
        raise RuleError(f"The name is {len(text)} characters long: shorten it to {MAX_NAME} or fewer.")
    if "<" in text or ">" in text:
        raise RuleError(MARKUP)
    reason = unprintable_reason(text)
    if reason:
        raise RuleError(reason)
    return text
