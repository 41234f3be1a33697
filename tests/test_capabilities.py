"""The capability matrix: every capability of the product, tried on every registered format.

The formats come from the registry (``settings.HEAD_TABLE_FORMATS``): a format added there gets
every test below without a line written for it. Each test plays a small evening through the
services the pages call (the format's own example results, ``FormatPlugin.example_result``)
and checks what the capability promises. What a format cannot do yet is listed in
``NOT_YET`` with the reason, as a strict expected failure: the day it works, its line fails
until it is taken off the list (``docs/architecture.md``, "The formats: plug-ins").
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.module_loading import import_string

from tables.errors import RuleError
from tables.packs import Pack
from tests.factories import EveningFactory, GuestFactory
from tournament.documents.contents import document_pdf
from tournament.exchange.export import evening_export
from tournament.exchange.importer import evening_import
from tournament.models import AuditEntry, Bell, Evening, Guest, Result
from tournament.registry import format_for
from tournament.services import draw_physical
from tournament.services.bell import bell_undo
from tournament.services.captains import captain_vote
from tournament.services.clock import round_ring, round_start
from tournament.services.corrections import correction_save
from tournament.services.draw_changes import draw_release_guest, draw_swap_guest
from tournament.services.draws import draw_digital
from tournament.services.ending import ceremony, ceremony_next, evening_end, final_count_record, final_count_tables
from tournament.services.guests import guest_add, guests_check_in
from tournament.services.helpers import helper_link_create
from tournament.services.seat_changes import seats_change
from tournament.services.state import current_round

KEYS = [import_string(path).key for path in settings.HEAD_TABLE_FORMATS]


def _at_tables_of_four(plugin) -> bool:
    return plugin.seats_named


NOT_YET = {}
"""Capability -> (which plug-ins cannot do it yet, asked of the plug-in, and why)."""


def formats(capability: str):
    """The registered formats' keys as pytest parameters, those ``NOT_YET`` says cannot do
    ``capability`` marked as strict expected failures with the reason."""
    which, why = NOT_YET.get(capability, (lambda plugin: False, ""))
    return [
        pytest.param(key, marks=[pytest.mark.xfail(strict=True, reason=why)] if which(import_string(path)()) else [])
        for path, key in zip(settings.HEAD_TABLE_FORMATS, KEYS, strict=True)
    ]


def _evening(host, key: str, guests: int = 13, rounds: int = 3) -> Evening:
    """An evening of format ``key`` with ``guests`` checked in (an odd count: ghosts at tables
    of four), ``rounds`` planned, ending rounds by the host's bell."""
    evening = EveningFactory(host=host, format=key, rounds_planned=rounds, round_end=Evening.RoundEnd.CLOCK)
    for i in range(guests):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    return evening


def _play(evening: Evening, host, rounds: int = 1) -> None:
    """Play ``rounds`` rounds: every table's example result from the host, then the host's bell."""
    fmt = format_for(evening)
    for _ in range(rounds):
        evening.refresh_from_db()
        rnd = round_start(evening=evening, user=host)
        for table in range(1, len(fmt.state(evening).tables) + 1):
            fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
        evening.refresh_from_db()
        if current_round(evening) is not None and current_round(evening).state != "closed":
            round_ring(evening=evening, user=host)
        evening.refresh_from_db()


def _seated(evening: Evening) -> list[int]:
    return sorted(p for t in format_for(evening).state(evening).tables for p in t if p > 0)


def _drawn(evening: Evening) -> list[int]:
    """Every guest the evening's state holds: seated, or (a format with sit-outs) sitting out."""
    state = format_for(evening).state(evening)
    return sorted({p for t in state.tables for p in t if p > 0} | {p for p in getattr(state, "tallies", {}) if p > 0})


def _here(evening: Evening) -> list[int]:
    return sorted(evening.guests.filter(status=Guest.Status.HERE).values_list("id", flat=True))


@pytest.mark.parametrize("key", formats("digital draw"))
def test_digital_draw(db, host, key):
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    assert _drawn(evening) == _here(evening)


@pytest.mark.parametrize("key", formats("physical draw"))
def test_physical_draw(db, host, key):
    """The host records the cards guests drew from real packs: the cards the rules would deal."""
    evening = _evening(host, key, guests=12)
    fmt = format_for(evening)
    dealt = fmt.rules_of(evening).draw(
        [(g, Pack(p)) for g, p in evening.guests.order_by("id").values_list("id", "pack")]
    )
    draw_physical.draw_physical_start(evening=evening, user=host)
    for card in dealt.cards:  # "3 red" at Progressive Poker; "3 N" (table 3, North) at tables of four
        text = f"{card.table} {'NESW'[card.seat]}" if card.seat is not None else f"{card.table} {card.pack.value}"
        draw_physical.draw_physical_record(evening=evening, guest_id=card.guest, card=text, user=host)
    draw_physical.draw_physical_finish(evening=evening, user=host)
    assert _drawn(evening) == _here(evening)
    tables = format_for(evening).state(evening).tables
    if fmt.seats_named:  # the digital draw's seating with those cards: every seat, the ghosts' too
        assert [list(t) for t in tables] == [list(t) for t in dealt.tables]
        assert evening.seats.filter(position__isnull=True).count() == 0
    else:
        assert [sorted(t) for t in tables] == [sorted(t) for t in dealt.tables]


@pytest.mark.parametrize("key", formats("swap two guests before round 1"))
def test_swap_guests_before_round_1(db, host, key):
    evening = _evening(host, key, guests=12)
    draw_digital(evening=evening, user=host)
    seated = _seated(evening)
    late = GuestFactory(evening=evening, name="Late Guest", pack="red")
    Guest.objects.filter(pk=seated[0]).update(status=Guest.Status.LEFT)
    before = format_for(evening).state(evening).tables
    draw_swap_guest(evening=evening, leaving_id=seated[0], arriving_id=late.pk, user=host)
    assert late.pk in _seated(evening) and seated[0] not in _seated(evening)
    if format_for(evening).seats_named:  # the late guest takes the very seat, partners kept
        after = [[late.pk if p == seated[0] else p for p in t] for t in before]
        assert [list(t) for t in format_for(evening).state(evening).tables] == after
        position = evening.seats.get(guest=late).position
        assert position == next(t.index(seated[0]) for t in before if seated[0] in t)


@pytest.mark.parametrize("key", formats("report from the host, the bell by the host"))
def test_host_reports_and_rings(db, host, key):
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    before = format_for(evening).state(evening).tables
    _play(evening, host)
    bell = Bell.objects.get(round__evening=evening, round__number=1, undone_at__isnull=True)
    assert bell.cause == Bell.Cause.HOST
    assert _drawn(evening) == _here(evening)
    assert format_for(evening).state(evening).tables != before  # the winners moved


@pytest.mark.parametrize("key", formats("report from a phone, confirmed and disputed"))
def test_phone_report_vote(db, host, key):
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    fmt = format_for(evening)
    players = [p for p in fmt.state(evening).tables[1] if p > 0]
    reporter, confirmer, disputer = Guest.objects.in_bulk(players[:3]).values()
    result = fmt.example_result(evening=evening, rnd=rnd, table=2, reporter=reporter)
    assert result.reported_by_guest_id == reporter.pk and result.table == 2
    captain_vote(guest=confirmer, result_id=result.pk, verdict="confirm")
    captain_vote(guest=disputer, result_id=result.pk, verdict="dispute", note="We took eight.")
    assert sorted(Result.objects.get(pk=result.pk).votes.values_list("verdict", flat=True)) == ["confirm", "dispute"]


class _FormFields(HTMLParser):
    """The fields of the page's ``<form method="post">`` with what a browser would send untouched
    (an input's value, a ticked box or radio, a select's chosen option), by name, and every
    field's name (``names``)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.names: set[str] = set()
        self._in_form = False
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self._in_form = True
        if not self._in_form or not a.get("name") and tag != "option":
            return
        if tag == "input":
            self.names.add(a["name"])
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.values.setdefault(a["name"], a.get("value") or "")
        elif tag in ("select", "textarea"):
            self.names.add(a["name"])
            self.values.setdefault(a["name"], "")
            self._select = a["name"] if tag == "select" else None
        elif tag == "option" and self._select and "selected" in a:
            self.values[self._select] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_form = False
        if tag == "select":
            self._select = None


def _form_fields(page: str) -> _FormFields:
    fields = _FormFields()
    fields.feed(page)
    return fields


def _scorer_post(evening: Evening, page: str, table: int) -> dict[str, str]:
    """What the scorer sends for ``table`` from its result ``page``: every field of the form as
    shown, with the table's result typed in. A format that plays for counters: the first guest
    wins the pool and takes five counters from the last, so the counts add up; at tables of four
    the format's own example report (``example_report``: North–South win) in the form's fields
    (each side's points or tricks, the hands, a player's buncos by seat, a tie's winner)."""
    fields = _form_fields(page)
    data = {name: value for name, value in fields.values.items() if name != "csrfmiddlewaretoken"}
    fmt = format_for(evening)
    seats = list(fmt.state(evening).tables[table - 1])
    typed: dict[str, object] = {}
    if fmt.counters:
        counters = {g: fmt.state(evening).counters.get(g, 0) for g in seats}
        take = min(5, counters[seats[-1]])
        counters[seats[-1]] -= take
        counters[seats[0]] += take
        typed = {"pool_winner": seats[0], **{f"counters_{g}": n for g, n in counters.items()}}
    else:
        report = fmt.example_report(tuple(seats))
        for kind in ("points", "tricks"):
            typed |= {f"{kind}_{side}": n for side, n in report.get(kind, {}).items()}
        for kind in ("buncos", "minis"):
            typed |= {f"{kind}_{seats.index(int(p))}": n for p, n in report.get(kind, {}).items()}
        if report.get("hands"):
            typed["hands"] = " ".join(f"{side}{n}" for side, n in report["hands"])
        if report.get("playoff") or report.get("rolloff"):
            typed["winner"] = report.get("playoff") or report.get("rolloff")
    assert set(typed) <= fields.names, set(typed) - fields.names  # only the form's own fields
    return data | {name: str(value) for name, value in typed.items()}


@pytest.mark.parametrize("key", formats("a scorer reports a table's result"))
def test_a_scorer_reports_a_tables_result(db, host, key, client):
    """A helper's scorer link (``services.helpers``): the round in play's tables with their
    players named, a table's result form (the format's own), and the result sent from it stored
    for that table and round, the audit naming the helper; sent again with the same one-time id,
    nothing is recorded twice; a form for another round saves nothing and says so."""
    evening = _evening(host, key)
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven", user=host)
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    evening.refresh_from_db()
    tables = format_for(evening).state(evening).tables
    at_2 = Guest.objects.filter(pk__in=[p for p in tables[1] if p > 0])
    tables_page = client.get(reverse("helper-page", args=[scorer.key]))
    assert tables_page.status_code == 200 and tables_page["Referrer-Policy"] == "no-referrer"
    assert "Round 1" in tables_page.content.decode()
    assert all(
        f"<bdi>{g.name}</bdi>" in tables_page.content.decode() for g in Guest.objects.filter(pk__in=_seated(evening))
    )
    url = reverse("helper-result", args=[scorer.key, 2])
    form_page = client.get(url)
    assert form_page.status_code == 200 and "noindex" in form_page["X-Robots-Tag"]
    assert all(f"<bdi>{g.name}</bdi>" in form_page.content.decode() for g in at_2)
    data = _scorer_post(evening, form_page.content.decode(), 2)
    stale = client.post(url, {**data, "round": "2"})
    assert stale.status_code == 200 and "othing was saved" in stale.content.decode()
    assert not Result.objects.filter(round__evening=evening).exists()
    sent = client.post(url, {**data, "request_id": "scorer-send-1"})
    assert sent.status_code == 302 and sent["Location"] == reverse("helper-page", args=[scorer.key])
    result = Result.objects.get(round=rnd, table=2, superseded_at__isnull=True)
    assert result.reported_by_user is None and result.reported_by_guest is None
    entry = AuditEntry.objects.get(evening=evening, action="result.record")
    assert entry.helper == scorer and entry.user is None
    again = client.post(url, {**data, "request_id": "scorer-send-1"}, follow=True)
    assert "was recorded already" in again.content.decode()
    assert Result.objects.filter(round=rnd, table=2).count() == 1
    assert AuditEntry.objects.filter(evening=evening, action="result.record").count() == 1
    assert "1 of " in client.get(reverse("helper-page", args=[scorer.key])).content.decode()


@pytest.mark.parametrize("key", formats("a scorer's report is credited to the scorer"))
def test_a_scorers_report_names_the_scorer_as_its_sender(db, host, key, client):
    """Issue 23: a report sent from a scorer's link is stored as the scorer's
    (``Result.reported_by_helper``) and every page that names a report's sender names the
    scorer by the link's label ("the scorer Sven", ``HelperLink.as_sender``), never the host:
    the phone of a guest at the table, and, once a guest disputes it, the host's board and the
    table's page."""
    evening = _evening(host, key)
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven", user=host)
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    evening.refresh_from_db()
    url = reverse("helper-result", args=[scorer.key, 2])
    data = _scorer_post(evening, client.get(url).content.decode(), 2)
    assert client.post(url, {**data, "request_id": "scorer-credit-1"}).status_code == 302
    result = Result.objects.get(round=rnd, table=2, superseded_at__isnull=True)
    assert (result.reported_by_helper, result.reported_by_guest, result.reported_by_user) == (scorer, None, None)
    players = [p for p in format_for(evening).state(evening).tables[1] if p > 0]
    reader, disputer = Guest.objects.get(pk=players[0]), Guest.objects.get(pk=players[1])
    phone = client.get(reverse("guest-page", args=[reader.key])).content.decode()
    assert "Sent by the scorer <bdi>Sven</bdi>" in phone and "Sent by the host" not in phone
    captain_vote(guest=disputer, result_id=result.pk, verdict="dispute", note="We took eight.")
    client.force_login(host)
    for url in (reverse("host-evening", args=[evening.pk]), reverse("host-table", args=[evening.pk, 2])):
        said = client.get(url).content.decode()
        assert "sent by the scorer <bdi>Sven</bdi>" in said or "from the scorer <bdi>Sven</bdi>" in said, url
    phone = client.get(reverse("guest-page", args=[reader.key])).content.decode()
    assert "Sent by the scorer <bdi>Sven</bdi>" in phone


@pytest.mark.parametrize("key", formats("the scorer's page after the evening has ended"))
def test_the_scorers_page_says_the_evening_has_ended(db, host, key, client):
    """Issue 23 item 4: once the evening has ended, a scorer's page says so, and never that a
    next round comes; its result form sends the scorer back with the same words. Between two
    rounds it still says the host starts the next one."""
    evening = _evening(host, key, rounds=2)
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven", user=host)
    draw_digital(evening=evening, user=host)
    page = client.get(reverse("helper-page", args=[scorer.key])).content.decode()
    assert "When the host starts round 1, reload this page" in page
    _play(evening, host)
    page = client.get(reverse("helper-page", args=[scorer.key])).content.decode()
    assert "When the host starts the next round, reload this page" in page
    _play(evening, host)
    evening.refresh_from_db()
    if evening.stage != Evening.Stage.ENDED:
        evening_end(evening=evening, seen_round=2, user=host)
    page = client.get(reverse("helper-page", args=[scorer.key])).content.decode()
    assert "The evening has ended: there are no more rounds" in page
    assert "next round" not in page and "starts" not in page
    form = client.get(reverse("helper-result", args=[scorer.key, 1]), follow=True).content.decode()
    assert "The evening has ended: there are no more rounds, so there is nothing to enter." in form


@pytest.mark.parametrize("key", formats("the bell by the clock"))
def test_bell_by_the_clock(db, host, key):
    from tournament.services.bell import bell_ring

    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    fmt = format_for(evening)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK)
    assert Bell.objects.filter(round=rnd, cause=Bell.Cause.CLOCK, undone_at__isnull=True).exists()


@pytest.mark.parametrize("key", formats("the bell rung by the head table's result"))
def test_bell_by_the_head_table(db, host, key):
    """With rounds ending when the head table finishes, its result rings the bell once every
    other table has reported."""
    evening = _evening(host, key)
    Evening.objects.filter(pk=evening.pk).update(round_end=Evening.RoundEnd.HEAD_POOL)
    evening.refresh_from_db()
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    fmt = format_for(evening)
    for table in [*range(2, len(fmt.state(evening).tables) + 1), 1]:
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    assert Bell.objects.filter(round=rnd, cause=Bell.Cause.HEAD_POOL, undone_at__isnull=True).exists()


@pytest.mark.parametrize("key", formats("undo the last bell"))
def test_undo(db, host, key):
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    before = format_for(evening).state(evening).tables
    _play(evening, host)
    bell_undo(evening=evening, user=host)
    evening.refresh_from_db()
    assert format_for(evening).state(evening).tables == before


@pytest.mark.parametrize("key", formats("undo"))
def test_after_an_undone_bell_every_host_page_says_the_round_is_reopened(db, host, client, key):
    """The board and each table's page say the round's state in the same words: "Reopened"
    after an undone bell, never "Bell rung" on one page and "Reopened" on another."""
    from django.urls import reverse

    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    bell_undo(evening=evening, user=host)
    client.force_login(host)
    pages = [reverse("host-evening", args=[evening.pk])]
    pages += [reverse("host-table", args=[evening.pk, n]) for n in (1, 2)]
    for url in pages:
        page = client.get(url).content.decode()
        assert "Round 1" in page and "Reopened" in page and "Bell rung" not in page, url


@pytest.mark.parametrize("key", formats("correct an earlier round"))
def test_correct_an_earlier_round(db, host, key):
    """Round 2's table 2 is corrected after its bell (the format's example correction: another
    side or player wins): the old result is kept, superseded, the bell is played again (two
    live bells, one undone), the table's live result is the correction, and saving the same
    again is refused. (Corrections replaying later steps: ``tests/test_corrections_formats.py``.)"""
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    _play(evening, host, rounds=2)
    fmt = format_for(evening)
    rnd = evening.rounds.get(number=2)
    first = Result.objects.get(round=rnd, table=2, superseded_at__isnull=True)
    correction = fmt.example_correction(evening, rnd=rnd, table=2)
    done = correction_save(evening=evening, round_number=2, table=2, result=correction, user=host)
    assert done.rounds == (2,)
    assert Bell.objects.live().bells().of_evening(evening.pk).count() == 2
    assert Bell.objects.of_evening(evening.pk).exclude(undone_at=None).count() == 1
    assert Result.objects.get(pk=first.pk).superseded_at is not None
    live = Result.objects.get(round=rnd, table=2, superseded_at__isnull=True)
    assert live.pk == done.result.pk != first.pk
    assert _drawn(evening) == _here(evening)
    with pytest.raises(RuleError, match="already: nothing to correct"):
        correction_save(evening=evening, round_number=2, table=2, result=correction, user=host)


@pytest.mark.parametrize("key", formats("seat change between rounds"))
def test_seat_change_between_rounds(db, host, key):
    """After round 1's bell the host swaps two guests at different tables: a "seat" step on round
    1 with them in each other's seats, the audit says so, undo puts the seats back."""
    evening = _evening(host, key, guests=12)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    fmt = format_for(evening)
    before = [list(t) for t in fmt.state(evening).tables]
    a, b = before[0][0], before[1][1]
    words = seats_change(evening=evening, guest_id=a, other_id=b, user=host)
    after = [[b if p == a else a if p == b else p for p in t] for t in before]
    assert [list(t) for t in fmt.state(evening).tables] == after
    names = dict(Guest.objects.filter(pk__in=[a, b]).values_list("pk", "name"))
    assert names[a] in words and names[b] in words
    step = Bell.objects.of_evening(evening.pk).live().newest_first().first()
    assert step.kind == Bell.Kind.SEAT and step.round.number == 1
    assert evening.seats.get(guest_id=a).table == 2 and evening.seats.get(guest_id=b).table == 1
    assert evening.audit.filter(action="seats.change").count() == 1
    bell_undo(evening=evening, bell_id=step.pk, user=host)
    assert [list(t) for t in fmt.state(evening).tables] == before
    assert evening.seats.get(guest_id=a).table == 1
    assert sorted(Guest.objects.filter(pk__in=[a, b]).values_list("status", flat=True)) == ["here", "here"]


@pytest.mark.parametrize("key", formats("a guest leaves and another arrives"))
def test_leave_and_arrive(db, host, key):
    evening = _evening(host, key, guests=12)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    fmt = format_for(evening)
    leaver = Guest.objects.get(pk=_seated(evening)[0])
    words = fmt.seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    Guest.objects.filter(pk=leaver.pk).update(status=Guest.Status.LEFT)
    assert leaver.name in words and leaver.pk not in _seated(evening)
    late = GuestFactory(evening=evening, name="Late Guest", pack="red", status=Guest.Status.REGISTERED)
    if not fmt.joins_after_the_draw:  # its seats are a schedule fixed before play: refused in words
        with pytest.raises(RuleError, match="Late Guest cannot join"):
            fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")
        assert late.pk not in _seated(evening)
        return
    words = fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")
    assert "Late Guest" in words and late.pk in _seated(evening)


@pytest.mark.parametrize("key", formats("a guest leaves before round 1"))
def test_leave_before_round_1(db, host, key):
    """After the draw and before round 1 a guest who leaves plays no round: at tables of four a
    ghost takes the seat at once; at poker the host confirms the re-plan the guests page says
    (``draw_release_guest``). Round 1 then starts without them (issue 22 item 6)."""
    evening = _evening(host, key, guests=12)
    draw_digital(evening=evening, user=host)
    fmt = format_for(evening)
    leaver = Guest.objects.get(pk=_seated(evening)[-1])
    words = fmt.seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    assert leaver.name in words
    assert Guest.objects.get(pk=leaver.pk).status == Guest.Status.LEFT
    if leaver.pk in _seated(evening):  # poker: shown the re-plan, confirmed on the draw page
        assert "Confirm it on the draw page" in words
        try:
            draw_release_guest(evening=evening, guest_id=leaver.pk, user=host)
        except RuleError:
            late = GuestFactory(evening=evening, name="Late Guest", pack=leaver.pack)
            draw_swap_guest(evening=evening, leaving_id=leaver.pk, arriving_id=late.pk, user=host)
    round_start(evening=evening, user=host)
    assert leaver.pk not in _seated(evening)


@pytest.mark.parametrize("key", formats("undo a late guest's arrival"))
def test_undo_an_arrival(db, host, key):
    """Undo takes back the newest step, a late guest's arrival, by name: they are unseated but
    still checked in, and round 1's bell still stands (issue 22 item 2)."""
    from tournament.selectors.board import last_step

    evening = _evening(host, key, guests=12)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    fmt = format_for(evening)
    late = GuestFactory(evening=evening, name="Late Guest", pack="red", status=Guest.Status.HERE)
    if not fmt.joins_after_the_draw:  # its schedule takes nobody after round 1: nothing to undo
        with pytest.raises(RuleError, match="Late Guest cannot join"):
            fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")
        return
    fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")
    offer = last_step(evening)
    assert offer is not None and offer.button == "Undo Late Guest's arrival"
    bell_undo(evening=evening, bell_id=offer.id, user=host)
    assert Guest.objects.get(pk=late.pk).status == Guest.Status.HERE and late.pk not in _seated(evening)
    assert Bell.objects.of_evening(evening.pk).live().bells().count() == 1
    assert last_step(evening).button == "Undo round 1's bell"


def _ended(host, key: str) -> Evening:
    """An evening played to its end (two rounds), the final count taken where there is one."""
    evening = _evening(host, key, rounds=2)
    draw_digital(evening=evening, user=host)
    _play(evening, host, rounds=2)
    evening.refresh_from_db()
    if evening.stage != Evening.Stage.ENDED:
        evening_end(evening=evening, seen_round=2, user=host)
        evening.refresh_from_db()
    for table in final_count_tables(evening):
        final_count_record(evening=evening, table=table.number, counters=table.last, user=host)
    return evening


@pytest.mark.parametrize("key", formats("standings, prizes and the ceremony"))
def test_standings_prizes_and_ceremony(db, host, key):
    evening = _ended(host, key)
    fmt = format_for(evening)
    prizes = fmt.standings(evening).prizes
    assert prizes and any(p.winners for p in prizes)
    steps = ceremony(evening).steps
    for step in range(steps):
        ceremony_next(evening=evening, seen_step=step, user=host)
        evening.refresh_from_db()
    assert ceremony(evening).finished


@pytest.mark.parametrize("key", formats("prizes with ties"))
def test_prizes_with_ties(db, host, client, key):
    """Thirteen guests over two rounds leave some level for a prize (the booby prize at least):
    a tie is shared or cut as the format's house rule says, the winners are among those who
    tied, and the standings page names everyone who tied (docs/rules/, each format's "Prizes")."""
    evening = _ended(host, key)
    names = dict(evening.guests.values_list("pk", "name"))
    tied = [p.prize for p in format_for(evening).standings(evening).prizes if len(p.prize.tied) > 1]
    assert tied, "no prize was tied: the example evening should leave some guests level"
    client.force_login(host)
    page = client.get(reverse("host-standings", args=[evening.pk])).content.decode()
    for prize in tied:
        assert prize.winners and set(prize.winners) <= set(prize.tied), prize
        words = prize.reason_for(lambda guest: names[guest])
        assert all(names[guest] in words for guest in prize.tied), words
        assert all(f"<bdi>{names[guest]}</bdi>" in page for guest in prize.tied), prize.key


@pytest.mark.parametrize("key", formats("start a round with a guest here unseated"))
def test_starting_a_round_asks_first_when_a_guest_here_has_no_seat(db, host, client, key):
    """A guest who arrives between rounds and is not seated yet would sit the next round out:
    *Start round 2* asks first, naming them (house rule), and starts only from "without them";
    a format seated by a schedule fixed before play takes no one after the draw and starts."""
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    _play(evening, host, rounds=1)
    late = guest_add(evening=evening, name="Zelda Late", pack="red", user=host)
    guests_check_in(evening=evening, guest_ids=[late.pk], user=host)
    client.force_login(host)
    start = reverse("host-round", args=[evening.pk])
    page = client.post(start, {"action": "start"})
    if not format_for(evening).joins_after_the_draw:
        assert page.status_code == 302 and evening.rounds.count() == 2
        return
    assert page.status_code == 200 and evening.rounds.count() == 1
    text = page.content.decode()
    assert "<h1>Start round 2?</h1>" in text and "<bdi>Zelda Late</bdi>" in text and "sits it out" in text
    assert client.post(start, {"action": "start", "confirmed": "on"}).status_code == 302
    assert evening.rounds.count() == 2


@pytest.mark.parametrize("key", formats("a guest who left wins no booby prize"))
def test_a_guest_who_left_wins_no_booby_prize(db, host, key):
    """The booby prize's holder after round 1 leaves; at the end of round 3 the booby prize goes
    to a guest who stayed to the end (house rule: a guest who left is out of its running)."""
    evening = _evening(host, key, rounds=3)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    fmt = format_for(evening)
    booby = next(p for p in fmt.standings(evening).prizes if p.prize.key == "booby")
    leaver = booby.winners[0]
    fmt.seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    Guest.objects.filter(pk=leaver.pk).update(status=Guest.Status.LEFT)
    _play(evening, host, rounds=2)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    booby = next(p for p in fmt.standings(evening).prizes if p.prize.key == "booby")
    assert booby.winners and leaver.pk not in {g.pk for g in booby.winners}


@pytest.mark.parametrize("key", formats("the board and the standings lead to the end of the evening"))
def test_the_board_and_the_standings_lead_to_the_end_of_the_evening(db, host, client, key):
    """Once the evening has ended, the board and the standings page both link to the end page
    (the final count where there is one, and the prize ceremony)."""
    evening = _ended(host, key)
    client.force_login(host)
    finish = f'href="{reverse("host-finish", args=[evening.pk])}"'
    for page in ("host-evening", "host-standings"):
        assert finish in client.get(reverse(page, args=[evening.pk])).content.decode(), page


@pytest.mark.parametrize("key", formats("the ceremony reveals only the prizes won"))
def test_the_ceremony_reveals_only_the_prizes_won(db, host, key):
    """Every step of the ceremony reveals a prize somebody won; the prizes nobody won are
    listed once, apart (house rule)."""
    evening = _ended(host, key)
    every = format_for(evening).standings(evening).prizes
    now = ceremony(evening)
    assert all(p.winners for p in now.prizes)
    assert sorted(p.title for p in (*now.prizes, *now.not_awarded)) == sorted(p.title for p in every)
    assert now.steps == sum(1 for p in every if p.winners) + 1


@pytest.mark.parametrize("key", formats("the standings say once that a prize was not awarded"))
def test_the_standings_say_once_that_a_prize_was_not_awarded(db, host, client, key):
    """A prize nobody won reads "Not awarded: ..." once on the standings page, never "Not
    awarded · Not awarded: ..."."""
    evening = _ended(host, key)
    client.force_login(host)
    page = client.get(reverse("host-standings", args=[evening.pk])).content.decode()
    empty = [p for p in format_for(evening).standings(evening).prizes if not p.winners]
    assert page.count("Not awarded") == len(empty)


@pytest.mark.parametrize("key", formats("an ended evening takes no new guest"))
def test_an_ended_evening_takes_no_new_guest(db, host, client, key):
    """After the end no guest can be added, in words; a guest checked in without a seat is
    offered no *Seat now* and the host is not told to seat them."""
    from tournament.services.guests import guest_add

    evening = _ended(host, key)
    with pytest.raises(RuleError, match="The evening has ended"):
        guest_add(evening=evening, name="Late Larry", pack="red", check_in=True, user=host)
    client.force_login(host)
    url = reverse("host-guests", args=[evening.pk])
    page = client.post(url, {"one-name": "Late Larry", "one-pack": "red", "one-check_in": "on"}).content.decode()
    assert "The evening has ended: no guest can be added now" in page.replace("&#x27;", "'")
    assert not Guest.objects.filter(evening=evening, name="Late Larry").exists()
    GuestFactory(evening=evening, name="Dee Late", pack="red", status=Guest.Status.HERE)
    page = client.get(url).content.decode()
    assert "Dee Late" in page and "Seat now" not in page and "Here but not seated: <bdi>" not in page
    assert "not seated: <bdi>Dee Late" not in client.get(reverse("host-evening", args=[evening.pk])).content.decode()


@pytest.mark.parametrize("key", formats("every printed document"))
def test_every_document_prints(db, host, key):
    evening = _ended(host, key)
    for kind in format_for(evening).document_kinds():
        if kind.slug == "pull-list":
            continue  # printed before a physical draw, not after the evening
        pdf = document_pdf(evening=evening, slug=kind.slug, base_url="http://party.local")
        assert pdf.startswith(b"%PDF"), kind.slug


def _named(data: dict) -> dict:
    """An export with every guest id replaced by the guest's name, so that two evenings compare."""
    names = {g["id"]: g["name"] for g in data["guests"]}

    def swap(value, key=""):
        if isinstance(value, dict):
            return {names.get(int(k), k) if k.lstrip("-").isdigit() else k: swap(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v, key) for v in value]
        if isinstance(value, int) and not isinstance(value, bool) and key in GUEST_KEYS:
            return names.get(value, value)
        return value

    kept = {k: v for k, v in data.items() if k in ("evening", "packs", "tables", "standings", "prizes", "moves")}
    # the name too: an imported copy's says so ("... (imported)", asserted in test_export_import)
    kept["evening"] = {k: v for k, v in kept["evening"].items() if k not in ("id", "public_key", "name")}
    return swap(kept)


GUEST_KEYS = {"guest", "guests", "player", "winners", "seats", "pool_winner", "in_call", "mover"}


@pytest.mark.parametrize("key", formats("export, then import, gives the same evening"))
def test_export_import(db, host, key):
    evening = _ended(host, key)
    data = json.loads(json.dumps(evening_export(evening)))
    copy = evening_import(data=data, host=host)
    again = json.loads(json.dumps(evening_export(copy)))
    assert again["evening"]["name"] == f"{data['evening']['name']} (imported)"  # house rule: the copy says so
    assert _named(again) == _named(data)


@pytest.mark.parametrize("key", formats("export, then import, keeps who sent each report"))
def test_export_import_keeps_the_scorer_as_a_reports_sender(db, host, key, client):
    """Issue 23: a report sent from a scorer's link travels with its sender: in the imported
    copy it is the scorer's (by the link's label) and a phone at the table says so."""
    evening = _evening(host, key)
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven", user=host)
    draw_digital(evening=evening, user=host)
    round_start(evening=evening, user=host)
    evening.refresh_from_db()
    url = reverse("helper-result", args=[scorer.key, 2])
    assert client.post(url, _scorer_post(evening, client.get(url).content.decode(), 2)).status_code == 302
    copy = evening_import(data=json.loads(json.dumps(evening_export(evening))), host=host)
    result = Result.objects.select_related("reported_by_helper").get(
        round__evening=copy, table=2, superseded_at__isnull=True
    )
    assert result.sender_words() == "the scorer Sven" and result.reported_by_helper.evening_id == copy.pk
    reader = Guest.objects.get(pk=next(p for p in format_for(copy).state(copy).tables[1] if p > 0))
    assert "Sent by the scorer <bdi>Sven</bdi>" in client.get(reverse("guest-page", args=[reader.key])).content.decode()


@pytest.mark.parametrize("key", formats("the room display and a guest's phone"))
def test_room_and_phone(db, host, key, client):
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    guest = Guest.objects.get(pk=_seated(evening)[0])
    assert client.get(reverse("room", args=[evening.public_key])).status_code == 200
    page = client.get(reverse("guest-page", args=[guest.key]))
    assert page.status_code == 200 and guest.name in page.content.decode()


@pytest.mark.parametrize("key", formats("the seating for the room"))
def test_public_seating(db, host, key, client):
    """The seating at the evening's public link names every guest of the draw, seated or (13
    guests at a Euchre tournament: one) sitting the first round out."""
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    page = client.get(reverse("public-seating", args=[evening.public_key]))
    assert page.status_code == 200
    names = set(Guest.objects.filter(pk__in=_drawn(evening)).values_list("name", flat=True))
    assert len(names) == 13 and all(name in page.content.decode() for name in names)


def _seen(client, page: str) -> str:
    """The ``seen`` mark the forms of the page at ``page`` carry (one per page)."""
    marks = set(re.findall(r'name="seen" value="([0-9.]+)"', client.get(page).content.decode()))
    assert len(marks) == 1, marks
    return marks.pop()


@pytest.mark.parametrize("key", formats("a stale page's button changes nothing"))
def test_a_stale_page_changes_nothing(db, host, key, client):
    """The draw page open in two tabs: the second tab's deal is refused naming the draw; the
    board open in two tabs after a bell: the second tab's undo is refused naming the undo.
    Nothing changes either time (issue 22 item 7, ``tournament.selectors.stale``)."""
    client.force_login(host)
    evening = _evening(host, key)
    draw_page = reverse("host-draw", args=[evening.pk])
    first, second = _seen(client, draw_page), _seen(client, draw_page)
    client.post(draw_page, {"action": "digital", "seen": first})
    tables = format_for(evening).state(evening).tables
    refused = client.post(draw_page, {"action": "digital", "seen": second}, follow=True).content.decode()
    assert "Nothing was changed: since this page was drawn, the host made the draw: " in refused
    assert AuditEntry.objects.filter(evening=evening, action="draw.digital").count() == 1
    assert format_for(evening).state(evening).tables == tables
    _play(evening, host)
    board, buttons = reverse("host-evening", args=[evening.pk]), reverse("host-round", args=[evening.pk])
    first, second = _seen(client, board), _seen(client, board)
    bell = Bell.objects.get(round__evening=evening, kind=Bell.Kind.BELL, undone_at__isnull=True)
    client.post(buttons, {"action": "undo", "bell": bell.pk, "seen": first})
    refused = client.post(buttons, {"action": "undo", "bell": bell.pk, "seen": second}, follow=True).content.decode()
    assert "Nothing was changed: since this page was drawn, the host undid the bell of round 1" in refused
    assert AuditEntry.objects.filter(evening=evening, action="bell.undo").count() == 1


WALKED_BY_HAND = {"poker", "euchre", "whist", "bunco"}
"""The formats ``tests/test_accessibility.py`` walks at a stage of their evening worked by hand
(a bell waiting for a table, its score helpers tapped); every other registered format is walked
here, at round 2 of an evening played with its example results."""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", [k for k in KEYS if k not in WALKED_BY_HAND])
def test_every_page_passes_axe(browser, live_server, host, key):
    """Every route of the site, on its audience's screen, passes axe-core for the format."""
    from tests.test_accessibility import AxeWalk, route_values

    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    round_start(evening=evening, user=host)
    guest = Guest.objects.get(pk=_seated(evening)[0])
    walk = AxeWalk(browser, live_server, host)
    scanned = walk.walk(route_values(evening, guest, key))
    walk.close()
    assert len(scanned) >= 30, scanned
    assert not walk.failures(), f"{key}:\n{walk.failures()}"


@pytest.mark.parametrize("key", formats("a club's season tallies"))
def test_season_tallies(db, host, key):
    """A club's season reads the format's tallies of a played evening (``FormatPlugin.season_tallies``,
    ``docs/clubs.md``): every guest drawn has one, in the tallies its season shows."""
    evening = _evening(host, key)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    fmt = format_for(evening)
    tallies = fmt.season_tallies([evening])[evening.pk]
    assert sorted(tallies) == _drawn(evening)
    assert all(set(t) == {name for name, _ in fmt.season_rules.columns} for t in tallies.values())
