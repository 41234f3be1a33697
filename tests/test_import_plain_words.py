"""Every message a host can get from the evening import is in a host's words, changes nothing
and is never a server error (found by a stranger trying the product: the import page said
"guests[32].id: ..." and "Expecting ',' delimiter: line 1 column 5 (char 4)").

A table of broken files (wrong types, missing keys, duplicate ids, unknown references, truncated
JSON, bytes that are not UTF-8, a huge number, a list instead of an object, two pack labels
alike, a game the format does not play...) goes through the importer and through the host's
import page; then hypothesis spoils one place of a real export at random. Each refusal must
read as plain words (``assert_plain``: no place written as code, no Python type or exception
name, no parser's "char N", no traceback, no code name outside the quotes that show the file's
own text) and leave the database as it was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_round_services import play_round
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import, export_read
from tournament.models import PACK_LABELS_SAME, Bell, BellEntry, Draw, DrawnCard, Evening, Guest, Result, Round
from tournament.services.bell import bell_ring
from tournament.services.draws import draw_digital

MODELS = (Evening, Guest, Draw, DrawnCard, Round, Result, Bell, BellEntry)

NOT_PLAIN = [
    (re.compile(r"\[\d+\]"), "a place in the file written as code"),
    (re.compile(r"\bchar \d+"), "the JSON parser's position"),
    (re.compile(r"Traceback|File \"|, in <"), "a traceback"),
    (re.compile(r"\b(int|str|dict|NoneType|bool|float|tuple|bytes|Decimal|object of type)\b"), "a Python type"),
    (re.compile(r"[A-Za-z]+(Error|Exception)\b"), "an exception's name"),
    (
        re.compile(r"Expecting|delimiter|Unterminated|Extra data|Invalid control|set_int_max|is not of type|under any"),
        "the parser's or the validator's own words",
    ),
    (re.compile(r"(?:^|[\s(])'[^'\s]+'"), "a value in Python's spelling"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a code name"),
    (re.compile(r"\\u[0-9a-fA-F]{4}|[{}]"), "an escape, a template or JSON"),
]


def assert_plain(message: str) -> None:
    """``message`` reads as a host's words (``NOT_PLAIN``); the file's own text, which the
    message shows in curly quotes (“green”), may hold anything."""
    assert message and "\n" not in message and len(message) < 700, message
    words = re.sub(r"“[^”]*”", "“…”", message)
    for pattern, what in NOT_PLAIN:
        assert not pattern.search(words), f"{what} in: {message}"


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def export(make_evening) -> dict[str, Any]:
    """A real export: 12 guests drawn (4 tables... of Progressive Poker), round 1 rung."""
    evening = make_evening(6, 6, name="Spoiled")
    draw_digital(evening=evening)
    bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    return evening_export(evening)


def _head(d: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in d["rounds"][0]["results"] if r["table"] == 1)


def _set(*path: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def spoil(d: dict[str, Any]) -> None:
        for part in path[:-1]:
            d = d[part]
        d[path[-1]] = value

    return spoil


def _drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def spoil(d: dict[str, Any]) -> None:
        for part in path[:-1]:
            d = d[part]
        del d[path[-1]]

    return spoil


def _twice(d: dict[str, Any], key: str) -> None:
    d[key].append(json.loads(json.dumps(d[key][0])))


SPOILED: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("a list instead of the evening", _set("evening", value=[1, 2])),
    ("a list instead of a guest", _set("guests", 0, value=["Ann", "red"])),
    ("an object instead of the guest list", _set("guests", value={"Ann": "red"})),
    ("text instead of the draws", _set("draws", value="drawn")),
    ("a number instead of a card", _set("draws", 0, "cards", 0, value=7)),
    ("a list instead of the counters", lambda d: _head(d).update(counters=[50, 50])),
    ("an object instead of the bell lines", _set("rounds", 0, "bells", 0, "entries", value={})),
    ("a guest's name a number", _set("guests", 32 % 12, "name", value=33)),
    ("a guest's id text", _set("guests", 5, "id", value="6")),
    ("a guest's id 1.5", _set("guests", 5, "id", value=1.5)),
    ("a guest's id true", _set("guests", 5, "id", value=True)),
    ("a guest's id of 40 digits", _set("guests", 5, "id", value=10**40)),
    ("a guest's id negative", _set("guests", 5, "id", value=-3)),
    ("a card's table of 100 digits", _set("draws", 0, "cards", 2, "rank", value=10**100)),
    ("counters of 2**70", lambda d: _head(d)["counters"].update({next(iter(_head(d)["counters"])): 2**70})),
    ("stake null", _set("evening", "counters_per_stake", value=None)),
    ("minutes 0", _set("evening", "minutes_per_round", value=0)),
    ("minutes 181", _set("evening", "minutes_per_round", value=181)),
    ("rounds 101", _set("evening", "rounds_planned", value=101)),
    ("no evening", _drop("evening")),
    ("no packs", _drop("packs")),
    ("no guest name", _drop("guests", 0, "name")),
    ("no cards", _drop("draws", 0, "cards")),
    ("no bells", _drop("rounds", 0, "bells")),
    ("no stage", _drop("evening", "stage")),
    ("an unknown field", _set("guests", 0, "secret_key", value="x")),
    ("an unknown top field", _set("colour_scheme", value="x")),
    ("a guest id twice", lambda d: d["guests"][32 % 12].update(id=d["guests"][0]["id"])),
    ("a guest name twice", lambda d: d["guests"][3].update(name=d["guests"][0]["name"].lower())),
    ("a round twice", lambda d: _twice(d, "rounds")),
    ("a draw twice", lambda d: _twice(d, "draws")),
    ("a guest drawn twice", lambda d: d["draws"][0]["cards"][1].update(guest=d["draws"][0]["cards"][0]["guest"])),
    ("a card for nobody", _set("draws", 0, "cards", 0, "guest", value=999_999)),
    ("a pool winner nobody", lambda d: _head(d).update(pool_winner=999_999)),
    ("in the call nobody", lambda d: _head(d).update(in_call=[999_999])),
    ("counters of nobody", lambda d: _head(d)["counters"].update({"999999": 5})),
    ("counters of no id", lambda d: _head(d)["counters"].update({"Ann": 5})),
    ("a bell line for nobody", _set("rounds", 0, "bells", 0, "entries", 0, "guest", value=999_999)),
    ("a vote for nobody", lambda d: _head(d).update(votes=[{"guest": 999_999, "verdict": "confirm", "note": ""}])),
    ("a result twice", lambda d: d["rounds"][0]["results"].append(dict(_head(d)))),
    ("a bell line moved", _set("rounds", 0, "bells", 0, "entries", -1, "to_table", value=4)),
    ("a table that is not", lambda d: _head(d).update(table=40)),
    ("a guest leaving without a line", _set("rounds", 0, "bells", 0, "kind", value="leave")),
    ("an undone bell without its time", _set("rounds", 0, "bells", 0, "undone_at", value="")),
    ("a time that never was", _set("rounds", 0, "started_at", value="2026-02-30T20:00:00+00:00")),
    ("a time that is words", _set("rounds", 0, "started_at", value="yesterday")),
    ("a date in other digits", _set("evening", "date", value="٢٠٢٦-٠١-٠١")),
    ("a stage unknown", _set("evening", "stage", value="over")),
    ("a format unknown", _set("evening", "format", value="canasta")),
    ("a game unknown", _set("evening", "game", value="snap")),
    ("a game the format does not play", _set("evening", "game", value="")),
    ("a round end unknown", _set("evening", "round_end", value="never")),
    ("a bell rule unknown", _set("evening", "options", value={"bell": {"fly_away": True}})),
    ("a bell rule choice unknown", _set("evening", "options", value={"bell": {"no_result": "fly"}})),
    ("a bell rule max table text", _set("evening", "options", value={"bell": {"max_table": "seven"}})),
    ("a game option not yes or no", _set("evening", "options", value={"game": {"mistigris": "yes"}})),
    ("a house rule group unknown", _set("evening", "options", value={"colours": {}})),
    ("another format's options", _set("evening", "options", value={"format": {"movement": "sideways"}})),
    ("a name of control characters", _set("guests", 1, "name", value="\x07\x08")),
    ("a name of markup", _set("guests", 1, "name", value="<script>")),
    ("a name of spaces", _set("guests", 1, "name", value="   ")),
    ("an evening name of spaces", _set("evening", "name", value="   ")),
    ("a pack label empty", _set("packs", "red", value="")),
    ("a pack label of spaces", _set("packs", "blue", value="   ")),
    ("two pack labels alike", lambda d: d.update(packs={"red": "Ladies", "blue": " ladies"})),
    ("a table of two", _set("draws", 0, "sizes", value=[2, 2])),
    ("a ceremony before the end", _set("evening", "ceremony_step", value=2)),
    ("another schema", _set("schema", value="head-table/evening/2")),
    ("a helper's link of no role", _set("helper_links", value=[{"number": 1, "role": "boss"}])),
    ("a helper's link twice", _set("helper_links", value=[{"number": 1, "role": "door"}] * 2)),
    ("a result from no link", lambda d: _head(d).update(reported_by_helper=4, reported_by_guest=None)),
    ("nested too deeply", _set("evening", "options", value={"bell": {"no_result": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}})),
]

BROKEN_BYTES = [
    ("truncated JSON", lambda raw: raw[: len(raw) // 2]),
    ("cut after a comma", lambda raw: b'{"schema": "head-table/evening/1",'),
    ("a missing comma", lambda raw: b'{"a" 1}'),
    ("a CSV file", lambda raw: b"name,pack\nAnn,red\n"),
    ("Latin-1 bytes", lambda raw: '{"schema": "Mårten"}'.encode("latin-1")),
    ("UTF-16 bytes", lambda raw: raw.decode().encode("utf-16")),
    ("bytes that are not text", lambda raw: b"\xff\xfe\x00\x81\x9f"),
    ("an empty file", lambda raw: b""),
    ("a huge number", lambda raw: b'{"schema": ' + b"9" * 10_000 + b"}"),
    ("NaN", lambda raw: b'{"schema": NaN}'),
    ("a list instead of an object", lambda raw: b"[" + raw + b"]"),
    ("text instead of an object", lambda raw: b'"head-table/evening/1"'),
    ("null", lambda raw: b"null"),
    ("deeply nested", lambda raw: b"[" * 100_000 + b"]" * 100_000),
    ("a lone surrogate", lambda raw: raw.replace(b'"Spoiled"', b'"\\ud800"')),
    ("two documents", lambda raw: raw + raw),
]


def _refused(raw: bytes, host) -> str:
    """The message the importer gives for ``raw``, as the page and the command read it."""
    with pytest.raises(EveningImportError) as caught:
        evening_import(data=export_read(raw), host=host)
    return str(caught.value)


@pytest.mark.django_db
@pytest.mark.parametrize("spoil", [case[1] for case in SPOILED], ids=[case[0] for case in SPOILED])
def test_a_broken_file_is_refused_in_plain_words_and_nothing_is_saved(export, host, spoil):
    data = json.loads(json.dumps(export))
    spoil(data)
    before = counts()
    assert_plain(_refused(json.dumps(data).encode(), host))
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("spoil", [case[1] for case in BROKEN_BYTES], ids=[case[0] for case in BROKEN_BYTES])
def test_broken_bytes_are_refused_in_plain_words(export, host, spoil):
    raw = spoil(json.dumps(export).encode())
    before = counts()
    assert_plain(_refused(raw, host))
    assert counts() == before


@pytest.mark.django_db
def test_the_places_and_the_parser_are_said_in_a_hosts_words(export, host):
    data = json.loads(json.dumps(export))
    data["guests"][32 % 12]["id"] = data["guests"][0]["id"]
    said = _refused(json.dumps(data).encode(), host)
    assert said.startswith("Guest 9 in the file, its number: ") and "also the number of guest 1 in the file" in said
    assert (
        _refused(b'{"a" 1}', host) == "The file is not a Head Table evening: it stops being JSON at line 1, column 6."
    )
    cut = _refused(b'{"schema": "head-table/evening/1", "guests": [', host)
    assert (
        cut
        == "The file is not a Head Table evening: it breaks off at line 1, column 47, before its end (was it cut short?)."
    )
    data = json.loads(json.dumps(export))
    data["packs"] = {"red": "Ladies", "blue": "LADIES"}
    assert _refused(json.dumps(data).encode(), host) == f"The blue pack's label: {PACK_LABELS_SAME}"


@pytest.mark.django_db
def test_the_import_page_shows_every_refusal_in_plain_words_and_never_fails(client, host, export):
    """Through the host's page: the refusal is on the form (200, never a server error), in plain
    words, and no evening is created."""
    client.force_login(host)
    raw = json.dumps(export).encode()
    files = [spoil(raw) for _, spoil in BROKEN_BYTES if _ != "deeply nested"]
    for _, spoil in SPOILED[::3]:
        data = json.loads(raw)
        spoil(data)
        files.append(json.dumps(data).encode())
    before = counts()
    for content in files:
        upload = SimpleUploadedFile("evening.json", content, content_type="application/json")
        response = client.post(reverse("host-evening-import"), {"file": upload})
        assert response.status_code == 200, content[:80]
        page = response.content.decode()
        said = re.search(r'<ul class="errorlist[^"]*"[^>]*>\s*<li>(.*?)</li>', page, re.S)
        assert said, content[:80]
        import html

        assert_plain(html.unescape(said.group(1)))
    assert counts() == before


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, the value itself first."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):  # the first items of a list: the others are alike
            found += _places(item, (*path, index))
    return found


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**25), max_value=10**25)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


@pytest.mark.django_db
@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(where=st.integers(min_value=0), value=JSON_VALUES, drop=st.booleans())
def test_any_one_place_spoiled_is_imported_or_refused_in_plain_words(export, host, where, value, drop):
    data = json.loads(json.dumps(export))
    places = [p for p in _places(data) if p]
    path = places[where % len(places)]
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    if drop:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    before = counts()
    try:
        evening_import(data=export_read(json.dumps(data).encode()), host=host)
    except EveningImportError as error:
        assert_plain(str(error))
        assert counts() == before


@pytest.mark.django_db
def test_fewer_rounds_planned_than_played_is_refused_as_the_settings_refuse_it(make_evening, host):
    """The clock's and the settings' rule (``services.clock.rounds_planned_refused``), which the
    import did not check: an evening of 2 rounds played cannot plan 1."""
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    for _ in range(2):
        bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    data = json.loads(json.dumps(evening_export(evening)))
    data["evening"]["rounds_planned"] = 1
    before = counts()
    said = _refused(json.dumps(data).encode(), host)
    assert said == "The evening's number of rounds: 2 rounds have been played already: plan at least that many."
    assert counts() == before


@pytest.mark.django_db
def test_the_admin_refuses_two_pack_labels_alike_in_the_forms_words(admin_client, make_evening):
    """The admin's evening page (a model form, ``full_clean``) refuses what the evening form and
    the import refuse, in the same words (``PACK_LABELS_SAME``), and saves nothing."""
    import html

    evening = make_evening(2, 2, name="Labels")
    url = reverse("admin:tournament_evening_change", args=[evening.pk])
    page = admin_client.get(url)
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {name: ("" if value is None else value) for name, value in data.items() if value is not False}
    data.update(red_label="Ladies", blue_label=" LADIES ")
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert PACK_LABELS_SAME in html.unescape(response.content.decode())
    evening.refresh_from_db()
    assert (evening.red_label, evening.blue_label) == ("Red pack", "Blue pack")


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(fmt=st.sampled_from(["euchre", "bunco"]), where=st.integers(min_value=0), value=JSON_VALUES)
def test_any_one_place_of_an_evening_at_tables_of_four_spoiled_is_refused_in_plain_words(fmt, where, value):
    """The same at tables of four, whose import (``formats/partnership/codec.py``) reads
    reports, records and seats of its own."""
    from tests.test_formats_bad_input import exported

    evening, data = exported(fmt)
    places = [p for p in _places(data) if p]
    path = places[where % len(places)]
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    before = counts()
    try:
        evening_import(data=export_read(json.dumps(data).encode()), host=evening.host)
    except EveningImportError as error:
        assert_plain(str(error))
        assert counts() == before


@pytest.mark.django_db
@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(cut=st.integers(min_value=0), junk=st.binary(max_size=4))
def test_an_export_cut_anywhere_is_refused_in_plain_words(export, host, cut, junk):
    """A file cut short at any byte (a download that broke off), with a few stray bytes after
    the cut or none, says where it breaks off or why it cannot be read, in plain words."""
    raw = json.dumps(export, ensure_ascii=False).encode()
    spoiled = raw[: cut % len(raw)] + junk
    before = counts()
    try:
        evening_import(data=export_read(spoiled), host=host)
    except EveningImportError as error:
        assert_plain(str(error))
    assert counts() == before
