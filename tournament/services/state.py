"""Reads every format needs: the evening's counters now (through its plug-in), the stored state
after the last bell, the round in play, and the lock for a change between rounds. Progressive
Poker's own reads (its state, a stored result as its bell takes it, its bell's house rules) are
``tournament.formats.poker.state``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from django.db.models import JSONField, OuterRef, Subquery

from tables.errors import RuleError
from tournament.models import Bell, Evening, Guest, Round
from tournament.registry import format_for
from tournament.services.locks import lock_evening

if TYPE_CHECKING:  # the counters' state, for the type checker only: the plug-in gives it
    from tables.formats.poker.bell import BellOptions, EveningState

OPEN_STATES = (Round.State.RUNNING, Round.State.PAUSED, Round.State.RUNG)


def poker_only(evening: Evening, why: str) -> None:
    """Refuse Progressive Poker's result or correction for an evening played at tables of four
    (Progressive Euchre, Drive Whist, Bunco), whose tables report points, tricks or buncos:
    raises ``RuleError`` "This evening plays Bunco at tables of four, ``why``" (``why`` says how
    it is done there). Returns None for a Progressive Poker evening. No query."""
    if not format_for(evening).counters:
        raise RuleError(f"This evening plays {evening.get_format_display()} at tables of four, {why}")


def evening_state(evening: Evening, *, final: bool = True) -> EveningState:
    """The evening's counters now, as the format's bell rules see them
    (``FormatPlugin.counted_state``; Progressive Poker's is ``formats.poker.state.poker_state``):
    once the evening has ended (and ``final``) its final count's counters. Raises ``RuleError``
    before the draw, and for an evening whose format plays for no counters (at tables of four
    the state is ``FormatPlugin.state``). One or two queries (one more after the end)."""
    fmt = format_for(evening)
    if not fmt.counters:
        raise RuleError("This evening is played at tables of four: it has no counters to count.")
    return cast("EveningState", fmt.counted_state(evening, final=final))


def ring_options(evening: Evening) -> BellOptions:
    """The options ``evening``'s bell is rung with, as its format gives them
    (``FormatPlugin.ring_options``; Progressive Poker's ``formats.poker.state.ring_options``:
    its house rules, the last bell never waiting for counts). Raises ``RuleError`` for a bad
    stored option. No query."""
    return cast("BellOptions", format_for(evening).ring_options(evening))


def last_state_after(evening: Evening) -> dict | None:
    """The stored state after the evening's last live bell (a guest's leaving or arrival
    included), or None before the first bell: every format's state now, as JSON. One query."""
    bell = (
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
        .order_by("-round__number", "-id")
        .only("state_after")
        .first()
    )
    return bell.state_after if bell is not None else None


def last_states_after(evenings: Sequence[Evening]) -> dict[int, dict]:
    """``last_state_after`` of each of ``evenings`` at once: evening id -> the stored state after
    its last live bell, for the evenings that have rung one (a club's season reads many
    evenings). One query whatever the number of evenings."""
    last = (
        Bell.objects.filter(round__evening=OuterRef("pk"), undone_at__isnull=True)
        .order_by("-round__number", "-id")
        .values("state_after")[:1]
    )
    rows = Evening.objects.filter(pk__in=[e.pk for e in evenings]).annotate(
        after=Subquery(last, output_field=JSONField())
    )
    return {pk: after for pk, after in rows.values_list("pk", "after") if after is not None}


def lock_between_rounds(evening: Evening, guest: Guest, doing: str) -> tuple[Evening, Round]:
    """Lock the evening (inside the caller's transaction) for a guest's leaving or arrival,
    which happen between rounds only (house rule: a guest leaving mid-deal finishes it or
    forfeits it, and the host marks them after the bell). Returns the evening, fresh, and its
    last round. Raises ``RuleError`` before round 1, once the evening has ended, or while a
    round is in play (``doing``: "left" or "arrived", for the message)."""
    evening = lock_evening(evening.pk)
    last = evening.rounds.order_by("-number").first()
    if last is None:
        raise RuleError("Round 1 has not started: change the seating on the draw page instead.")
    if evening.stage == Evening.Stage.ENDED:
        raise RuleError("The evening has ended.")
    if current_round(evening) is not None:
        raise RuleError(f"A round is in play: ring its bell first, then mark {guest.name} as {doing}.")
    return evening, last


def current_round(evening: Evening) -> Round | None:
    """The round in play (running, paused, or rung and waiting), or None."""
    return evening.rounds.filter(state__in=OPEN_STATES).order_by("-number").first()
