"""Signal receivers, connected by ``TournamentConfig.ready()`` (and only there)."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournament.models import Bell, Evening, Round
from tournament.services.clock import schedule_advance


@receiver(post_save, sender=Bell, dispatch_uid="headtable-auto-advance")
def bell_saved(sender: type[Bell], instance: Bell, created: bool, **kwargs: object) -> None:
    """After a new bell's transaction commits, queue the next round's start when the evening
    advances by itself (``schedule_advance``; the sweeper starts it anyway should this be missed).
    No query when the bell's round and evening are in hand (``_evening_in_hand``): an evening
    whose ``auto_advance`` is off schedules nothing."""
    if not created:
        return
    evening = _evening_in_hand(instance)
    if evening is not None:
        # The evening row is locked by the bell's service: an evening that does not advance by
        # itself now cannot start to before this commits, and switching it on schedules anyway.
        if evening.auto_advance:
            transaction.on_commit(lambda: schedule_advance(evening.pk))
        return
    evening_id = Round.objects.filter(pk=instance.round_id).values_list("evening_id", flat=True).first()
    if evening_id is not None:
        transaction.on_commit(lambda: schedule_advance(evening_id))


def _evening_in_hand(bell: Bell) -> Evening | None:
    """The evening of ``bell``'s round when the caller loaded both already (the bell made with
    its round, the round with its evening: ``services.locks.lock_round``), else None. No query."""
    if not Bell.round.is_cached(bell):
        return None
    rnd = bell.round
    return rnd.evening if Round.evening.is_cached(rnd) else None
