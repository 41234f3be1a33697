"""The import's two schema checks agree (issue 26 item 4: an import within 3x the export's time).

``export_check`` lets the compiled validator (jsonschema-rs, ``importer._valid_compiled``) pass a
file alone, and asks ``jsonschema`` (``importer._validator``, whose verdict words every refusal)
about any file it does not pass. So the one thing that must hold is: whatever the compiled check
passes, ``jsonschema`` passes too. It is checked here on every spoiled file of
``tests/test_import_bad.py``, on the places where the two libraries read JSON differently (1.0 as
a whole number, the year 0, a tuple for a list, text with a lone surrogate, a trailing newline
after a pattern) and on random edits of real exports; and a real export of every format is
passed by the compiled check, so the fast way is the one good files take.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_import_bad import CASES, export  # noqa: F401  (export: the spoiled files' fixture)
from tests.test_import_foursome import _bunco_night
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, _check_depth, _valid_compiled, _validator

pytestmark = pytest.mark.django_db


def compiled_passes(data) -> bool:
    return _check_depth(data) and _valid_compiled(data)


def jsonschema_passes(data) -> bool:
    return not any(True for _ in _validator().iter_errors(data))


def copied(data):
    return json.loads(json.dumps(data))


def test_a_real_export_takes_the_compiled_way(export):  # noqa: F811
    assert compiled_passes(copied(export))
    assert compiled_passes(copied(evening_export(_bunco_night())))


def test_every_spoiled_file_the_compiled_check_passes_jsonschema_passes_too(export):  # noqa: F811
    refused = 0
    for name, spoil, _expected in CASES:
        data = copied(export)
        try:
            spoil(data)
        except (KeyError, IndexError, StopIteration):
            continue
        if not isinstance(data, dict):
            continue
        try:
            passes = compiled_passes(data)
        except EveningImportError:
            continue  # nested too deeply: refused before either validator
        assert not passes or jsonschema_passes(data), name
        refused += not passes
    assert refused >= 35  # most of the spoiled files are refused by the schema itself


def _set(path):
    def spoil(data):
        *head, last = path
        for part in head:
            data = data[part]
        data[last] = spoil.value

    return spoil


# (where, value): values the two libraries could read differently
DIFFERENT_READINGS = [
    (("evening", "counters_per_stake"), 50.0),  # jsonschema-rs counts 1.0 as a whole number
    (("evening", "minutes_per_round"), 1e1),
    (("evening", "date"), "0000-01-01"),  # no year 0 for Python's date, a year for jsonschema-rs's own check
    (("evening", "name"), "Ann\ud800"),  # a lone surrogate: not UTF-8, jsonschema-rs cannot read it
    (("guests", 0, "name"), "Ann\n"),  # "$" before a trailing newline, in Python's re
    (("guests",), ()),  # a tuple for a list
    (("packs",), ({"red": "R", "blue": "B"},)),
]


@pytest.mark.parametrize("path, value", DIFFERENT_READINGS, ids=[repr(v) for _, v in DIFFERENT_READINGS])
def test_where_the_libraries_read_json_differently_the_compiled_check_does_not_decide(export, path, value):  # noqa: F811
    data = copied(export)
    spoil = _set(path)
    spoil.value = value
    spoil(data)
    assert not compiled_passes(data)


def _places(data, at=()):
    """Every (container path, key) in ``data``."""
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return
    for key, value in items:
        yield at, key
        yield from _places(value, (*at, key))


ODD = st.sampled_from(
    [0, 1, -1, 1.0, 0.5, 2**63 - 1, 2**63, -(2**63), 10**30, True, False, None, "", " ", "1", "12\n", "-3"]
    + ["0000-01-01", "2024-02-29", "2026-02-29", "2026-12-04T20:00:00+00:00", "abc\x00", "x" * 121, "red", "blue"]
    + [[], {}, [1], [1, 2, 3], {"a": 1}, {"1": 5}, [[[[[[[]]]]]]]]
)
VALUES = st.one_of(
    ODD, st.integers(), st.text(max_size=6), st.floats(allow_nan=False, allow_infinity=False), st.lists(st.integers())
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    edits=st.lists(
        st.tuples(st.integers(min_value=0), st.sampled_from(["set", "drop", "add", "float"]), VALUES), max_size=3
    )
)
def test_on_random_edits_of_a_real_export_the_compiled_check_never_passes_what_jsonschema_refuses(export, edits):  # noqa: F811
    data = copied(export)
    for pick, how, value in edits:
        places = list(_places(data))
        at, key = places[pick % len(places)]
        container = data
        for part in at:
            container = container[part]
        if how == "set":
            container[key] = value
        elif how == "float":  # the same number written with a fraction: 3 -> 3.0
            old = container[key]
            container[key] = float(old) if type(old) is int and abs(old) < 2**53 else value
        elif how == "drop" and isinstance(container, dict):
            del container[key]
        elif how == "drop":
            container.pop(key)
        elif isinstance(container, dict):
            container[f"{key}_x"] = value
        else:
            container.append(value)
    try:
        passes = compiled_passes(data)
    except EveningImportError:
        return  # nested too deeply: refused before either validator
    if passes:
        assert jsonschema_passes(data)
