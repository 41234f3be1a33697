"""factory_boy factories for the Django models used in tests."""

import datetime

import factory
from django.contrib.auth import get_user_model
from django.db.models import F

from tournament.models import Evening, Guest


class HostFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"host{n}")
    password = factory.django.Password("pass-word-123")


class EveningFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Evening

    host = factory.SubFactory(HostFactory)
    name = factory.Sequence(lambda n: f"Evening {n}")
    date = factory.LazyFunction(datetime.date.today)
    minutes_per_round = 10


class GuestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Guest

    evening = factory.SubFactory(EveningFactory)
    name = factory.Sequence(lambda n: f"Guest {n}")
    pack = factory.Iterator(["red", "blue"])
    status = Guest.Status.HERE

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        """Save the guest and bump its evening's version, as registering a guest does
        (``services.guests.guests_register``): a page kept per version shows the new guest."""
        guest = super()._create(model_class, *args, **kwargs)
        Evening.objects.filter(pk=guest.evening_id).update(version=F("version") + 1)
        return guest


def seat_tables_of_four(evening: Evening, tables: list[list[int]]) -> None:
    """Seat an evening at tables of four as worked by hand: a complete digital draw with these
    tables (ids at North, East, South, West; ghosts negative, who draw no card) and the seats,
    the evening marked seated. For hand-worked evenings, whose draw is not random."""
    from tournament.formats.partnership.state import foursome_seats_replace
    from tournament.models import Draw, DrawnCard

    draw = Draw.objects.create(
        evening=evening, kind=Draw.Kind.DIGITAL, sizes=[4] * len(tables), layout=tables, complete=True
    )
    DrawnCard.objects.bulk_create(
        DrawnCard(draw=draw, guest_id=g, pack="red" if s < 2 else "blue", rank=n, seat=s)
        for n, table in enumerate(tables, 1)
        for s, g in enumerate(table)
        if g > 0
    )
    foursome_seats_replace(evening=evening, tables=tables)
    Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.SEATED)
    evening.refresh_from_db()
