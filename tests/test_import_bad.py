"""Bad export files: every one is refused with one message naming the place in the file, and
nothing is saved (issue 12 item 2: the import trusted its input).

Each case takes a real export (an evening drawn, one round played and rung), spoils one thing
and checks the exact message. A second group feeds bad bytes and bad paths to the
``import_evening`` command.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.test_round_services import play_round
from tournament.exchange.export import evening_export
from tournament.exchange.importer import MAX_BYTES, EveningImportError, evening_import, export_read
from tournament.models import AuditEntry, Bell, BellEntry, Draw, DrawnCard, Evening, Guest, HelperLink, Result, Round
from tournament.services.bell import bell_ring
from tournament.services.draws import draw_digital

MODELS = (Evening, Guest, Draw, DrawnCard, Round, Result, Bell, BellEntry, AuditEntry, HelperLink)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def export(make_evening):
    """A real export: 12 guests drawn (4 tables), round 1 played and rung."""
    evening = make_evening(6, 6, name="Spoiled")
    draw_digital(evening=evening)
    bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    return evening_export(evening)


def first_counter(data):
    head = next(r for r in data["rounds"][0]["results"] if r["table"] == 1)
    return head, next(iter(head["counters"]))


def set_counter(value):
    def spoil(data):
        head, key = first_counter(data)
        head["counters"][key] = value

    return spoil


def head_index(data):
    return data["rounds"][0]["results"].index(first_counter(data)[0])


def links(*rows, sender=None, guest=False):
    """A spoiler giving the file helpers' links (number, role, label) and, with ``sender``, the
    head table's result sent from link ``sender`` (and by its first guest too, with ``guest``)."""

    def spoil(data):
        data["helper_links"] = [{"number": n, "role": role, "label": label} for n, role, label in rows]
        if sender is not None:
            head = first_counter(data)[0]
            head["reported_by_helper"] = sender
            if guest:
                head["reported_by_guest"] = int(first_counter(data)[1])

    return spoil


def nested(depth):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


# (what is spoiled, how, the message expected; "{h}" is the head table's result index, "{k}" its first counter key)
CASES = [
    ("pack green", lambda d: d["guests"][3].update(pack="green"), 'guests[3].pack: "green" is not one of red, blue'),
    (
        "5,000-character name",
        lambda d: d["guests"][0].update(name="x" * 5000),
        "guests[0].name: 5,000 characters is too long (at most 120)",
    ),
    ("name of spaces", lambda d: d["guests"][2].update(name="   "), "guests[2].name: The name is empty: write the guest's name."),
    (
        "markup in a name",  # found by trying the product: the guest form refuses it, the import took it
        lambda d: d["guests"][2].update(name="<b>Evil</b>"),
        "guests[2].name: A name cannot hold < or >: write it as plain text.",
    ),
    ("NUL in a name", lambda d: d["guests"][1].update(name="Ann\x00e"), 'guests[1].name: "Ann\\u0000e" is not a name'),
    ("NUL in a contact", lambda d: d["guests"][1].update(contact="a\x00"), "guests[1].contact: "),
    ("evening name null", lambda d: d["evening"].update(name=None), "evening.name: null is not text"),
    ("evening name -1", lambda d: d["evening"].update(name=-1), "evening.name: -1 is not text"),
    ("evening name of spaces", lambda d: d["evening"].update(name="  "), "evening.name: Give the evening a name."),
    ("game null", lambda d: d["evening"].update(game=None), "evening.game: null is not one of draw_poker, "),
    ("game -1", lambda d: d["evening"].update(game=-1), "evening.game: -1 is not one of draw_poker, whiskey_poker"),
    (
        "stake null",
        lambda d: d["evening"].update(counters_per_stake=None),
        "evening.counters_per_stake: null is not a whole number",
    ),
    (
        "stake -1",
        lambda d: d["evening"].update(counters_per_stake=-1),
        "evening.counters_per_stake: -1 is less than 1, the minimum here",
    ),
    (
        "stake 1.0",
        lambda d: d["evening"].update(counters_per_stake=1.0),
        "evening.counters_per_stake: 1.0 is not a whole number",
    ),
    (
        "stake true",
        lambda d: d["evening"].update(counters_per_stake=True),
        "evening.counters_per_stake: true is not a whole number",
    ),
    (
        "stake huge",
        lambda d: d["evening"].update(counters_per_stake=9223372036854775808),
        "evening.counters_per_stake: 9223372036854775808 is more than 10,000, the maximum here",
    ),
    (
        "minutes null",
        lambda d: d["evening"].update(minutes_per_round=None),
        "evening.minutes_per_round: null is not a whole number",
    ),
    ("minutes -1", lambda d: d["evening"].update(minutes_per_round=-1), "evening.minutes_per_round: -1 is less than 1"),
    ("rounds -1", lambda d: d["evening"].update(rounds_planned=-1), "evening.rounds_planned: -1 is less than 1"),
    (
        "rounds text",
        lambda d: d["evening"].update(rounds_planned="5"),
        'evening.rounds_planned: "5" is not a number of rounds (1 to 100) or null',
    ),
    (
        "pool winner text",  # a field that may be null is worded too, not the validator's "any of the given schemas"
        lambda d: first_counter(d)[0].update(pool_winner="Ann"),
        'rounds[0].results[{h}].pool_winner: "Ann" is not a database id (1 or more) or null',
    ),
    (
        "options a string",
        lambda d: d["evening"].update(options="x"),
        'evening.options: "x" is not a JSON object or null',
    ),
    ("options a list", lambda d: d["evening"].update(options=[1]), "evening.options: [1] is not a JSON object or null"),
    (
        "options unknown group",
        lambda d: d["evening"].update(options={"colour": {}}),
        'evening.options: unknown field "colour"',
    ),
    (
        "bell option unknown",
        lambda d: d["evening"].update(options={"bell": {"fly": "yes"}}),
        "evening.options.bell: 'fly' is not an option of the bell",
    ),
    (
        "bell option bad choice",
        lambda d: d["evening"].update(options={"bell": {"no_result": "fly"}}),
        "evening.options.bell: ",
    ),
    (
        "game option unknown",
        lambda d: d["evening"].update(options={"game": {"jokers": True}}),
        "evening.options.game: 'jokers' is not an option of",
    ),
    (
        "deeply nested option",
        lambda d: d["evening"].update(options={"bell": {"no_result": nested(5000)}}),
        "evening.options.bell.no_result[0][0][0][0][0][0][0][0][0]: nested too deeply",
    ),
    (
        "stage Arabic three",
        lambda d: d["evening"].update(stage="٣"),
        'evening.stage: "٣" is not one of registration, seated, playing, ended',
    ),
    (
        "date 30 February",
        lambda d: d["evening"].update(date="2026-02-30"),
        'evening.date: "2026-02-30" is not a date, YYYY-MM-DD',
    ),
    ("date Arabic digits", lambda d: d["evening"].update(date="٢٠٢٦-٠١-٠١"), "evening.date: "),
    (
        "counter value letters",
        lambda d: d["evening"].update(counter_value="abc"),
        'evening.counter_value: "abc" is not ',
    ),
    ("counter value negative", lambda d: d["evening"].update(counter_value="-1.00"), "evening.counter_value: "),
    ("counters -5", set_counter(-5), "rounds[0].results[{h}].counters.{k}: -5 is less than 0"),
    (
        "counters 2**70",
        set_counter(1180591620717411303424),
        "rounds[0].results[{h}].counters.{k}: 1180591620717411303424 is more than 1,000,000",
    ),
    ("counters text", set_counter("50"), 'rounds[0].results[{h}].counters.{k}: "50" is not a whole number'),
    (
        "counters key not an id",
        lambda d: first_counter(d)[0]["counters"].update({"abc": 5}),
        'rounds[0].results[{h}].counters: "abc" is not a guest id',
    ),
    (
        "guest id not listed",
        lambda d: d["draws"][0]["cards"][0].update(guest=999_999),
        "draws[0].cards[0].guest: guest 999999 is not in the guest list.",
    ),
    (
        "pool winner not listed",
        lambda d: first_counter(d)[0].update(pool_winner=999_999),
        "rounds[0].results[{h}].pool_winner: guest 999999 is not in the guest list.",
    ),
    (
        "guest id twice",
        lambda d: d["guests"][1].update(id=d["guests"][0]["id"]),
        "guests[1].id: {g0} is also the id of guests[0].",
    ),
    (
        "guest name twice",
        lambda d: d["guests"][1].update(name=d["guests"][0]["name"].upper()),
        "is also the name of guests[0].",
    ),
    ("guest id 0", lambda d: d["guests"][0].update(id=0), "guests[0].id: 0 is less than 1"),
    ("guest status unknown", lambda d: d["guests"][0].update(status="gone"), 'guests[0].status: "gone" is not one of'),
    ("guest unknown field", lambda d: d["guests"][0].update(key="secret"), 'guests[0]: unknown field "key"'),
    ("guest without pack", lambda d: d["guests"][0].pop("pack"), "guests[0]: the field pack is missing"),
    ("card rank 99", lambda d: d["draws"][0]["cards"][0].update(rank=99), "draws[0].cards[0].rank: 99 is not a table"),
    (
        "table of 2",
        lambda d: d["draws"][0].update(sizes=[2, 2]),
        "2 is less than 3, the minimum here (and 1 more problem)",
    ),
    (
        "round twice",
        lambda d: d["rounds"].append(json.loads(json.dumps(d["rounds"][0]))),
        "rounds[1].number: round 1 is there twice.",
    ),
    ("round state", lambda d: d["rounds"][0].update(state="done"), 'rounds[0].state: "done" is not one of'),
    ("started yesterday", lambda d: d["rounds"][0].update(started_at="yesterday"), "rounds[0].started_at: "),
    (
        "started 31 November",
        lambda d: d["rounds"][0].update(started_at="2026-11-31T20:00:00+00:00"),
        'rounds[0].started_at: "2026-11-31T20:00:00+00:00" is not a time that exists.',
    ),
    (
        "entry kind",
        lambda d: d["rounds"][0]["bells"][0]["entries"][0].update(kind="fly"),
        'rounds[0].bells[0].entries[0].kind: "fly" is not one of yellow, up',
    ),
    ("bell cause", lambda d: d["rounds"][0]["bells"][0].update(cause="wind"), "rounds[0].bells[0].cause: "),
    (
        "leave bell without a leave",
        lambda d: d["rounds"][0]["bells"][0].update(kind="leave"),
        "rounds[0].bells[0]: a bell of kind leave without a leave entry.",
    ),
    (
        "entry moved elsewhere",
        lambda d: d["rounds"][0]["bells"][0]["entries"][-1].update(to_table=4, from_table=4),
        "rounds[0].bells[0]: ",
    ),
    (
        "link label with NUL",
        links((1, "scorer", "Sv\x00")),
        'helper_links[0].label: "Sv\\u0000" is not a helper link\'s label of up to 60 characters',
    ),
    (
        "link label 61 characters",
        links((1, "scorer", "x" * 61)),
        "helper_links[0].label: 61 characters is too long (at most 60)",
    ),
    ("link role unknown", links((1, "boss", "")), 'helper_links[0].role: "boss" is not one of door, scorer'),
    ("link number 0", links((0, "scorer", "")), "helper_links[0].number: 0 is less than 1"),
    (
        "link twice",
        links((1, "scorer", ""), (1, "door", "")),
        "helper_links[1].number: link 1 is listed twice.",
    ),
    (
        "21 live links",
        links(*[(n, "door", "") for n in range(1, 22)]),
        "helper_links: 21 links are not revoked; an evening has at most 20 live helpers' links.",
    ),
    (
        "result from an unlisted link",
        links((1, "scorer", "Sven"), sender=3),
        "rounds[0].results[{h}].reported_by_helper: link 3 is not in helper_links.",
    ),
    (
        "result from a door link",
        links((1, "door", "Britt"), sender=1),
        "rounds[0].results[{h}].reported_by_helper: link 1 is a door helper's link, which enters no result.",
    ),
    (
        "result from a guest and a scorer",
        links((1, "scorer", "Sven"), sender=1, guest=True),
        "rounds[0].results[{h}].reported_by_helper: a result has one sender, but this one names a guest",
    ),
    (
        "result from link text",
        links((1, "scorer", "Sven"), sender="1"),
        'rounds[0].results[{h}].reported_by_helper: "1" is not the number of the scorer\'s link it was sent from',
    ),
    ("schema other", lambda d: d.update(schema="head-table/evening/2"), "This is not a Head Table evening export"),
    ("no guests", lambda d: d.pop("guests"), "the file: the field guests is missing"),
    (
        "two live draws",
        lambda d: d["draws"].append(json.loads(json.dumps(d["draws"][0]))),
        "draws[1]: a second draw that is not superseded",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("spoil, expected", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_spoiled_export_is_refused_naming_the_place_and_nothing_is_saved(export, host, spoil, expected):
    data = json.loads(json.dumps(export))
    spoil(data)
    for mark, value in (
        ("{h}", head_index(export)),
        ("{k}", first_counter(export)[1]),
        ("{g0}", export["guests"][0]["id"]),
    ):
        expected = expected.replace(mark, str(value))
    before = counts()
    with pytest.raises(EveningImportError) as caught:
        evening_import(data=data, host=host)
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [None, [], "head-table/evening/1", 12, {"schema": 1}, nested(100_000)],
    ids=["null", "list", "string", "number", "schema 1", "nested list"],
)
def test_a_document_that_is_not_an_export_object_is_refused(host, data):
    with pytest.raises(
        EveningImportError, match=r"^This is not a Head Table evening export \(schema head-table/evening/1\)\.$"
    ):
        evening_import(data=data, host=host)
    assert Evening.objects.count() == 0


@pytest.mark.django_db
def test_a_good_export_still_imports_after_all_the_checks(export, host):
    copy = evening_import(data=json.loads(json.dumps(export)), host=host)
    again = evening_export(copy)
    assert [g["name"] for g in again["guests"]] == [g["name"] for g in export["guests"]]
    assert [len(r["bells"][0]["entries"]) for r in again["rounds"]] == [
        len(r["bells"][0]["entries"]) for r in export["rounds"]
    ]


BAD_BYTES = [
    ("empty", b"", "The file is empty"),
    ("only spaces", b"  \n ", "The file is empty"),
    ("latin-1", '{"schema": "Mårten"}'.encode("latin-1"), "The file is not UTF-8 text (byte 14 is not)"),
    ("UTF-16", '{"schema": 1}'.encode("utf-16"), "The file is not UTF-8 text (byte 1 is not)"),
    ("not JSON", b"name,pack\nAnn,red\n", "The file is not JSON (Expecting value at line 1, column 1)."),
    ("cut short", b'{"schema": "head-table/evening/1", "guests": [', "The file is not JSON (Expecting value at line 1"),
    ("NaN", b'{"x": NaN}', "NaN is not a number JSON allows"),
    ("Infinity", b'{"x": -Infinity}', "-Infinity is not a number JSON allows"),
    ("10,000-digit number", b'{"x": ' + b"9" * 10_000 + b"}", "The file is not JSON this import can read"),
    ("deeply nested", b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
    ("too big", b" " * (MAX_BYTES + 1), f"at most {MAX_BYTES:,}"),
]


@pytest.mark.parametrize("raw, expected", [case[1:] for case in BAD_BYTES], ids=[case[0] for case in BAD_BYTES])
def test_bytes_that_are_not_an_export_are_refused_with_the_reason(raw, expected):
    with pytest.raises(EveningImportError) as caught:
        export_read(raw)
    assert expected in str(caught.value)


def test_a_byte_order_mark_is_allowed():
    assert export_read(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}


def run_import(path) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_evening", str(path), stdout=io.StringIO(), stderr=err)
    return str(caught.value)


@pytest.mark.django_db
def test_the_command_refuses_bad_files_with_the_reason_and_saves_nothing(tmp_path, export):
    before = counts()
    assert "does not exist" in run_import(tmp_path / "missing.json")
    assert "is a folder" in run_import(tmp_path)
    (tmp_path / "latin.json").write_bytes('{"name": "Mårten"}'.encode("latin-1"))
    assert "not UTF-8" in run_import(tmp_path / "latin.json")
    spoiled = json.loads(json.dumps(export))
    spoiled["guests"][3]["pack"] = "green"
    (tmp_path / "green.json").write_text(json.dumps(spoiled), encoding="utf-8")
    assert run_import(tmp_path / "green.json") == 'guests[3].pack: "green" is not one of red, blue'
    assert "--host: Ensure this value has at most 150 characters" in str(
        pytest.raises(CommandError, call_command, "import_evening", str(tmp_path / "green.json"), host="h" * 5000).value
    )
    assert counts() == before
    assert not Evening.objects.filter(host__username="h" * 5000).exists()


@pytest.mark.django_db
def test_every_rounds_bell_entries_are_checked_against_the_guest_list(make_evening, host):
    """The first of two rounds' bell naming a guest not in the list is refused with its place
    (only the last round's bell entries were checked, and only when the file had prizes)."""
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    for _ in range(2):
        bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    data = json.loads(json.dumps(evening_export(evening)))
    data["rounds"][0]["bells"][0]["entries"][0]["guest"] = 999_999
    before = counts()
    with pytest.raises(EveningImportError, match=r"^rounds\[0\]\.bells\[0\]\.entries\[0\]\.guest: guest 999999 is not"):
        evening_import(data=data, host=host)
    assert counts() == before
