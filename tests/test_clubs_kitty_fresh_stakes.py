"""Fresh stakes through the kitty (issue 25 item 3; Foster, docs/rules/progressive-poker.md
'Prizes': counters won are counters held minus every stake taken): a Progressive Poker club
evening with a money value, where a guest busts at the head table and takes a fresh stake, is
settled with that stake charged against them."""

from __future__ import annotations

import datetime
from decimal import Decimal

from clubs import kitty
from clubs.ledger import settlement_sheet
from tables.kitty import Payout
from tests.fixtures_bell import play
from tests.fixtures_clubs import bunco_club, club_evening
from tests.fixtures_ending import count_every_table
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.services.draws import seats_replace
from tournament.services.prizes import evening_standings
from tournament.services.state import evening_state


def test_a_guest_who_busts_pays_for_the_fresh_stake_at_the_settlement(db, host):
    club = bunco_club(host, name="Poker club", format="poker")
    tables = [["Ann", "Bob", "Cy", "Di"], ["Eve", "Fay", "Gus", "Hal"]]
    subs = "\n".join(f"{name}, {'red' if i % 2 == 0 else 'blue'}" for t in tables for i, name in enumerate(t))
    evening = club_evening(club, host, datetime.date(2026, 3, 5), members=[], subs=subs)
    Evening.objects.filter(pk=evening.pk).update(counter_value=Decimal("0.10"), rounds_planned=2)
    evening = Evening.objects.get(pk=evening.pk)
    evening.guests.update(status=Guest.Status.HERE)
    ids = dict(evening.guests.values_list("name", "pk"))
    draw = Draw.objects.create(evening=evening, sizes=[4, 4], complete=True)
    for number, names in enumerate(tables, 1):
        for name in names:
            guest = Guest.objects.get(pk=ids[name])
            DrawnCard.objects.create(draw=draw, guest=guest, pack=guest.pack, rank=number)
    seats_replace(evening=evening, tables=[[ids[n] for n in names] for names in tables])
    Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.SEATED)
    evening = Evening.objects.get(pk=evening.pk)
    # Round 1, stake 50 each: Ann takes Di's whole stake at the head table; Di goes bust.
    play(evening, ids, {1: ("Ann", [], {"Ann": 100, "Bob": 50, "Cy": 50, "Di": 0}), 2: ("Eve", [], {})})
    # Round 2 (the last): Di has a fresh stake of 50 at the booby table; the head table's counts stand.
    state = evening_state(Evening.objects.get(pk=evening.pk))
    names = {pk: name for name, pk in ids.items()}
    head = {names[g]: state.counters[g] for g in state.tables[0]}
    play(evening, ids, {1: (names[state.tables[0][0]], [], head), 2: (names[state.tables[1][0]], [], {})})
    evening = Evening.objects.get(pk=evening.pk)
    count_every_table(evening)
    lines = {line.guest.name: line.row for line in evening_standings(evening).lines}
    assert lines["Di"].stakes == 2, "Di went bust and took a fresh stake"
    won = {name: row.counters_won for name, row in lines.items()}
    assert won["Di"] == lines["Di"].counters - 100  # both stakes charged
    kitty.kitty_set(evening=evening, fee=0, payouts=(Payout("booby", "Booby", cents=0),))
    sheet = kitty.evening_settle(evening=evening)
    page = {line.name: line for line in settlement_sheet(evening).lines}
    assert page["Di"].paid == -won["Di"] * 10  # 10 cents a counter, the fresh stake charged
    assert "fresh stakes charged" in page["Di"].words
    assert sheet.paid_out + sheet.carried == sheet.collected
