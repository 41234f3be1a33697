"""Helpers for the bell, correction and standings tests on the database (issue 4).

``seat_by_names`` seats an evening exactly as a test says (a recorded draw, so
``evening_state`` starts from it); ``play`` starts a round, records each table's result by
guests' names and rings the bell.
"""

from __future__ import annotations

from tournament.models import Bell, Draw, DrawnCard, Evening, Guest
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import seats_replace
from tournament.services.results import result_record


def seat_by_names(evening: Evening, tables: list[list[str]]) -> dict[str, int]:
    """Create the guests named in ``tables`` (table 1 first; red pack for even positions) and
    seat them there through a recorded draw. Returns name -> guest id."""
    ids: dict[str, int] = {}
    draw = Draw.objects.create(evening=evening, sizes=[len(t) for t in tables], complete=True)
    for number, names in enumerate(tables, 1):
        for i, name in enumerate(names):
            guest = Guest.objects.create(
                evening=evening, name=name, pack="red" if i % 2 == 0 else "blue", status=Guest.Status.HERE
            )
            DrawnCard.objects.create(draw=draw, guest=guest, pack=guest.pack, rank=number)
            ids[name] = guest.pk
    seats_replace(evening=evening, tables=[[ids[n] for n in names] for names in tables])
    Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.SEATED)
    evening.refresh_from_db()
    return ids


def play(evening: Evening, ids: dict[str, int], results: dict[int, tuple], *, cuts=None) -> Bell:
    """One round: ``results`` maps table -> (winner name, [names in the call], {name: counters});
    the bell rings (by the host, with ``cuts`` by name if given). Returns the bell."""
    rnd = round_start(evening=evening)
    for table, (winner, call, counters) in results.items():
        result_record(
            round=rnd,
            table=table,
            pool_winner=ids[winner] if winner else None,
            in_call=[ids[n] for n in call],
            counters={ids[n]: c for n, c in counters.items()},
        )
    bell = bell_ring(
        round_id=rnd.pk, cause=Bell.Cause.HOST, cuts={ids[n]: r for n, r in cuts.items()} if cuts else None
    )
    assert bell is not None, rnd.waiting_for
    return bell


def tables_by_name(evening: Evening, ids: dict[str, int]) -> list[list[str]]:
    """The evening's tables now (from its state), as names in seat order."""
    from tournament.services.state import evening_state

    names = {pk: name for name, pk in ids.items()}
    return [[names[g] for g in table] for table in evening_state(evening).tables]


def random_rounds(evening: Evening, rng, rounds: int) -> None:
    """Play ``rounds`` rounds with random valid results stored straight away: every table's
    winner at random, some tables without a result (they sit out), losses paid into the pool
    (some guests bust), counters at the head and booby tables always, elsewhere sometimes."""
    from tournament.models import Result, Round
    from tournament.services.state import evening_state

    for _ in range(rounds):
        state = evening_state(evening)
        rnd = round_start(evening=evening)
        rows = []
        for number, ids in enumerate(state.tables, 1):
            if number not in (1, len(state.tables)) and rng.random() < 0.15:
                continue
            winner = rng.choice(ids)
            counters, pot = {}, 0
            for g in ids:
                if g != winner:
                    lost = rng.choice([0, state.counters[g], rng.randint(0, state.counters[g])])
                    counters[str(g)] = state.counters[g] - lost
                    pot += lost
            counters[str(winner)] = state.counters[winner] + pot
            others = [g for g in ids if g != winner]
            call = rng.sample(others, rng.randint(0, len(others) - 1))
            keep = number in (1, len(state.tables)) or rng.random() < 0.5
            rows.append(
                Result(round=rnd, table=number, pool_winner_id=winner, in_call=call, counters=counters if keep else {})
            )
        Result.objects.bulk_create(rows)
        rung = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
        assert rung is not None, Round.objects.get(pk=rnd.pk).waiting_for
