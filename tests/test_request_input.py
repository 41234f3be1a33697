"""Request data goes through forms (issue 12 item 1): each input that once reached a 500 or a
database error is refused with a clear message, and no row of the database changes.

"²", "³" and "①" pass ``str.isdigit()`` and then crash ``int()``; "٣" is read by ``int()`` as 3;
9223372036854775808 does not fit a database integer; a NUL byte is refused by PostgreSQL. Every
view and command now reads numbers through ``tournament.forms.fields`` (digits 0 to 9, bounded)
and text through a length-bounded field that refuses NUL.
"""

from __future__ import annotations

import html
import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.db_snapshot import changed_tables, db_snapshot
from tests.factories import GuestFactory
from tests.fixtures_phones import at_table
from tests.test_draw_services import make
from tournament.models import Evening, Seat
from tournament.services.clock import round_start
from tournament.services.draw_physical import draw_physical_record, draw_physical_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state

BAD_DIGITS = ["²", "³", "①", "٣", "9223372036854775808", "-1", "0", "3.0", "x\x00", ""]


def url(name: str, evening: Evening, *args) -> str:
    return reverse(name, args=[evening.pk, *args])


def shown(client, response) -> str:
    """The text the host or guest sees after ``response`` (following a redirect)."""
    if response.status_code == 302:
        response = client.get(response["Location"])
    return html.unescape(response.content.decode())


def refused(client, path: str, data: dict, *, expect: str) -> str:
    """Post ``data`` to ``path``: no 5xx, the page (or the page redirected to) says ``expect``,
    and no row of the database changed."""
    before = db_snapshot()
    response = client.post(path, data)
    assert response.status_code in (200, 302, 400), response.status_code
    assert changed_tables(before, db_snapshot()) == []
    text = shown(client, response)
    assert expect in text, text[:3000]
    return text


@pytest.fixture
def host_client(client, host):
    client.force_login(host)
    return client


@pytest.fixture
def physical(host):
    """A physical draw of 7 red and 5 blue guests, one card recorded (Red 1 drew a 3)."""
    evening = make(7, 5, host=host)
    draw_physical_start(evening=evening)
    draw_physical_record(evening=evening, guest_id=evening.guests.get(name="Red 1").pk, card="3")
    return evening


@pytest.mark.parametrize("card", ["3²", "①", "²", "٣", "3" * 30, "3\x00", "1" * 41])
def test_a_physical_card_in_other_digits_is_refused(host_client, physical, card):
    refused(
        host_client,
        url("host-draw-physical", physical),
        {"guest": "Red 2", "card": card},
        expect="is not a table card" if len(card) <= 40 and "\x00" not in card else "",
    )


def test_a_physical_card_post_with_no_fields_asks_for_both(host_client, physical):
    text = refused(host_client, url("host-draw-physical", physical), {}, expect="Type the name of the guest")
    assert "Type the card the guest drew" in text


@pytest.mark.parametrize("guest", ["²", "9223372036854775808", "-4", "", "①"])
def test_a_physical_withdraw_of_a_guest_in_other_digits_is_refused(host_client, physical, guest):
    refused(
        host_client,
        url("host-draw-physical-action", physical),
        {"action": "withdraw", "guest": guest},
        expect="Pick the guest whose card to undo.",
    )


def test_an_unknown_physical_action_is_refused(host_client, physical):
    refused(
        host_client,
        url("host-draw-physical-action", physical),
        {"action": "burn"},
        expect="That button was not understood",
    )


@pytest.mark.parametrize("representing", ["²", "①", "9223372036854775808", "0"])
def test_representing_in_other_digits_is_refused_and_nothing_is_dealt(host_client, host, representing):
    evening = make(7, 5, host=host)
    refused(
        host_client,
        url("host-draw", evening),
        {"action": "digital", "representing": representing},
        expect="A guest ticked to represent the other pack is not on the list",
    )


@pytest.fixture
def changed(host):
    """A drawn evening of 20 before round 1 with a latecomer and a leaver at the head table."""
    evening = make(10, 10, host=host)
    draw_digital(evening=evening)
    late = GuestFactory(evening=evening, name="Late Lucy", pack="red", status="here")
    head = Seat.objects.filter(evening=evening, table=1).first().guest
    head.status = "left"
    head.save()
    return evening, late, head


@pytest.mark.parametrize(
    "field, value, expect",
    [
        ("guest", "³", "Pick a guest."),
        ("guest", "9223372036854775808", "Pick a guest."),
        ("table", "²", "Pick a table with a free seat."),
        ("table", "٣", "Pick a table with a free seat."),
        ("table", "", "Pick a table with a free seat."),
        ("latecomer", "①", "Pick the latecomer who takes the seat."),
        ("latecomer", "", "Pick the latecomer who takes the seat."),
        ("action", "dance", "That button was not understood"),
    ],
)
def test_draw_changes_in_other_digits_are_refused(host_client, changed, field, value, expect):
    evening, late, head = changed
    action = {"table": "seat", "latecomer": "swap"}.get(field, "seat")
    data = {"action": action, "guest": late.pk if action == "seat" else head.pk, "table": "3", "latecomer": late.pk}
    data[field] = value
    refused(host_client, url("host-draw-change", evening), data, expect=expect)


@pytest.fixture
def playing(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    round_start(evening=evening)
    evening.refresh_from_db()
    return evening


def test_the_showdown_posted_to_pick_with_no_card_says_so(host_client, playing):
    seating = evening_state(playing).tables[1]
    data = {"seating": ",".join(map(str, seating)), "action": "pick", "dealer": "1", "seat": "1"}
    refused(host_client, url("host-showdown", playing, 2), data, expect="No card was tapped")
    guest = at_table(playing, 2)[0]
    refused(host_client, reverse("guest-showdown", args=[guest.key]), data, expect="No card was tapped")


@pytest.mark.parametrize(
    "extra, expect",
    [
        ({"action": "unpick"}, "No seat was given"),
        ({"unpick": "²"}, "The form was damaged: enter the hands again."),
        ({"dealer": "٣", "action": "decide"}, "“٣” is not a seat number"),
        ({"dealer": "1" * 11, "action": "decide"}, "Choose the dealer's seat"),
        ({"hand-1": "AS\x00KS", "action": "decide"}, "The form was damaged: enter the hands again."),
        ({"hand-1": "A" * 10_000}, "The form was damaged: enter the hands again."),
        ({"send": "9223372036854775808"}, "The form was damaged: enter the hands again."),
    ],
)
def test_the_showdown_refuses_a_damaged_form(host_client, playing, extra, expect):
    # The words are the site's, never Django's ("Enter a whole number", "Null characters are
    # not allowed", "Ensure this value is less than or equal to ...": tests/test_guest_form_words.py).
    seating = evening_state(playing).tables[1]
    data = {"seating": ",".join(map(str, seating)), "dealer": "1", "seat": "1", **extra}
    refused(host_client, url("host-showdown", playing, 2), data, expect=expect)


def _report(captain, winner, **extra):
    return {"round": "1", "table": "2", "request_id": "rid", "pool_winner": str(winner.pk), **extra}


@pytest.mark.parametrize(
    "extra",
    [
        {"request_id": "abc\x00def"},
        {"request_id": "r" * 65},
        {"round": "①"},
        {"table": "٢"},
        {"round": "9223372036854775808"},
        {"table": ""},
    ],
)
def test_a_damaged_captains_report_saves_nothing(client, playing, extra):
    captain, winner = at_table(playing, 2)[:2]
    refused(
        client,
        reverse("guest-report", args=[captain.key]),
        _report(captain, winner, **extra),
        expect="The form was damaged: open it again.",
    )


def test_a_captains_report_with_counters_in_other_digits_saves_nothing(client, playing):
    captain, winner = at_table(playing, 2)[:2]
    data = _report(captain, winner, **{f"counters_{g.pk}": "٥٠" for g in at_table(playing, 2)})
    refused(
        client,
        reverse("guest-report", args=[captain.key]),
        data,
        expect="counters: a whole number in the digits 0 to 9.",
    )


@pytest.mark.parametrize(
    "data, expect",
    [
        ({"result": "²", "verdict": "confirm"}, "The form was damaged"),
        ({"result": "1", "verdict": "confirm\x00"}, "Choose confirm or dispute."),
        ({"result": "1", "verdict": "dispute", "note": "n" * 201}, "Say why in 200 characters or fewer."),
    ],
)
def test_a_damaged_vote_saves_nothing(client, playing, data, expect):
    voter = at_table(playing, 2)[1]
    refused(client, reverse("guest-vote", args=[voter.key]), data, expect=expect)


@pytest.mark.parametrize("action", ["", "ring\x00", "explode"])
def test_an_unknown_round_or_clock_action_is_refused(host_client, playing, action):
    refused(
        host_client, url("host-round", playing), {"action": action}, expect="That button is not one the board knows"
    )
    refused(host_client, url("host-clock", playing), {"action": action}, expect="That button was not understood")


@pytest.mark.parametrize("minutes", ["٣", "²", "9223372036854775808"])
def test_clock_minutes_in_other_digits_are_refused(host_client, playing, minutes):
    refused(host_client, url("host-clock", playing), {"action": "add", "minutes": minutes}, expect="minutes")


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--table", "2", "--winner", "²"], "No guest called “²”"),
        (["--table", "2", "--winner", "①"], "No guest called “①”"),
        (["--table", "٣", "--winner", "Red 1"], "--table: Enter a whole number."),
        (["--table", "9223372036854775808", "--winner", "Red 1"], "--table: Ensure this value is less than"),
        (["--table", "2", "--winner", "Red 1", "--counters", "Red 1=٥"], "Enter a whole number."),
    ],
)
def test_the_result_command_refuses_other_digits(playing, args, message):
    before = db_snapshot()
    with pytest.raises(CommandError, match=message.replace("(", r"\(")):
        run("result", str(playing.pk), *args)
    assert changed_tables(before, db_snapshot()) == []


def test_an_evening_id_in_other_digits_is_not_an_evening(playing):
    arabic = str(playing.pk).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))  # int() reads it as the id
    with pytest.raises(CommandError, match=f"No evening with id “{arabic}”"):
        run("round_start", arabic)


def test_a_guest_id_still_names_the_guest_in_a_command(playing):
    head = at_table(playing, 1)
    state = evening_state(playing)
    counters = [f"{g.pk}={state.counters[g.pk]}" for g in head]
    out = run(
        "result",
        str(playing.pk),
        "--table",
        "1",
        "--winner",
        str(head[0].pk),
        *[part for c in counters for part in ("--counters", c)],
    )
    assert "saved" in out


@pytest.mark.parametrize(
    "path",
    [
        "/g/%00abc/",
        "/g/abc%00/report/",
        "/h/%00/",
        "/e/%00x/room/",
        "/e/x%00/seating/",
        "/e/%00/rules/",
        "/g/%00/showdown/",
        "/rules/draw_poker/?evening=%00",
    ],
)
def test_a_key_holding_nul_is_the_one_404(client, playing, path):
    """PostgreSQL refuses a query holding NUL: the door answers before any view looks the key up."""
    before = db_snapshot()
    response = client.get(path)
    assert response.status_code == 404 and b"This link does not work" in response.content
    assert client.post(path, {"round": "1"}).status_code in (403, 404)
    assert changed_tables(before, db_snapshot()) == []


@pytest.mark.parametrize(
    "data",
    [
        {"action": "undo", "bell": "9223372036854775808"},
        {"action": "undo", "bell": "①"},
        {"action": "ring", "round": "9223372036854775808"},
        {"action": "ring", "round": "٣"},
    ],
)
def test_a_bell_button_with_a_number_no_database_holds_is_refused(host_client, playing, data):
    """The bell's undo button carries the bell's id: 9223372036854775808 reached SQLite
    (OverflowError, a server error) and "٣" was read as bell 3."""
    refused(
        host_client,
        url("host-round", playing),
        data,
        expect="Ensure this value"
        if data.get("bell", "").isascii() and data.get("round", "").isascii()
        else "Enter a whole number.",
    )


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--stake", "٥٠", "--stake: Enter a whole number."),
        ("--minutes", "①", "--minutes: Enter a whole number."),
        ("--date", "٢٠٢٦-١١-٣٠", "--date: Enter a valid date."),
        ("--rounds", "9223372036854775808", "--rounds: "),
    ],
)
def test_evening_create_refuses_other_digits(db, tmp_path, option, value, message):
    path = tmp_path / "guests.csv"
    path.write_text("Anne,red\nBorys,blue\n", encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        run("evening_create", "E", "--csv", str(path), option, value)
    assert not Evening.objects.exists()


def test_the_evening_form_refuses_other_digits(host_client, playing):
    data = {
        "name": "Renamed",
        "date": "٢٠٢٦-١١-٣٠",
        "game": "draw_poker",
        "counters_per_stake": "٥٠",
        "minutes_per_round": "10",
        "round_end": "clock",
        "red_label": "Red",
        "blue_label": "Blue",
    }
    text = refused(host_client, url("host-evening-edit", playing), data, expect="Enter a valid date.")
    assert "Enter a whole number." in text


def _form_classes():
    import importlib
    import inspect

    from django import forms

    for name in (
        "tournament.forms.evening",
        "tournament.forms.door",
        "tournament.forms.bell",
        "tournament.forms.actions",
    ):
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__ == name:
                yield cls


@pytest.mark.parametrize("value", ["1\x00", "\x00", "٣", "²", "9" * 30])
def test_every_declared_field_refuses_nul_and_other_digits_where_it_reads_numbers(value):
    """Every field a form declares refuses a value holding NUL; every number field refuses
    other digits and numbers no database column holds (booleans and files excepted)."""
    from django import forms
    from django.core.exceptions import ValidationError

    checked = 0
    for cls in _form_classes():
        for name, field in cls.base_fields.items():
            if isinstance(field, (forms.BooleanField, forms.FileField)):
                continue
            numeric = isinstance(field, (forms.IntegerField, forms.DecimalField, forms.DateField, forms.DateTimeField))
            if "\x00" not in value and not numeric:
                continue
            with pytest.raises(ValidationError):
                field.clean(value)
                print(cls.__name__, name)
            checked += 1
    assert checked >= 10


def _valid_foursome_result(fmt: str) -> dict[str, str]:
    """A report the host's result form at tables of four takes (round 2, table 3)."""
    if fmt == "euchre":
        return {"round": "2", "points_NS": "7", "points_EW": "3"}
    if fmt == "whist":
        return {"round": "2", "tricks_NS": "8", "tricks_EW": "5"}
    counts = {f"{kind}_{seat}": "0" for seat in range(4) for kind in ("buncos", "minis")}
    return {"round": "2", "points_NS": "21", "points_EW": "9", **counts}


@pytest.mark.parametrize("fmt", ["euchre", "whist", "bunco"])
@pytest.mark.parametrize("seated", ["9" * 4301, "٣ ٤ ٥ ٦", "①", "9223372036854775808 1 2 3", "1 2\x00 3"])
def test_the_host_result_form_at_tables_of_four_reads_the_seats_by_the_one_rule(host_client, host, fmt, seated):
    """The form's hidden list of the players it was shown for: 4,301 nines answered 500 (int()
    refuses more than 4,300 digits) and "٣" was read as guest 3."""
    from tests.fixtures_foursome_night import waiting_night

    evening = waiting_night(host, fmt)
    refused(
        host_client,
        url("host-result", evening, 3),
        {**_valid_foursome_result(fmt), "seated": seated},
        expect="The list of players this form was shown for was damaged: open the form again.",
    )


@pytest.mark.parametrize("hands", ["NS٤", "NS① EW1", "EW²"])
def test_the_host_euchre_form_reads_the_hands_in_the_digits_0_to_9(host_client, host, hands):
    """ "NS٤" was read as North–South's hand of 4 points and saved."""
    from tests.fixtures_foursome_night import waiting_night

    evening = waiting_night(host, "euchre")
    refused(
        host_client,
        url("host-result", evening, 3),
        {"round": "2", "hands": hands},
        expect="is not a side and points: write NS or EW and 1, 2 or 4, e.g. NS1.",
    )


@pytest.mark.parametrize("stranger", ["①", "²", "٣", "9" * 11])
def test_the_final_count_reads_a_strangers_counters_by_the_one_rule(host_client, host, stranger):
    """A counters field posted for someone who is not at the table: "counters_①" passed
    ``str.isdigit()`` and crashed ``int()`` (a 500); "counters_٣" was read as guest 3."""
    from tests.fixtures_ending import ended_evening
    from tournament.services import ending

    evening = ended_evening(host, 12)
    table = ending.final_count_tables(evening)[1]
    data = {f"counters_{g}": str(n) for g, n in table.prefill.items()}
    before = db_snapshot()
    response = host_client.post(url("host-final-count", evening, table.number), {**data, f"counters_{stranger}": "5"})
    assert response.status_code in (200, 302, 400)
    assert changed_tables(before, db_snapshot()) == []
