"""``{% pack_mark pack evening %}``: a guest's pack as a coloured mark with a letter, so the pack
never rests on colour alone (issue 11: a pack is shown by a letter as well as its colour).

The letter is the first letter of the host's label for that pack ("R" for "Red pack"); when both
labels start with the same letter, "R" and "B". Screen readers hear the label ("Red pack"); with
``hidden=True`` (the label is written next to it) the mark is hidden from them.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


def pack_letters(evening) -> dict[str, str]:
    """{"red": letter, "blue": letter} for an evening (see the module docstring)."""
    if not evening:  # a template without the evening (Django passes "" for a missing variable)
        return {"red": "R", "blue": "B"}
    red = (evening.red_label.strip()[:1] or "R").upper()
    blue = (evening.blue_label.strip()[:1] or "B").upper()
    return {"red": "R", "blue": "B"} if red == blue else {"red": red, "blue": blue}


@register.simple_tag
def pack_mark(pack: str, evening=None, hidden: bool = False) -> str:
    """The mark for ``pack`` ("red" or "blue") on ``evening``'s labels; safe HTML."""
    pack = "blue" if str(pack) == "blue" else "red"
    letter = pack_letters(evening)[pack]
    label = evening.pack_label(pack) if evening else f"{pack.title()} pack"
    if hidden:
        return format_html('<span class="pack {}" aria-hidden="true">{}</span>', pack, letter)
    return format_html(
        '<span class="pack {}" role="img" aria-label="{}" title="{}">{}</span>', pack, label, label, letter
    )
