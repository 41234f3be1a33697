"""``{{ count|counted:"round" }}``: a count and its word by the site's one rule for plurals
(``tables.words.counted``: "1 round", "3 rounds"; ``"person,people"`` names an irregular
plural), so no page writes "1 rounds" (issue 24 item 8)."""

from __future__ import annotations

from django import template

from tables.words import counted as counted_words

register = template.Library()


@register.filter
def counted(count: object, word: str) -> str:
    """The count and its word: ``3|counted:"round"`` is "3 rounds", ``1|counted:"round"`` "1
    round"; ``word`` may be "singular,plural". A count that is not a whole number is shown as
    it is with the plural."""
    one, _, many = word.partition(",")
    try:
        number = int(str(count))
    except ValueError:
        return f"{count} {many or one + 's'}"
    return counted_words(number, one, many)
