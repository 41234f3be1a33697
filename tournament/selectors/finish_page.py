"""The host's end page's reading kept per evening version: the tables to count
(``services.ending.final_count_tables``) and the prize ceremony (``services.ending.ceremony``:
the format's standings and prizes, what is revealed, the tables still to count).

Both change only when the evening does (a final count saved, a step of the ceremony revealed, a
correction), each of which bumps its version, so each process keeps them under it
(``tournament.evening_parts.evening_part``, in one snapshot of the database): the end page drawn
again unchanged computes no standings. House rule: issue 26 item 3 (fragments kept by the
evening's version where a page is re-drawn unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.evening_parts import evening_part
from tournament.kept import Kept
from tournament.models import Evening
from tournament.services.ending import Ceremony, TableCount, ceremony, final_count_tables

FINISHES_KEPT = 16  # evenings whose end page's reading a process keeps


@dataclass(frozen=True)
class FinishReading:
    """The end page's reading of an ended evening at one version: its ``tables`` to count (none
    at tables of four) and its ``ceremony``. Read-only."""

    tables: tuple[TableCount, ...]
    ceremony: Ceremony


_FINISHES: Kept[FinishReading] = Kept(FINISHES_KEPT)  # evening token -> its end page's reading


def finish_reading(evening: Evening) -> FinishReading:
    """``evening``'s end page reading at ``evening.version``, computed once per process and
    version. Raises ``RuleError`` as ``final_count_tables`` and the format's standings do
    (nothing is kept then). For pages that only read."""
    return evening_part(_FINISHES, evening, _finish_reading)


def _finish_reading(evening: Evening) -> FinishReading:
    """``finish_reading``'s value, computed: the tables to count read once, for the page and for
    the ceremony's tables still to count (the last state parsed once, not twice)."""
    tables = tuple(final_count_tables(evening))
    return FinishReading(tables, ceremony(evening, tables=tables))
