"""Evenings of any size for the room display and board tests: guests with names as long as real
ones (double-barrelled, accented), drawn, round 1 played at every table and rung, round 2 running."""

from __future__ import annotations

import itertools

from tournament.models import Bell, Evening, Guest
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import evening_state

FIRST = [
    "Mårten",
    "Anna",
    "Maximiliana",
    "Bo",
    "Chiamaka",
    "Jean-Baptiste",
    "Siobhán",
    "Wu",
    "Oluwaseun",
    "Ingrid",
    "Krzysztof",
    "Li",
    "Bartholomew",
    "Zoë",
    "Ali",
    "Guadalupe",
    "Henrietta",
    "Tomás",
    "Aleksandra",
    "Ed",
    "Nkechi",
    "Ferdinand",
    "Priya",
    "Håkon",
    "Yusuf",
    "Margarethe",
    "Ade",
    "Carmen",
    "Ruaidhrí",
    "Sun-hee",
    "Emmanuelle",
    "Olu",
]
LAST = [
    "Oyelaran-Castellanos",
    "Lind",
    "Fitzgerald",
    "Ng",
    "Wolańska-Brzęczyszczykiewicz",
    "Okafor",
    "Berg",
    "Papadopoulou",
    "Smith",
    "Van der Westhuizen",
    "Ó Súilleabháin",
    "Kim",
    "Abernathy",
    "Hughes",
    "Andersson",
    "Nakamura",
    "Dubois",
]


def guest_names(count: int) -> list[str]:
    """``count`` distinct names, the first ones the longest (so every size meets a long name)."""
    pairs = sorted(itertools.product(FIRST, LAST), key=lambda p: (-(len(p[0]) + len(p[1])), p))
    longest, rest = pairs[:4], pairs[4:]
    rest = rest[:: max(1, len(rest) // max(1, count))] + rest
    names, seen = [], set()
    for first, last in longest + rest:
        name = f"{first} {last}"
        if name not in seen:
            seen.add(name)
            names.append(name)
        if len(names) == count:
            return names
    raise ValueError(f"Only {len(names)} names for {count} guests.")


def played_evening(host, size: int, **fields) -> Evening:
    """An evening of ``size`` checked-in guests (half in each pack), drawn, round 1 reported at
    every table (the first guest at each wins the pool; head-table counters 60/40/50…) and rung,
    round 2 started."""
    evening = Evening.objects.create(
        host=host, name=f"The {size}-guest party", date="2026-11-30", minutes_per_round=20, **fields
    )
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=name,
                name_key=Guest.fold_name(name),
                pack="red" if i % 2 else "blue",
                status=Guest.Status.HERE,
            )
            for i, name in enumerate(guest_names(size))
        ]
    )
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    for number, ids in enumerate(evening_state(evening).tables, 1):
        counters = None
        if number == 1:
            counters = {g: 50 for g in ids}
            counters[ids[0]], counters[ids[-1]] = 60, 40
        result_record(round=rnd, table=number, pool_winner=ids[0], counters=counters)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    round_start(evening=evening)
    evening.refresh_from_db()
    return evening
