"""Bad input at tables of four, at every door it comes in by.

The issue: "A result naming someone not at the table, points that are impossible for the format
(a euchre hand worth 3, 22 bunco points in one roll, 14 tricks), a ghost claiming a prize,
changing the format after the draw: each refused with a clear message, nothing saved." The house
rule: bad input gets a clear message and changes nothing wherever it comes in.

The doors: the host's result form (a round in play), the captain's phone report, a correction
(at tables of four: undo the bell, then the host's result form for the reopened round; the
``correct`` command is Progressive Poker's), the JSON import (``evening_import`` and the
``import_evening`` command), the management commands that take results (``result``,
``correct``), and the evening's settings form. Each case sends exactly the bad input and checks
that the answer is not a 500, that the message is there in plain words (no code names, no raw
data, no Python reprs) and that the database is unchanged (``tests.db_snapshot``).

Worked from ``docs/rules/``: a euchre hand scores 1, 2 (a march, or a euchre to the
defenders) or 4 (a lone hand's march); a bunco roll scores 1, 2 or 3 for dice showing the target,
5 for a mini bunco, 21 for a bunco; a whist hand has 13 tricks; a ghost wins no prize.
(Euchre's reports name a side and points per hand, not the maker, so no player can be named in
them: "someone not at the table" is Bunco's per-player counts and rolls, the phone's reporter and
the host form's seats.)
"""

from __future__ import annotations

import copy
import html
import io
import json
import re

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.db_snapshot import changed_tables, db_snapshot
from tests.factories import EveningFactory, GuestFactory
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db

MADE_UP = 999_999  # an id that is nobody's
NO_SUCH_GHOST = -9  # a ghost that does not sit anywhere

# What a message for a person never holds: exception names, a ghost or guest written by id,
# Python's dict/list/None reprs, a string repr, a form field's code name, a template's brace.
CODE = re.compile(
    r"Traceback|Error\b|Exception|guest -\d|\{|\}|\[\[|\bNone\b|\(not '|\b(points|tricks|buncos|minis|rolls)_"
    r"|\bhands\b=|ScoreError|RuleError|report_score"
)


def plain(text: str) -> str:
    """``text`` after checking it reads as plain words (``CODE``); returns it."""
    assert text.strip(), "no message at all"
    found = CODE.search(text)
    assert found is None, f"code or raw data ({found.group(0)!r}) in the message: {text}"
    return text


def shown(page: str) -> str:
    """The messages a page shows a person: form errors, the alert box, the messages list."""
    parts = re.findall(
        r'<div class="error"[^>]*>(.*?)</div>|<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>|<ul class="messages">(.*?)</ul>',
        page,
        flags=re.S,
    )
    text = " ".join(piece for group in parts for piece in group if piece)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def unchanged(before: dict) -> None:
    assert changed_tables(before, db_snapshot()) == []


def in_play(fmt: str, guests: int = 7, **kw) -> Evening:
    """An evening of ``fmt`` with ``guests`` guests (7: two tables, Ghost 1 at the foot table),
    drawn, round 1 in play."""
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK, **({"rounds_planned": 4} | kw))
    for n in range(guests):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    round_start(evening=evening)
    evening.refresh_from_db()
    return evening


GOOD = {
    "euchre": {"points": {"NS": 7, "EW": 5}},
    "whist": {"tricks": {"NS": 8, "EW": 5}},
    "bunco": {"points": {"NS": 21, "EW": 9}},
}


def reopened(fmt: str) -> Evening:
    """An evening whose round 1 bell rang and was undone: the host corrects it by entering the
    right report (the correction at tables of four)."""
    evening = in_play(fmt)
    rnd = evening.rounds.get()
    for table in (1, 2):
        foursome_report(round=rnd, table=table, report=GOOD[fmt])
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None
    bell_undo(evening=evening, bell_id=bell.pk)
    return evening


def names(evening: Evening) -> dict[int, str]:
    return dict(evening.guests.values_list("id", "name"))


def host_client(evening: Evening) -> Client:
    client = Client()
    client.force_login(evening.host)
    return client


def other_guest(evening: Evening) -> int:
    """A guest at table 2 (so not at table 1)."""
    return next(p for p in foursome_state(evening).tables[1] if p > 0)


# --- the rules (``tables.formats.scoring``), which every door calls ------------------------------

TABLE = (11, 12, 13, 14)  # North, East, South, West


@pytest.mark.parametrize("value", [3, 0, -1, 5, 2.0, True, "2"])
def test_a_euchre_hand_is_worth_1_2_or_4_whole_points(value):
    from tables.formats.scoring import ScoreError, euchre_score

    with pytest.raises(ScoreError, match=r"Hand 2 is worth .*: a hand of euchre scores 1, 2 or 4 points\."):
        euchre_score(TABLE, hands=[("NS", 1), ("EW", value)], playoff=None)


@pytest.mark.parametrize("roll", [0, 3, 4, 6, 13, 20, 22, 63, 21.0, True, -1])
def test_a_bunco_roll_is_worth_1_2_5_or_21_whole_points(roll):
    from tables.formats.scoring import ScoreError, bunco_score

    with pytest.raises(
        ScoreError,
        match=r"A roll scores 1 or 2 points \(dice showing the target\), 5 \(a mini bunco\) or 21 \(a bunco\), not ",
    ):
        bunco_score(TABLE, points={"NS": 60, "EW": 0}, rolls={11: [1, roll]})


@pytest.mark.parametrize(
    "tricks", [{"NS": 14, "EW": 0}, {"NS": 7, "EW": 7}, {"NS": -1, "EW": 14}, {"NS": True, "EW": 12}]
)
def test_a_whist_hand_is_13_tricks_in_whole_numbers(tricks):
    from tables.formats.scoring import ScoreError, whist_score

    with pytest.raises(ScoreError, match=r"13 tricks|a whole number, 0 or more"):
        whist_score(TABLE, tricks=tricks)


@pytest.mark.parametrize("player", [15, -1, 0])
def test_a_count_for_someone_not_at_the_table_names_them(player):
    from tables.formats.scoring import ScoreError, check_at_table

    with pytest.raises(ScoreError) as refused:
        check_at_table(TABLE, {"buncos": [11], "points": [12, player]})
    assert refused.value.subjects.guests == (player,)
    assert str(refused.value).startswith("Points are given for ")
    check_at_table(TABLE, {"buncos": [11], "points": [12, 14]})  # everyone at the table: no error


# --- the host's result form, and the correction (the same form for the reopened round) --------

HOST_CASES = [
    ("euchre", {"hands": "NS3"}, "Hand 1 is worth 3: a hand of euchre scores 1, 2 or 4 points."),
    ("euchre", {"hands": "NS1 EW3"}, "Hand 2 is worth 3: a hand of euchre scores 1, 2 or 4 points."),
    ("euchre", {"hands": "NS0"}, "Hand 1 is worth 0: a hand of euchre scores 1, 2 or 4 points."),
    ("euchre", {"hands": "EW5"}, "Hand 1 is worth 5: a hand of euchre scores 1, 2 or 4 points."),
    ("euchre", {"hands": "NS-1"}, "Hand 1 (“NS-1”) is not a side and points"),
    ("euchre", {"hands": "NS2 EW1", "points_NS": 3, "points_EW": 1}, "The points do not add up to the hands"),
    ("euchre", {"points_NS": -1, "points_EW": 4}, "North–South's points cannot be below 0."),
    ("whist", {"tricks_NS": 14, "tricks_EW": 0}, "North–South's tricks: at most 13."),
    ("whist", {"tricks_NS": 7, "tricks_EW": 7}, "A hand of whist has 13 tricks; these add up to 14."),
    ("whist", {"tricks_NS": 13, "tricks_EW": 1}, "A hand of whist has 13 tricks; these add up to 14."),
    ("whist", {"tricks_NS": -1, "tricks_EW": 14}, "North–South's tricks cannot be below 0."),
    *[
        (
            "bunco",
            {"rolls_0": str(roll)},
            f"a roll scores 1 or 2 points (dice showing the target), 5 (a mini bunco) or 21 (a bunco), not {roll}.",
        )
        for roll in (4, 6, 20, 22, 0)
    ],
    ("bunco", {"rolls_0": "1 -3"}, "the points of each roll, e.g. 1 2 21."),
    ("bunco", {"points_NS": 20, "buncos_0": 1}, "North–South have 20 points, fewer than the 21"),
    ("bunco", {"points_NS": 9, "minis_1": 2}, "East–West have 9 points, fewer than the 10"),
]


def _host_form(fmt: str, values: dict) -> dict:
    if fmt != "bunco":
        return values
    data = {"points_NS": 30, "points_EW": 9}
    for seat in range(4):
        data |= {f"buncos_{seat}": 0, f"minis_{seat}": 0, f"rolls_{seat}": ""}
    return data | values


def _host_refuses(evening: Evening, values: dict, message: str, *, table: int = 1) -> None:
    rnd = evening.rounds.get(number=1)
    client = host_client(evening)
    before = db_snapshot()
    response = client.post(reverse("host-result", args=[evening.pk, table]), {"round": rnd.number, **values})
    assert response.status_code == 200, response.status_code
    assert message in plain(shown(response.content.decode()))
    unchanged(before)


@pytest.mark.parametrize("fmt, values, message", HOST_CASES)
def test_the_hosts_result_form_refuses_the_impossible_and_saves_nothing(fmt, values, message):
    _host_refuses(in_play(fmt), _host_form(fmt, values), message)


@pytest.mark.parametrize("fmt, values, message", HOST_CASES)
def test_a_correction_after_undoing_the_bell_refuses_the_impossible_and_saves_nothing(fmt, values, message):
    _host_refuses(reopened(fmt), _host_form(fmt, values), message)


@pytest.mark.parametrize("who", ["other table", "ghost elsewhere", "made up"])
def test_the_hosts_form_shown_for_someone_not_at_the_table_saves_nothing(who):
    evening = in_play("bunco")
    table1 = foursome_state(evening).tables[0]
    stranger = {"other table": other_guest(evening), "ghost elsewhere": -1, "made up": MADE_UP}[who]
    seated = " ".join(str(p) for p in (stranger, *table1[1:]))
    changed = "The seats at table 1 changed since this form was shown: {} no longer sits here."
    message = {
        "other table": changed.format(names(evening).get(stranger)),
        "ghost elsewhere": changed.format("Ghost 1"),
        "made up": "The form was damaged: it names someone who is not at this evening.",
    }[who]
    _host_refuses(evening, _host_form("bunco", {"seated": seated}), message)


# --- the captain's phone report ------------------------------------------------------------------


def report_form(client: Client, guest: Guest) -> dict[str, str]:
    """The hidden fields of the guest's report form (round, table, request id, CSRF token)."""
    page = client.get(reverse("guest-report", args=[guest.key])).content.decode()
    fields = dict(
        re.findall(r'<input type="hidden" name="(round|table|request_id|csrfmiddlewaretoken)" value="([^"]*)"', page)
    )
    assert set(fields) == {"round", "table", "request_id", "csrfmiddlewaretoken"}, page
    return fields


def _phone_refuses(evening: Evening, values: dict, message: str, *, reporter: Guest | None = None) -> None:
    guest = reporter or Guest.objects.get(pk=foursome_state(evening).tables[0][0])
    client = Client()
    data = report_form(client, guest) | {k: str(v) for k, v in values.items()}
    before = db_snapshot()
    response = client.post(reverse("guest-report", args=[guest.key]), data)
    assert response.status_code in (200, 302), response.status_code
    if response.status_code == 302:  # sent back to the guest's page, with the reason
        response = client.get(response["Location"])
    assert message in plain(shown(response.content.decode()))
    unchanged(before)


PHONE_CASES = [
    *[
        ("euchre", {"hands": f"NS{value}"}, f"Hand 1 is worth {value}: a hand of euchre scores 1, 2 or 4 points.")
        for value in (3, 0, 5)
    ],
    ("euchre", {"hands": "NS1 EW2 NS3"}, "Hand 3 is worth 3: a hand of euchre scores 1, 2 or 4 points."),
    ("euchre", {"hands": "NS-1"}, "The hands were damaged: tap them again."),
    ("euchre", {"hands": "NS1 NS1", "points_ns": 3, "points_ew": 0}, "The points do not add up to the hands"),
    ("whist", {"tricks_ns": 14, "tricks_ew": 0}, "North–South's tricks: at most 13."),
    ("whist", {"tricks_ns": 7, "tricks_ew": 7}, "A hand of whist has 13 tricks; these add up to 14."),
    ("whist", {"tricks_ns": -1, "tricks_ew": 13}, "North–South's tricks cannot be below 0."),
]


@pytest.mark.parametrize("fmt, values, message", PHONE_CASES)
def test_the_captains_phone_refuses_the_impossible_and_saves_nothing(fmt, values, message):
    _phone_refuses(in_play(fmt), values, message)


@pytest.mark.parametrize("roll", [4, 6, 20, 22, 0])
def test_the_captains_phone_refuses_a_bunco_roll_no_dice_can_make(roll):
    evening = in_play("bunco")
    north = foursome_state(evening).tables[0][0]
    _phone_refuses(
        evening,
        {f"points_{north}": 30, f"rolls_{north}": f"1 {roll}"},
        f"A roll scores 1 or 2 points (dice showing the target), 5 (a mini bunco) or 21 (a bunco), not {roll}.",
    )


def test_the_captains_phone_refuses_team_points_below_the_buncos_reported():
    evening = in_play("bunco")
    north = foursome_state(evening).tables[0][0]
    _phone_refuses(
        evening,
        {f"points_{north}": 20, f"buncos_{north}": 1},
        "North–South have 20 points, fewer than the 21 their buncos and mini buncos alone make.",
    )


@pytest.mark.parametrize("kind", ["buncos", "minis", "rolls", "points"])
@pytest.mark.parametrize("who", ["other table", "ghost elsewhere", "made up"])
def test_the_captains_phone_refuses_a_count_for_someone_not_at_the_table(kind, who):
    evening = in_play("bunco")
    north = foursome_state(evening).tables[0][0]
    stranger = {"other table": other_guest(evening), "ghost elsewhere": -1, "made up": MADE_UP}[who]
    written = {"other table": names(evening).get(stranger), "ghost elsewhere": "Ghost 1", "made up": f"guest {MADE_UP}"}
    what = {"buncos": "Buncos", "minis": "Mini buncos", "rolls": "Rolls", "points": "Points"}[kind]
    value = "21" if kind == "rolls" else "1"
    _phone_refuses(
        evening,
        {f"points_{north}": 30, f"{kind}_{stranger}": value},
        f"{what} are given for {written[who]}, who is not at this table.",
    )


def test_a_captain_cannot_report_another_tables_result():
    evening = in_play("euchre")
    guest = Guest.objects.get(pk=foursome_state(evening).tables[0][0])
    _phone_refuses(
        evening,
        {"table": 2, "points_ns": 7, "points_ew": 5},
        "You sit at table 1 now, not at table 2: you can report only your own table's result.",
        reporter=guest,
    )


# --- the JSON import ---------------------------------------------------------------------------


def exported(fmt: str) -> tuple[Evening, dict]:
    """An evening of ``fmt`` (7 guests, Ghost 1) whose round 1 bell rang and whose round 2 is in
    play with table 1's report in, and its export as JSON would carry it."""
    evening = in_play(fmt)
    first = evening.rounds.get()
    for table in (1, 2):
        foursome_report(round=first, table=table, report=GOOD[fmt])
    assert bell_ring(round_id=first.pk, cause=Bell.Cause.HOST) is not None
    second = round_start(evening=evening)
    foursome_report(round=second, table=1, report=GOOD[fmt])
    return evening, json.loads(json.dumps(evening_export(evening)))


def _import_refuses(evening: Evening, data: dict, message: str) -> None:
    before = db_snapshot()
    with pytest.raises(EveningImportError) as refused:
        evening_import(data=data, host=evening.host)
    text = str(refused.value)
    assert message in text, text
    assert not re.search(r"Traceback|ScoreError|RuleError|guest -\d|\{'|\bNone\b", text), text
    unchanged(before)


def _seats(data: dict, rnd: int, table: int) -> list[int]:
    """The players at ``table`` in round ``rnd`` (0: round 1, as drawn; 1: round 2, as seated now)."""
    return data["draws"][0]["layout"][table - 1] if rnd == 0 else data["tables"][table - 1]["seats"]


def _place(rnd: int) -> str:
    return f"Result 1 of round {rnd + 1} in the file, its report"


BAD_REPORTS = [
    (
        "euchre",
        {"hands": [["NS", 3]]},
        "table 1's report: Hand 1 is worth 3: a hand of euchre scores 1, 2 or 4 points.",
    ),
    (
        "euchre",
        {"hands": [["NS", 0]]},
        "table 1's report: Hand 1 is worth 0: a hand of euchre scores 1, 2 or 4 points.",
    ),
    (
        "euchre",
        {"hands": [["EW", 5]]},
        "table 1's report: Hand 1 is worth 5: a hand of euchre scores 1, 2 or 4 points.",
    ),
    ("euchre", {"hands": [["NS", -1]]}, ", hands, item 1, item 2: -1 is less than 0, the minimum here"),
    ("whist", {"tricks": {"NS": 14, "EW": 0}}, "table 1's report: A hand of whist has 13 tricks; these add up to 14."),
    ("whist", {"tricks": {"NS": 7, "EW": 7}}, "table 1's report: A hand of whist has 13 tricks; these add up to 14."),
    ("whist", {"tricks": {"NS": -1, "EW": 14}}, ", tricks, North–South: -1 is less than 0, the minimum here"),
    *[
        (
            "bunco",
            {"points": {"NS": 30, "EW": 9}, "rolls": {"NORTH": [roll]}},
            f"table 1's report: A roll scores 1 or 2 points (dice showing the target), 5 (a mini bunco) or 21 (a bunco), not {roll}.",
        )
        for roll in (4, 6, 20, 22, 0)
    ],
    (
        "bunco",
        {"points": {"NS": 20, "EW": 9}, "buncos": {"NORTH": 1}},
        "table 1's report: North–South have 20 points, fewer than the 21 their buncos and mini buncos alone make.",
    ),
]


@pytest.mark.parametrize("rnd", [0, 1], ids=["round rung", "round in play"])
@pytest.mark.parametrize("fmt, report, message", BAD_REPORTS)
def test_the_import_refuses_an_impossible_report_with_its_place(fmt, report, message, rnd):
    evening, data = exported(fmt)
    north = str(_seats(data, rnd, 1)[0])
    report = json.loads(json.dumps(report).replace('"NORTH"', f'"{north}"'))
    data["rounds"][rnd]["results"][0]["report"] = report
    _import_refuses(evening, data, _place(rnd) + ("" if message.startswith(",") else ": ") + message)


@pytest.mark.parametrize("rnd", [0, 1], ids=["round rung", "round in play"])
@pytest.mark.parametrize("kind", ["buncos", "minis", "rolls"])
@pytest.mark.parametrize("who", ["other table", "ghost elsewhere", "no such ghost", "made up"])
def test_the_import_refuses_a_count_for_someone_not_at_the_table(kind, who, rnd):
    evening, data = exported("bunco")
    there = [p for p in _seats(data, rnd, 2) if p > 0][0]
    ghost = next(p for t in (1, 2) for p in _seats(data, rnd, t) if p < 0)
    if ghost in _seats(data, rnd, 1):
        pytest.skip("Ghost 1 sits at table 1 in this round")
    stranger = {"other table": there, "ghost elsewhere": ghost, "no such ghost": NO_SUCH_GHOST, "made up": MADE_UP}
    player = stranger[who]
    value = [21] if kind == "rolls" else 1
    data["rounds"][rnd]["results"][0]["report"] = {"points": {"NS": 30, "EW": 9}, kind: {str(player): value}}
    name = next((g["name"] for g in data["guests"] if g["id"] == player), f"Ghost {-player}")
    what = {"buncos": "Buncos", "minis": "Mini buncos", "rolls": "Rolls"}[kind]
    kind_words = {"buncos": "buncos", "minis": "mini buncos", "rolls": "rolls"}[kind]
    message = (
        f"{_place(rnd)}, {kind_words}: no guest in the file's guest list has the number {MADE_UP}."
        if who == "made up"
        else f"{_place(rnd)}: table 1's report: {what} are given for {name}, who is not at this table."
    )
    _import_refuses(evening, data, message)


@pytest.mark.parametrize("rnd", [0, 1], ids=["round rung", "round in play"])
def test_the_import_refuses_a_report_sent_by_someone_not_at_the_table(rnd):
    evening, data = exported("euchre")
    there = [p for p in _seats(data, rnd, 2) if p > 0][0]
    data["rounds"][rnd]["results"][0]["reported_by_guest"] = there
    name = next(g["name"] for g in data["guests"] if g["id"] == there)
    _import_refuses(
        evening,
        data,
        f"Result 1 of round {rnd + 1} in the file, its reporter: {name} is not at table 1 in round {rnd + 1}, "
        "so cannot have reported its result.",
    )


def test_the_import_refuses_a_superseded_report_the_format_makes_impossible():
    evening, data = exported("whist")
    results = data["rounds"][1]["results"]
    results.insert(0, copy.deepcopy(results[0]) | {"superseded_at": results[0]["created_at"]})
    results[0]["report"] = {"tricks": {"NS": 14, "EW": 0}}
    _import_refuses(
        evening,
        data,
        "Result 1 of round 2 in the file, its report: table 1's report: A hand of whist has 13 tricks; these add "
        "up to 14.",
    )


def test_the_import_command_refuses_a_euchre_hand_worth_three_and_saves_nothing(tmp_path):
    evening, data = exported("euchre")
    data["rounds"][1]["results"][0]["report"] = {"hands": [["NS", 3]]}
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = db_snapshot()
    with pytest.raises(CommandError) as refused:
        call_command("import_evening", str(path), stdout=io.StringIO())
    assert "Result 1 of round 2 in the file, its report: table 1's report: Hand 1 is worth 3" in str(refused.value)
    unchanged(before)


# --- the management commands that take results ------------------------------------------------
# ``result`` and ``correct`` take Progressive Poker's result (a pool winner, the call, counters):
# no report of a table of four fits them, so their services refuse the evening with the way its
# results are entered and corrected, whatever the round's state (``correct`` after a bell gave a
# traceback).


def _command_refuses(args: list[str], message: str) -> None:
    before = db_snapshot()
    with pytest.raises(CommandError) as refused:
        call_command(*args, stdout=io.StringIO(), stderr=io.StringIO())
    text = str(refused.value)
    assert message in plain(text), text
    assert "\n" not in text
    unchanged(before)


@pytest.mark.parametrize("fmt", ["euchre", "whist", "bunco"])
@pytest.mark.parametrize("when", ["round in play", "bell rung"])
def test_the_result_command_refuses_an_evening_at_tables_of_four(fmt, when):
    evening = in_play(fmt) if when == "round in play" else exported(fmt)[0]
    title = evening.get_format_display()
    _command_refuses(
        ["result", str(evening.pk), "--table", "1", "--winner", "Player 01", "--counters", "Player 01=22"],
        f"This evening plays {title} at tables of four, where a table's result is its report (each side's "
        "points or tricks; at Bunco each team's points and each player's buncos), not a pool winner and "
        "counters: enter it on the table's result page, or a captain sends it from a phone.",
    )


@pytest.mark.parametrize("fmt", ["euchre", "whist", "bunco"])
@pytest.mark.parametrize("when", ["round in play", "bell rung"])
def test_the_correct_command_refuses_an_evening_at_tables_of_four(fmt, when):
    evening = in_play(fmt) if when == "round in play" else exported(fmt)[0]
    title = evening.get_format_display()
    _command_refuses(
        ["correct", str(evening.pk), "--round", "1", "--table", "1", "--winner", "Player 01"],
        f"This evening plays {title} at tables of four, where a correction is the table's report (each side's "
        "points or tricks; at Bunco each team's points and each player's buncos), not a pool winner: correct it "
        "on the evening's corrections page.",
    )


# --- the evening's settings: the format and its options, after the draw -------------------------


def _settings(evening: Evening, **changes) -> dict:
    form = {
        "name": evening.name,
        "date": evening.date.isoformat(),
        "minutes_per_round": evening.minutes_per_round,
        "round_end": evening.round_end,
        "red_label": evening.red_label,
        "blue_label": evening.blue_label,
        "ties": "playoff",
        "prize_ties": "cut",
    }
    return form | changes


def _settings_refuse(evening: Evening, changes: dict, message: str) -> None:
    client = host_client(evening)
    before = db_snapshot()
    response = client.post(reverse("host-evening-edit", args=[evening.pk]), _settings(evening, **changes))
    assert response.status_code == 200, response.status_code
    assert message in plain(shown(response.content.decode()))
    unchanged(before)


@pytest.mark.parametrize("fmt, other", [("euchre", "bunco"), ("bunco", "whist"), ("whist", "poker")])
@pytest.mark.parametrize("when", ["drawn", "round in play"])
def test_the_format_cannot_change_after_the_draw(fmt, other, when):
    evening = in_play(fmt)
    if when == "drawn":
        evening.rounds.all().delete()
    _settings_refuse(
        evening,
        {"format": other},
        f"The format cannot change after the draw: this evening plays {evening.get_format_display()}.",
    )


OPTION_CHANGES = [
    ("euchre", {"movement": "circle"}, "the movement"),
    ("euchre", {"movement": "ladder_down"}, "the movement"),
    ("euchre", {"partners_change": "keep"}, "whether partners change"),
    ("whist", {"partners_change": "change"}, "whether partners change"),
    ("bunco", {"ties": "cut"}, "how a tie at a table is settled"),
]


@pytest.mark.parametrize("fmt, changes, what", OPTION_CHANGES)
def test_the_options_of_play_cannot_change_after_the_draw(fmt, changes, what):
    evening = in_play(fmt)
    _settings_refuse(
        evening,
        changes,
        f"The options of play cannot change after the draw ({what}): every bell of this evening "
        "is rung by the options it was drawn with. Nothing was saved.",
    )


def test_before_the_draw_the_options_change_and_after_it_the_rest_of_the_settings_still_do():
    evening = EveningFactory(format="euchre")
    client = host_client(evening)
    response = client.post(
        reverse("host-evening-edit", args=[evening.pk]), _settings(evening, movement="circle", partners_change="keep")
    )
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.options["format"]["movement"] == "circle"
    for n in range(8):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    kept = _settings(evening, name="Renamed", movement="circle", partners_change="keep", prize_ties="shared")
    assert client.post(reverse("host-evening-edit", args=[evening.pk]), kept).status_code == 302
    evening.refresh_from_db()
    assert evening.name == "Renamed" and evening.options["format"]["prize_ties"] == "shared"
    assert evening.options["format"]["movement"] == "circle"


def test_the_import_refuses_a_format_or_movement_changed_after_the_draw():
    evening, data = exported("bunco")
    changed = copy.deepcopy(data)
    changed["evening"]["format"] = "poker"
    _import_refuses(evening, changed, "The evening's format: Progressive Poker does not match draw 1 in the file")
    changed = copy.deepcopy(data)
    changed["evening"]["options"] = {"format": {"movement": "circle"}}
    _import_refuses(
        evening, changed, "Bell 1 of round 1 in the file: round 1's bell does not replay to the exported record"
    )


# --- a ghost claiming a prize -------------------------------------------------------------------


def _ghost_best_bunco_night() -> Evening:
    """A Bunco evening (7 guests, Ghost 1 at the foot table) where Ghost 1 rolls two buncos and
    a mini bunco and wins: the best tallies of the night."""
    evening = in_play("bunco", rounds_planned=1)
    rnd = evening.rounds.get()
    (n1, e1, s1, w1), foot = foursome_state(evening).tables
    ghost = next(p for p in foot if p < 0)
    ghost_side = "NS" if foot.index(ghost) in (0, 2) else "EW"
    other = "EW" if ghost_side == "NS" else "NS"
    foursome_report(round=rnd, table=1, report={"points": {"NS": 21, "EW": 3}, "buncos": {str(n1): 1}})
    foursome_report(
        round=rnd,
        table=2,
        report={"points": {ghost_side: 47, other: 2}, "buncos": {str(ghost): 2}, "minis": {str(ghost): 1}},
    )
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    return evening


def test_a_ghost_with_the_best_tallies_wins_no_prize_on_any_page_or_in_the_ceremony():
    from tournament.formats.partnership.standings import foursome_standings
    from tournament.services.ending import ceremony, ceremony_next

    evening = _ghost_best_bunco_night()
    state = foursome_state(evening)
    ghost = next(p for t in state.tables for p in t if p < 0)
    assert state.tally(ghost, "buncos") == 2 and state.tally(ghost, "minis") == 1
    prizes = foursome_standings(evening).prizes
    assert all(w > 0 for p in prizes for w in p.prize.winners)
    first_bunco = next(p for p, t in state.tallies.items() if p > 0 and t.get("buncos"))
    buncos = [p for p in prizes if p.prize.key.startswith("most_buncos")]
    assert buncos and [g.pk for p in buncos for g in p.winners] == [first_bunco]  # 1 bunco: the ghost's 2 do not count
    assert [g.pk for p in prizes if p.prize.key == "last_bunco" for g in p.winners] == [first_bunco]
    minis = [p for p in prizes if p.prize.key.startswith("most_minis")]
    assert minis and all(p.winners == () and "nobody in this pack has any mini buncos" in p.reason for p in minis)
    page = host_client(evening).get(reverse("host-standings", args=[evening.pk])).content.decode()
    assert "Ghost 1" not in page[page.find("Prizes") :]
    for step in range(len(ceremony(evening).prizes) + 1):
        now = ceremony_next(evening=evening, seen_step=step)
    assert now.finished and all(g.pk > 0 for p in now.revealed for g in p.winners)


def test_the_import_refuses_a_file_whose_prizes_name_a_ghost():
    evening, data = exported("bunco")
    ghost = next(p for t in data["tables"] for p in t["seats"] if p < 0)
    data["prizes"][0]["winners"] = [ghost]
    _import_refuses(
        evening,
        data,
        f"Prize 1 in the file, its winners, item 1: Ghost {-ghost} is a ghost, and a ghost wins no prize.",
    )
    data["prizes"][0]["winners"] = [MADE_UP]
    _import_refuses(
        evening,
        data,
        f"Prize 1 in the file, its winners, item 1: no guest in the file's guest list has the number {MADE_UP}.",
    )


def test_the_hosts_ceremony_taps_never_name_a_ghost_and_a_prize_nobody_won_says_so():
    """Each tap names who won; a prize nobody won (only the ghost rolled a mini bunco) has no
    tap of its own and is listed once on the host's page (house rule: no empty reveal)."""
    evening = _ghost_best_bunco_night()
    client = host_client(evening)
    said = []
    won = [p for p in foursome_standings_prizes(evening) if p.winners]
    for step in range(len(won) + 1):
        response = client.post(reverse("host-reveal", args=[evening.pk]), {"step": step}, follow=True)
        assert response.status_code == 200
        said.append(plain(shown(response.content.decode())))
    assert all("The room display shows" in s or "final standings" in s for s in said), said
    assert not any("Ghost" in s or ", ." in s for s in said), said
    assert not any("won by no one." in s for s in said), said
    page = client.get(reverse("host-finish", args=[evening.pk])).content.decode()
    listed = re.findall(r'<p class="hint not-awarded">(.*?)</p>', page, flags=re.S)
    assert len(listed) == 1 and "Most mini buncos" in plain(listed[0]), listed


def foursome_standings_prizes(evening: Evening) -> tuple:
    from tournament.formats.partnership.standings import foursome_standings

    return foursome_standings(evening).prizes
