"""Sending a showdown's verdict as a table's pool winner.

The captain (or the host) enters the hands shown at a table on the showdown helper page; this
service decides the showdown again on the server with the evening's game and options
(``tables.formats.poker.showdown``), checks that the seat sent is one the verdict names as winner, and records
that guest as the table's pool winner (through the captains' or the host's result service), in
one transaction, with an audit entry keeping the hands and the verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django.db import transaction

from tables.errors import RuleError
from tables.formats.poker.showdown import ShowdownResult, showdown
from tournament.formats.poker.games import evening_game
from tournament.models import Guest, Result, Round
from tournament.services.audit import audit_log
from tournament.services.captains import captain_report
from tournament.services.locks import lock_evening
from tournament.services.results import result_record
from tournament.services.state import evening_state
from tournament.whole_numbers import ascii_whole_number


class SeatingChanged(RuleError):
    """The guests at the table are no longer those the hands were entered for."""


def showdown_decide(
    *, evening, hands: Sequence[str | None], dealer_seat: object, during_play: bool = False
) -> ShowdownResult:
    """Decide a showdown with the evening's game and options.

    ``during_play``: My Ship Sails before the second round of exchanges is over (only a flush of
    three ends the deal; see ``tables.formats.poker.showdown.showdown``).

    ``hands``: one text per seat in seat order ("AS KD 10H ..."; ``None`` or "" for a seat that
    shows no hand); ``dealer_seat``: the dealer's seat, 1-based (an int, or text from a form).
    Returns ``tables.formats.poker.showdown.ShowdownResult``. Raises ``RuleError`` subclasses naming the card
    or the seat (unknown card, a card given twice, wrong number of cards, the mistigris where it
    is not played, a dealer seat outside the table, no hand at all).
    """
    setting = evening_game(evening)
    dealer = dealer_seat
    if isinstance(dealer_seat, str):
        text = dealer_seat.strip()
        if not text:
            raise RuleError("Say who dealt: choose the dealer's seat (it decides ties and payments).")
        dealer = ascii_whole_number(text)
        if dealer is None:
            raise RuleError(f"The dealer's seat “{text[:10]}” is not a seat number: seats are 1 to {len(hands)}.")
    shown = [hand if hand and hand.strip() else None for hand in hands]
    return showdown(
        setting.game,
        shown,
        dealer_seat=dealer,  # type: ignore[arg-type]
        options=setting.options,
        during_play=during_play and setting.game.value == "my_ship_sails",
    )


def showdown_report(
    *,
    round: Round,
    table: int,
    seating: Sequence[int],
    hands: Sequence[str | None],
    dealer_seat: object,
    seat: int,
    in_call: Iterable[int] = (),
    counters: Mapping[int, int] | None = None,
    user=None,
    reporter: Guest | None = None,
    device: str = "",
    request_id: str = "",
) -> Result:
    """Record the guest at ``seat`` as the table's pool winner, as the showdown decides.

    ``seating``: the guest ids in seat order the hands were entered for (the page sends them
    back); ``hands``/``dealer_seat`` as for ``showdown_decide``; ``seat``: the seat sent as
    winner (1-based); ``in_call``/``counters``: as ``result_record`` takes them (the head
    table's counters); ``request_id``: the form's one-time id (a double tap saves once).
    A captain (``reporter``) reports through ``tournament.services.captains.captain_report``
    (their own table only, the first report stands, counters add up); the host (``user``)
    through ``result_record`` (replaces an earlier result). Returns the live ``Result``.

    Raises ``RuleError``: ``SeatingChanged`` when the table's guests are not ``seating`` any
    more (the bell has rung, or a guest left); a seat the verdict does not name as winner; and
    every error of ``showdown_decide``, ``captain_report`` and ``result_record`` (round closed,
    reporter not at the table, a result already in, counters missing, negative or not adding
    up). Nothing is saved then.
    """
    with transaction.atomic():
        lock_evening(round.evening_id)  # the lock order: tournament.services.locks
        evening = round.evening
        _seating_check(evening, table, seating)
        verdict = showdown_decide(evening=evening, hands=hands, dealer_seat=dealer_seat)
        if seat not in verdict.best:
            raise RuleError(f"Seat {seat} does not win this showdown: {verdict.verdict}")
        winner = seating[seat - 1]
        row = _winner_record(
            round,
            table,
            winner,
            in_call=in_call,
            counters=counters,
            user=user,
            reporter=reporter,
            device=device,
            request_id=request_id,
        )
        _showdown_log(evening, round, table, verdict, hands, seat, winner, user=user, reporter=reporter, device=device)
    return row


def _seating_check(evening, table: int, seating: Sequence[int]) -> None:
    """Raise ``RuleError`` when there is no table ``table``, and ``SeatingChanged`` when its
    guests are no longer ``seating`` (guest ids in seat order). One query (the evening's state)."""
    tables = evening_state(evening).tables
    if not 1 <= table <= len(tables):
        raise RuleError(f"There is no table {table} this evening: tables are 1 to {len(tables)}.")
    now = list(tables[table - 1])
    if list(seating) != now:
        raise SeatingChanged(
            f"The players at table {table} have changed since these hands were entered "
            "(the bell may have rung): open the showdown helper again."
        )


def _winner_record(
    round: Round,
    table: int,
    winner: int,
    *,
    in_call: Iterable[int],
    counters: Mapping[int, int] | None,
    user,
    reporter: Guest | None,
    device: str,
    request_id: str,
) -> Result:
    """Record ``winner`` as table ``table``'s pool winner: through ``captain_report`` for a
    captain (``reporter``), else through ``result_record`` for the host (``user``). Raises
    their ``RuleError``s."""
    if reporter is not None:
        return captain_report(
            guest=reporter,
            round_number=round.number,
            table=table,
            pool_winner=winner,
            in_call=in_call,
            counters=counters,
            request_id=request_id,
            device=device,
        )
    return result_record(
        round=round,
        table=table,
        pool_winner=winner,
        in_call=in_call,
        counters=counters,
        user=user,
        device=device,
        request_id=request_id,
    )


def _showdown_log(
    evening,
    round: Round,
    table: int,
    verdict: ShowdownResult,
    hands: Sequence[str | None],
    seat: int,
    winner: int,
    *,
    user,
    reporter: Guest | None,
    device: str,
) -> None:
    """Write the "showdown.report" audit entry: the game, the dealer's seat, the ``hands`` shown,
    the verdict and its winning seats, the ``seat`` sent and the guest recorded as ``winner``."""
    audit_log(
        evening=evening,
        action="showdown.report",
        user=user,
        guest=reporter,
        device=device,
        round=round.number,
        table=table,
        game=verdict.game.value,
        dealer_seat=verdict.dealer_seat,
        hands=[h or "" for h in hands],
        winners=list(verdict.best),
        seat=seat,
        pool_winner=winner,
        verdict=verdict.verdict,
    )
