"""A recorded evening replayed from its JSON export: the known-answer test of the bell rules.

The importer rebuilds the evening from the draw and replays every bell through ``tables.formats.poker.bell``
with the recorded results and cuts; the export of the imported evening must tell the same story.
"""

import pytest

from tests.test_round_services import play_round
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import
from tournament.formats.poker.departures import guest_arrive, guest_depart
from tournament.models import Bell, Evening, Guest
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import evening_state


def by_name(data):
    """The export with guest ids replaced by names, and times dropped: comparable across imports."""
    names = {g["id"]: g["name"] for g in data["guests"]}
    return {
        "tables": [[names[g] for g in sorted(t["guests"], key=names.get)] for t in data["tables"]],
        "moves": sorted((m["round"], names[m["guest"]], m["from_table"], m["to_table"]) for m in data["moves"]),
        "stakes": sorted((s["round"], names[s["guest"]]) for s in data["stakes"]),
        "standings": [(names[s["guest"]], s["yellow"], s["counters"], s["counters_won"]) for s in data["standings"]],
        "prizes": [(p["key"], sorted(names[w] for w in p["winners"])) for p in data["prizes"]],
        "entries": [
            [
                (e["kind"], names[e["guest"]], e["from_table"], e["to_table"], e["amount"])
                for b in r["bells"]
                if not b["undone_at"]
                for e in b["entries"]
            ]
            for r in data["rounds"]
        ],
    }


def tied_round(evening):
    """A round where the head table's two players not in the call tie on counters (a cut)."""
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    head = state.tables[0]
    winner, caller, *rest = head
    counters = {g: state.counters[g] for g in head}
    counters[winner] += 10 * len(rest)
    for g in rest:
        counters[g] -= 10
    result_record(round=rnd, table=1, pool_winner=winner, in_call=[caller], counters=counters)
    for number, ids in enumerate(state.tables[1:], 2):
        result_record(round=rnd, table=number, pool_winner=ids[-1])
    return rnd


@pytest.mark.django_db
def test_an_exported_evening_replays_to_the_same_story(make_evening, host):
    evening = make_evening(9, 9, name="Recorded")
    draw_digital(evening=evening)
    for number in range(4):
        rnd = tied_round(evening) if number % 2 == 0 else play_round(evening)
        bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
        if number == 1:  # a guest leaves and a late one arrives between rounds 2 and 3
            guest_depart(evening=evening, guest=Guest.objects.get(pk=evening_state(evening).tables[1][0]))
            late = Guest.objects.create(evening=evening, name="Late Lottie", pack="blue")
            guest_arrive(evening=evening, guest=late)
    original = evening_export(evening)
    assert any(e["kind"] == "cut" for r in original["rounds"] for b in r["bells"] for e in b["entries"])
    copy = evening_import(data=original, host=host)
    assert copy.pk != evening.pk
    assert by_name(evening_export(copy)) == by_name(original)


@pytest.mark.django_db
def test_an_edited_export_is_refused_and_nothing_saved(make_evening, host):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = play_round(evening)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    data = evening_export(evening)
    table2 = next(r for r in data["rounds"][0]["results"] if r["table"] == 2)
    old_winner = table2["pool_winner"]
    table_two_guests = [c["guest"] for c in data["draws"][-1]["cards"] if c["rank"] == 2]
    table2["pool_winner"] = next(g for g in table_two_guests if g != old_winner)
    count = Evening.objects.count()
    with pytest.raises(EveningImportError, match="does not replay"):
        evening_import(data=data, host=host)
    assert Evening.objects.count() == count
    with pytest.raises(EveningImportError, match="not a Head Table evening"):
        evening_import(data={"schema": "other"}, host=host)
