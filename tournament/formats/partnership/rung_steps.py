"""The live steps of an evening at tables of four as its board reads them: the bells of play
with their records, and the state after the last step, each decoded once per process and step.

A step's record and its state after are written once, when it is taken, and never changed: a
correction or an undo marks steps undone (``Bell.undone_at``) and writes new ones (new rows),
so what a step's row says is what it said when it was read first. The board's first draw after
a change (issue 26 item 3) therefore reads which steps are live (one query: their ids, kinds,
rounds and times) and decodes only the steps this process has not read yet: after a bell, that
bell alone, where every bell's record was read and decoded again for the prizes (Bunco's last
bunco), for who has played and for the last bell's moves, and the state after it for the seats.
Each step is kept under the evening's token, its id and the time it was rung (a test database
that gives a rolled-back row's id again gives it another time). This is a memo of rows that do
not change, not state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from tables.errors import RuleError
from tables.formats.bell import FoursomeBell, FoursomeState
from tables.formats.records import bell_from_json, state_from_json
from tournament.kept import Kept
from tournament.models import Bell, Evening
from tournament.services.versions import evening_token

EVENINGS_KEPT = 16  # evenings whose decoded steps a process keeps (as many as their boards)
StepKey = tuple[int, datetime]  # a step's id and the time it was rung


@dataclass(frozen=True, eq=False)
class RungBell:
    """A live bell of play (kind "bell"): its id, its round's number, its record as stored
    (the JSON) and as the rules read it (``tables.formats.records.bell_from_json``). One object
    per step and process (compared by identity), so what is worked out from it can be kept
    with it (the board's moves: ``boards._last_bell``)."""

    pk: int
    round_number: int
    stored: Mapping[str, object]
    record: FoursomeBell


@dataclass(frozen=True)
class RungSteps:
    """What the board reads of an evening's live steps: its live bells of play in round order
    (one per round at most: ``Bell``'s ``one_live_bell_per_round``), and the stored state after
    its last live step of any kind (a guest's leaving, arrival or seat change included), or None
    before the first step, or when that step stored none (the seats are then the draw's)."""

    bells: tuple[RungBell, ...]
    stored_state: FoursomeState | RuleError | None
    """The last step's state after, decoded; the ``RuleError`` the rules raised reading it (a
    state stored wrong); None before the first step or when it stored none."""
    keys: tuple[StepKey, ...] = ()
    """Every live step's (id, time rung), in order: what the steps read here are, so two reads
    with the same keys read the same records and the same state (``standings.kept_standings``)."""

    def state_after(self) -> FoursomeState | None:
        """The state after the last live step, or None (``stored_state``). Raises the
        ``RuleError`` of a state stored wrong, as ``state_from_json`` does."""
        if isinstance(self.stored_state, RuleError):
            raise self.stored_state
        return self.stored_state

    @property
    def last_bell(self) -> RungBell | None:
        """The last live bell of play, or None before the first."""
        return self.bells[-1] if self.bells else None


class _Decoded:
    """One evening's steps as decoded by this process: step key -> its ``RungBell`` (bells of
    play), and step key -> the state after it (the last step's only). Read-only once put;
    threads that decode the same step at once put the same value."""

    def __init__(self) -> None:
        self.bells: dict[StepKey, RungBell] = {}
        self.states: dict[StepKey, FoursomeState | RuleError | None] = {}


_DECODED: Kept[_Decoded] = Kept(EVENINGS_KEPT)  # evening token -> its steps decoded


def rung_steps(evening: Evening, *, with_state: bool = True) -> RungSteps:
    """``evening``'s live steps (``RungSteps``): one query, one more for the records and the state
    after of the steps this process has not decoded yet (after a bell: that bell). Without
    ``with_state`` (a caller that has read the state already) the state after is not read and
    ``stored_state`` is None. Raises ``RuleError`` for a stored record the rules cannot read
    (nothing kept for it)."""
    decoded = _DECODED.get(evening_token(evening.pk, evening.public_key), "steps", _Decoded)
    rows = list(
        Bell.objects.of_evening(evening.pk).live().in_order().values_list("pk", "kind", "round__number", "rung_at")
    )
    if not rows:
        return RungSteps((), None)
    played = [(pk, number, (pk, at)) for pk, kind, number, at in rows if kind == Bell.Kind.BELL]
    last = (rows[-1][0], rows[-1][3]) if with_state else None
    new_bells = [key for _, _, key in played if key not in decoded.bells]
    if new_bells or (last is not None and last not in decoded.states):
        _decode(decoded, {key: number for _, number, key in played if key in new_bells}, last)
    return RungSteps(
        tuple(decoded.bells[key] for _, _, key in played),
        decoded.states[last] if last is not None else None,
        keys=tuple((pk, at) for pk, _, _, at in rows),
    )


def _decode(decoded: _Decoded, new_bells: dict[StepKey, int], last: StepKey | None) -> None:
    """Read and decode the records of ``new_bells`` (step key -> round number) and the state after
    the ``last`` step (None: not wanted) when not decoded yet, into ``decoded``, each under the
    key it was listed by. One query (the record is read only for bells of play, the state only
    for the last step)."""
    want_state = last is not None and last not in decoded.states
    keys = {key[0]: key for key in new_bells} | ({last[0]: last} if last is not None and want_state else {})
    fields = ["pk"] + (["record"] if new_bells else []) + (["state_after"] if want_state else [])
    for row in Bell.objects.filter(pk__in=list(keys)).values(*fields):
        key = keys[row["pk"]]
        if key in new_bells:
            stored = row["record"]
            decoded.bells[key] = RungBell(key[0], new_bells[key], stored, bell_from_json(stored))
        if want_state and key == last:
            after = row["state_after"]
            try:
                decoded.states[key] = state_from_json(after) if after is not None else None
            except RuleError as error:  # said again by every read, as ``foursome_state`` says it
                decoded.states[key] = error
