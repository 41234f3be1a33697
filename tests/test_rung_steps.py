"""The live steps of an evening at tables of four, each decoded once per process
(``tournament.formats.partnership.rung_steps``, issue 26 item 3): the board's first draw after a
change decodes only the bells it has not read, and whatever changes (a new bell, a correction of
an earlier round, an undo) the board, its last bunco, its moves and its seats are those computed
from nothing (``kept_forget``), never a stale bell's."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.test_corrections_formats import bunco, drawn, form_data, report_all
from tournament.formats.partnership.boards import FoursomeBoard, foursome_board
from tournament.formats.partnership.rung_steps import rung_steps
from tournament.formats.partnership.state import foursome_state
from tournament.kept import kept_forget
from tournament.models import Bell, Evening, Guest
from tournament.selectors.guest_boards import shared_board
from tournament.services.bell import bell_undo
from tournament.services.clock import round_start
from tournament.services.guests import guest_rename

pytestmark = pytest.mark.django_db


def _seen(board: FoursomeBoard) -> tuple:
    """What a page shows of ``board``: the seats with their tallies, the last bell's words and
    moves, the standings' lines and every prize's winners and reason."""
    return (
        [(t.number, [(s.player, dict(s.tallies)) for s in t.seats]) for t in board.tables],
        board.bell_round,
        board.bell_words,
        dict(board.moves),
        [(ln.place, ln.player, dict(ln.tallies), ln.table) for ln in board.standings.lines],
        [(p.prize.key, tuple(g.pk for g in p.winners), p.reason) for p in board.standings.prizes],
    )


def _last_bunco(board: FoursomeBoard) -> tuple[int, ...]:
    return next(tuple(g.pk for g in p.winners) for p in board.standings.prizes if p.prize.key == "last_bunco")


def _kept_and_afresh(evening: Evening) -> tuple[FoursomeBoard, FoursomeBoard]:
    """The board this process keeps for ``evening``'s version now, and the one computed from
    nothing (every kept step forgotten)."""
    now = Evening.objects.get(pk=evening.pk)
    kept = shared_board(now).family
    kept_forget()
    return kept, foursome_board(now)  # type: ignore[return-value]


def test_every_bell_correction_and_undo_gives_the_board_computed_from_nothing(make_evening, client, host):
    client.force_login(host)
    evening = drawn(make_evening, "bunco", 7, 7)
    first = foursome_state(evening).tables[0][0]  # North at the head table, round 1

    def with_bunco(player: int):
        return lambda seats: bunco(seats, buncos={str(player): 1}) if player in seats else bunco(seats)

    report_all(evening, with_bunco(first))
    kept, afresh = _kept_and_afresh(evening)
    assert _seen(kept) == _seen(afresh) and _last_bunco(afresh) == (first,)
    shared_board(Evening.objects.get(pk=evening.pk))  # round 1's bell decoded and kept

    second = next(p for p in foursome_state(evening).tables[1] if p > 0 and p != first)
    report_all(evening, with_bunco(second))  # round 2: a bunco elsewhere, the last of the night
    kept, afresh = _kept_and_afresh(evening)
    assert _seen(kept) == _seen(afresh) and _last_bunco(afresh) == (second,)
    assert kept.bell_round == 2
    page = client.get(reverse("host-standings", args=[evening.pk])).content.decode()
    shared_board(Evening.objects.get(pk=evening.pk))

    # A correction of round 2 takes the bunco back: the last bunco is round 1's again.
    round_two = Bell.objects.live().bells().of_evening(evening.pk).get(round__number=2)
    table = next(n for n, t in enumerate(round_two.record["before"], 1) if second in t)
    url = reverse("host-correction", args=[evening.pk, 2, table])
    data = form_data(client.get(url).content.decode())
    data |= {k: "0" for k in data if k.startswith("buncos_")}  # nobody rolled one there
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    kept, afresh = _kept_and_afresh(evening)
    assert _seen(kept) == _seen(afresh) and _last_bunco(afresh) == (first,)
    assert client.get(reverse("host-standings", args=[evening.pk])).content.decode() != page
    shared_board(Evening.objects.get(pk=evening.pk))

    # Undo round 2's (corrected) bell: the seats and tallies after round 1, round 1's moves.
    bell_undo(evening=Evening.objects.get(pk=evening.pk))
    kept, afresh = _kept_and_afresh(evening)
    assert _seen(kept) == _seen(afresh) and kept.bell_round == 1
    assert [tuple(s.player for s in t.seats) for t in kept.tables] == list(foursome_state(evening).tables)

    guest_rename(guest=Guest.objects.get(pk=first), name="Ann Renamed")  # no new step: nothing to decode
    kept, afresh = _kept_and_afresh(evening)
    assert _seen(kept) == _seen(afresh)
    assert "Ann Renamed" in [ln.name for ln in kept.standings.lines]


def test_a_bell_already_decoded_is_not_read_again(make_evening):
    evening = drawn(make_evening, "bunco", 7, 7)
    report_all(evening, bunco)
    report_all(evening, bunco)
    kept_forget()
    with CaptureQueriesContext(connection) as first:
        steps = rung_steps(evening)
    with CaptureQueriesContext(connection) as again:
        assert rung_steps(evening) == steps
    assert len(first.captured_queries) == 2 and len(again.captured_queries) == 1
    assert '"record"' in first.captured_queries[1]["sql"] and '"record"' not in again.captured_queries[0]["sql"]
    assert [b.round_number for b in steps.bells] == [1, 2]
    assert steps.state_after() == foursome_state(evening)


def test_the_standings_are_kept_while_what_they_read_is_unchanged(make_evening):
    """Between two bells a table's report changes the evening (its version) but not what the
    standings read: the board's first draw after it keeps them. A label of a pack, a guest's
    name or a bell changes what they read: they are computed again, as from nothing."""
    from django.db import transaction

    from tournament.formats.partnership.reports import foursome_report
    from tournament.services.versions import evening_touch

    evening = drawn(make_evening, "bunco", 7, 7)
    report_all(evening, bunco)
    rnd = round_start(evening=Evening.objects.get(pk=evening.pk))
    before = shared_board(Evening.objects.get(pk=evening.pk)).family
    foursome_report(round=rnd, table=1, report=bunco(foursome_state(evening).tables[0]))
    now = shared_board(Evening.objects.get(pk=evening.pk)).family
    assert now is not before and now.tables[0].result is not None  # the board is drawn again
    assert now.standings is before.standings  # its standings kept

    with transaction.atomic():
        Evening.objects.filter(pk=evening.pk).update(red_label="Hearts")
        evening_touch(evening=Evening.objects.get(pk=evening.pk))
    kept, afresh = _kept_and_afresh(evening)
    assert kept.standings is not now.standings and _seen(kept) == _seen(afresh)
    assert [p.title for p in kept.standings.prizes] == [p.title for p in afresh.standings.prizes]
    assert any("Hearts" in p.title for p in kept.standings.prizes)


def test_the_reports_made_from_their_rows_name_their_senders_as_the_orm_does(make_evening):
    """The board's reports, made from their rows with each reporter among the evening's guests
    and each scorer's link read once, say who sent them as reports read with their senders
    joined do: a player, a scorer's link, the host."""
    from tournament.formats.partnership.boards import _results
    from tournament.formats.partnership.reports import foursome_report
    from tournament.selectors.guest_boards import guests_read
    from tournament.services.helpers import helper_link_create

    evening = drawn(make_evening, "bunco", 7, 7)
    rnd = round_start(evening=evening)
    tables = foursome_state(evening).tables
    scorer = helper_link_create(evening=evening, role="scorer", label="Britt")
    foursome_report(round=rnd, table=1, report=bunco(tables[0]), reporter=Guest.objects.get(pk=tables[0][0]))
    foursome_report(round=rnd, table=2, report=bunco(tables[1]), helper=scorer)
    foursome_report(round=rnd, table=3, report=bunco(tables[2]))
    made = _results(rnd, guests_read(evening))
    joined = _results(rnd)
    senders = {n: r.sender() for n, r in made.items()}
    assert senders == {n: r.sender() for n, r in joined.items()}
    assert senders[1][1] == Guest.objects.get(pk=tables[0][0]).name and "Britt" in senders[2][0]
    assert senders[3] == ("the host", "")
    fields = [f.attname for f in made[1]._meta.concrete_fields]
    assert [[getattr(made[n], f) for f in fields] for n in made] == [
        [getattr(joined[n], f) for f in fields] for n in made
    ]


def test_the_bells_read_for_who_played_are_read_once_and_follow_an_undo(make_evening):
    """``services.prizes.live_bells`` (who played, every format) reads a bell's record once per
    process: the next read lists the live bells only; an undone bell is left out at once."""
    from tournament.services.prizes import live_bells

    evening = drawn(make_evening, "bunco", 7, 7)
    report_all(evening, bunco)
    report_all(evening, bunco)
    kept_forget()
    with CaptureQueriesContext(connection) as first:
        bells = live_bells(evening)
    with CaptureQueriesContext(connection) as again:
        assert live_bells(evening) == bells
    assert len(first.captured_queries) == 2 and len(again.captured_queries) == 1
    assert '"record"' not in again.captured_queries[0]["sql"]
    assert [b.record for b in bells] == [b.record for b in Bell.objects.live().bells().of_evening(evening.pk)]
    assert len(bells) == 2
    bell_undo(evening=Evening.objects.get(pk=evening.pk))
    assert live_bells(evening) == bells[:1]
