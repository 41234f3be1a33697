"""The family of progressive parties, one entry a format: what ``tournament/`` asks of any format.

A host chooses the evening's format when creating it (``/shared/formats.md``): Progressive
Poker (the seeds; Foster), Progressive Euchre, Drive Whist or Bunco. Every format shares the
two-pack draw, the head table's bell, movement between tables and prizes; ``FormatEntry`` says
how this one seats its tables, what each guest's tallies are and where its rules come from, and
for the formats at tables of four it carries the ``FoursomeFormat`` whose draw
(``tables.formats.foursome.draw_foursomes``), bell (``tables.formats.bell.ring_foursome_bell``)
and prizes (``tables.formats.prizes.award_foursome_prizes``) the services call. Progressive
Poker's draw, bell and prizes are ``tables.draw``, ``tables.bell`` and ``tables.prizes``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.errors import RuleError
from tables.formats import BUNCO, EUCHRE, WHIST, FoursomeFormat
from tables.sources import PROGRESSIVE_POKER


@dataclass(frozen=True, slots=True)
class FormatEntry:
    """One format of the family.

    ``key``: what ``Evening.format`` stores ("poker", "euchre", "whist", "bunco"); ``title``;
    ``seating``: the table plan in words; ``partners``: whether players sit as partnerships;
    ``tallies``: (tally name, words) as the standings show them; ``source``: the rules' book;
    ``foursome``: the rules of a format played at tables of four (None for Progressive Poker).
    """

    key: str
    title: str
    seating: str
    partners: bool
    tallies: tuple[tuple[str, str], ...]
    source: str
    foursome: FoursomeFormat | None = None

    @property
    def is_poker(self) -> bool:
        """Whether this is Progressive Poker (no partners, four to seven a table)."""
        return self.foursome is None


def _foursome(fmt: FoursomeFormat) -> FormatEntry:
    return FormatEntry(
        key=fmt.key,
        title=fmt.title,
        partners=True,
        tallies=fmt.tallies,
        source=fmt.source,
        foursome=fmt,
        seating="tables of four, two partnerships sitting opposite; a ghost takes a seat left empty",
    )


POKER = FormatEntry(
    key="poker",
    title="Progressive Poker",
    partners=False,
    seating="four at the head and the foot table, four to seven at the tables between",
    tallies=(("counters", "counters"), ("yellow", "yellow counters")),
    source=PROGRESSIVE_POKER,
)
ENGINE: dict[str, FormatEntry] = {e.key: e for e in (POKER, _foursome(EUCHRE), _foursome(WHIST), _foursome(BUNCO))}
"""Every format, Progressive Poker first, by stored key."""


def format_entry(key: str) -> FormatEntry:
    """The format stored as ``key``; raises ``RuleError`` listing the formats otherwise."""
    try:
        return ENGINE[key]
    except KeyError:
        raise RuleError(f"“{key}” is not a format: choose {', '.join(ENGINE)}.") from None
