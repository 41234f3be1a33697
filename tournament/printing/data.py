"""The plain frozen values the printed documents are made from, the paper sizes, and PrintError.

The Django side (views, the print management command) reads the models and builds these
values; the renderers in this package never touch the database. Names are stored as the host
typed them; the renderers clean them for print (see ``text.clean_text``).

Where the rules come from: issue 7 (what each document shows), issue 2 item 7 (seating
cards), ``docs/rules/progressive-poker.md`` (head table, booby table, yellow counters, prizes, fresh stakes).
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, LETTER

from tables.errors import RuleError

TABLE_KINDS = ("head", "intermediate", "booby")
PACK_COLOURS = ("red", "blue")


class PrintError(RuleError):
    """A document cannot be printed as asked; the message says what the host should do."""


def page_size(paper: str) -> tuple[float, float]:
    """The portrait (width, height) in points of ``paper``: "A4" or "letter", any case.

    Raises ``PrintError`` for any other paper name.
    """
    key = (paper or "").strip().lower()
    if key == "a4":
        return A4
    if key in ("letter", "us letter", "us-letter"):
        return LETTER
    raise PrintError(f"Unknown paper size “{paper}”: choose A4 or letter.")


def table_label(number: int, kind: str) -> str:
    """The words for a table: "Table 1 · Head table", "Table 3", "Table 7 · Booby table".

    House rule: intermediate tables carry just their number.
    """
    if kind == "head":
        return f"Table {number} · Head table"
    if kind == "booby":
        return f"Table {number} · Booby table"
    return f"Table {number}"


def _check_kind(kind: str) -> None:
    if kind not in TABLE_KINDS:
        raise PrintError(f"Unknown table kind “{kind}”: use head, intermediate or booby.")


@dataclass(frozen=True, slots=True)
class SeatingCardData:
    """One guest's seating card.

    ``table`` is the table number (1 = head), ``table_kind`` "head" | "intermediate" | "booby";
    ``card_rank`` the rank drawn (1 = ace ... 13 = king, then the numbered cards 14, 15, ...
    past the king: house rule of ``tables.formats.poker.draw``; the rank is the table,
    ``docs/rules/progressive-poker.md``), None for a guest seated on arrival after the draw
    (no card drawn: none is printed); ``card_name`` its words ("trey of the blue pack",
    "Seated on arrival");
    ``pack`` the colour of the card drawn ("red" | "blue"); ``pack_label`` the host's label
    of the guest's own pack ("Red pack", "Ladies"); ``represents`` e.g. "draws for the Blue
    pack" when the guest represents the other pack, else None; ``url`` the guest's private
    link (the QR code) and ``short_url`` the short form printed under it.
    """

    name: str
    table: int
    table_kind: str
    card_rank: int | None
    card_name: str
    pack: str
    pack_label: str
    represents: str | None
    url: str
    short_url: str

    def __post_init__(self) -> None:
        _check_kind(self.table_kind)
        if self.pack not in PACK_COLOURS:
            raise PrintError(f"Unknown pack colour “{self.pack}”: use red or blue.")
        if self.card_rank is not None and self.card_rank < 1:
            raise PrintError(f"A card rank is 1 (ace) or more, not {self.card_rank}.")
        if not self.url:
            raise PrintError("A seating card needs the guest's private link.")


@dataclass(frozen=True, slots=True)
class TableTentData:
    """One table's tent card: its ``number``, ``kind`` and ``movement`` rule in one line
    ("The winner of the pool moves up to table 2")."""

    number: int
    kind: str
    movement: str

    def __post_init__(self) -> None:
        _check_kind(self.kind)


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """One seat in one round of a pre-filled score sheet.

    ``name`` who sat there; ``won_pool`` whether they won the pool; ``in_call`` (head table)
    whether they were in the call; ``counters`` their count at the bell (None = not written);
    ``yellow`` (head table) their yellow counters after the bell (None = not written).
    """

    name: str
    won_pool: bool = False
    in_call: bool = False
    counters: int | None = None
    yellow: int | None = None


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One round already played at a table: ``round`` number and one entry per seat."""

    round: int
    entries: tuple[ScoreEntry, ...]


@dataclass(frozen=True, slots=True)
class ScoreSheetData:
    """One table's score sheet.

    ``seats`` the names at the start of the evening, one per seat ("" = blank); ``rounds``
    how many round rows to print; ``rows`` the rounds played so far (printed only by the
    pre-filled version).
    """

    table: int
    kind: str
    seats: tuple[str, ...]
    rounds: int
    rows: tuple[ScoreRow, ...] = ()

    def __post_init__(self) -> None:
        _check_kind(self.kind)
        if not 1 <= len(self.seats) <= 12:
            raise PrintError(f"Table {self.table} has {len(self.seats)} seats: 1 to 12 can print.")
        if not 1 <= self.rounds <= 200:
            raise PrintError(f"A score sheet has 1 to 200 rounds, not {self.rounds}.")


@dataclass(frozen=True, slots=True)
class PullPackData:
    """The cards to pull from one pack for a physical draw.

    ``label`` the host's label ("Red pack"), ``colour`` "red" | "blue", ``cards`` pairs of
    (rank name, how many), e.g. (("Ace", 2), ("Deuce", 2), ("Trey", 3)).
    """

    label: str
    colour: str
    cards: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        if self.colour not in PACK_COLOURS:
            raise PrintError(f"Unknown pack colour “{self.colour}”: use red or blue.")
        if any(count < 0 for _, count in self.cards):
            raise PrintError("A pull list cannot take a negative number of cards.")


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the final standings.

    ``place`` (1 = first), ``yellow`` yellow counters, ``counters`` counters held at the end,
    ``stakes`` fresh stakes taken, ``counters_won`` counters won over the evening with fresh
    stakes charged (``docs/rules/progressive-poker.md``, 'Prizes'); ``left``: the guest left
    before the end (printed "(left)" after the name, as the standings page marks them).
    """

    place: int
    name: str
    pack_label: str
    yellow: int
    counters: int
    stakes: int
    counters_won: int
    left: bool = False


@dataclass(frozen=True, slots=True)
class PrizeData:
    """A prize: its ``title``, the ``winners`` (several when tied) and the ``reason`` in words."""

    title: str
    winners: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One guest's line of the settlement sheet when counters have a money value.

    ``counters_won`` net of fresh stakes; ``amount`` the money, already formatted ("+£1.20").
    """

    name: str
    pack_label: str
    counters_won: int
    amount: str
