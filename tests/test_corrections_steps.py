"""Corrections after arrivals and departures, and after the ceremony (issue 22 items 3 and 4),
at Progressive Poker, through the host's pages: the corrections page lists each round once; a
round's form lists who sat at that table in that round; saving replays every later step; bad
input is refused with a message naming guests and rounds, and changes nothing; a correction
that changes an announced prize is shown first and saved only on confirmation."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tests.factories import GuestFactory
from tests.fixtures_bell import play, seat_by_names, tables_by_name
from tests.fixtures_ending import count_every_table
from tests.test_corrections import BOOBY, HEAD, MIDDLE, four_rounds
from tournament.models import AuditEntry, Bell, Evening, Guest, Result
from tournament.registry import format_for
from tournament.services import ending
from tournament.services.clock import round_start
from tournament.services.corrections import ConfirmCorrection, correction_rounds, result_correct
from tournament.services.naming import error_message


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def snapshot(evening: Evening) -> tuple:
    """Everything a correction may change: results, steps, seats, the ceremony, the audit."""
    return (
        sorted(Result.objects.filter(round__evening=evening).values_list("pk", "superseded_at")),
        sorted(Bell.objects.of_evening(evening.pk).values_list("pk", "undone_at")),
        sorted(evening.seats.values_list("guest_id", "table")),
        Evening.objects.get(pk=evening.pk).ceremony_step,
        AuditEntry.objects.filter(evening=evening).count(),
    )


def round_one_then_guests(make_evening):
    """Three tables of four; round 1 rung (M1 wins table 2); then Yara arrives late and B2
    leaves, between rounds: two steps after round 1's bell, on round 1."""
    evening = make_evening(0, 0, rounds_planned=4)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    play(
        evening,
        ids,
        {
            1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}),
            2: ("M1", [], {}),
            3: ("B1", [], {"B1": 60, "B2": 40, "B3": 50, "B4": 50}),
        },
    )
    fmt = format_for(evening)
    yara = GuestFactory(evening=evening, name="Yara Young", pack="red", status=Guest.Status.REGISTERED)
    fmt.seat_change(evening=evening, guest=yara, leaving=False, user=None, device="")
    leaver = Guest.objects.get(pk=ids["B2"])
    fmt.seat_change(evening=evening, guest=leaver, leaving=True, user=None, device="")
    ids["Yara Young"] = yara.pk
    return Evening.objects.get(pk=evening.pk), ids


def test_after_an_arrival_and_a_departure_round_1_is_listed_once_with_its_own_seats(make_evening, logged_in):
    evening, ids = round_one_then_guests(make_evening)
    assert Bell.objects.of_evening(evening.pk).live().count() == 3  # the bell, the arrival, the departure
    (history,) = correction_rounds(evening)
    assert history.round.number == 1 and history.bell.kind == Bell.Kind.BELL
    page = logged_in.get(reverse("host-corrections", args=[evening.pk])).content.decode()
    assert len(re.findall(r"<h2 id=\"r1-h\">Round 1 ", page)) == 1
    assert page.count("Round 1 <small>") == 1
    assert "Undo B2&#x27;s departure" in page  # the undo names the last step, whatever its kind
    form = logged_in.get(reverse("host-correction", args=[evening.pk, 1, 2])).content.decode()
    for name in MIDDLE:  # who sat at table 2 in round 1, its winner M1 included
        assert f'value="{ids[name]}"' in form, name
    assert f'value="{ids["B1"]}"' not in form  # B1 sat at table 3 in round 1 (and sits at table 2 now)
    assert f'value="{ids["Yara Young"]}"' not in form
    assert re.search(rf'value="{ids["M1"]}"[^>]*checked', form) or re.search(
        rf'checked[^>]*value="{ids["M1"]}"', form
    )  # pre-filled with what was reported


def test_after_an_arrival_and_a_departure_a_correction_replays_every_later_step(make_evening, logged_in):
    evening, ids = round_one_then_guests(make_evening)
    response = logged_in.post(reverse("host-correction", args=[evening.pk, 1, 2]), {"pool_winner": ids["M2"]})
    assert response.status_code == 302, response.content.decode()[:2000]
    live = list(Bell.objects.of_evening(evening.pk).live().in_order().values_list("kind", flat=True))
    assert live == ["bell", "arrive", "leave"]  # every step played again, in order
    assert Bell.objects.of_evening(evening.pk).exclude(undone_at=None).count() == 3
    tables = tables_by_name(evening, ids)
    # Round 1 worked by hand with M2 winning table 2: M2 goes up to the head table in place of
    # H4, who goes down to the booby table (fewest counters, not in the call); B1 comes up to
    # table 2 in M2's seat; then Yara arrives at the booby table and B2 leaves it, as they did.
    assert [set(t) for t in tables] == [
        {"H1", "H2", "H3", "M2"},
        {"M1", "B1", "M3", "M4"},
        {"H4", "B3", "B4", "Yara Young"},
    ]
    assert Guest.objects.get(pk=ids["Yara Young"]).status == Guest.Status.HERE
    assert Guest.objects.get(pk=ids["B2"]).status == Guest.Status.LEFT


def test_a_correction_naming_a_guest_who_sat_elsewhere_that_round_is_refused(make_evening, logged_in):
    evening, ids = round_one_then_guests(make_evening)
    before = snapshot(evening)
    page = logged_in.post(reverse("host-correction", args=[evening.pk, 1, 2]), {"pool_winner": ids["B1"]})
    assert page.status_code == 200
    assert "Choose who won the pool from the guests at this table." in page.content.decode()
    with pytest.raises(RuleError) as caught:  # the service refuses it too, naming the guest
        result_correct(evening=evening, round_number=1, table=2, pool_winner=ids["B1"])
    assert "B1" in error_message(caught.value, evening)
    assert snapshot(evening) == before


def test_a_correction_to_a_round_still_in_play_is_refused(make_evening, logged_in):
    evening, ids = round_one_then_guests(make_evening)
    round_start(evening=evening)
    before = snapshot(evening)
    with pytest.raises(RuleError, match="Round 2 is still in play"):
        result_correct(evening=evening, round_number=2, table=2, pool_winner=ids["M1"])
    page = logged_in.get(reverse("host-correction", args=[evening.pk, 2, 2]), follow=True).content.decode()
    assert "Round 2 is still in play: enter or change its results on the evening page." in page
    page = logged_in.post(
        reverse("host-correction", args=[evening.pk, 2, 2]), {"pool_winner": ids["M1"]}, follow=True
    ).content.decode()
    assert "Round 2 is still in play" in page
    assert snapshot(evening) == before


@pytest.mark.parametrize(("number", "table", "words"), [(7, 1, "Round 7 has no bell"), (1, 9, "with a table 9")])
def test_an_unknown_round_or_table_is_refused(make_evening, logged_in, number, table, words):
    evening, ids = round_one_then_guests(make_evening)
    before = snapshot(evening)
    url = reverse("host-correction", args=[evening.pk, number, table])
    for response in (logged_in.get(url, follow=True), logged_in.post(url, {"pool_winner": ids["M1"]}, follow=True)):
        assert response.status_code == 200 and words in response.content.decode()
    with pytest.raises(RuleError):
        result_correct(evening=evening, round_number=number, table=table, pool_winner=ids["M1"])
    assert snapshot(evening) == before


def test_saving_the_same_result_again_is_refused(make_evening, logged_in):
    evening, ids = round_one_then_guests(make_evening)
    before = snapshot(evening)
    page = logged_in.post(reverse("host-correction", args=[evening.pk, 1, 2]), {"pool_winner": ids["M1"]})
    assert "That is table 2’s result in round 1 already: nothing to correct." in page.content.decode().replace(
        "&#x27;", "’"
    ).replace("'", "’")
    assert snapshot(evening) == before


def ceremony_done(make_evening):
    """The worked evening of four rounds (``four_rounds``), played to its end, every table
    counted and every prize revealed: H1 has the most yellow counters (rounds 1 and 3)."""
    evening = make_evening(0, 0, rounds_planned=4)
    ids = four_rounds(evening)
    evening = Evening.objects.get(pk=evening.pk)
    assert evening.stage == Evening.Stage.ENDED
    count_every_table(evening)
    steps = ending.ceremony(evening).steps
    for step in range(steps):
        ending.ceremony_next(evening=evening, seen_step=step)
    evening = Evening.objects.get(pk=evening.pk)
    assert ending.ceremony(evening).finished
    most = next(p for p in ending.ceremony(evening).prizes if p.prize.key == "head_table")
    assert [g.name for g in most.winners] == ["H1"]
    return evening, ids


def test_after_the_ceremony_a_correction_that_changes_a_prize_is_shown_first_and_saved_on_confirmation(
    make_evening, logged_in
):
    evening, ids = ceremony_done(make_evening)
    most = next(p for p in ending.ceremony(evening).prizes if p.prize.key == "head_table").title
    finish = logged_in.get(reverse("host-finish", args=[evening.pk])).content.decode()
    assert "Every prize has been given" in finish
    room = reverse("room", args=[evening.public_key])
    assert 'data-slide="final"' in logged_in.get(room).content.decode()
    before = snapshot(evening)
    url = reverse("host-correction", args=[evening.pk, 3, 1])
    counters = {"H1": 75, "H2": 60, "H3": 35, "M2": 50}  # round 3's head table, H2 winning instead of H1
    data = {"pool_winner": ids["H2"], **{f"counters_{ids[n]}": c for n, c in counters.items()}}
    page = logged_in.post(url, data).content.decode()
    assert f"{most}: H1 → H2" in page and "Confirm and save the correction" in page
    assert snapshot(evening) == before  # shown, not saved
    token = re.search(r'name="confirm" value="([0-9a-f]+)"', page).group(1)
    stale = logged_in.post(url, {**data, "confirm": "0" * 16}).content.decode()
    assert "not what that page showed" in stale and snapshot(evening) == before
    response = logged_in.post(url, {**data, "confirm": token})
    assert response.status_code == 302
    evening = Evening.objects.get(pk=evening.pk)
    now = ending.ceremony(evening)
    winner = next(p for p in now.prizes if p.prize.key == "head_table")
    assert [g.name for g in winner.winners] == ["H2"]
    assert not now.finished and winner not in now.revealed  # the ceremony is open again for it
    assert all(p in now.revealed for p in now.prizes if p.prize.key != "head_table")  # the others stay given
    finish = logged_in.get(reverse("host-finish", args=[evening.pk])).content.decode()
    assert "Every prize has been given" not in finish
    shown = logged_in.get(room).content.decode()  # the room shows the last prize still given, not the end
    assert 'data-slide="final"' not in shown and 'data-slide="prize"' in shown
    ending.ceremony_next(evening=evening, seen_step=evening.ceremony_step)
    assert ending.ceremony(Evening.objects.get(pk=evening.pk)).next_prize is None


def test_after_the_ceremony_the_service_asks_for_confirmation_then_saves_with_its_token(make_evening):
    evening, ids = ceremony_done(make_evening)
    counters = {ids[n]: c for n, c in {"H1": 75, "H2": 60, "H3": 35, "M2": 50}.items()}
    with pytest.raises(ConfirmCorrection) as caught:
        result_correct(evening=evening, round_number=3, table=1, pool_winner=ids["H2"], counters=counters)
    assert any(change.endswith("H1 → H2") for change in caught.value.changes)
    step = Evening.objects.get(pk=evening.pk).ceremony_step
    done = result_correct(
        evening=evening, round_number=3, table=1, pool_winner=ids["H2"], counters=counters, confirm=caught.value.token
    )
    assert done.reopened and Evening.objects.get(pk=evening.pk).ceremony_step < step


def test_after_the_ceremony_the_correct_command_asks_for_the_confirmation_code(make_evening):
    from django.core.management import CommandError, call_command

    evening, ids = ceremony_done(make_evening)
    before = snapshot(evening)
    args = ["correct", str(evening.pk), "--round", "3", "--table", "1", "--winner", "H2"]
    args += [f"--counters={n}={c}" for n, c in {"H1": 75, "H2": 60, "H3": 35, "M2": 50}.items()]
    with pytest.raises(CommandError) as caught:
        call_command(*args)
    assert "H1 → H2" in str(caught.value) and snapshot(evening) == before
    code = re.search(r"--confirm ([0-9a-f]+)", str(caught.value)).group(1)
    call_command(*args, "--confirm", code)
    winner = next(p for p in ending.ceremony(Evening.objects.get(pk=evening.pk)).prizes if p.prize.key == "head_table")
    assert [g.name for g in winner.winners] == ["H2"]


def test_a_31_guest_night_round_1_then_a_late_guest_and_a_departure_corrects_table_2(host, logged_in):
    """The issue's night: 31 guests, round 1 rung, Yara seated late, a guest marked as left; the
    corrections page lists round 1 once; round 1 · table 2's form names exactly who sat there
    in round 1 (its winner included, nobody from table 3), and the correction saves."""
    from tests.factories import EveningFactory
    from tournament.services.clock import round_ring
    from tournament.services.draws import draw_digital

    evening = EveningFactory(host=host, rounds_planned=6, round_end=Evening.RoundEnd.CLOCK)
    for i in range(31):
        GuestFactory(evening=evening, name=f"Guest {i + 1:02}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    fmt = format_for(evening)
    rnd = round_start(evening=Evening.objects.get(pk=evening.pk), user=host)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    round_ring(evening=Evening.objects.get(pk=evening.pk), user=host)
    bell = Bell.objects.live().bells().of_evening(evening.pk).get()
    played = fmt.played_seats(bell)
    yara = GuestFactory(evening=evening, name="Yara Young", pack="red", status=Guest.Status.REGISTERED)
    fmt.seat_change(evening=evening, guest=yara, leaving=False, user=host, device="")
    leaver = Guest.objects.get(pk=played[3][0])
    fmt.seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    page = logged_in.get(reverse("host-corrections", args=[evening.pk])).content.decode()
    assert page.count("Round 1 <small>") == 1 and "Round 2 <small>" not in page
    winner = Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).pool_winner_id
    assert winner in played[1]
    form = logged_in.get(reverse("host-correction", args=[evening.pk, 1, 2])).content.decode()
    offered = {int(g) for g in re.findall(r'name="pool_winner" value="(\d+)"', form)}
    offered |= {int(g) for g in re.findall(r'value="(\d+)"[^>]*name="pool_winner"', form)}
    assert offered == set(played[1])  # the winner included, table 3's guests and Yara not
    other = next(g for g in played[1] if g != winner)
    response = logged_in.post(reverse("host-correction", args=[evening.pk, 1, 2]), {"pool_winner": other})
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).pool_winner_id == other
    assert other in fmt.state(evening).tables[0]  # the new winner went up to the head table
    assert [s.kind for s in Bell.objects.live().of_evening(evening.pk).in_order()] == ["bell", "arrive", "leave"]


def test_a_correction_keeps_the_time_each_later_step_was_taken(make_evening):
    """A step played again is the same step: the corrections page and the audit keep when the
    host rang the bell, not when the correction replayed it."""
    evening, ids = round_one_then_guests(make_evening)
    taken = list(Bell.objects.of_evening(evening.pk).live().in_order().values_list("kind", "rung_at"))
    Bell.objects.of_evening(evening.pk).update(rung_at=taken[0][1].replace(year=2020))
    taken = list(Bell.objects.of_evening(evening.pk).live().in_order().values_list("kind", "rung_at"))
    result_correct(evening=evening, round_number=1, table=2, pool_winner=ids["M2"])
    assert list(Bell.objects.of_evening(evening.pk).live().in_order().values_list("kind", "rung_at")) == taken


def test_a_tie_is_corrected_like_the_rest_of_the_result(make_evening, logged_in):
    """The correction form has the host's result form's tie (who split the pool), pre-filled,
    and a correction to a split pool keeps it (the bell moves the tied players as the rules
    say)."""
    evening, ids = round_one_then_guests(make_evening)
    url = reverse("host-correction", args=[evening.pk, 1, 2])
    form = logged_in.get(url).content.decode()
    assert "Split the pool with the winner" in form
    response = logged_in.post(url, {"pool_winner": ids["M2"], "tied": [ids["M3"]]})
    assert response.status_code == 302, response.content.decode()[:2000]
    live = Result.objects.get(round__evening=evening, round__number=1, table=2, superseded_at=None)
    assert (live.pool_winner_id, live.tied) == (ids["M2"], [ids["M3"]])
    again = logged_in.get(url).content.decode()
    assert re.search(rf'name="tied" value="{ids["M3"]}"[^>]*checked', again)


def test_the_corrections_page_offers_no_undo_once_a_later_round_started(make_evening, logged_in):
    """Undo takes back only a step of the last round played (``bell_undo``): once round 2 has
    started, the corrections page offers no undo that could only be refused."""
    evening, ids = round_one_then_guests(make_evening)
    url = reverse("host-corrections", args=[evening.pk])
    assert "Undo B2&#x27;s departure" in logged_in.get(url).content.decode()
    round_start(evening=evening)
    page = logged_in.get(url).content.decode()
    assert 'value="undo"' not in page
    assert "bell rung by the host at" in page  # how round 1's bell came, in words
