"""The one rule a guest's name meets wherever it comes in: it must print.

House rule (issue 13 item 2): a name is taken when every character in it prints in one of the
printing fonts (``tournament.printing.fonts``: Noto for every script a guest list may hold,
and Noto Emoji in black and white, so "🎲" is a name). It is refused, with the reason, when
nothing printable is left (only spaces, control or formatting characters) or when it holds a
character no printing font has (Egyptian hieroglyphs, say): such a name would print as
nothing. The same rule runs at print time (``printing.text.name_problem``): a name stored
before this rule prints as "Guest no. N" and the print page lists it with a link to fix it.

Every way a name comes in goes through ``validate_printable_name``: the model field's
validators (so ``full_clean``: the JSON import) and ``services.guests.clean_name`` (the host's
add form, the pasted list and the CSV upload, self-registration at the door, the
``evening_create`` command, renaming a guest).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from tournament.printing.text import name_problem, normalise


def unprintable_reason(name: str) -> str | None:
    """Why ``name`` cannot be a guest's name, as one sentence for the host, or None when it
    can (see the module docstring)."""
    problem = name_problem(name)
    if problem is None:
        return None
    shown = normalise(name)
    who = f"The name “{shown}”" if shown.strip() else "The name"
    return f"{who} cannot be printed: {problem}. Write the guest's name in letters of any script (emoji are fine)."


def validate_printable_name(value: str) -> None:
    """Django validator for a guest's name: raises ``ValidationError`` (code "unprintable")
    with ``unprintable_reason`` when the name cannot be printed; returns None otherwise."""
    reason = unprintable_reason(value)
    if reason:
        raise ValidationError(reason, code="unprintable")
