"""Property tests through the database services for every format at tables of four: random
evenings (4 to 22 guests, so ghosts too; random reports, some tables not reporting and cut)
played with ``foursome_report`` and ``bell_ring``. After every bell: everyone is seated once,
four to a table, each guest's ``Seat`` where the state says; partners change where the rules
say (Euchre and Bunco: no partnership survives a bell; Drive Whist: every partnership does);
the tallies add up (every player at a table that reported a win or a loss, at one cut for want
of a report neither, Euchre's stars are its wins, the
points, tricks and bunco points added are the reports'); and replaying the same reports and cuts
(the export imported again) gives the same evening. Rules: ``docs/rules/tables-of-four.md``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import EveningFactory, GuestFactory
from tournament.exchange.export import evening_export
from tournament.exchange.importer import evening_import
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Seat
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db


def _report(fmt: str, draw) -> dict:
    """A report the format allows, drawn with hypothesis's ``draw``."""
    if fmt == "whist":
        ns = draw(st.integers(0, 13))
        return {"tricks": {"NS": ns, "EW": 13 - ns}}
    top = 12 if fmt == "euchre" else 40
    ns, ew = draw(st.integers(0, top)), draw(st.integers(0, top))
    report = {"points": {"NS": ns, "EW": ew}}
    if ns == ew:
        report["playoff" if fmt == "euchre" else "rolloff"] = draw(st.sampled_from(["NS", "EW"]))
    return report


def _partners(tables) -> set[frozenset[int]]:
    return {frozenset((t[a], t[a + 2])) for t in tables for a in (0, 1)}


def _check_bell(fmt: str, evening: Evening, before, reports: dict[int, dict]) -> None:
    """Everything the module docstring says holds after one bell."""
    state = foursome_state(evening)
    players = [p for t in state.tables for p in t]
    assert len(players) == len(set(players)) == 4 * len(state.tables)
    assert sorted(players) == sorted(p for t in before.tables for p in t)
    seats = {s.guest_id: (s.table, s.position) for s in Seat.objects.filter(evening=evening)}
    assert seats == {p: (n, s) for n, t in enumerate(state.tables, 1) for s, p in enumerate(t) if p > 0}
    if len(state.tables) > 1:
        if fmt == "whist":
            assert _partners(state.tables) == _partners(before.tables)
        else:
            assert not _partners(state.tables) & _partners(before.tables)
    for number, table in enumerate(before.tables, 1):  # a table with no report is cut: it scores nothing
        for p in table:
            wins, losses = (state.tally(p, k) - before.tally(p, k) for k in ("wins", "losses"))
            assert (wins, losses) in (((1, 0), (0, 1)) if number in reports else ((0, 0),))
        if fmt == "euchre":
            assert state.tally(p, "stars") == state.tally(p, "wins")
    key = "tricks" if fmt == "whist" else "points"
    added = sum(state.tally(p, key) - before.tally(p, key) for p in players)
    assert added == sum(2 * sum(r[key].values()) for r in reports.values())


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(fmt=st.sampled_from(["euchre", "whist", "bunco"]), guests=st.integers(4, 22), data=st.data())
def test_random_evenings_seat_everyone_move_partners_add_up_and_replay(fmt, guests, data):
    rounds = data.draw(st.integers(1, 3))
    evening = EveningFactory(
        format=fmt,
        round_end=Evening.RoundEnd.CLOCK,
        rounds_planned=rounds,
        options={"format": {"prize_ties": "shared"}},
    )
    for n in range(guests):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack=data.draw(st.sampled_from(["red", "blue"])))
    foursome_draw(evening=evening)
    for _ in range(rounds):
        before = foursome_state(evening)
        rnd = round_start(evening=evening)
        reports = {n: _report(fmt, data.draw) for n in range(1, len(before.tables) + 1) if data.draw(st.booleans())}
        for table, report in reports.items():
            foursome_report(round=rnd, table=table, report=report)
        assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
        _check_bell(fmt, evening, before, reports)
    copy_ = evening_import(data=json.loads(json.dumps(evening_export(evening))), host=evening.host)
    names = dict(evening.guests.values_list("id", "name")) | dict(copy_.guests.values_list("id", "name"))

    def by_name(state):
        tables = [[names.get(p, p) for p in t] for t in state.tables]
        return tables, {names.get(p, p): dict(t) for p, t in state.tallies.items()}

    assert by_name(foursome_state(copy_)) == by_name(foursome_state(evening))
