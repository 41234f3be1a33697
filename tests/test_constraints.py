"""The database refuses what the models refuse (issue 12 item 2): CHECK constraints for packs,
stages, states and kinds, positive stakes, minutes and rounds, non-negative counts and text
lengths, enforced by SQLite (which ignores ``max_length``) as well as PostgreSQL.

Each case saves one row straight through ``.objects.create`` (no form, no ``full_clean``) with
one bad value and expects the database's ``IntegrityError`` naming our constraint; the same
row with a good value is saved, so each case shows the boundary. Run on PostgreSQL with
``DATABASE_URL=postgres://...``: there a value longer than the column's ``varchar(n)`` is
refused even before the CHECK, with ``DataError`` ("value too long"), which the test accepts
on PostgreSQL only; a bad value that fits the column ("pink" for a pack) meets the CHECK.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

from tournament.models import (
    AuditEntry,
    Bell,
    BellEntry,
    Draw,
    DrawnCard,
    Evening,
    FinalCount,
    Guest,
    Result,
    ResultVote,
    Round,
    Seat,
)


@pytest.fixture
def rows(host):
    """One good row of each kind to hang the bad ones on."""
    evening = Evening.objects.create(host=host, name="Checks", date=datetime.date(2026, 11, 30))
    guest = Guest.objects.create(evening=evening, name="Ann", pack="red")
    draw = Draw.objects.create(evening=evening, sizes=[4, 4])
    rnd = Round.objects.create(evening=evening, number=1, started_at=timezone.now())
    result = Result.objects.create(round=rnd, table=1, pool_winner=guest)
    bell = Bell.objects.create(round=rnd, cause="host", record={}, state_after={})
    return {
        "host": host,
        "evening": evening,
        "guest": guest,
        "draw": draw,
        "round": rnd,
        "result": result,
        "bell": bell,
    }


def make(model, rows, **bad):
    """Save one row of ``model`` with good values except ``bad``."""
    e, g = rows["evening"], rows["guest"]
    good = {
        Evening: lambda: {"host": rows["host"], "name": "E", "date": datetime.date(2026, 1, 1)},
        Guest: lambda: {"evening": e, "name": "Bob", "pack": "blue"},
        Draw: lambda: {"evening": e, "sizes": [4, 4]},
        DrawnCard: lambda: {"draw": rows["draw"], "guest": g, "pack": "red", "rank": 1},
        Seat: lambda: {"evening": e, "guest": g, "table": 1},
        Round: lambda: {"evening": e, "number": 2, "started_at": timezone.now()},
        Result: lambda: {"round": rows["round"], "table": 2},
        ResultVote: lambda: {"result": rows["result"], "guest": g, "verdict": "confirm"},
        Bell: lambda: {"round": rows["round"], "kind": "leave", "cause": "host", "record": {}, "state_after": {}},
        BellEntry: lambda: {"bell": rows["bell"], "kind": "up", "guest": g},
        AuditEntry: lambda: {"evening": e, "action": "test"},
        FinalCount: lambda: {"evening": e, "table": 1, "counters": {}},
    }[model]()
    return model.objects.create(**{**good, **bad})


CASES = [
    (Evening, "evening_name_length", {"name": "x" * 121}, {"name": "x" * 120}),
    (Evening, "evening_name_length", {"name": ""}, {"name": "E"}),
    (Evening, "evening_game_length", {"game": "x" * 21}, {"game": "commerce"}),
    (Evening, "evening_format_length", {"format": ""}, {"format": "bunco"}),
    (Evening, "evening_stake_in_range", {"counters_per_stake": 0}, {"counters_per_stake": 1}),
    (Evening, "evening_stake_in_range", {"counters_per_stake": 10_001}, {"counters_per_stake": 10_000}),
    (Evening, "evening_minutes_in_range", {"minutes_per_round": 0}, {"minutes_per_round": 1}),
    (Evening, "evening_minutes_in_range", {"minutes_per_round": 181}, {"minutes_per_round": 180}),
    (Evening, "evening_rounds_in_range", {"rounds_planned": 0}, {"rounds_planned": None}),
    (Evening, "evening_rounds_in_range", {"rounds_planned": 101}, {"rounds_planned": 100}),
    (Evening, "evening_round_end_known", {"round_end": "never"}, {"round_end": "head_pool"}),
    (Evening, "evening_red_label_length", {"red_label": "x" * 41}, {"red_label": "x" * 40}),
    (Evening, "evening_blue_label_length", {"blue_label": ""}, {"blue_label": "B"}),
    (Evening, "evening_counter_value_not_negative", {"counter_value": -1}, {"counter_value": 0}),
    (Evening, "evening_stage_known", {"stage": "٣"}, {"stage": "ended"}),
    (Evening, "evening_ceremony_after_the_end", {"ceremony_step": 1}, {"ceremony_step": 1, "stage": "ended"}),
    (Evening, "evening_changeover_in_range", {"changeover_minutes": 61}, {"changeover_minutes": 60}),
    (Evening, "evening_warning_in_range", {"warning_seconds": 601}, {"warning_seconds": 600}),
    (
        Evening,
        "evening_pack_labels_differ",
        {"red_label": "Ladies", "blue_label": "LADIES"},
        {"red_label": "Ladies", "blue_label": "Gentlemen"},
    ),
    (Guest, "guest_pack_known", {"pack": "green"}, {"pack": "red"}),
    (Guest, "guest_pack_known", {"pack": "pink"}, {"pack": "blue"}),
    (Guest, "guest_name_length", {"name": "x" * 5000}, {"name": "x" * 120}),
    (Guest, "guest_name_length|guest_name_key_length", {"name": "   "}, {"name": " Bob "}),
    (Guest, "guest_status_known", {"status": "gone"}, {"status": "left"}),
    (Guest, "guest_contact_length", {"contact": "x" * 201}, {"contact": "x" * 200}),
    (Draw, "draw_kind_known", {"kind": "mental"}, {"kind": "physical"}),
    (DrawnCard, "drawncard_pack_known", {"pack": "green"}, {"pack": "blue"}),
    (DrawnCard, "drawncard_rank_positive", {"rank": 0}, {"rank": 13}),
    (DrawnCard, "drawncard_seat_known", {"seat": 4}, {"seat": 0}),
    (Seat, "seat_table_positive", {"table": 0}, {"table": 1}),
    (Seat, "seat_position_known", {"position": 4}, {"position": 3}),
    (Round, "round_state_known", {"state": "done"}, {"state": "closed"}),
    (Round, "round_number_positive", {"number": 0}, {"number": 3}),
    (Round, "round_waiting_for_length", {"waiting_for": "x" * 301}, {"waiting_for": "x" * 300}),
    (Round, "round_reopened_known", {"reopened": "maybe"}, {"reopened": "head_pool"}),
    (Result, "result_table_positive", {"table": 0}, {"table": 3}),
    (Result, "result_status_known", {"status": "lost"}, {"status": "disputed"}),
    (Result, "result_request_id_length", {"request_id": "x" * 65}, {"request_id": "x" * 64}),
    (ResultVote, "resultvote_verdict_known", {"verdict": "maybe"}, {"verdict": "dispute"}),
    (ResultVote, "resultvote_note_length", {"note": "x" * 301}, {"note": "x" * 300}),
    (Bell, "bell_kind_known", {"kind": "gong"}, {"kind": "arrive"}),
    (Bell, "bell_cause_known", {"cause": "wind"}, {"cause": "clock"}),
    (BellEntry, "bellentry_amount_not_negative", {"amount": -1}, {"amount": 0}),
    (BellEntry, "bellentry_rule_length", {"rule": "x" * 201}, {"rule": "x" * 200}),
    (BellEntry, "bellentry_text_length", {"text": "x" * 301}, {"text": "x" * 300}),
    (FinalCount, "finalcount_table_positive", {"table": 0}, {"table": 1}),
    (AuditEntry, "auditentry_action_length", {"action": ""}, {"action": "x" * 40}),
    (AuditEntry, "auditentry_device_length", {"device": "x" * 201}, {"device": "x" * 200}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model, constraint, bad, good", CASES, ids=[f"{c[1]}={str(next(iter(c[2].values())))[:12]}" for c in CASES]
)
def test_the_database_refuses_a_row_the_model_refuses(rows, model, constraint, bad, good):
    before = model.objects.count()
    with pytest.raises((IntegrityError, DataError)) as caught, transaction.atomic():
        make(model, rows, **bad)
    if isinstance(caught.value, DataError):  # PostgreSQL's varchar(n) refuses before the CHECK
        assert connection.vendor == "postgresql" and "value too long" in str(caught.value)
    else:  # SQLite and PostgreSQL both name the CHECK constraint that failed
        assert any(name in str(caught.value) for name in constraint.split("|"))
    assert model.objects.count() == before
    make(model, rows, **good)
    assert model.objects.count() == before + 1


@pytest.mark.django_db
def test_an_update_that_skips_save_is_refused_too(rows):
    guest = rows["guest"]
    with pytest.raises(IntegrityError, match="guest_name_key_length"), transaction.atomic():
        Guest.objects.filter(pk=guest.pk).update(name_key="")
    with pytest.raises(IntegrityError, match="guest_pack_known"), transaction.atomic():
        Guest.objects.filter(pk=guest.pk).update(pack="pink")
    guest.refresh_from_db()
    assert (guest.name_key, guest.pack) == ("ann", "red")


@pytest.mark.django_db
def test_every_check_constraint_has_a_case():
    from django.apps import apps
    from django.db.models import CheckConstraint

    declared = {
        c.name
        for model in apps.get_app_config("tournament").get_models()
        for c in model._meta.constraints
        if isinstance(c, CheckConstraint)
    }
    assert declared == {name for case in CASES for name in case[1].split("|")}


@pytest.mark.django_db
def test_full_clean_refuses_what_the_database_refuses(rows):
    from django.core.exceptions import ValidationError

    evening = Evening(
        host=rows["host"],
        name="E",
        date=datetime.date(2026, 1, 1),
        counters_per_stake=0,
        minutes_per_round=181,
        rounds_planned=0,
        stage="٣",
    )
    with pytest.raises(ValidationError) as caught:
        evening.full_clean()
    assert set(caught.value.message_dict) >= {"counters_per_stake", "minutes_per_round", "rounds_planned", "stage"}
    assert caught.value.message_dict["counters_per_stake"] == ["A stake is 1 counter or more."]


@pytest.mark.django_db
def test_two_pack_labels_alike_are_refused_in_one_set_of_words_everywhere(rows):
    """The evening form refused two labels alike, the import and the admin took them (found by a
    stranger trying the product): the rule is the model's (``Evening.clean_fields``,
    ``PACK_LABELS_SAME``), so ``full_clean`` (the admin, the import) and the form say the same,
    and the Python check of the constraints (``exchange.constraints``) reads it as the database."""
    from django.core.exceptions import ValidationError

    from tournament.exchange.constraints import Seen, constraint_errors
    from tournament.forms.evening import EveningForm
    from tournament.models import PACK_LABELS_SAME

    evening = Evening(host=rows["host"], name="E", date=datetime.date(2026, 1, 1), red_label="Ladies")
    for blue in ("Ladies", " ladies ", "LADIES"):
        evening.blue_label = blue
        with pytest.raises(ValidationError) as caught:
            evening.full_clean()
        assert caught.value.message_dict == {"blue_label": [PACK_LABELS_SAME]}
    evening.blue_label = "LADIES"
    assert constraint_errors(evening, Seen()) == {"__all__": [PACK_LABELS_SAME]}
    evening.blue_label = "Gentlemen"
    evening.full_clean()
    assert constraint_errors(evening, Seen()) == {}
    form = EveningForm(
        data={
            "name": "F",
            "date": "2026-12-04",
            "minutes_per_round": "10",
            "red_label": "Ladies",
            "blue_label": "ladies",
        }
    )
    assert not form.is_valid() and form.errors["blue_label"] == [PACK_LABELS_SAME]
