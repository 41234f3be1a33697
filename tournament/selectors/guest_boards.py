"""The evening's board as every guest's page shows it, computed once per process and version.

After a bell every phone fetches its page within a few seconds; they all need the same board
(tables, state, standings, the prize ceremony once the evening has ended), which costs tens of
milliseconds for 500 guests, so each process keeps it, keyed by the evening's cache token
(``tournament.services.versions.evening_token``) and version. This is a memo of a value the
database defines, not state: every process computes the same board for the same version.

What a process keeps of one evening at one version are its parts, each in a ``tournament.kept.Kept``
and computed the first time a page asks for it: the guests, every phone's shared board
(``shared_board``: the board of the evening's own family of formats, with the pieces every family
shows) and Progressive Poker's standings page (``shared_standings``). A page asks only for the
parts it shows, so the first draw after a change computes only those (issue 26 item 3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from tournament.evening_parts import evening_part as _part
from tournament.kept import Kept
from tournament.models import Evening, Guest
from tournament.plugin import HasPrizes
from tournament.registry import format_for
from tournament.selectors.board import EveningBoard, TableBoard, board_basics, evening_board
from tournament.selectors.saved_rows import saved_rows
from tournament.services.ending import Ceremony
from tournament.services.ending import ceremony as evening_ceremony
from tournament.services.prizes import evening_standings

BOARDS_KEPT = 16  # evenings whose parts a process keeps
FRAGMENTS_KEPT = 2_048  # pieces of pages kept with one board (``Shared.fragment``): a line per guest at 500 and more
_GUESTS: Kept[dict[int, Guest]] = Kept(BOARDS_KEPT)  # evening token -> its guests at one version
_BOARDS: Kept[Shared] = Kept(BOARDS_KEPT)  # evening token -> its shared board at one version
_STANDINGS: Kept[HasPrizes] = Kept(BOARDS_KEPT)  # evening token -> the standings page's standings


@dataclass(frozen=True)
class Shared:
    """One evening's board at one version, with what every guest's page looks up in it.

    ``board`` is Progressive Poker's whole board (``selectors.board.evening_board``) for a
    format without a board of its own; for one with its own (``family``, from
    ``FormatPlugin.family_board``: tables of four) it holds only the pieces every family shows
    (``selectors.board.board_basics``: the guests, the round, the last bell and its entries),
    with no tables and no standings."""

    version: int
    board: EveningBoard
    standing: list[tuple[int, Guest, object]]  # (place, guest, the format's row) in standings order
    table_of: dict[int, TableBoard]  # guest id -> their table
    ceremony: Ceremony | None = None  # once the evening has ended
    family: object | None = None  # the format's own board (``FormatPlugin.family_board``), if it has one
    fragments: dict[object, str] = field(default_factory=dict, compare=False, repr=False)
    """Pieces of the phones' pages drawn once for this board (``fragment``)."""

    @cached_property
    def place_of(self) -> dict[int, tuple[int, object]]:
        """Guest id -> (place, the format's row) in the standings, made once per board: a phone's
        page looks its guest up here instead of walking the whole standings (issue 26 item 2:
        500 pages drawn in the second after a bell)."""
        return {guest.pk: (place, row) for place, guest, row in self.standing}

    @cached_property
    def entries_of(self) -> dict[int, list]:
        """Guest id -> what the last bell did to them (``EveningBoard.entries_for``), made once
        per board. Guests the last bell did not name are absent."""
        entries: dict[int, list] = {}
        for entry in self.board.last_entries:
            entries.setdefault(entry.guest_id, []).append(entry)
        return entries

    def fragment(self, name: object, draw: Callable[[], str]) -> str:
        """The piece of a page called ``name`` (a hashable value saying all it depends on,
        besides this board), drawn by ``draw()`` the first time and kept with the board, so the
        phones that show the same piece at one version share one drawing. Thread-safe enough:
        two threads drawing at once draw the same text."""
        text = self.fragments.get(name)
        if text is None:
            text = draw()
            if len(self.fragments) < FRAGMENTS_KEPT:
                self.fragments[name] = text
        return text


def shared_board_at(token: str, version: int | None) -> Shared | None:
    """The board this process holds for the evening ``token`` at ``version``, or None."""
    return _BOARDS.peek(token, version)


def shared_guests(evening: Evening) -> dict[int, Guest]:
    """Every guest of ``evening`` (id -> guest) at ``evening.version``, read once per process
    and version (one query) for the parts that show them. Read-only."""
    return _part(_GUESTS, evening, guests_read)


def guests_read(evening: Evening) -> dict[int, Guest]:
    """Every guest of ``evening`` (id -> guest, in the list's order: ``Guest.Meta.ordering``),
    read in one query, each with ``evening`` as its evening. The same guests as
    ``evening.guests.all()`` gives, made from the rows' values (``selectors.saved_rows``) and
    without the related manager setting each guest's evening through its descriptor (two thirds
    of the read at 500 guests; issue 26 item 3)."""
    field = Guest._meta.get_field("evening")
    guests = {}
    for guest in saved_rows(Guest.objects.filter(evening_id=evening.pk)):
        field.set_cached_value(guest, evening)
        guests[guest.pk] = guest
    return guests


def shared_board(evening: Evening) -> Shared:
    """The evening's board for ``evening.version``, computed once per process and version.

    After a bell every phone fetches its page within a few seconds; they all need the same
    board (tables, state, standings), which costs tens of milliseconds for 500 guests, so it
    is kept per process, keyed by the evening's cache token and version (a newer version
    computes a new one; one thread computes while the others wait). The board is read-only
    from here on. At most ``BOARDS_KEPT`` evenings are kept. This is a memo of a value the
    database defines, not state: every process computes the same board for the same version.

    Only the evening's own family's board is computed: a format with a board of its own
    (``FormatPlugin.family_board``) gets it beside the pieces every family shows
    (``board_basics``), never Progressive Poker's tables and standings, which a format without
    one gets (``evening_board``). Both read the guests once (``shared_guests``).
    """
    return _part(_BOARDS, evening, _shared)


def _shared(evening: Evening) -> Shared:
    """``shared_board``'s board, computed (see there)."""
    guests = shared_guests(evening)
    family = format_for(evening).family_board(evening, guests)
    board = evening_board(evening, guests) if family is None else board_basics(evening, guests)
    ceremony = None
    if evening.stage == Evening.Stage.ENDED:
        ceremony = evening_ceremony(evening)
    return Shared(
        version=evening.version,
        board=board,
        standing=board.standing_lines(),
        table_of={line.guest.pk: t for t in board.tables for line in t.lines},
        ceremony=ceremony,
        family=family,
    )


def shared_standings(evening: Evening) -> HasPrizes:
    """The standings page's standings of ``evening`` (``services.prizes.evening_standings``, the
    format's: Progressive Poker's with its settlement sheet) at ``evening.version``, computed once per process
    and version as the shared board is, from the same guests (``shared_guests``). Read-only.
    Raises ``RuleError`` for bad prize options stored on the evening (nothing kept)."""
    return _part(_STANDINGS, evening, lambda now: evening_standings(now, guests=shared_guests(now)))
