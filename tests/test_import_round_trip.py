"""Every export imports back (issue 24 deliver 5): an evening of each format (Progressive Poker,
Progressive Euchre, Drive Whist, Bunco) in each state a host can export it in (before the draw,
after it, during an open physical draw, mid-round, after a bell that rang with no result at a
table, after a bell undone, after a correction, after the prize ceremony) is exported, imported
and exported again; the two exports tell the same story, guest for guest.

The original's guests have ids from 900,001 so that the copy's (the next ids) never equal a
number of counters, points or tricks: the copy's export is read back into the original's ids by
replacing every copy guest id (a number, or a digit string as a key) with the original's guest
of the same name. Times, the rows' own ids and the evening's id are left out of the comparison.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management.color import no_style
from django.db import connection

from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_foursome_night import report_for
from tournament.exchange.export import evening_export
from tournament.exchange.importer import evening_import
from tournament.formats.partnership.reports import foursome_report, foursome_scorer_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest, HelperLink, Result
from tournament.registry import format_for
from tournament.services import ending
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_start
from tournament.services.corrections import correction_save, result_correct
from tournament.services.draw_physical import draw_physical_record, draw_physical_start
from tournament.services.draws import draw_digital
from tournament.services.helpers import helper_link_create, helper_link_revoke, scorer_report
from tournament.services.results import result_record
from tournament.services.state import current_round, evening_state

pytestmark = pytest.mark.django_db

FIRST_ID = 900_001
TIMES = {"created_at", "superseded_at", "rung_at", "undone_at", "started_at", "deadline", "ended_at"}


def _evening(fmt: str, guests: int) -> Evening:
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK, rounds_planned=3)
    for n in range(guests):
        GuestFactory(id=FIRST_ID + n, evening=evening, name=f"Player {n + 1:02}", pack=("red", "blue")[n % 2])
    with connection.cursor() as cursor:  # PostgreSQL's sequence does not see ids given: move it past them
        for sql in connection.ops.sequence_reset_sql(no_style(), [Guest]):
            cursor.execute(sql)
    return evening


def _drawn(evening: Evening) -> None:
    if evening.format == "poker":
        draw_digital(evening=evening)
    else:
        foursome_draw(evening=evening)


def _report(evening: Evening, rnd, number: int, *, ns_wins: bool = True, scorer: HelperLink | None = None) -> None:
    """A result at table ``number``: at poker its first guest wins the pool and, at the head
    table, takes 10 counters from its last; at tables of four ``report_for``'s report. Sent
    from ``scorer``'s link when given, else entered by the host."""
    if evening.format != "poker":
        seats = foursome_state(evening).tables[number - 1]
        report = report_for(evening.format, seats, ns_wins=ns_wins)
        if scorer is not None:
            foursome_scorer_report(link=scorer, round_number=rnd.number, table=number, report=report)
        else:
            foursome_report(round=rnd, table=number, report=report)
        return
    state = evening_state(evening)
    ids = state.tables[number - 1]
    counters = None
    if number == 1:
        counters = {g: state.counters[g] for g in ids}
        counters[ids[0]] += 10
        counters[ids[-1]] -= 10
    if scorer is not None:
        scorer_report(link=scorer, round_number=rnd.number, table=number, pool_winner=ids[0], counters=counters)
    else:
        result_record(round=rnd, table=number, pool_winner=ids[0], counters=counters)


def _round(evening: Evening, *, skip: tuple[int, ...] = ()) -> None:
    """A round reported at every table but ``skip`` (the head table last), rung by the host."""
    rnd = round_start(evening=evening)
    tables = len(foursome_state(evening).tables if evening.format != "poker" else evening_state(evening).tables)
    for number in range(tables, 0, -1):
        if number not in skip:
            _report(evening, rnd, number, ns_wins=number % 2 == 1)
    if current_round(evening) is not None and current_round(evening).pk == rnd.pk:
        bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)


def before_draw(evening: Evening) -> None:
    """Guests checked in, nothing drawn."""


def after_draw(evening: Evening) -> None:
    _drawn(evening)


def open_physical_draw(evening: Evening) -> None:
    """Poker: a digital draw in force and a physical draw being recorded (two cards drawn)."""
    _drawn(evening)
    if evening.format == "poker":
        draw_physical_start(evening=evening)
        first, second = Guest.objects.filter(evening=evening, pack="red").order_by("id")[:2]
        draw_physical_record(evening=evening, guest_id=first.pk, card="1 red")
        draw_physical_record(evening=evening, guest_id=second.pk, card="2 red")


def first_draw_physical(evening: Evening) -> None:
    """Poker: no draw yet, the first draw physical and being recorded (two cards drawn)."""
    if evening.format == "poker":
        draw_physical_start(evening=evening)
        first, second = Guest.objects.filter(evening=evening, pack="blue").order_by("id")[:2]
        draw_physical_record(evening=evening, guest_id=first.pk, card="1 blue")
        draw_physical_record(evening=evening, guest_id=second.pk, card="2 blue")


def mid_round(evening: Evening) -> None:
    """Round 1 rung, round 2 in play with a result at table 2 only."""
    _drawn(evening)
    _round(evening)
    rnd = round_start(evening=evening)
    _report(evening, rnd, 2)


def bell_without_a_result(evening: Evening) -> None:
    """Round 1's bell rung by the host with a result at table 1 only (the issue's example)."""
    _drawn(evening)
    _round(evening, skip=tuple(range(2, 20)))


def bell_waiting(evening: Evening) -> None:
    """Rounds end at the head table: round 1's table 2 reports, then the head table, whose
    report rings the bell; at tables of four the bell waits for the other tables' scores."""
    Evening.objects.filter(pk=evening.pk).update(round_end=Evening.RoundEnd.HEAD_POOL)
    evening.refresh_from_db()
    _drawn(evening)
    rnd = round_start(evening=evening)
    _report(evening, rnd, 2)
    _report(evening, rnd, 1)


def undone(evening: Evening) -> None:
    """Two rounds rung, the second bell undone."""
    _drawn(evening)
    _round(evening)
    _round(evening)
    bell_undo(evening=evening)


def corrected(evening: Evening) -> None:
    """Round 1 rung, then its table 2 corrected: at poker by the correction (its last guest won
    the pool), at tables of four by undoing the bell, reporting again, ringing, and a round 2."""
    _drawn(evening)
    _round(evening)
    if evening.format == "poker":
        before = Bell.objects.get(round__evening=evening, round__number=1).record["before"]["tables"]
        result_correct(evening=evening, round_number=1, table=2, pool_winner=before[1][-1])
        return
    bell_undo(evening=evening)
    _report(evening, current_round(evening), 2, ns_wins=True)
    bell_ring(round_id=current_round(evening).pk, cause=Bell.Cause.HOST)
    _round(evening)


def corrected_after_a_later_bell(evening: Evening) -> None:
    """Two rounds rung, then round 1's table 2 corrected to the other side's win: at tables of
    four the seats played in round 2 are kept (its bell ``as_played``); at poker (whose
    correction re-seats, and may be refused then) as ``corrected``, then a round 2."""
    if evening.format == "poker":
        corrected(evening)
        _round(evening)
        return
    _drawn(evening)
    _round(evening)
    _round(evening)
    bell = Bell.objects.live().bells().get(round__evening=evening, round__number=1)
    seats = format_for(evening).played_seats(bell)[1]
    done = correction_save(
        evening=evening, round_number=1, table=2, result=report_for(evening.format, seats, ns_wins=True)
    )
    assert done.seats_kept


def scorers(evening: Evening) -> None:
    """Issue 23: helpers' links (a door link, a scorer's with a label, one without, revoked
    after round 1) and results sent from them: round 1 rung with table 2 from the scorer
    without a label and the head table from Sven, round 2 in play with table 2 from Sven and
    the head table from the host."""
    helper_link_create(evening=evening, role="door", label="Britt at the door")
    sven = helper_link_create(evening=evening, role="scorer", label="Sven")
    other = helper_link_create(evening=evening, role="scorer")
    _drawn(evening)
    rnd = round_start(evening=evening)
    _report(evening, rnd, 2, scorer=other)
    _report(evening, rnd, 1, scorer=sven)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    helper_link_revoke(evening=evening, number=other.number)
    rnd = round_start(evening=evening)
    _report(evening, rnd, 2, scorer=sven)
    _report(evening, rnd, 1)


def after_the_ceremony(evening: Evening) -> None:
    """Every planned round played, the final count taken (poker), every prize revealed."""
    _drawn(evening)
    for _ in range(evening.rounds_planned - 1):
        _round(evening)
    _round(evening)  # the last round: its bell ends the evening
    if evening.format == "poker":
        for table in ending.final_count_tables(evening):
            ending.final_count_record(evening=evening, table=table.number, counters=table.prefill)
    evening = Evening.objects.get(pk=evening.pk)
    assert evening.stage == Evening.Stage.ENDED
    for step in range(ending.ceremony(evening).steps):
        ending.ceremony_next(evening=evening, seen_step=step)


STATES: list[Callable[[Evening], None]] = [
    before_draw,
    after_draw,
    open_physical_draw,
    first_draw_physical,
    mid_round,
    bell_without_a_result,
    bell_waiting,
    undone,
    corrected,
    corrected_after_a_later_bell,
    scorers,
    after_the_ceremony,
]
FORMATS = {"poker": 8, "euchre": 10, "whist": 12, "bunco": 11}


def _in_ids(value: Any, ids: dict[int, int]) -> Any:
    """``value`` (an export) with every guest id in ``ids`` replaced, times and row ids dropped."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in TIMES or key == "id":
                continue
            if isinstance(key, str) and key.lstrip("-").isdigit() and int(key) in ids:
                key = str(ids[int(key)])
            out[key] = _in_ids(item, ids)
        return out
    if isinstance(value, list):
        return [_in_ids(item, ids) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return ids.get(value, value)
    if isinstance(value, str) and value.isdigit() and int(value) in ids:
        return str(ids[int(value)])
    return value


def _told(evening: Evening) -> dict[str, Any]:
    return json.loads(json.dumps(evening_export(evening)))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("state", STATES, ids=lambda f: f.__name__)
def test_every_state_of_every_format_exports_and_imports_back(fmt, state):
    evening = _evening(fmt, FORMATS[fmt])
    state(evening)
    original = _told(Evening.objects.get(pk=evening.pk))
    copy = evening_import(data=original, host=evening.host)
    again = _told(copy)
    assert again["evening"]["name"] == f"{original['evening']['name']} (imported)"  # house rule: the copy says so
    again["evening"]["name"] = original["evening"]["name"]
    by_name = {g["name"]: g["id"] for g in original["guests"]}
    back = {g["id"]: by_name[g["name"]] for g in again["guests"]}
    assert min(back) > max(by_name.values())  # the copy's ids are all new
    theirs, ours = _in_ids(again, back), _in_ids(original, {})
    for key in ours:
        assert theirs[key] == ours[key], (key, _first_difference(theirs[key], ours[key], key))


def _first_difference(a: Any, b: Any, at: str) -> str:
    """Where two exports first differ, as a path, and the two values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{at}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{at}[{i}]")
    return f"{at}: copy {a!r} != original {b!r}"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_scorers_results_are_the_scorers_in_the_copy_and_an_older_file_imports_without_links(fmt):
    """Issue 23: the copy's results sent from a scorer's link are that link's (its new key, its
    label, revoked as it was); a file from before the links were exported (no
    ``helper_links``, no ``reported_by_helper``) still imports, its results the host's."""
    evening = _evening(fmt, FORMATS[fmt])
    scorers(evening)
    data = _told(Evening.objects.get(pk=evening.pk))
    assert [(link["number"], link["role"], link["label"]) for link in data["helper_links"]] == [
        (1, "door", "Britt at the door"),
        (2, "scorer", "Sven"),
        (3, "scorer", ""),
    ]
    copy = evening_import(data=data, host=evening.host)
    senders = Result.objects.filter(round__evening=copy).order_by("round__number", "table")
    said = [(r.round.number, r.table, r.sender_words()) for r in senders.select_related("round", "reported_by_helper")]
    assert said == [
        (1, 1, "the scorer Sven"),
        (1, 2, "the scorer (link 3)"),
        (2, 1, "the host"),
        (2, 2, "the scorer Sven"),
    ]
    links = {link.number: link for link in HelperLink.objects.filter(evening=copy)}
    originals = {link.number: link for link in HelperLink.objects.filter(evening=evening)}
    assert links[3].revoked_at is not None and links[2].revoked_at is None
    assert all(links[n].key != originals[n].key for n in links)  # keys are never exported: new ones
    for res in (res for rnd in data["rounds"] for res in rnd["results"]):
        res.pop("reported_by_helper")
    data.pop("helper_links")
    older = evening_import(data=data, host=evening.host)
    assert not HelperLink.objects.filter(evening=older).exists()
    assert not Result.objects.filter(round__evening=older, reported_by_helper__isnull=False).exists()
    assert Result.objects.filter(round__evening=older).count() == senders.count()


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_imported_evening_whose_last_bell_was_undone_rings_that_round_again(fmt):
    """The copy of an evening whose round 2 bell was undone waits for that bell as the original
    does, and the host rings it: the same seats come out as the original's ringing again."""
    evening = _evening(fmt, FORMATS[fmt])
    undone(evening)
    copy = evening_import(data=_told(Evening.objects.get(pk=evening.pk)), host=evening.host)
    for each in (evening, copy):
        rnd = current_round(each)
        assert rnd is not None and rnd.number == 2
        assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
    ours, theirs = _told(Evening.objects.get(pk=evening.pk)), _told(copy)
    names = {g["id"]: g["name"] for g in ours["guests"]} | {g["id"]: g["name"] for g in theirs["guests"]}
    assert [[names[g] for g in t["guests"]] for t in theirs["tables"]] == [
        [names[g] for g in t["guests"]] for t in ours["tables"]
    ]


def test_the_import_command_says_what_it_imported(db, host, tmp_path):
    import io

    from django.core.management import call_command

    evening = _evening("bunco", 11)
    after_draw(evening)
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(evening_export(evening)), encoding="utf-8")
    said = io.StringIO()
    call_command("import_evening", str(path), stdout=said)
    copy = Evening.objects.exclude(pk=evening.pk).get()
    assert said.getvalue().strip() == (
        f"Imported “{evening.name} (imported)” (Bunco, 11 guests) as evening {copy.pk}: the host finds it at /host/e/{copy.pk}/."
    )
