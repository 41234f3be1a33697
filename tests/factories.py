"""factory_boy factories for the Django models used in tests."""

import datetime

import factory
from django.contrib.auth import get_user_model

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
