"""The formats at tables of four as stored: a state, a bell and a table's report as JSON values.

An evening is kept as events (``tournament.models``): the draw's tables, each table's report,
each bell's record and the state after it. This module turns those into the rules' frozen
values and back, so that ``tournament/`` stores plain JSON and replays it through the pure bell
(``tables.formats.bell.ring_foursome_bell``). JSON object keys are strings; player ids come back
as ints (ghosts negative). Every reader refuses what the rules could not have written, with a
``RuleError`` (``ScoreError`` for a report) that says what is wrong.

A stored report (what a captain or the host sends, per format; ``report_score``; the keys each
format's may hold are its ``FoursomeFormat.report_keys``):

* Progressive Euchre: ``{"points": {"NS": 7, "EW": 5}}`` or the hands as they were played,
  ``{"hands": [["NS", 1], ["EW", 2], ...]}`` (each hand 1, 2 or 4 points to one side), and
  ``"playoff": "NS"`` when the points are equal (the side that won the extra hand).
* Drive Whist: ``{"tricks": {"NS": 8, "EW": 5}}`` (13 in all).
* Bunco: ``{"points": {"NS": 21, "EW": 9}, "buncos": {"17": 1}, "minis": {"18": 1},
  "rolloff": "EW"}`` (buncos and mini buncos per player id; the roll-off's winning side when the
  points are equal); optionally ``"rolls": {"17": [1, 2, 21]}``, the points of each scoring
  roll a player made (each 1, 2, 5 or 21; the score helper on the phones keeps them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.errors import RuleError
from tables.formats import FoursomeFormat
from tables.formats.bell import FoursomeBell, FoursomeState
from tables.formats.foursome import Foursome, Side
from tables.formats.scoring import ScoreError, TableScore


def _ids(mapping: Mapping[Any, Any], what: str) -> dict[int, Any]:
    try:
        return {int(k): v for k, v in mapping.items()}
    except (TypeError, ValueError, AttributeError):
        raise RuleError(f"The {what} are not kept by player.") from None


def _table(seats: Any, number: int) -> Foursome:
    if (
        not isinstance(seats, list | tuple)
        or len(seats) != 4
        or not all(isinstance(p, int) and not isinstance(p, bool) and p != 0 for p in seats)
    ):
        raise RuleError(f"Table {number} is not four players.")
    return (seats[0], seats[1], seats[2], seats[3])


def state_to_json(state: FoursomeState) -> dict[str, Any]:
    """A state as JSON: ``{"tables": [[N, E, S, W], ...], "tallies": {"17": {"stars": 2}},
    "ghosts": 2}``."""
    return {
        "tables": [list(t) for t in state.tables],
        "tallies": {str(p): dict(t) for p, t in sorted(state.tallies.items())},
        "ghosts": state.ghosts,
    }


def state_from_json(data: Mapping[str, Any]) -> FoursomeState:
    """The state ``state_to_json`` wrote. Raises ``RuleError`` for a table that is not four
    players, a tally that is not a whole number, or a player seated twice."""
    try:
        tables = tuple(_table(t, n) for n, t in enumerate(data["tables"], start=1))
        tallies = {p: {str(k): v for k, v in t.items()} for p, t in _ids(data.get("tallies", {}), "tallies").items()}
        ghosts = data.get("ghosts", 0)
    except (KeyError, TypeError, AttributeError):
        raise RuleError("The stored seating is not tables of four with tallies.") from None
    for values in tallies.values():
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values.values()):
            raise RuleError("A stored tally is not a whole number.")
    if isinstance(ghosts, bool) or not isinstance(ghosts, int) or ghosts < 0:
        raise RuleError("The stored count of ghosts is not a whole number.")
    return FoursomeState(tables, tallies, ghosts)


def bell_to_json(record: FoursomeBell) -> dict[str, Any]:
    """A bell's record as JSON (the tables before and after, winners as "NS"/"EW", the result
    at each table in words, the cuts, the tallies added, the moves as [player, from, to], and
    ``"as_played": true`` when the seats after are those played, kept by a correction)."""
    return {
        "format": "foursome",
        "before": [list(t) for t in record.before],
        "after": [list(t) for t in record.after],
        "winners": [w.value for w in record.winners],
        "words": list(record.words),
        "cuts": {str(t): s.value for t, s in sorted(record.cuts.items())},
        "added": {str(p): dict(t) for p, t in sorted(record.added.items())},
        "moves": [list(m) for m in record.moves],
    } | ({"as_played": True} if record.as_played else {})


def bell_from_json(data: Mapping[str, Any]) -> FoursomeBell:
    """The record ``bell_to_json`` wrote. Raises ``RuleError`` when it is not one."""
    try:
        return FoursomeBell(
            before=tuple(_table(t, n) for n, t in enumerate(data["before"], start=1)),
            after=tuple(_table(t, n) for n, t in enumerate(data["after"], start=1)),
            winners=tuple(Side(w) for w in data["winners"]),
            words=tuple(str(w) for w in data["words"]),
            cuts=stored_cuts(data.get("cuts")),
            added={int(p): {str(k): int(v) for k, v in t.items()} for p, t in data.get("added", {}).items()},
            moves=tuple((int(p), int(a), int(b)) for p, a, b in data.get("moves", [])),
            as_played=bool(data.get("as_played", False)),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        raise RuleError("The stored bell is not a bell of tables of four.") from None


def stored_cuts(data: Mapping[str, Any] | None) -> dict[int, Side]:
    """A stored bell's cuts (``bell_to_json``'s "cuts": table -> the side that won the cut;
    none stored: none). Raises ``ValueError`` for a side that is not one, ``AttributeError``
    for a value that is not a mapping."""
    return {int(t): Side(s) for t, s in (data or {}).items()}


def report_score(
    fmt: FoursomeFormat, table: Foursome, report: Mapping[str, Any], *, ties: str = "playoff"
) -> TableScore:
    """A stored report (module docstring) as the bell takes it: the format's ``score`` on the
    report's values, with player ids as ints.

    ``ties``: "playoff" (the books' way: a tie must name the play-off's / roll-off's winner) or
    "cut" (a tie may be left to a cut at the bell). Raises ``ScoreError`` for a key the format
    does not report (``FoursomeFormat.report_keys``; a tie left uncut names its ``tiebreak``), a value of the wrong shape, or anything the format makes impossible (a
    euchre hand worth 3, 14 tricks, 22 points in one bunco roll, a player not at the table).
    """
    keys = fmt.report_keys
    strangers = sorted(set(report) - keys)
    if strangers:
        raise ScoreError(f"{fmt.title} reports {', '.join(sorted(keys))}; not {', '.join(strangers)}.")
    values: dict[str, Any] = dict(report)
    for name in ("buncos", "minis", "rolls"):
        if name in values:
            if not isinstance(values[name], Mapping):
                raise ScoreError(f"The {name} are kept by player.")
            values[name] = _ids(values[name], name)
    if "rolls" in values and not all(isinstance(r, list) for r in values["rolls"].values()):
        raise ScoreError("Each player's rolls are a list of points.")
    if "hands" in values:
        hands = values["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, list | tuple) and len(h) == 2 for h in hands):
            raise ScoreError("Each hand is a side (NS or EW) and its points.")
        values["hands"] = [(h[0], h[1]) for h in hands]
    for name in ("points", "tricks"):
        if name in values and not isinstance(values[name], Mapping):
            raise ScoreError(f"The {name} are given for North–South (NS) and East–West (EW).")
    try:
        score = fmt.score(table, **values)
    except (TypeError, ValueError) as error:
        if isinstance(error, RuleError):
            raise
        raise ScoreError(f"This is not a report of {fmt.title}: give what its table reports.") from None
    if score.winner is None and ties == "playoff":
        raise ScoreError(f"The points are equal: name the side that won the {fmt.tiebreak}.")
    return score
