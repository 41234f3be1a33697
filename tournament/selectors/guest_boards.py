"""The evening's board as every guest's page shows it, computed once per process and version.

After a bell every phone fetches its page within a few seconds; they all need the same board
(tables, state, standings, the prize ceremony once the evening has ended), which costs tens of
milliseconds for 500 guests, so each process keeps it, keyed by the evening's cache token
(``tournament.services.versions.evening_token``) and version. This is a memo of a value the
database defines, not state: every process computes the same board for the same version.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from tables.formats.poker.prizes import StandingRow
from tournament.models import Evening, Guest
from tournament.registry import format_for
from tournament.selectors.board import EveningBoard, TableBoard, evening_board
from tournament.services.ending import Ceremony
from tournament.services.ending import ceremony as evening_ceremony
from tournament.services.versions import evening_token

BOARDS_KEPT = 16  # evenings whose board a process keeps
_BOARDS: dict[str, Shared] = {}  # evening token -> its board at one version, in this process
_BOARDS_LOCK = threading.Lock()
_BOARD_LOCKS: dict[str, threading.Lock] = {}


@dataclass(frozen=True)
class Shared:
    """One evening's board at one version, with what every guest's page looks up in it."""

    version: int
    board: EveningBoard
    standing: list[tuple[int, Guest, StandingRow]]  # (place, guest, row) in standings order
    table_of: dict[int, TableBoard]  # guest id -> their table
    ceremony: Ceremony | None = None  # once the evening has ended
    family: object | None = None  # the format's own board (``FormatPlugin.family_board``), if it has one


def shared_board_at(token: str, version: int | None) -> Shared | None:
    """The board this process holds for the evening ``token`` at ``version``, or None."""
    hit = _BOARDS.get(token)
    return hit if hit is not None and hit.version == version else None


def shared_board(evening: Evening) -> Shared:
    """The evening's board for ``evening.version``, computed once per process and version.

    After a bell every phone fetches its page within a few seconds; they all need the same
    board (tables, state, standings), which costs tens of milliseconds for 500 guests, so it
    is kept per process, keyed by the evening's cache token and version (a newer version
    computes a new one; one thread computes while the others wait). The board is read-only
    from here on. At most ``BOARDS_KEPT`` evenings are kept. This is a memo of a value the
    database defines, not state: every process computes the same board for the same version.
    """
    token = evening_token(evening.pk, evening.public_key)
    hit = shared_board_at(token, evening.version)
    if hit is not None:
        return hit
    with _BOARDS_LOCK:
        lock = _BOARD_LOCKS.setdefault(token, threading.Lock())
    with lock:
        hit = shared_board_at(token, evening.version)
        if hit is not None:
            return hit
        board = evening_board(evening)
        ceremony = None
        if evening.stage == Evening.Stage.ENDED:
            ceremony = evening_ceremony(evening)
        shared = Shared(
            version=evening.version,
            board=board,
            standing=board.standing_lines(),
            table_of={line.guest.pk: t for t in board.tables for line in t.lines},
            ceremony=ceremony,
            family=format_for(evening).family_board(evening),
        )
        with _BOARDS_LOCK:
            _BOARDS[token] = shared
            while len(_BOARDS) > BOARDS_KEPT:
                dropped = next(iter(_BOARDS))
                _BOARDS.pop(dropped)
                _BOARD_LOCKS.pop(dropped, None)
    return shared
