"""The bell of a Progressive Poker evening: every public name in one place.

Source: ``docs/rules/progressive-poker.md`` and the house rules in ``BellOptions``. The
parts live in small modules:

    bell_state    EveningState, TableResult, BellEntry, BellRecord, ResultError (JSON round-trip)
    bell_options  BellOptions: every house rule for the cases the rules leave open
    bell_checks   check_results: bad results refused with a reason
    (cuts)        cutting cards to settle ties: ``tables.cuts``, shared by every format
    bell_ring     ring_bell: yellow counters, moves, fresh stakes, seat changes
    bell_guests   guest_leaves, guest_arrives: tables kept playable (no table below 3)
    bell_replay   RoundInput, replay, rerun: records rebuilt from their inputs
"""

from tables.cuts import CardsCut, Cutter, rank_name, ties_cut
from tables.entries import BellEntry
from tables.formats.poker.bell.checks import check_one, check_results
from tables.formats.poker.bell.guests import guest_arrives, guest_leaves
from tables.formats.poker.bell.options import BellOptions
from tables.formats.poker.bell.replay import Arrival, Departure, RoundInput, input_of, replay, rerun
from tables.formats.poker.bell.ring import ring_bell, table_name
from tables.formats.poker.bell.state import (
    SEEDS_RULE,
    BellRecord,
    EveningState,
    ResultError,
    StateError,
    TableResult,
    Tally,
)

__all__ = [
    "SEEDS_RULE",
    "Arrival",
    "BellEntry",
    "BellOptions",
    "BellRecord",
    "CardsCut",
    "Cutter",
    "Departure",
    "EveningState",
    "ResultError",
    "StateError",
    "RoundInput",
    "TableResult",
    "Tally",
    "check_one",
    "check_results",
    "guest_arrives",
    "guest_leaves",
    "input_of",
    "rank_name",
    "replay",
    "rerun",
    "ring_bell",
    "table_name",
    "ties_cut",
]
