"""The bell every format shares: ring the round in play (the lock, then the evening's format
rings it: ``FormatPlugin.bell_apply``), dry-run it, undo the last step, and the steps of the
history in words.

The format's own bell (scoring, moving, storing its record) is its plug-in's: Progressive
Poker's is ``tournament.formats.poker.bell`` (``tables.formats.poker.bell.ring_bell``), the
tables of four's ``tournament.formats.partnership.bell``. Messages and entries name guests
(``tournament.services.naming``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Now

from tables.errors import RuleError
from tournament.models import Bell, BellEntry, Evening, Round
from tournament.plugin import BellPreview
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening, lock_round
from tournament.services.naming import guest_names
from tournament.services.state import OPEN_STATES
from tournament.services.versions import evening_touch

Cuts = Mapping[int, int | Sequence[int]]


def bell_ring(
    *,
    round_id: int,
    cause: str,
    expected_clock_version: int | None = None,
    only_if_due: bool = False,
    user=None,
    device: str = "",
    cuts: Cuts | None = None,
) -> Bell | None:
    """Ring the bell for a round: the evening's format rings it (``bell_apply``) and stores what it did.

    ``cuts`` are the cards the host saw cut (guest id -> rank 1..13, or ranks in order when
    equal cuts cut again); cuts not given are drawn at random, except that re-ringing a round
    whose bell was undone settles a tie that was settled then by the same cards (house rule,
    ``tables.cuts``: a tie once cut stays cut).
    Returns the new ``Bell``, or None when there is nothing to do: the round's bell has already
    rung, its clock changed since the task was scheduled (``expected_clock_version``), or it is
    not yet due by the database's clock (``only_if_due``). Raises ``RuleError`` (with guests'
    names) when the rules refuse outright, e.g. a cut that is not a card rank.
    """
    with transaction.atomic():
        rnd = lock_round(round_id)
        if rnd is None or rnd.state not in OPEN_STATES:
            return None
        if expected_clock_version is not None and rnd.clock_version != expected_clock_version:
            return None
        if only_if_due and not Round.objects.filter(pk=rnd.pk, state=Round.State.RUNNING, deadline__lte=Now()).exists():
            return None
        return bell_apply(rnd=rnd, evening=rnd.evening, cause=cause, user=user, device=device, cuts=cuts)


def bell_apply(
    *,
    rnd: Round,
    evening: Evening,
    cause: str,
    user,
    device: str,
    cuts: Cuts | None = None,
    state: object | None = None,
) -> Bell | None:
    """Apply the bell inside the caller's transaction (the round row is locked).

    When the rules cannot apply the bell yet (the head table's pool must be decided, and under
    the "hold" option every table's), the round is marked rung and waiting, with the reason in
    ``Round.waiting_for`` (guests named); the next result recorded for it tries again. Returns
    the bell, or None when it waits or another process rang it first. ``cuts`` as for
    ``bell_ring``. Raises ``RuleError`` for a bad cut. Either way a reopened round
    (``Round.reopened``) is reopened no longer: the bell has been rung. An evening at tables of
    The evening's format rings it (``FormatPlugin.bell_apply``): Progressive Poker's is
    ``formats.poker.bell.poker_bell_apply``; the formats at tables of four never wait. ``state``: the evening's
    state (``FormatPlugin.state``) when the caller built it in this transaction (a result that
    rings the bell: one state per request, issue 23 item 3).
    """
    return format_for(evening).bell_apply(
        rnd=rnd, evening=evening, cause=cause, user=user, device=device, cuts=cuts, state=state
    )


def bell_preview(*, rnd: Round) -> BellPreview:
    """Dry-run the bell of a round in play with its live results and random cuts, so the host
    can see who may have to cut and enter the cards actually cut: the evening's format answers
    (``FormatPlugin.bell_preview``; Progressive Poker's ``formats.poker.bell.poker_bell_preview``).
    Saves nothing; a few queries. Which ties arise can depend on earlier cuts, so the list is a
    guide."""
    return format_for(rnd.evening).bell_preview(rnd)


def bell_undo(*, evening: Evening, bell_id: int | None = None, user=None, device: str = "") -> Bell:
    """Undo the evening's last live step, newest first, one at a time: a round's bell, or a
    guest's arrival or departure (an arrival undone keeps the guest checked in, a departure
    undone gives back their seat and status "here": ``FormatPlugin.bell_undone``). For a bell: the seats go back to before it, its round waits for
    its bell again (results can be corrected, then rung again; the cards cut stay cut). The
    bell is kept, marked undone. Undoing the last bell of an ended evening reopens play and
    drops the final counts taken since (they counted the state it made). Returns the undone
    bell.

    The round's bell is then rung only by the host (``Round.reopened`` = "host"): a corrected
    result never rings it by itself, so a second correction is never refused as "closed"
    (house rule, issue 11 deliver 3; ``bell_reopened_rings`` lets the head table's pool ring it).

    ``bell_id`` is the step the host's page offered to undo: when given, only that step is
    undone, so two undo taps at once, or a stale tab, never undo a second, earlier step.
    Raises ``RuleError`` when there is no step to undo, that step is undone already or is no
    longer the last one, a later round started (then correct the result instead), or the prize
    ceremony has begun."""
    from tournament.services.ending import bell_undo_allowed, final_counts_drop

    with transaction.atomic():
        evening = lock_evening(evening.pk)
        bell_undo_allowed(evening)
        bell = _bell_to_undo(evening=evening, bell_id=bell_id)
        Bell.objects.filter(pk=bell.pk).update(undone_at=Now())
        bell.refresh_from_db(fields=["undone_at"])
        if bell.kind == Bell.Kind.BELL:
            Round.objects.filter(pk=bell.round_id).update(
                state=Round.State.RUNG,
                waiting_for="",
                deadline=None,
                reopened=Round.Reopened.HOST,
                clock_version=F("clock_version") + 1,
            )
        _seats_back(evening, bell)
        if evening.stage == Evening.Stage.ENDED:
            final_counts_drop(evening=evening)
            evening.stage = Evening.Stage.PLAYING
            evening.save(update_fields=["stage"])
        audit_log(
            evening=evening,
            action="bell.undo",
            user=user,
            device=device,
            round=bell.round.number,
            kind=bell.kind,
            guest_id=bell.record.get("guest") if bell.kind != Bell.Kind.BELL else None,
        )
        evening_touch(evening=evening)
    return bell


def _seats_back(evening: Evening, bell: Bell) -> None:
    """After ``bell`` was marked undone: the seats go back to before it, as the evening's format
    says (``FormatPlugin.bell_undone``)."""
    format_for(evening).bell_undone(evening=evening, bell=bell)


def _bell_to_undo(*, evening: Evening, bell_id: int | None) -> Bell:
    """The evening's last live step (a round's bell, or a guest's arrival or departure:
    ``StepQuerySet.newest_first``), which ``bell_undo`` may undo (its round loaded). Raises
    ``RuleError`` when there is none, when it is not ``bell_id`` (given: the step the host's page
    offered; that step is undone already, or a later one was taken: the message names the step
    the board offers now), or when a later round started. Inside ``bell_undo``'s transaction
    (the evening locked)."""
    steps = Bell.objects.of_evening(evening.pk).select_related("round")
    bell = steps.live().newest_first().first()
    if bell_id is not None and (bell is None or bell.pk != bell_id):
        asked = steps.filter(pk=bell_id).first()
        now = " The last step now is {now}." if bell is not None else ""
        if asked is not None and asked.undone_at is not None:
            raise RuleError(
                "{step} is undone already: nothing more was undone." + now,
                step=bell_words(asked),
                now=step_words_of(bell) if bell is not None else "",
            )
        raise RuleError(
            "The last step is not the one that page showed: nothing was undone." + now + " Look at the board again.",
            now=step_words_of(bell) if bell is not None else "",
        )
    if bell is None:
        raise RuleError("No bell has rung yet, so there is nothing to undo.")
    if evening.rounds.filter(number__gt=bell.round.number).exists():
        raise RuleError(
            "Round {round} has started: correct results instead of undoing.", rounds=(bell.round.number + 1,)
        )
    return bell


STEP_NOUNS: dict[str, str] = {Bell.Kind.LEAVE: "departure", Bell.Kind.ARRIVE: "arrival", Bell.Kind.SEAT: "seat change"}
"""A guest's step in words, by ``Bell.kind`` (after "Ann's "); any other kind is a "step"."""


def round_when(*, round_number: int, after_bell: bool) -> str:
    """When a step between or during rounds takes effect, as the host reads it: "before round 3"
    for a step made after round 2's bell (``after_bell``), "during round 2" for one made while
    round 2 was in play. Pure; raises nothing. House rule (issue 22): a step attached to the
    newest round is named by the round it is for, never by a bare "(round 2)"."""
    return f"before round {round_number + 1}" if after_bell else f"during round {round_number}"


def step_after_bell(bell: Bell) -> bool:
    """True when ``bell`` (a stored step) was made after its round's bell had rung (one query):
    the step is for the next round. A round's bell itself is never after its own bell."""
    if bell.kind == Bell.Kind.BELL:
        return False
    return Bell.objects.filter(
        round_id=bell.round_id, kind=Bell.Kind.BELL, undone_at__isnull=True, pk__lt=bell.pk
    ).exists()


def step_words(*, kind: str, round_number: int, movers: Sequence[str] = (), after_bell: bool = False) -> str:
    """A step of the evening's history as the host reads it, to follow "Undo " or start a
    sentence: "round 2's bell" for a round's bell (kind "bell"); "Yara Young's arrival",
    "Yara Young's departure", "Yara Young's seat change" for a guest's step; "the swap of Ann
    and Gus" for a seat change that moved two guests; "the seat change in round 2" for one
    that moved nobody (or "before round 3" when it came after round 2's bell: ``after_bell``,
    ``round_when``). ``movers``: the names of the guests the step moved (``step_movers``).
    Pure; raises nothing. House rule (issue 22): undo names what it undoes."""
    if kind == Bell.Kind.BELL:
        return f"round {round_number}'s bell"
    if kind == Bell.Kind.SEAT and len(movers) == 2:
        return f"the swap of {movers[0]} and {movers[1]}"
    if kind == Bell.Kind.SEAT and not movers:
        return f"the seat change {round_when(round_number=round_number, after_bell=after_bell)}"
    return f"{movers[0] if movers else 'a guest'}'s {STEP_NOUNS.get(kind, 'step')}"


def step_movers(*, step_id: int, kind: str, guest: object, names: Mapping[int, str]) -> tuple[str, ...]:
    """The names of the guests a stored step moved, for ``step_words``: none for a bell; the
    guest of an arrival or a departure (``guest``: the record's guest id); every guest a seat
    change moved (its "seat" entries, one query). ``names``: guest id -> name."""
    if kind == Bell.Kind.BELL:
        return ()
    if kind == Bell.Kind.SEAT:  # the guest the host named first, then whoever else it moved
        ids = list(
            BellEntry.objects.filter(bell_id=step_id, kind="seat").order_by("id").values_list("guest_id", flat=True)
        )
        first = [int(str(guest))] if guest is not None and int(str(guest)) in ids else []
        return tuple(dict.fromkeys(names.get(g, "a guest") for g in first + ids))
    return (names.get(int(str(guest)), "a guest"),) if guest is not None else ()


def step_words_of(bell: Bell) -> str:
    """``step_words`` of a stored step (its round loaded). Three queries at most."""
    movers = step_movers(
        step_id=bell.pk, kind=bell.kind, guest=(bell.record or {}).get("guest"), names=guest_names(bell.round.evening)
    )
    after = not movers and step_after_bell(bell)
    return step_words(kind=bell.kind, round_number=bell.round.number, movers=movers, after_bell=after)


def bell_words(bell: Bell) -> str:
    """A stored step to start a sentence: "Round 2's bell", "Ann's departure", "Ann's arrival"
    (``step_words_of``, capitalised)."""
    words = step_words_of(bell)
    return words[:1].upper() + words[1:]


def bell_reopened_rings(*, evening: Evening, round_number: int, by: str, user=None, device: str = "") -> Round:
    """Choose what rings a reopened round's bell (one whose bell was undone): ``by`` = "host"
    (only the host's bell) or "head_pool" (the head table's next recorded result rings it, as
    the evening's rounds end; only for an evening that ends rounds at the head table's pool).
    Returns the round. Raises ``RuleError`` when round ``round_number`` is not reopened (its
    bell rang again, or a stale tab), for an unknown choice, or "head_pool" on an evening
    whose rounds end by the clock. House rule, issue 11 deliver 3."""
    if by not in (Round.Reopened.HOST, Round.Reopened.HEAD_POOL):
        raise RuleError("Choose who rings the bell: the host, or the head table's pool.")
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        rnd = evening.rounds.filter(number=round_number).first()
        if rnd is None or not rnd.reopened or rnd.state != Round.State.RUNG:
            raise RuleError(
                "Round {round} is not waiting for the host any more: nothing was changed.", rounds=(round_number,)
            )
        if by == Round.Reopened.HEAD_POOL and evening.round_end != Evening.RoundEnd.HEAD_POOL:
            raise RuleError("This evening ends rounds by the clock, so the head table's pool cannot ring the bell.")
        Round.objects.filter(pk=rnd.pk).update(reopened=by)
        rnd.reopened = by
        audit_log(evening=evening, action="bell.reopened", user=user, device=device, round=rnd.number, by=by)
        evening_touch(evening=evening)
    return rnd
