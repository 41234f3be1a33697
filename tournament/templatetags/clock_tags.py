"""Template tags for the round clock (issue 5): when the next round starts by itself, and
whether the round in play is the last, for pages whose views do not compute it."""

from __future__ import annotations

from django import template

from tournament.models import Evening, Round, RoundState
from tournament.services.clock import next_round_due_at

register = template.Library()


@register.simple_tag
def next_round_due(evening: Evening):
    """(the closed round's number, when the next round starts by itself) or None; two queries.
    Usage: ``{% next_round_due evening as nxt %}``."""
    return next_round_due_at(evening=evening)


@register.filter
def is_last_round(rnd: Round | None, evening: Evening) -> bool:
    """True when ``rnd`` is the evening's last round (``Round.is_last_number``); False for None."""
    return rnd is not None and Round.is_last_number(rnd.number, evening=evening)


@register.filter
def clock_text(seconds) -> str:
    """Seconds as "m:ss" ("12:05"); "0:00" for None or less than 0."""
    seconds = max(0, int(seconds or 0))
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes}:{seconds:02d}"


@register.filter
def undone_words(rnd: Round | None) -> str:
    """What a round whose bell was undone waits for, to follow "Round 2 · " on the phones and
    the room display: "the bell was undone: the round waits for the host to ring it again"
    ("the head table's next result rings it again" when the host chose so); "" for a round
    that is not reopened (``Round.reopened``, set by ``services.bell.bell_undo``)."""
    if rnd is None or not rnd.reopened:
        return ""
    if rnd.reopened == Round.Reopened.HEAD_POOL:
        return "the bell was undone: the head table's next result rings it again"
    return "the bell was undone: the round waits for the host to ring it again"


@register.simple_tag
def room_clock_caption(rnd: Round | None, next_round) -> str:
    """The room display's caption under its clock slide (the footer), in a guest's words: "Time
    left in round 3" while the round's clock runs, "Time until round 4" while the changeover's
    runs (``next_round``: (the closed round's number, when the next starts) or None), and ""
    when no clock runs (paused, the bell, before the draw, the end): the slide's own words say
    what is on the screen then. House rule (a new host's find: the footer read "The clock", a
    label with no meaning for a guest in the room)."""
    if rnd is not None and rnd.deadline:
        return f"Time left in round {rnd.number}"
    if next_round and (rnd is None or rnd.state not in (RoundState.PAUSED, RoundState.RUNG)):  # as the slide shows them
        return f"Time until round {next_round[0] + 1}"
    return ""
