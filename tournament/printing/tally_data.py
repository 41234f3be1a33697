"""The plain frozen values the documents of the formats at tables of four are printed from.

Progressive Euchre, Drive Whist and Bunco (``docs/rules/tables-of-four.md``) print a score card per
player (name, QR code of their link, a row per round), a table card per table (number, head or
foot table, the seats North, East, South and West), Bunco's tally sheet per table, and the
results with the format's tallies. The Django side (``tournament.formats.partnership.documents``) builds
these values; the renderers never touch the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.printing.data import PrintError

STAR = "star"  # a cell value: the star box is filled (the player won that round)
SEATS = ("North", "East", "South", "West")


@dataclass(frozen=True, slots=True)
class TallyCardData:
    """One player's score card for the evening.

    ``name`` the player's name; ``url`` their private link (the QR code) and ``short_url`` the
    link printed under it; ``seat`` where they sit first, in words ("Table 3 · North · partner
    Ann"); ``columns`` the headers ("Round", "Table", "Partner", "Points", "Star"); ``rows``
    one tuple of cells per round, as many as ``columns`` ("" = blank to write in; ``STAR`` in
    a "Star" column fills the star box); ``totals`` the last row's cells ("" = blank).
    Raises ``PrintError`` for no link, no round, or a row of the wrong width.
    """

    name: str
    url: str
    short_url: str
    seat: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    totals: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.url:
            raise PrintError("A score card needs the player's private link.")
        if not 1 <= len(self.rows) <= 60:
            raise PrintError(f"A score card has 1 to 60 rounds, not {len(self.rows)}.")
        for row in (*self.rows, *((self.totals,) if self.totals else ())):
            if len(row) != len(self.columns):
                raise PrintError(f"A score card's row has {len(row)} cells for {len(self.columns)} columns.")


@dataclass(frozen=True, slots=True)
class SeatTableData:
    """One table's card at tables of four: its ``number``, ``kind_words`` ("Head table", "Foot
    table" or ""), ``movement`` in one line, and the seats' words North, East, South, West."""

    number: int
    kind_words: str
    movement: str
    seats: tuple[str, ...] = SEATS


@dataclass(frozen=True, slots=True)
class BuncoSheetData:
    """One Bunco table's tally sheet: ``table`` number, ``kind_words`` ("Head table", "Foot
    table" or ""), and ``rounds`` rows (round n's target number is
    ``tables.formats.scoring.bunco_target(n)``: six rounds a set, club rules). Raises ``PrintError`` for fewer than 1 or more than 60 rounds."""

    table: int
    kind_words: str
    rounds: int

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= 60:
            raise PrintError(f"A tally sheet has 1 to 60 rounds, not {self.rounds}.")


@dataclass(frozen=True, slots=True)
class TallyStandingRow:
    """One line of the standings at tables of four: ``place`` (ties share it), ``name``, the
    player's ``pack_label`` ("" for a ghost) and their tallies in the order of the results'
    columns; ``left``: the guest left before the end (printed "(left)" after the name)."""

    place: int
    name: str
    pack_label: str
    values: tuple[int, ...]
    left: bool = False
