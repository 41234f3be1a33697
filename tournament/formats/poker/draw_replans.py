"""What the host is told when a guest is marked as left or checked in after Progressive Poker's
draw and before round 1 (``PokerFormat.seat_change``): the guest is marked, and the re-plan the
host confirms on the draw page is said in words (``services.draw_changes``: release, swap, seat
a latecomer). House rule (issue 22): who plays round 1 is the host's call, shown first."""

from __future__ import annotations

from django.db import transaction

from tables.errors import RuleError
from tournament.formats.poker.physical_draw import poker_free_seats, poker_plan_without_guest
from tournament.models import Evening, Guest
from tournament.services.audit import audit_log
from tournament.services.draw_changes import live_cards
from tournament.services.draws import lock_for_draw, stored_plan
from tournament.services.versions import evening_touch


def draw_guest_marked(*, evening: Evening, guest: Guest, leaving: bool, user=None, device: str = "") -> str:
    """After the draw and before round 1 at Progressive Poker: mark ``guest`` as left
    (``leaving``) or checked in, and say the re-plan the host confirms on the draw page (the
    seating changes only on the host's confirmation there: ``draw_release_guest``,
    ``draw_swap_guest``, ``draw_seat_latecomer``). Returns the words for the host, naming the
    guest and the table: "Ann is marked as left, but the draw still seats Ann at table 3. The
    re-plan: table 3 plays with 5 ... confirm it on the draw page before round 1." Raises
    ``RuleError`` (nothing saved) when there is no draw, round 1 has started, or the evening
    has ended. House rule (issue 22): who plays round 1 is the host's call, shown first."""
    with transaction.atomic():
        evening = lock_for_draw(evening)
        draw, cards = live_cards(evening)
        status = Guest.Status.LEFT if leaving else Guest.Status.HERE
        Guest.objects.filter(pk=guest.pk).update(status=status)
        guest.status = status
        audit_log(evening=evening, action="guest.status", user=user, device=device, guest_id=guest.pk, status=status)
        evening_touch(evening=evening)
    mine = next((c for c in cards if c.guest_id == guest.pk), None)
    plan = stored_plan(draw)
    if leaving:
        if mine is None:
            return f"{guest.name} is marked as left; they hold no seat in the draw."
        try:
            sizes = poker_plan_without_guest(plan, mine.rank).sizes
            replan = f"taking {guest.name} out leaves table {mine.rank} with {sizes[mine.rank - 1]}"
        except RuleError as error:
            replan = f"{guest.name} cannot simply be taken out ({error}), so give the seat to a latecomer or redraw"
        return (
            f"{guest.name} is marked as left, but the draw still seats {guest.name} at table {mine.rank}. "
            f"The re-plan: {replan}. Confirm it on the draw page before round 1."
        )
    if mine is not None:
        return f"{guest.name} is checked in; they already have a seat at table {mine.rank}."
    free = poker_free_seats(plan)
    where = (
        f"a free seat at table {' or '.join(map(str, free))}"
        if free
        else "no free seat: take a leaver's seat or redraw"
    )
    return (
        f"{guest.name} is checked in but has no seat in the draw yet. The re-plan: {where}. "
        "Confirm it on the draw page before round 1."
    )
