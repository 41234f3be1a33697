"""What each format's rule lets a table report, in one place (issue 24 deliver 4): the score
pad's buttons, the limits of every report form, and the Bunco head table's 21.

* ``bunco_pad``: the buttons of Bunco's score pad, one per value a scoring roll can have,
  worked out from the roll's rule (``scoring.bunco_roll`` over all 216 throws of three dice):
  1 or 2 dice showing the target, a mini bunco (5), a bunco (21). No roll scores 3: three
  dice showing the target are a bunco (``docs/rules/bunco.md``: "three of the target is a
  bunco, 21 points").
* ``EUCHRE_LIMITS``, ``WHIST_LIMITS``, ``BUNCO_LIMITS``: the most each count of a report may be,
  for the host's form and the captain's phone alike (each format's ``FoursomeFormat.limits``).
* ``bunco_head_table_check``: with the round ending at the head table's 21, its report must
  have one team, and only one, at 21 or more (``docs/rules/bunco.md``: "a team at the head
  table reaching 21 points (more with a bunco) ends the round"); ``bunco_head_table_report_check``
  the same on a stored report (Bunco's ``FoursomeFormat.head_table_check``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.formats.foursome import Side
from tables.formats.scoring import (
    BUNCO_MOST_POINTS,
    BUNCO_POINTS,
    EUCHRE_MOST_POINTS,
    MINI_BUNCO_POINTS,
    ROLL_POINTS,
    ScoreError,
)


def bunco_roll_values() -> tuple[int, ...]:
    """Every value a scoring roll can have, smallest first: (1, 2, 5, 21), as ``scoring``
    works them out from ``bunco_roll`` over every throw of three dice."""
    return ROLL_POINTS


@dataclass(frozen=True)
class PadButton:
    """One button of a score pad: ``points`` added by a tap, its ``label`` ("+1", "Bunco 21")
    and ``what`` it records in words ("2 points", "a bunco"), for the screen reader."""

    points: int
    label: str
    what: str


def bunco_pad(target: int) -> tuple[PadButton, ...]:
    """The Bunco score pad's buttons for a round whose target is ``target`` (1 to 6), one per
    ``bunco_roll_values`` value, smallest first. Raises ``ScoreError`` for a target outside 1–6."""
    if isinstance(target, bool) or target not in range(1, 7):
        raise ScoreError(f"A round's target is 1 to 6, not {target!r}.")
    named = {MINI_BUNCO_POINTS: ("Mini 5", "a mini bunco"), BUNCO_POINTS: ("Bunco 21", "a bunco")}
    return tuple(
        PadButton(points, *named.get(points, (f"+{points}", f"{points} point{'' if points == 1 else 's'}")))
        for points in bunco_roll_values()
    )


BUNCOS_MOST = 99
"""House rule: the most buncos (or mini buncos) one player rolls in a round (a team's 999
points at most hold 47 buncos)."""

EUCHRE_LIMITS: Mapping[str, int] = {"points": EUCHRE_MOST_POINTS}
"""Progressive Euchre's most points a side (a game's 32, ``scoring.EUCHRE_MOST_POINTS``: both sides
together, ``euchre_round_check``)."""
WHIST_LIMITS: Mapping[str, int] = {"tricks": 13}
"""Drive Whist's most tricks a side: one hand of 13 tricks (Foster)."""
BUNCO_LIMITS: Mapping[str, int] = {
    "points": BUNCO_MOST_POINTS,
    "buncos": BUNCOS_MOST,
    "minis": BUNCOS_MOST,
    "roll": BUNCO_POINTS,
}
"""Bunco's most points a team (or a player), buncos and mini buncos a player, and one roll."""

REPORT_LIMITS: Mapping[str, Mapping[str, int]] = {"euchre": EUCHRE_LIMITS, "whist": WHIST_LIMITS, "bunco": BUNCO_LIMITS}
"""The most each count of a table's report may be, for the three formats of the family defined
here, by key: each format's value carries its own (``FoursomeFormat.limits``), which every form
reads (the host's, a scorer's, a phone's); the rules check them again."""

HEAD_TABLE_TARGET = BUNCO_POINTS


def bunco_head_table_check(points: Mapping[Side, int], *, ended_by_report: bool) -> None:
    """Refuse a Bunco head table's report that contradicts the round's end at 21 (module
    docstring): both teams at 21 or more (whoever reached 21 first ended the round: the other
    never rolled again), or, when this report is what ends the round (``ended_by_report``),
    neither team at 21. ``points``: each side's points. Raises ``ScoreError`` in the rule's
    words; returns None otherwise."""
    ns, ew = points[Side.NORTH_SOUTH], points[Side.EAST_WEST]
    said = f"North–South have {ns} and East–West {ew}"
    if ns >= HEAD_TABLE_TARGET and ew >= HEAD_TABLE_TARGET:
        raise ScoreError(
            f"At the head table the first team to reach {HEAD_TABLE_TARGET} ends the round, so only one team "
            f"can have {HEAD_TABLE_TARGET} or more: {said}. Check the points."
        )
    if ended_by_report and max(ns, ew) < HEAD_TABLE_TARGET:
        raise ScoreError(
            f"At the head table the round ends when a team reaches {HEAD_TABLE_TARGET}: {said}, so neither has "
            f"yet. Play on, and send the result when a team has {HEAD_TABLE_TARGET}."
        )


def bunco_head_table_report_check(report: Mapping[str, Any], *, ended_by_report: bool) -> None:
    """``bunco_head_table_check`` on a stored Bunco report (``tables.formats.records``: its
    ``"points"`` by "NS" and "EW", already read by ``report_score``): Bunco's
    ``FoursomeFormat.head_table_check``. Raises ``ScoreError`` in the rule's words; returns None
    otherwise."""
    points = {side: int(report["points"][side.value]) for side in Side}
    bunco_head_table_check(points, ended_by_report=ended_by_report)
