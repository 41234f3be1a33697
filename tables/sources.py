"""Where the rules come from, in the words a host or a guest reads on the site.

Every rule text the product was built from (the three seed texts and a summary of the
rest of Progressive Poker, told in the project's words in ``docs/rules/``) comes from
one book: R. F. Foster's *Foster's Complete Hoyle, an Encyclopedia of Games* (revised edition
of 1909; first published 1897). Pages cite the book and the game's section, never a file name;
the docstrings in ``tables/`` cite the ``docs/rules/`` pages for developers.

``BOOK`` is the book; each section constant is the citation a page shows.
"""

from __future__ import annotations

BOOK = "Foster's Complete Hoyle (R. F. Foster, 1909)"
"""The book every rule text comes from, as the pages cite it."""

PROGRESSIVE_POKER = f"{BOOK}, “Progressive Poker”"
WHISKEY_POKER = f"{BOOK}, “Whiskey Poker”"
MISTIGRIS = f"{BOOK}, “Mistigris”"
THE_TIGER = f"{BOOK}, “The Tiger”"
COMMERCE = f"{BOOK}, “Commerce”"
MY_SHIP_SAILS = f"{BOOK}, “My Ship Sails”"
THIRTY_ONE = f"{BOOK}, “Thirty-One”"

OLD_NAMES = {
    "seeds/README.md (Progressive Poker)": PROGRESSIVE_POKER,
    "000_8fd897c0e7bb035c.txt": f"{BOOK}, “Whiskey Poker”, “Mistigris” and “The Tiger”",
    "003_88db352551cf95c8.txt": f"{BOOK}, “Commerce” and “My Ship Sails”",
    "004_5d1bc750ac89c154.txt": f"{BOOK}, “Whiskey Poker”, “Thirty-One” and “Progressive Poker”",
}
"""The file names earlier versions stored as a rule's source (in bells already rung), in words."""


def source_in_words(source: str) -> str:
    """``source`` as a reader sees it: a citation stays as it is; a file name stored by an
    earlier version becomes the book and section it stands for."""
    return OLD_NAMES.get(source, source)
