"""Captains, votes, the host's results, bells, undos and corrections racing on PostgreSQL: no request answers
5xx (no "deadlock detected"), and nothing is lost or doubled.

Real threads, each with its own database connection and its own Django test client, through the
real views, forms and services (``tournament.services.locks`` gives every service one lock
order: evening → round → result). Before that order, ``result_record`` locked the round and then
the table's result while ``captain_vote`` locked the result (with its round and evening) and then
the round, and about 1 in 100 requests of such a race answered 500.

PostgreSQL only (SQLite has one writer at a time, so nothing deadlocks there); CI runs it.
"""

from __future__ import annotations

import random
import threading
import uuid

import pytest
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse

from tests import fixtures_phones
from tournament.models import AuditEntry, Bell, Evening, Result, ResultVote, Round, Seat
from tournament.services import corrections
from tournament.services.state import OPEN_STATES, evening_state

pytestmark = pytest.mark.django_db(transaction=True)

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture

STEPS = 40  # requests per thread


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("Deadlocks need PostgreSQL's row locks: set DATABASE_URL=postgres://... (CI does).")


def live_round(evening_id: int) -> Round | None:
    return Round.objects.filter(evening_id=evening_id, state__in=OPEN_STATES).order_by("-number").first()


def table_of(guest_id: int, tables) -> int | None:
    return next((n for n, ids in enumerate(tables, 1) if guest_id in ids), None)


class Race:
    """The shared record of a race: every answer's status, and the 5xx with their errors."""

    def __init__(self, threads: int):
        self.start = threading.Barrier(threads)
        self.lock = threading.Lock()
        self.statuses: dict[int, int] = {}
        self.failures: list[str] = []

    def post(self, client: Client, path: str, data: dict) -> None:
        response = client.post(path, data)
        with self.lock:
            self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
            if response.status_code >= 500:
                error = getattr(response, "exc_info", None)
                self.failures.append(f"{path}: {response.status_code} {error[1]!r}" if error else path)


def captain(race: Race, evening: Evening, guest, seed: int) -> None:
    """A guest at a table other than the head table: reports their table's result, or confirms
    or disputes the result someone else reported."""
    rng, client = random.Random(seed), Client(raise_request_exception=False)
    try:
        race.start.wait(timeout=30)
        for _ in range(STEPS):
            rnd = live_round(evening.pk)
            tables = evening_state(Evening.objects.get(pk=evening.pk)).tables
            table = table_of(guest.pk, tables)
            if rnd is None or table is None or table == 1:
                race.post(client, reverse("guest-report", args=[guest.key]), {"round": "1", "table": "2"})
                continue
            live = Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True).first()
            if live is not None and live.reported_by_guest_id != guest.pk and rng.random() < 0.7:
                race.post(
                    client,
                    reverse("guest-vote", args=[guest.key]),
                    {"result": str(live.pk), "verdict": rng.choice(["confirm", "dispute"])},
                )
            else:
                winner = rng.choice(tables[table - 1])
                race.post(
                    client,
                    reverse("guest-report", args=[guest.key]),
                    {
                        "round": str(rnd.number),
                        "table": str(table),
                        "pool_winner": str(winner),
                        "request_id": uuid.uuid4().hex,
                    },
                )
    finally:
        close_old_connections()
        connection.close()


def correct(race: Race, client: Client, evening: Evening, rng: random.Random) -> None:
    """The host corrects a table's result in a round whose bell has rung (another winner)."""
    history = corrections.correction_rounds(Evening.objects.get(pk=evening.pk))
    if not history:
        race.post(client, reverse("host-corrections", args=[evening.pk]), {})
        return
    rung = rng.choice(history)
    table = rng.randrange(1, len(rung.tables) + 1)
    _, guests, result = rung.tables[table - 1]
    data = {"pool_winner": str(rng.choice(guests).pk)}
    if table == 1 and result is not None:
        data |= {f"counters_{g}": str(c) for g, c in result.counters.items()}
    race.post(client, reverse("host-correction", args=[evening.pk, rung.round.number, table]), data)


def host_tab(race: Race, evening: Evening, user, seed: int) -> None:
    """The host (two browser tabs run this): enters results at every table (replacing the
    captains'), rings the bell, undoes it, corrects an earlier result, and in the second half
    starts the next round."""
    rng, client = random.Random(seed), Client(raise_request_exception=False)
    client.force_login(user)
    try:
        race.start.wait(timeout=30)
        for step in range(STEPS):
            action = rng.choices(
                ["result", "ring", "undo", "correct", "start"], weights=[6, 1, 1, 1, 1 if step > STEPS // 2 else 0]
            )[0]
            rnd = live_round(evening.pk)
            if action == "correct":
                correct(race, client, evening, rng)
                continue
            if action != "result" or rnd is None:
                # A ring is the confirmation page's "ring anyway": with results missing or disputed
                # the board's button only asks first.
                extra = {"confirmed": "True"} if action == "ring" else {}
                race.post(client, reverse("host-round", args=[evening.pk]), {"action": action, **extra})
                continue
            state = evening_state(Evening.objects.get(pk=evening.pk))
            table = rng.randrange(1, len(state.tables) + 1)
            seated = state.tables[table - 1]
            data = {"round": str(rnd.number), "pool_winner": str(rng.choice(seated))}
            if table == 1:
                data |= {f"counters_{g}": str(state.counters[g]) for g in seated}
            race.post(client, reverse("host-result", args=[evening.pk, table]), data)
    finally:
        connection.close()


def test_captains_votes_results_bells_and_undos_race_without_a_server_error(postgresql, playing, host):
    evening = playing
    tables = evening_state(evening).tables
    guests = {g.pk: g for g in evening.guests.all()}
    captains = [guests[g] for table in tables[1:4] for g in table[:2]]
    race = Race(len(captains) + 2)
    threads = [threading.Thread(target=captain, args=(race, evening, g, n)) for n, g in enumerate(captains)]
    threads += [threading.Thread(target=host_tab, args=(race, evening, host, 100 + n)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a thread is still waiting (a lock never released?)"
    assert race.failures == [], race.failures
    assert sum(race.statuses.values()) == STEPS * len(threads), race.statuses

    # The race did what it was meant to: captains' and the host's results, votes, bells, undos
    # (or corrections, which undo and ring again).
    results = Result.objects.filter(round__evening=evening)
    assert results.filter(reported_by_guest__isnull=False).exists()
    assert results.filter(reported_by_user__isnull=False).exists()
    assert ResultVote.objects.filter(result__round__evening=evening).exists()
    bells = Bell.objects.filter(round__evening=evening, kind=Bell.Kind.BELL)
    assert bells.exists() and bells.filter(undone_at__isnull=False).exists()

    # Nothing lost or doubled: one audit entry per saved result, bell and undo (a correction's
    # entry names the bells it rang again); each captain's request saved at most once; the
    # seats are where the live bells put them.
    audit = AuditEntry.objects.filter(evening=evening)
    assert audit.filter(action__in=("result.record", "result.correct")).count() == results.count()
    replayed = sum(
        len(detail["replayed"]) for detail in audit.filter(action="result.correct").values_list("detail", flat=True)
    )  # a correction rings its round's bell and later ones again
    assert audit.filter(action="bell.ring").count() + replayed == bells.count()
    assert audit.filter(action="bell.undo").count() + replayed == bells.filter(undone_at__isnull=False).count()
    ids = [r for r in results.exclude(request_id="").values_list("request_id", flat=True)]
    assert len(ids) == len(set(ids))
    evening.refresh_from_db()
    seats = {}
    for guest_id, table in Seat.objects.filter(evening=evening).values_list("guest_id", "table"):
        seats.setdefault(table, set()).add(guest_id)
    assert seats == {n: set(ids) for n, ids in enumerate(evening_state(evening).tables, 1)}
