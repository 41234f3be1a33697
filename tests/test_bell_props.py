"""Property tests: random evenings of 8 to 200 guests and 1 to 30 rounds, random valid results.

After every bell: table sizes kept, every guest seated exactly once, counters conserved except
fresh stakes (and late guests' stakes); replaying the records reproduces them and the
standings; every record and state survives a JSON round trip.
"""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.formats.poker.bell import (
    Arrival,
    BellOptions,
    BellRecord,
    Departure,
    EveningState,
    RoundInput,
    TableResult,
    input_of,
    replay,
    rerun,
    ring_bell,
)
from tables.formats.poker.bell.options import CHOICES
from tables.formats.poker.prizes import standings

STAKE = 50

options_strategy = st.builds(BellOptions, **{name: st.sampled_from(choices) for name, choices in CHOICES.items()})


@st.composite
def layouts(draw):
    """Head and booby tables of 4, middle tables of 4 to 7; 8 to 200 guests."""
    middle = draw(st.lists(st.integers(4, 7), min_size=0, max_size=40))
    while 8 + sum(middle) > 200:
        middle.pop()
    sizes = [4, *middle, 4]
    guests = iter(draw(st.permutations(range(1, sum(sizes) + 1))))
    return [[next(guests) for _ in range(size)] for size in sizes]


def deal(state, rnd, options, *, last_round):
    """Random, valid results for one round; each reported table's counters add up."""
    results = []
    for number, table in enumerate(state.tables, start=1):
        reports = number == 1 or last_round or rnd.random() < 0.7
        if number == state.booby and options.booby_unknown == "refuse":
            reports = True
        has_winner = number == 1 or options.no_result == "hold" or rnd.random() < 0.85
        if not has_winner and not reports:
            continue
        winner = rnd.choice(table) if has_winner else None
        counts = {}
        if reports:
            pot = 0
            for guest in table:
                if guest != winner:
                    lost = rnd.choice([0, state.counters[guest], rnd.randint(0, state.counters[guest])])
                    counts[guest] = state.counters[guest] - lost
                    pot += lost
            if winner is not None:
                counts[winner] = state.counters[winner] + pot
            else:
                counts[table[0]] += pot
        others = [g for g in table if g != winner]
        call = frozenset(rnd.sample(others, rnd.randint(0, len(others)))) if has_winner else frozenset()
        tied = frozenset(rnd.sample(others, 1)) if has_winner and rnd.random() < 0.1 else frozenset()
        results.append(TableResult(number, winner, call, counts, tied))
    return results


def check_invariants(before, record, sizes_kept):
    after = record.after
    after.check()
    seated = [guest for table in after.tables for guest in table]
    assert len(seated) == len(set(seated))
    assert all(len(table) >= 3 for table in after.tables)
    if sizes_kept:
        assert [len(t) for t in after.tables] == [len(t) for t in before.tables]
        assert set(seated) == before.seated()
    assert after.total_counters() == STAKE * sum(after.stakes.values())
    assert not [w for w in record.warnings if w.startswith("Counters at table")]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tables=layouts(),
    rounds=st.integers(1, 30),
    options=options_strategy,
    seed=st.integers(0, 2**32),
    with_guests=st.booleans(),
)
def test_random_evenings_keep_every_invariant_and_replay_exactly(tables, rounds, options, seed, with_guests):
    rnd = random.Random(seed)
    start = EveningState.start(tables, stake=STAKE)
    state = start
    records = []
    steps = []
    next_guest = 1000
    for number in range(1, rounds + 1):
        if with_guests and rnd.random() < 0.2:
            if rnd.random() < 0.5 and len(state.seated()) > 9:
                step = Departure(rnd.choice(sorted(state.seated())))
                (record,) = replay(state, [step], stake=STAKE, options=options, rng=rnd)
            else:
                step = Arrival(next_guest)
                next_guest += 1
                (record,) = replay(state, [step], stake=STAKE, options=options)
            check_invariants(state, record, sizes_kept=False)
            records.append(record)
            state = record.after
        last = number == rounds
        results = deal(state, rnd, options, last_round=last)
        record = ring_bell(state, results, stake=STAKE, options=options, rng=rnd, last_round=last)
        check_invariants(state, record, sizes_kept=True)
        if last:
            assert record.after.tables == state.tables
        records.append(record)
        state = record.after
    records = tuple(records)
    steps = [input_of(record) for record in records]
    assert replay(start, steps, stake=STAKE, options=options) == records
    assert rerun(records) == records
    packs = {guest: "red" if guest % 2 else "blue" for guest in state.counters}
    replayed = replay(start, steps, stake=STAKE, options=options)[-1].after
    assert standings(replayed, packs, stake=STAKE) == standings(state, packs, stake=STAKE)
    for record in records:
        assert BellRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert EveningState.from_json(json.loads(json.dumps(state.to_json()))) == state


@settings(max_examples=40, deadline=None)
@given(tables=layouts(), seed=st.integers(0, 2**32))
def test_undo_then_redo_gives_the_same_state(tables, seed):
    rnd = random.Random(seed)
    options = BellOptions()
    state = EveningState.start(tables, stake=STAKE)
    records = []
    for _ in range(3):
        record = ring_bell(state, deal(state, rnd, options, last_round=False), stake=STAKE, rng=rnd)
        records.append(record)
        state = record.after
    undone = records[-1].before
    assert undone == records[-2].after
    (redone,) = replay(undone, [input_of(records[-1])], stake=STAKE, options=options)
    assert redone == records[-1]
    assert isinstance(input_of(records[-1]), RoundInput)
