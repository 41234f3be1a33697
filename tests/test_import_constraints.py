"""The import checks the models' constraints in Python (``tournament.exchange.constraints``,
issue 26 item 4) with the database's answers: every CHECK constraint of every model, over
boundary values and NULLs of the fields it reads, gives the verdict Django's own check gives by
asking the database; a row that repeats a unique key of the same import is refused with the
constraint's words at its place in the file, and nothing is saved."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from tests.test_round_services import play_round
from tournament.exchange.constraints import Seen, holds, violation
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import
from tournament.models import Bell, DrawnCard, Evening
from tournament.services.bell import bell_ring
from tournament.services.draws import draw_digital

pytestmark = pytest.mark.django_db


def fields_read(condition) -> set[str]:
    """The names of the fields a constraint's condition reads."""
    if isinstance(condition, Q):
        return set().union(*(fields_read(child) for child in condition.children))
    if isinstance(condition, tuple):
        return {condition[0].split("__")[0]}
    if isinstance(condition, F):
        return {condition.name}
    return set().union(*(fields_read(e) for e in condition.get_source_expressions() if e is not None))


def candidates(field: models.Field) -> list:
    """Values at and around every bound the constraints use, NULL, and every choice."""
    if isinstance(field, models.CharField | models.TextField):
        values = [None, "", "a", *("a" * n for n in (39, 40, 41, 63, 64, 65, 119, 120, 121, 199, 200, 201, 300, 301))]
        return values + [value for value, _ in field.choices or ()] + ["not a choice"]
    if isinstance(field, models.DecimalField):
        return [None, Decimal("-0.01"), Decimal("0"), Decimal("1.50")]
    if isinstance(field, models.IntegerField):
        return [None, -1, 0, 1, 2, 3, 4, 100, 101, 180, 181, 10_000, 10_001]
    return [None]


CHECKS = [
    (model, constraint)
    for model in apps.get_app_config("tournament").get_models()
    for constraint in model._meta.constraints
    if isinstance(constraint, models.CheckConstraint)
]


@pytest.mark.parametrize("model,constraint", CHECKS, ids=[c.name for _, c in CHECKS])
def test_each_check_constraint_gives_the_databases_verdict(model, constraint):
    names = sorted(fields_read(constraint.condition))
    fields = [model._meta.get_field(name) for name in names]
    tried = 0
    for values in itertools.product(*(candidates(field) for field in fields)):
        row = model(**{field.attname: value for field, value in zip(fields, values, strict=True)})
        try:
            constraint.validate(model, row)  # Django: SELECT 1 WHERE <condition> with the row's values
            database = True
        except ValidationError:
            database = False
        assert (holds(row, constraint.condition) is not False) == database, (constraint.name, values)
        tried += 1
    assert tried >= 4


def test_every_constraint_of_every_model_is_read_in_python():
    seen = Seen()
    for model in apps.get_app_config("tournament").get_models():
        for constraint in model._meta.constraints:
            violation(model(), constraint, seen)  # raises no Unknown: none is left to the database


@pytest.fixture
def export(make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    return evening_export(evening)


def test_a_guest_drawn_twice_in_one_draw_is_refused_in_words(export, host):
    export["draws"][0]["cards"][1]["guest"] = export["draws"][0]["cards"][0]["guest"]
    before = Evening.objects.count()
    with pytest.raises(EveningImportError) as refused:
        evening_import(data=export, host=host)
    assert (
        str(refused.value)
        == "Card 2 of draw 1 in the file: This guest holds a card of this draw already: one card each."
    )
    assert Evening.objects.count() == before


def test_two_live_results_for_one_table_are_refused_in_words(export, host):
    results = export["rounds"][0]["results"]
    results.append(dict(results[0]))
    with pytest.raises(EveningImportError) as refused:
        evening_import(data=export, host=host)
    place = f"Result {len(results)} of round 1 in the file"
    assert str(refused.value) == f"{place}: This table has a result for this round already (one live result each)."


def test_a_superseded_result_may_share_its_table_with_the_live_one(export, host):
    results = export["rounds"][0]["results"]
    results.insert(0, {**results[0], "superseded_at": "2026-11-30T20:00:00+00:00"})
    copy = evening_import(data=export, host=host)
    assert DrawnCard.objects.filter(draw__evening=copy).count() == 12
    assert copy.rounds.get().results.filter(superseded_at__isnull=False).count() == 1
