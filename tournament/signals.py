"""Signal receivers, connected by ``TournamentConfig.ready()`` (and only there)."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournament.models import Bell, Round
from tournament.services.clock import schedule_advance


@receiver(post_save, sender=Bell, dispatch_uid="headtable-auto-advance")
def bell_saved(sender: type[Bell], instance: Bell, created: bool, **kwargs: object) -> None:
    """After a new bell's transaction commits, queue the next round's start when the evening
    advances by itself (``schedule_advance``; the sweeper starts it anyway should this be missed)."""
    if created:
        evening_id = Round.objects.filter(pk=instance.round_id).values_list("evening_id", flat=True).first()
        if evening_id is not None:
            transaction.on_commit(lambda: schedule_advance(evening_id))
