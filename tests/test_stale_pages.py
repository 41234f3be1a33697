"""Issue 22 item 7: every host action from a stale page is refused with what changed since the
page was drawn ("a stale button changes nothing and says why", docs/host-guide.md).

Each test opens the page as a host would (the Django test client), reads the ``seen`` mark its
form carries, changes the evening from another "tab", then presses the stale page's button:
refused with the change named from the audit log, nothing changed, never a 500. The house rule
(``tournament.selectors.stale``): the draw, the bell, starting a round and undo are refused on
any later change to the play; a guest's button only on a change to that guest; a correction
only on a step, the ceremony or that table's result.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_bell import play, seat_by_names
from tests.fixtures_ending import count_every_table, ended_evening
from tournament.models import AuditEntry, Bell, Draw, Evening, Guest, Result
from tournament.selectors.stale import TOPICS
from tournament.services.clock import round_start
from tournament.services.guests import guest_rename, guest_set_status
from tournament.services.results import result_record

HEAD, MIDDLE, BOOBY = ["Ann", "Bob", "Cy", "Di"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lu"]
SEEN = re.compile(r'name="seen" value="([0-9.]+)"')
STALE = re.compile(
    r"Nothing was changed: since this page was drawn, .+ \([0-9]{2}:[0-9]{2}\)\. Look at the page again\."
)


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def url(name: str, evening: Evening, *args) -> str:
    return reverse(name, args=[evening.pk, *args])


def seen_on(client, page_url: str) -> str:
    """Open ``page_url`` as a tab would and return the ``seen`` mark its forms carry (every
    form of one page carries the same)."""
    page = client.get(page_url)
    assert page.status_code == 200
    marks = set(SEEN.findall(page.content.decode()))
    assert len(marks) == 1, marks
    return marks.pop()


def said(response) -> list[str]:
    """The messages a POST queued (read without following the redirect)."""
    return [str(m) for m in get_messages(response.wsgi_request)]


def stale_message(response) -> str:
    """The one refusal a stale POST queued, checked for the house form of words."""
    refusals = [m for m in said(response) if m.startswith("Nothing was changed: since this page was drawn")]
    assert len(refusals) == 1, said(response)
    assert STALE.fullmatch(refusals[0]), refusals[0]
    return refusals[0]


def guests(evening: Evening, red: int, blue: int) -> None:
    for i in range(red):
        GuestFactory(evening=evening, name=f"Red {i + 1}", pack="red")
    for i in range(blue):
        GuestFactory(evening=evening, name=f"Blue {i + 1}", pack="blue")


def winner(round_number: int, table: int) -> int | None:
    """The pool winner of the live result of that round's table."""
    return Result.objects.get(round__number=round_number, table=table, superseded_at__isnull=True).pool_winner_id


def made_draws(evening: Evening) -> int:
    return AuditEntry.objects.filter(evening=evening, action="draw.digital").count()


# The draw ---------------------------------------------------------------------------------------


def test_the_issues_example_a_stale_draw_tab_does_not_draw_again(logged_in, host):
    """Open The draw in two tabs, deal in one, press "Deal the cards" in the other."""
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    first_tab, second_tab = seen_on(logged_in, url("host-draw", evening)), seen_on(logged_in, url("host-draw", evening))
    assert logged_in.post(url("host-draw", evening), {"action": "digital", "seen": first_tab}).status_code == 302
    seats = dict(evening.guests.values_list("pk", "seat__table"))
    response = logged_in.post(url("host-draw", evening), {"action": "digital", "seen": second_tab})
    assert response.status_code == 302 and response["Location"] == url("host-draw", evening)
    words = stale_message(response)
    assert "the host made the draw: 12 guests at 3 tables (" in words
    assert made_draws(evening) == 1 and Draw.objects.filter(evening=evening).count() == 1
    assert dict(evening.guests.values_list("pk", "seat__table")) == seats


def test_a_double_tap_of_deal_the_cards_draws_once(logged_in, host):
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    tab = seen_on(logged_in, url("host-draw", evening))
    logged_in.post(url("host-draw", evening), {"action": "digital", "seen": tab})
    again = logged_in.post(url("host-draw", evening), {"action": "digital", "seen": tab})
    assert "made the draw" in stale_message(again) and made_draws(evening) == 1


def test_the_draw_page_drawn_after_the_draw_may_deal_again_before_round_1(logged_in, host):
    """The check refuses a stale page only: the page as it is now redraws, as the guide says."""
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    logged_in.post(
        url("host-draw", evening), {"action": "digital", "seen": seen_on(logged_in, url("host-draw", evening))}
    )
    fresh = seen_on(logged_in, url("host-draw", evening))
    response = logged_in.post(url("host-draw", evening), {"action": "digital", "seen": fresh})
    assert response["Location"] == url("host-evening", evening) and made_draws(evening) == 2


def test_accept_this_plan_and_deal_with_a_draw_in_force_does_not_deal_again(logged_in, host):
    evening = EveningFactory(host=host)
    guests(evening, 5, 4)  # 9 guests: the relaxed plan is offered
    stale = seen_on(logged_in, url("host-draw", evening))
    page = logged_in.get(url("host-draw", evening)).content.decode()
    assert 'name="accept_relaxed" value="1"' in page
    logged_in.post(url("host-draw", evening), {"action": "digital", "accept_relaxed": "1", "seen": stale})
    assert made_draws(evening) == 1
    response = logged_in.post(url("host-draw", evening), {"action": "digital", "accept_relaxed": "1", "seen": stale})
    assert "the host made the draw: 9 guests at 2 tables" in stale_message(response)
    assert made_draws(evening) == 1 and Draw.objects.filter(evening=evening, superseded_at__isnull=True).count() == 1


def test_a_check_in_at_the_door_since_refuses_the_stale_deal_naming_the_guest(logged_in, host):
    """The plan the page showed was for 12 guests; a 13th checked in since."""
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    late = GuestFactory(evening=evening, name="Late Lola", pack="red", status=Guest.Status.REGISTERED)
    stale = seen_on(logged_in, url("host-draw", evening))
    guest_set_status(guest=late, status=Guest.Status.HERE, user=host)
    response = logged_in.post(url("host-draw", evening), {"action": "digital", "seen": stale})
    assert "the host checked Late Lola in (" in stale_message(response) and made_draws(evening) == 0


def test_a_stale_physical_draw_start_and_finish_are_refused(logged_in, host):
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    draw_tab = seen_on(logged_in, url("host-draw", evening))
    logged_in.post(
        url("host-draw", evening), {"action": "physical", "seen": seen_on(logged_in, url("host-draw", evening))}
    )
    response = logged_in.post(url("host-draw", evening), {"action": "digital", "seen": draw_tab})
    assert "started a draw with real packs for 12 guests at 3 tables" in stale_message(response)
    assert made_draws(evening) == 0
    physical_tab = seen_on(logged_in, url("host-draw-physical", evening))
    logged_in.post(url("host-draw-physical-action", evening), {"action": "cancel", "seen": physical_tab})
    assert AuditEntry.objects.filter(evening=evening, action="draw.physical.cancel").count() == 1
    again = logged_in.post(url("host-draw-physical-action", evening), {"action": "finish", "seen": physical_tab})
    assert "cancelled the draw with real packs" in stale_message(again)
    assert not AuditEntry.objects.filter(evening=evening, action="draw.physical.finish").exists()


def test_a_stale_card_entry_posted_with_htmx_is_refused_in_its_panel(logged_in, host):
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    logged_in.post(url("host-draw", evening), {"action": "physical", "seat": "", "accept_relaxed": ""})
    stale = seen_on(logged_in, url("host-draw-physical", evening))
    logged_in.post(url("host-draw-physical", evening), {"guest": "Red 1", "card": "2", "seen": stale})
    response = logged_in.post(
        url("host-draw-physical", evening), {"guest": "Red 2", "card": "3", "seen": stale}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 200 and "recorded Red 1&#x27;s card: the 2 of the red pack" in page
    assert "Nothing was changed: since this page was drawn" in page
    assert AuditEntry.objects.filter(evening=evening, action="draw.physical.record").count() == 1
    assert SEEN.search(page).group(1) != stale  # the panel drawn again carries the new mark


# The bell, undo, a round's start ----------------------------------------------------------------


@pytest.fixture
def three(host):
    evening = EveningFactory(host=host, name="Bell evening")
    return evening, seat_by_names(evening, [HEAD, MIDDLE, BOOBY])


def round_one(evening, ids) -> Bell:
    return play(evening, ids, {1: ("Ann", [], {n: 50 for n in HEAD}), 2: ("Eve", [], {}), 3: ("Ivy", [], {})})


def test_a_stale_bell_is_refused_naming_the_bell_that_rang(logged_in, three):
    evening, ids = three
    rnd = round_start(evening=evening)
    for table, winner in ((1, "Ann"), (2, "Eve"), (3, "Ivy")):
        counters = {ids[n]: 50 for n in HEAD} if table == 1 else None
        result_record(round=rnd, table=table, pool_winner=ids[winner], counters=counters)
    board = seen_on(logged_in, url("host-evening", evening))
    form = {"action": "ring", "round": "1", "confirmed": "True"}
    assert logged_in.post(url("host-round", evening), {**form, "seen": board}).status_code == 302
    assert Bell.objects.filter(round=rnd, kind=Bell.Kind.BELL).count() == 1
    response = logged_in.post(url("host-round", evening), {**form, "seen": board})
    assert "the host rang the bell for round 1" in stale_message(response)
    assert Bell.objects.filter(round__evening=evening).count() == 1


def test_a_result_reported_since_the_board_was_drawn_refuses_its_bell(logged_in, three):
    """The bell acts on the whole round as the board showed it (house rule: any later change)."""
    evening, ids = three
    rnd = round_start(evening=evening)
    board = seen_on(logged_in, url("host-evening", evening))
    result_record(round=rnd, table=2, pool_winner=ids["Fay"], user=None)
    response = logged_in.post(url("host-round", evening), {"action": "ring", "round": "1", "seen": board})
    assert "recorded table 2's result in round 1: Fay won the pool" in stale_message(response)
    assert not Bell.objects.filter(round__evening=evening).exists()
    fresh = seen_on(logged_in, url("host-evening", evening))  # the board as it is now asks first
    again = logged_in.post(url("host-round", evening), {"action": "ring", "round": "1", "seen": fresh})
    assert again["Location"] == url("host-bell-confirm", evening, 1)


def test_a_stale_undo_is_refused_and_the_bell_stands(logged_in, three):
    evening, ids = three
    bell = round_one(evening, ids)
    first, second = seen_on(logged_in, url("host-evening", evening)), seen_on(logged_in, url("host-evening", evening))
    logged_in.post(url("host-round", evening), {"action": "start", "seen": first})
    assert evening.rounds.count() == 2
    response = logged_in.post(url("host-round", evening), {"action": "undo", "bell": str(bell.pk), "seen": second})
    assert "the host started round 2" in stale_message(response)
    bell.refresh_from_db()
    assert bell.undone_at is None and evening.rounds.count() == 2


def test_two_tabs_undo_once(logged_in, three):
    evening, ids = three
    bell = round_one(evening, ids)
    first, second = seen_on(logged_in, url("host-evening", evening)), seen_on(logged_in, url("host-evening", evening))
    logged_in.post(url("host-round", evening), {"action": "undo", "bell": str(bell.pk), "seen": first})
    response = logged_in.post(url("host-round", evening), {"action": "undo", "bell": str(bell.pk), "seen": second})
    assert "the host undid the bell of round 1" in stale_message(response)
    assert AuditEntry.objects.filter(evening=evening, action="bell.undo").count() == 1


def test_a_stale_start_after_a_departure_is_refused_naming_the_guest(logged_in, three):
    evening, ids = three
    round_one(evening, ids)
    board = seen_on(logged_in, url("host-evening", evening))
    guests_page = seen_on(logged_in, url("host-guests", evening))
    logged_in.post(url("host-guest-status", evening, ids["Hal"]), {"action": "left", "seen": guests_page})
    assert Guest.objects.get(pk=ids["Hal"]).status == Guest.Status.LEFT
    response = logged_in.post(url("host-round", evening), {"action": "start", "seen": board})
    assert "the host marked Hal as left" in stale_message(response) and evening.rounds.count() == 1


def test_the_clock_buttons_are_not_refused_by_a_result(logged_in, three):
    """A pause acts on the clock: a result reported since refuses nothing."""
    evening, ids = three
    rnd = round_start(evening=evening)
    board = seen_on(logged_in, url("host-evening", evening))
    result_record(round=rnd, table=3, pool_winner=ids["Jo"])
    logged_in.post(url("host-round", evening), {"action": "pause", "round": "1", "seen": board})
    rnd.refresh_from_db()
    assert rnd.state == "paused"
    response = logged_in.post(url("host-round", evening), {"action": "resume", "round": "1", "seen": board})
    assert "the host paused round 1 with" in stale_message(response)


# A correction, the ceremony ---------------------------------------------------------------------


def test_a_stale_correction_is_refused_when_a_later_step_happened(logged_in, three):
    evening, ids = three
    round_one(evening, ids)
    page = url("host-correction", evening, 1, 3)
    stale = seen_on(logged_in, page)
    logged_in.post(
        url("host-round", evening), {"action": "start", "seen": seen_on(logged_in, url("host-evening", evening))}
    )
    response = logged_in.post(page, {"pool_winner": str(ids["Jo"]), "seen": stale})
    assert response.status_code == 200  # the form again, with the refusal
    text = response.content.decode()
    assert "Nothing was changed: since this page was drawn, the host started round 2 (" in text
    assert winner(1, 3) == ids["Ivy"]
    assert not AuditEntry.objects.filter(evening=evening, action="result.correct").exists()


def test_a_correction_of_the_same_table_since_refuses_and_a_rename_does_not(logged_in, host, three):
    evening, ids = three
    round_one(evening, ids)
    page = url("host-correction", evening, 1, 3)
    first, second = seen_on(logged_in, page), seen_on(logged_in, page)
    guest_rename(guest=Guest.objects.get(pk=ids["Kim"]), name="Kimberly", user=host)  # no play: refuses nothing
    done = logged_in.post(page, {"pool_winner": str(ids["Jo"]), "seen": first})
    assert done.status_code == 302 and winner(1, 3) == ids["Jo"]
    refused = logged_in.post(page, {"pool_winner": str(ids["Lu"]), "seen": second})
    assert "the host corrected table 3&#x27;s result in round 1: Jo won the pool (not Ivy)" in refused.content.decode()
    assert winner(1, 3) == ids["Jo"]


def test_a_stale_reveal_is_refused_naming_the_prize_revealed(logged_in, host):
    evening = ended_evening(host, size=12)
    count_every_table(evening)
    first, second = seen_on(logged_in, url("host-finish", evening)), seen_on(logged_in, url("host-finish", evening))
    logged_in.post(url("host-reveal", evening), {"step": "0", "seen": first})
    evening.refresh_from_db()
    assert evening.ceremony_step == 1
    response = logged_in.post(url("host-reveal", evening), {"step": "0", "seen": second})
    assert "the host revealed the prize “" in stale_message(response)
    evening.refresh_from_db()
    assert evening.ceremony_step == 1


# The guests page, the settings, a damaged mark -------------------------------------------------


def test_a_guests_button_is_refused_only_by_a_change_to_that_guest(logged_in, host):
    evening = EveningFactory(host=host)
    ann = GuestFactory(evening=evening, name="Ann", status=Guest.Status.REGISTERED)
    bob = GuestFactory(evening=evening, name="Bob", status=Guest.Status.REGISTERED)
    stale = seen_on(logged_in, url("host-guests", evening))
    guest_set_status(guest=bob, status=Guest.Status.HERE, user=host)  # another guest: refuses nothing
    logged_in.post(url("host-guest-status", evening, ann.pk), {"action": "here", "seen": stale})
    ann.refresh_from_db()
    assert ann.status == Guest.Status.HERE
    response = logged_in.post(
        url("host-guest-status", evening, bob.pk), {"action": "registered", "seen": stale}, HTTP_HX_REQUEST="true"
    )
    row = response.content.decode()
    assert (
        response.status_code == 200
        and "Nothing was changed: since this page was drawn, the host checked Bob in (" in row
    )
    bob.refresh_from_db()
    assert bob.status == Guest.Status.HERE


def test_the_settings_saved_from_a_page_drawn_before_the_draw_are_refused(logged_in, host):
    evening = EveningFactory(host=host, name="Friday")
    guests(evening, 6, 6)
    page = logged_in.get(url("host-evening-edit", evening))
    stale = SEEN.search(page.content.decode()).group(1)
    form = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    logged_in.post(
        url("host-draw", evening), {"action": "digital", "seen": seen_on(logged_in, url("host-draw", evening))}
    )
    response = logged_in.post(url("host-evening-edit", evening), {**form, "name": "Saturday", "seen": stale})
    assert response.status_code == 200 and "the host made the draw: 12 guests at 3 tables" in response.content.decode()
    evening.refresh_from_db()
    assert evening.name == "Friday"


def test_a_damaged_mark_changes_nothing_and_says_so(logged_in, host):
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    for bad in ("12", "x.1", "1.2.3", "1" * 60, "1.\x00"):
        response = logged_in.post(url("host-draw", evening), {"action": "digital", "seen": bad})
        assert response.status_code == 302 and any("was damaged" in m for m in said(response)), bad
    assert made_draws(evening) == 0


def test_a_form_without_the_mark_is_not_checked(logged_in, host):
    """A script or an older page: the services' own guards still apply."""
    evening = EveningFactory(host=host)
    guests(evening, 6, 6)
    logged_in.post(url("host-draw", evening), {"action": "digital"})
    assert made_draws(evening) == 1


# The rule itself -------------------------------------------------------------------------------


def entry(action: str, **detail) -> AuditEntry:
    """An unsaved audit entry by the host, for the rule's own tests."""
    import datetime

    return AuditEntry(action=action, detail=detail, at=datetime.datetime(2026, 12, 2, 5, 41, tzinfo=datetime.UTC))


def test_a_draw_at_tables_of_four_is_said_with_its_ghosts():
    from tournament.selectors.audit_sentences import audit_sentence

    assert audit_sentence(entry("draw.digital", sizes=[4, 4, 4, 4], ghosts=3), {}) == (
        "The host made the draw: 13 guests and 3 ghosts at 4 tables."
    )
    assert audit_sentence(entry("draw.digital", sizes=[4, 4]), {}) == "The host made the draw: 8 guests at 2 tables."


def test_what_refuses_what():
    from tournament.selectors.stale import ANY_CHANGE, CEREMONY_STEP, SETTINGS, acts_on_guest, acts_on_result

    ann = acts_on_guest(7, "Ann")
    assert ann.touched_by(entry("guest.status", guest_id=7, status="left"))
    assert ann.touched_by(entry("guests.check_in", names=["Bob", "Ann"]))
    assert ann.touched_by(entry("draw.swap", leaving_id=3, arriving_id=7, table=2))
    assert not ann.touched_by(entry("guest.status", guest_id=8, status="here"))
    assert not ann.touched_by(entry("guest.rename", guest_id=7, old="Anne", new="Ann"))  # no play
    assert not ann.touched_by(entry("bell.ring", round=1))
    table = acts_on_result(2, 3)
    assert table.touched_by(entry("result.record", round=2, table=3))
    assert not table.touched_by(entry("result.record", round=2, table=4))
    assert not table.touched_by(entry("result.confirm", round=3, table=3))
    assert table.touched_by(entry("bell.undo", round=2)) and table.touched_by(entry("result.correct", round=1, table=1))
    assert not table.touched_by(entry("round.pause", round=3))
    assert ANY_CHANGE.touched_by(entry("seat.swap"))  # a kind of step not listed yet counts as a step
    assert not ANY_CHANGE.touched_by(entry("helper.create", link=2))
    assert CEREMONY_STEP.touched_by(entry("final.count", table=1)) and not SETTINGS.touched_by(entry("bell.ring"))
    assert SETTINGS.touched_by(entry("round.start", round=1)) and not SETTINGS.touched_by(entry("round.start", round=2))


def test_a_refusal_names_three_changes_then_counts_the_rest():
    from tournament.selectors.stale import stale_words

    words = stale_words([entry("round.pause", round=1, seconds_left=90)] * 5, {})
    assert words == (
        "Nothing was changed: since this page was drawn, the host paused round 1 with 1:30 left (05:41); "
        "the host paused round 1 with 1:30 left (05:41); the host paused round 1 with 1:30 left (05:41); "
        "and 2 more changes. Look at the page again."
    )


ACTIONS = [*TOPICS, "draw.digital", "seat.move"]


@settings(max_examples=60, deadline=None)
@given(
    actions=st.lists(st.sampled_from(ACTIONS), max_size=8),
    other=st.integers(min_value=1, max_value=50),
    guest=st.integers(min_value=51, max_value=99),
)
def test_any_change_is_refused_exactly_when_some_change_is_play_and_a_guest_only_by_their_own(actions, other, guest):
    """Property: ``ANY_CHANGE`` is touched by an entry exactly when the entry changed some part
    of the play (``topics_of`` not empty); a guest's button is never touched by entries about
    another guest, whatever they did."""
    from tournament.selectors.stale import ANY_CHANGE, acts_on_guest, topics_of

    entries = [entry(a, guest_id=other, name=f"Guest {other}", names=[f"Guest {other}"], round=1) for a in actions]
    assert any(ANY_CHANGE.touched_by(e) for e in entries) == any(topics_of(a) for a in actions)
    assert not any(acts_on_guest(guest, f"Guest {guest}").touched_by(e) for e in entries)


def test_the_bell_with_cuts_from_a_page_drawn_before_a_result_is_refused(logged_in, three):
    evening, ids = three
    rnd = round_start(evening=evening)
    page = url("host-bell-cuts", evening)
    stale = seen_on(logged_in, page)
    result_record(round=rnd, table=2, pool_winner=ids["Gus"])
    response = logged_in.post(page, {"round": "1", "seen": stale})
    assert response.status_code == 200
    assert "since this page was drawn, the host recorded table 2&#x27;s result in round 1: Gus won the pool" in (
        response.content.decode()
    )
    assert not Bell.objects.filter(round__evening=evening).exists()


def test_a_damaged_mark_on_the_settings_and_a_correction_is_a_form_error(logged_in, host, three):
    evening, ids = three
    round_one(evening, ids)
    page = logged_in.get(url("host-evening-edit", evening))
    form = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    response = logged_in.post(url("host-evening-edit", evening), {**form, "name": "Other", "seen": "damaged"})
    assert response.status_code == 200 and "was damaged, so nothing was changed" in response.content.decode()
    evening.refresh_from_db()
    assert evening.name == "Bell evening"
    response = logged_in.post(url("host-correction", evening, 1, 3), {"pool_winner": str(ids["Jo"]), "seen": "1.x"})
    assert response.status_code == 200 and "was damaged, so nothing was changed" in response.content.decode()
    assert winner(1, 3) == ids["Ivy"]
    assert logged_in.post(url("host-evening-edit", evening), {}).status_code == 200  # an empty post: the form again


def test_house_rules_saved_from_a_stale_page_are_refused_and_a_round_start_does_not_refuse_them(logged_in, host, three):
    from tournament.formats.poker.house_rules import house_rules_set

    evening, ids = three
    round_one(evening, ids)
    page = url("host-house-rules", evening)
    first, second = logged_in.get(page), logged_in.get(page)
    form = {name: f.initial for name, f in first.context["form"].fields.items() if f.initial is not None}
    round_start(evening=evening)  # round 2 starts: not what the house rules act on
    saved = logged_in.post(page, {**form, "no_result": "lot", "seen": SEEN.search(first.content.decode()).group(1)})
    assert saved.status_code == 302
    house_rules_set(evening=evening, bell={"no_result": "hold"}, prizes={}, user=host)
    stale = SEEN.search(second.content.decode()).group(1)
    response = logged_in.post(page, {**form, "no_result": "stay", "seen": stale})
    assert response.status_code == 200 and "Nothing was changed: since this page was drawn, the host" in (
        response.content.decode()
    )
    assert AuditEntry.objects.filter(evening=evening, action="options.set").count() == 2


def test_a_stale_change_before_round_1_is_refused_after_another_tab_seated_the_latecomer(logged_in, host):
    evening = EveningFactory(host=host)
    guests(evening, 7, 6)  # 13 guests: their tables have a free seat for a latecomer
    logged_in.post(url("host-draw", evening), {"action": "digital"})
    late = GuestFactory(evening=evening, name="Late Lola", pack="red")
    page = logged_in.get(url("host-draw", evening)).content.decode()
    table = re.search(r'<option value="([0-9]+)">table', page).group(1)
    first, second = SEEN.search(page).group(1), SEEN.search(page).group(1)
    form = {"action": "seat", "guest": str(late.pk), "table": table}
    assert logged_in.post(url("host-draw-change", evening), {**form, "seen": first}).status_code == 302
    assert AuditEntry.objects.filter(evening=evening, action="draw.latecomer").count() == 1
    response = logged_in.post(url("host-draw-change", evening), {**form, "seen": second})
    assert f"the host seated Late Lola at table {table} before round 1" in stale_message(response)
    assert AuditEntry.objects.filter(evening=evening, action="draw.latecomer").count() == 1


def test_end_the_evening_from_a_page_drawn_before_an_undo_is_refused(logged_in, three):
    evening, ids = three
    bell = round_one(evening, ids)
    page = logged_in.get(url("host-end", evening)).content.decode()
    stale = SEEN.search(page).group(1)
    logged_in.post(
        url("host-round", evening),
        {"action": "undo", "bell": str(bell.pk), "seen": seen_on(logged_in, url("host-evening", evening))},
    )
    response = logged_in.post(url("host-end", evening), {"round": "1", "confirm": "on", "seen": stale})
    assert "the host undid the bell of round 1" in stale_message(response)
    evening.refresh_from_db()
    assert evening.stage != Evening.Stage.ENDED


@pytest.mark.django_db
def test_a_stale_host_result_form_does_not_replace_a_report_sent_since(logged_in, host):
    """The host opens table 2's result form; a captain then reports Fay as the pool winner from
    a phone; the host's stale form (Gus) is refused with the report named, Fay's result stands
    (issue 22 (e): the host's form replaced the newer report unseen)."""
    evening = EveningFactory(host=host)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    rnd = round_start(evening=evening, user=host)
    mark = seen_on(logged_in, url("host-result", evening, 2))
    result_record(round=rnd, table=2, pool_winner=ids["Fay"])
    response = logged_in.post(
        url("host-result", evening, 2), {"round": 1, "pool_winner": ids["Gus"], "seen": mark}, follow=True
    )
    assert response.status_code == 200
    assert STALE.search(response.content.decode().replace("&#x27;", "'")), response.content.decode()[-2000:]
    assert winner(1, 2) == ids["Fay"]
    fresh = logged_in.post(
        url("host-result", evening, 2),
        {"round": 1, "pool_winner": ids["Gus"], "seen": seen_on(logged_in, url("host-result", evening, 2))},
    )
    assert fresh.status_code == 302 and winner(1, 2) == ids["Gus"]
