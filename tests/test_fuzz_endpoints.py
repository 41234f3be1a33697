"""Every endpoint fuzzed with bad values (issue 12 item 1): no 5xx, and no row of the database
changed by a request that was refused.

The URL patterns are enumerated from the resolver; each one is listed in ``POSTS`` (the fields
its forms read, each marked as a number/choice field or a free-text field) or in ``GETS`` (its
query parameters), or in ``NOT_FUZZED`` with the reason, and a test checks that nothing is
left out. Host pages are fetched logged in as the host; key-bearing URLs with a guest's, a
door helper's, a scorer's or the evening's public key.

Each request carries, in every field the form expects, a value that field must refuse, or
leaves it out (at least one field carries a value): Unicode digits ("²③٣"), numbers beyond a
64-bit integer, negative numbers, NUL with control characters, 10,000 characters, and the
same field repeated. Free-text fields (a name, a note, a hand) get only what no text field
takes (NUL, 10,000 characters), since "²" is a fine name. A button's ``action`` is either a
real button (to reach the code behind it) or a bad value. Whatever happens, the answer is
not a 5xx; a request that changed the database must say what it did (a message, not an error).
"""

from __future__ import annotations

import os
import string
from dataclasses import dataclass, field

import pytest
from django.contrib.messages import constants, get_messages
from django.core.cache import cache
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.db_snapshot import changed_tables, db_snapshot
from tests.factories import GuestFactory
from tests.fixtures_phones import at_table
from tests.test_draw_services import make
from tournament.models import Evening, Guest, Seat
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.captains import captain_report
from tournament.services.clock import round_start
from tournament.services.draw_physical import draw_physical_record, draw_physical_start
from tournament.services.draws import draw_digital
from tournament.services.ending import evening_end
from tournament.services.helpers import helper_link_create
from tournament.services.registration import registration_switch
from tournament.services.results import result_record
from tournament.services.state import current_round, evening_state

EXAMPLES = int(
    os.environ.get("FUZZ_EXAMPLES", "6")
)  # per endpoint and variant: about 60 variants, a minute or two in all

UNICODE_DIGITS = "²³¹①②③⑨٣٤٥۳۴०१২৩߃๓༣၃႓០᠓᥇᧑᭓᮳᱓꘣꣓꤃꧓꩓꯳０１９𝟑𝟙"
CONTROL = "".join(chr(c) for c in range(1, 32)) + "\x7f\x85\u2028\u2029"

unicode_digits = st.text(alphabet=UNICODE_DIGITS, min_size=1, max_size=6) | st.builds(
    lambda a, b: a + b, st.sampled_from(["1", "3", "12"]), st.text(alphabet=UNICODE_DIGITS, min_size=1, max_size=3)
)
huge = st.integers(min_value=2**63, max_value=10**40).map(str)
negative = st.integers(min_value=-(10**30), max_value=-1).map(str)
with_nul = st.builds(
    lambda a, b: a + "\x00" + b,
    st.text(alphabet=CONTROL + "12ab²", max_size=5),
    st.text(alphabet=CONTROL + "12ab", max_size=5),
)
long_text = st.sampled_from(["a", "1", "²", "\x00", " ", ",", "é", "ab\n"]).map(lambda c: (c * 10_000)[:10_000])

NUMBER_VALUES = unicode_digits | huge | negative | with_nul | long_text
TEXT_VALUES = with_nul | long_text
MISSING = object()

N, T = "number", "text"  # a number or choice field; a free-text field


@dataclass(frozen=True)
class Endpoint:
    """One URL name to fuzz: ``fields`` (name -> N or T), ``fixed`` values sent as they are
    (a real button), ``who`` (host, guest, door, scorer, public) and ``on`` (which evening)."""

    name: str
    fields: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    who: str = "host"
    on: str = "playing"

    @property
    def label(self) -> str:
        return self.name + ("[" + ",".join(f"{k}={v}" for k, v in self.fixed.items()) + "]" if self.fixed else "")


RESULT = {"round": N, "pool_winner": N, "in_call": N, "tied": N, "counters": N}
SHOWDOWN = {
    "seating": N,
    "hand-1": T,
    "hand-2": T,
    "hand-3": T,
    "hand-4": T,
    "dealer": N,
    "seat": N,
    "during_play": N,
    "pick": N,
    "unpick": N,
    "send": N,
    "sent_seat": N,
    "request_id": T,
}
EVENING = {
    "name": T,
    "date": N,
    "game": N,
    "counters_per_stake": N,
    "minutes_per_round": N,
    "rounds_planned": N,
    "round_end": N,
    "red_label": T,
    "blue_label": T,
    "counter_value": N,
}
HOUSE_RULES = {
    name: N
    for name in (
        "no_result",
        "pool_tie",
        "tie_yellow",
        "all_in_call",
        "head_bust",
        "many_busts",
        "swap_with",
        "booby_unknown",
        "last_round_counts",
        "leave_fill",
        "arrive_at",
        "max_table",
        "booby_rule",
        "ties",
    )
}

POSTS = [
    Endpoint("host-evenings", EVENING),
    Endpoint("host-evening-edit", EVENING),
    Endpoint("host-evening-import", {"file": T}),
    Endpoint("host-guests", {"one-name": T, "one-pack": N, "one-contact": T}),
    Endpoint("host-guests", {"many-text": T}),
    Endpoint("host-guest-status", {"action": N}),
    Endpoint("host-guest-remove", {"confirm": N}),
    Endpoint("host-guests-check-in", {"guest": N, "everyone": N}),
    Endpoint("host-guest-name", {"name": T}),
    Endpoint("host-draw", {"representing": N, "accept_relaxed": N}, {"action": "digital"}, on="changes"),
    Endpoint("host-draw", {"action": N, "representing": N, "accept_relaxed": N}, on="changes"),
    Endpoint("host-draw-change", {"guest": N, "table": N}, {"action": "seat"}, on="changes"),
    Endpoint("host-draw-change", {"guest": N}, {"action": "release"}, on="changes"),
    Endpoint("host-draw-change", {"guest": N, "latecomer": N}, {"action": "swap"}, on="changes"),
    Endpoint("host-draw-change", {"action": N, "guest": N, "table": N, "latecomer": N}, on="changes"),
    Endpoint("host-draw-physical", {"guest": T, "card": N}, on="physical"),
    Endpoint("host-draw-physical-action", {"guest": N}, {"action": "withdraw"}, on="physical"),
    Endpoint("host-draw-physical-action", {"action": N, "guest": N}, on="physical"),
    Endpoint("host-seats", {"guest": N, "other": N}, {"action": "swap"}),
    Endpoint("host-seats", {"guest": N, "place": T}, {"action": "move"}),
    Endpoint("host-seats", {"step": N}, {"action": "undo"}),
    Endpoint("host-seats", {"action": N, "guest": N, "other": N, "place": T, "step": N}),
    Endpoint("host-round", {"action": N, "round": N, "bell": N, "by": N}),
    Endpoint("host-round", {"bell": N}, {"action": "undo"}),
    Endpoint("host-round", {"round": N, "by": N}, {"action": "ring"}),
    Endpoint("host-round", {"round": N, "by": N}, {"action": "ring", "confirmed": "on"}),
    Endpoint("host-end", {"round": N}, {"confirm": "on"}),
    Endpoint("host-final-count", {"agreed_off": N, "counters": N}, {"agree": "on"}),
    Endpoint("host-reveal", {"step": N}),
    Endpoint("host-result", RESULT),
    Endpoint("host-showdown", SHOWDOWN),
    Endpoint("host-showdown", SHOWDOWN, {"action": "pick"}),
    Endpoint("host-game", {"game": N}),
    Endpoint("host-guest-link", {"action": N}),
    Endpoint("host-door", {"self_registration": N}),
    Endpoint("host-helpers", {"role": N, "label": T}, {"action": "create"}),
    Endpoint("host-helpers", {"link": N}, {"action": "revoke"}),
    Endpoint("host-helpers", {"action": N, "role": N, "label": T, "link": N}),
    Endpoint("host-house-rules", HOUSE_RULES),
    Endpoint("host-correction", RESULT),
    Endpoint("host-bell-cuts", {"cuts": N}),
    Endpoint("host-clock", {"minutes": N}, {"action": "add"}),
    Endpoint("host-clock", {"minutes": N}, {"action": "set"}),
    Endpoint("host-clock", {"action": N, "minutes": N}),
    Endpoint(
        "host-clock-settings",
        {"round_end": N, "changeover_minutes": N, "warning_seconds": N, "rounds_planned": N, "ends_at": N},
    ),
    Endpoint("host-table-jump", {"table": N}),
    Endpoint("guest-report", {**RESULT, "table": N, "request_id": T}, who="guest"),
    Endpoint("guest-vote", {"result": N, "verdict": N, "note": T}, who="guest"),
    Endpoint("guest-showdown", SHOWDOWN, who="guest"),
    Endpoint("guest-showdown", SHOWDOWN, {"action": "pick"}, who="guest"),
    Endpoint("guest-check-in", {"anything": N}, who="guest"),
    Endpoint("guest-page", {"anything": N}, who="guest"),
    Endpoint("door", {"name": T, "pack": N}, who="public"),
    Endpoint("helper-page", {"one-name": T, "one-pack": N, "one-contact": T}, who="door"),
    Endpoint("helper-page", {"one-name": T, "one-pack": N}, who="scorer"),
    Endpoint("helper-guest", {"action": N}, who="door"),
    Endpoint("helper-check-in", {"guest": N, "everyone": N}, who="door"),
    Endpoint("helper-result", RESULT, who="scorer"),
    Endpoint("helper-result", RESULT, who="door"),
]

GETS = [
    Endpoint("host-guests", {"q": T, "show": N}),
    Endpoint("host-guest-remove", {"q": T, "show": N, "confirm": N, "keep": N}),
    Endpoint("host-guest-name", {"back": N}),
    Endpoint("host-table-jump", {"table": N}),
    Endpoint("host-print", {"paper": N}),
    Endpoint("host-print-seating", {"paper": N, "variant": N}),
    Endpoint("host-print-scores", {"paper": N, "variant": N}),
    Endpoint("host-print-results", {"paper": N}),
    Endpoint("host-print-cards", {"paper": N, "variant": N}),
    Endpoint("host-print-tally", {"paper": N, "variant": N}),
    Endpoint("host-audit", {"page": N}),
    Endpoint("host-evening", {"anything": N}),
    Endpoint("room", {"mode": N}, who="public"),
    Endpoint("rules-game", {"evening": N}, who="rules"),
    Endpoint("public-seating", {"anything": N}, who="public"),
    Endpoint("rules-evening", {"anything": N}, who="public"),
    Endpoint("guest-page", {"anything": N}, who="guest"),
    Endpoint("guest-wait", {"v": N}, who="guest"),  # never a version: answered "changed" at once
    Endpoint("helper-page", {"q": T, "show": N}, who="door"),
]

NOT_FUZZED = {
    None: "unnamed patterns (the favicon's redirect) read nothing",
    **{
        name: "a club page: fuzzed over a club in tests/test_clubs_fuzz.py"
        for name in (
            "clubs",
            "club",
            "club-settings",
            "club-member",
            "club-evening-new",
            "club-evening-bring",
            "club-sub-promote",
            "club-season-new",
            "club-season",
            "club-season-close",
        )
    },
    **{
        name: "a club's kitty page: fuzzed over a club in tests/test_clubs_kitty_pages.py"
        for name in (
            "club-kitty",
            "club-kitty-pdf",
            "club-ledger",
            "club-standings-csv",
            "club-standings-pdf",
            "club-ledger-csv",
            "club-ledger-pdf",
            "club-season-json",
        )
    },
    **{
        name: "the season's calendar or a member's page: fuzzed over a club in tests/test_clubs_calendar.py"
        for name in ("club-calendar", "club-calendar-evening", "club-member-links", "member-page", "member-calendar")
    },
    "club-season-reveal": "the season ceremony's tap: fuzzed over a club in tests/test_clubs_ceremony.py",
    "season-room": "the season's room display: reads only its key (tests/test_clubs_ceremony.py)",
    "home": "a redirect or a static page, reads nothing",
    "guide": "a static page, reads nothing",
    "rules": "a static page, reads nothing",
    "host-connect": "reads nothing from the request",
    "host-draw-pull": "reads nothing from the request",
    "host-draw-seating": "reads nothing from the request",
    "host-export": "reads nothing from the request",
    "host-links": "reads nothing from the request",
    "host-standings": "reads nothing from the request",
    "host-corrections": "reads nothing from the request",
    "host-moves": "reads nothing from the request",
    "host-table": "reads nothing from the request (the table is in the path)",
    "host-finish": "reads nothing from the request",
    "host-bell-confirm": "reads nothing from the request (the round is in the path)",
    "host-print-tents": "read as host-print-seating (same view code, ?paper= only)",
    "host-print-pull": "read as host-print-seating (same view code, ?paper= only)",
    "host-print-certificates": "read as host-print-results (same view code, ?paper= only)",
}
DJANGO_OWN = ("admin:", "login", "logout", "password_")


def _patterns(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin" or "accounts" in str(entry.pattern):
                continue
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield entry.name, prefix + str(entry.pattern)


def test_every_url_pattern_is_fuzzed_or_says_why_not():
    fuzzed = {e.name for e in POSTS + GETS}
    names = {name for name, _ in _patterns()}
    assert names - fuzzed - set(NOT_FUZZED) == set()
    assert set(NOT_FUZZED) - {None} <= names and fuzzed <= names


STAGES = ("in play", "bell waits", "bell undone", "ended")
BELL_SIDE = {
    "host-round",
    "host-clock",
    "host-bell-cuts",
    "host-result",
    "host-correction",
    "host-end",
    "host-final-count",
    "host-reveal",
    "guest-report",
    "guest-vote",
    "helper-result",
    "host-showdown",
    "guest-showdown",
}


def _stage(evening: Evening, stage: str) -> None:
    """Take ``evening`` (round 1 in play, table 2 reported, table 3 a split pool) to ``stage``:
    "bell waits" (rung with the head table's counts missing), "bell undone" (rung, then undone:
    round 1 waits for the host), "ended" (round 1 made the last and rung: the final count)."""
    if stage == "in play":
        return
    rnd = current_round(evening)
    if stage == "bell waits":
        assert bell_ring(round_id=rnd.pk, cause="host") is None
        return
    head, counters = at_table(evening, 1), evening_state(evening).counters
    result_record(round=rnd, table=1, pool_winner=head[0].pk, counters={g.pk: counters[g.pk] for g in head})
    if stage == "ended":
        evening_end(evening=evening, seen_round=1)
    assert bell_ring(round_id=rnd.pk, cause="host") is not None
    if stage == "bell undone":
        bell_undo(evening=evening)


@pytest.fixture
def world(client, host, request):
    """Three evenings of the host, logged in: ``playing`` (16 guests, round 1 in play, a
    captain's report at table 2 and a split pool at table 3, self-registration on, a door and a
    scorer link, a guest not here yet; then taken to the test's ``stage``), ``changes`` (drawn
    before round 1, a latecomer and a leaver) and ``physical`` (a physical draw with one card
    recorded)."""
    cache.clear()
    playing = make(8, 8, host=host)
    draw_digital(evening=playing)
    round_start(evening=playing)
    captain, winner = at_table(playing, 2)[:2]
    result = captain_report(guest=captain, round_number=1, table=2, pool_winner=winner.pk)
    third = at_table(playing, 3)
    result_record(round=current_round(playing), table=3, pool_winner=third[0].pk, tied=[third[1].pk])
    _stage(playing, getattr(request, "param", "in play"))
    registration_switch(evening=playing, on=True)
    door = helper_link_create(evening=playing, role="door")
    scorer = helper_link_create(evening=playing, role="scorer")
    waiting = GuestFactory(evening=playing, name="Not Yet", pack="red", status="registered")
    changes = make(10, 10, host=host)
    draw_digital(evening=changes)
    late = GuestFactory(evening=changes, name="Late Lucy", pack="red", status="here")
    leaver = Seat.objects.filter(evening=changes, table=1).first().guest
    Guest.objects.filter(pk=leaver.pk).update(status="left")
    physical = make(7, 5, host=host)
    draw_physical_start(evening=physical)
    draw_physical_record(evening=physical, guest_id=physical.guests.get(name="Red 1").pk, card="3")
    client.force_login(host)
    voter = at_table(playing, 2)[1]
    return {
        "client": client,
        "playing": Evening.objects.get(pk=playing.pk),
        "changes": changes,
        "physical": physical,
        "keys": {"guest": voter.key, "door": door.key, "scorer": scorer.key, "public": playing.public_key},
        "guest": waiting,
        "table_guests": at_table(playing, 2),
        "result": result,
        "late": late,
        "cutters": third[:2],
    }


def _path(endpoint: Endpoint, world: dict) -> str:
    from django.urls import reverse

    evening = world[endpoint.on]
    args = {
        "host-guest-status": [world["guest"].pk],
        "host-guest-remove": [world["guest"].pk],
        "host-guest-name": [world["guest"].pk],
        "host-result": [2],
        "host-showdown": [2],
        "host-guest-link": [world["guest"].pk],
        "host-correction": [1, 2],
        "helper-guest": [world["guest"].pk],
        "helper-result": [2],
        "host-final-count": [2],
    }.get(endpoint.name, [])
    if endpoint.who == "rules":
        return reverse(endpoint.name, args=["draw_poker"])
    if endpoint.who != "host":
        return reverse(endpoint.name, args=[world["keys"][endpoint.who], *args])
    if endpoint.name in ("host-evenings", "host-evening-import"):
        return reverse(endpoint.name)
    return reverse(endpoint.name, args=[evening.pk, *args])


def _field_names(endpoint: Endpoint, world: dict) -> dict:
    """The endpoint's fields with the per-guest ones spelled out (``counters`` becomes
    ``counters_<id>`` for the guests at table 2, ``cuts`` ``cut_<id>``)."""
    names = {}
    for name, kind in endpoint.fields.items():
        if name == "counters":
            names.update({f"counters_{g.pk}": kind for g in world["table_guests"]})
        elif name == "cuts":  # the split pool's two guests may have to cut
            names.update({f"cut_{g.pk}": kind for g in world["cutters"]})
        else:
            names[name] = kind
    return names


def _values(kind: str):
    one = NUMBER_VALUES if kind == N else TEXT_VALUES
    return st.one_of(one, st.lists(one, min_size=2, max_size=3), st.just(MISSING))


@st.composite
def _request(draw, names: dict) -> dict:
    data = {name: draw(_values(kind)) for name, kind in names.items()}
    if all(value is MISSING for value in data.values()):
        first = next(iter(names))
        data[first] = draw(NUMBER_VALUES if names[first] == N else TEXT_VALUES)
    return {k: v for k, v in data.items() if v is not MISSING}


def _says_what_it_did(response) -> bool:
    """True when the answer tells the host what was done: a message, none of them an error.
    The client's messages cookie is emptied before each example: the examples never follow
    their redirects, so the messages of dozens of refused examples piled up in it, and an
    accepted report's answer was once read with no message of its own (a flaky failure, about
    one run in four at tables of four)."""
    shown = list(get_messages(response.wsgi_request))
    return bool(shown) and all(m.level < constants.ERROR for m in shown)


def _check(world, endpoint: Endpoint, method: str, data: dict) -> None:
    client = world["client"]
    path = _path(endpoint, world)
    before = db_snapshot()
    client.cookies.pop("messages", None)  # each example's messages its own (see _says_what_it_did)
    send = client.post if method == "POST" else client.get
    response = send(path, {**data, **endpoint.fixed})
    assert response.status_code < 500, (endpoint.label, {k: str(v)[:40] for k, v in data.items()})
    changed = changed_tables(before, db_snapshot())
    if method == "GET":
        assert changed == [], (endpoint.label, changed)
    elif changed:
        assert _says_what_it_did(response), (endpoint.label, changed, {k: str(v)[:40] for k, v in data.items()})


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("endpoint", POSTS, ids=lambda e: f"{e.label}-{e.who}")
@FUZZ
@given(data=st.data())
def test_posts_refuse_bad_values_without_a_server_error(world, endpoint, data):
    request = data.draw(_request(_field_names(endpoint, world)))
    _check(world, endpoint, "POST", request)


@pytest.mark.parametrize("endpoint", GETS, ids=lambda e: f"{e.label}-{e.who}")
@FUZZ
@given(data=st.data())
def test_query_parameters_refuse_bad_values_without_a_server_error(world, endpoint, data):
    request = data.draw(_request(_field_names(endpoint, world)))
    _check(world, endpoint, "GET", request)


@pytest.mark.parametrize("world", STAGES[1:], indirect=True)
@pytest.mark.parametrize("endpoint", [e for e in POSTS if e.name in BELL_SIDE], ids=lambda e: f"{e.label}-{e.who}")
@FUZZ
@given(data=st.data())
def test_the_bell_side_refuses_bad_values_at_every_stage(world, endpoint, data):
    """The round, bell, result and end-of-evening posts again, with the bell waiting, undone,
    and after the last bell."""
    request = data.draw(_request(_field_names(endpoint, world)))
    _check(world, endpoint, "POST", request)


@pytest.mark.parametrize(
    "endpoint", [e for e in POSTS if e.fixed or "action" not in e.fields], ids=lambda e: f"{e.label}-{e.who}"
)
def test_an_empty_post_is_answered_without_a_server_error(world, endpoint):
    _check(world, endpoint, "POST", {})


def test_the_fuzzed_values_are_refused_by_the_fields_themselves():
    """The values are what the fields must refuse: none is a whole number in the digits 0 to 9
    within a 64-bit integer, every text value holds NUL or is 10,000 characters long."""
    from tournament.forms.fields import ascii_whole_number

    @settings(max_examples=300, deadline=None)
    @given(value=NUMBER_VALUES, text=TEXT_VALUES)
    def check(value, text):
        number = ascii_whole_number(value)
        assert number is None or number < 0
        assert "\x00" in text or len(text) == 10_000

    check()
    assert set(string.digits).isdisjoint(UNICODE_DIGITS)


# Tables of four (issue 24 deliver 5): the host's result form, the captain's report and the
# scorer's form on a Progressive Euchre, a Drive Whist and a Bunco evening whose round 2 waits
# for table 3 (``fixtures_foursome_night.waiting_night``); "seats" stands for each player's
# fields at table 3 (Bunco's per-seat counts on the host's form, per player id on the phone's).
HOST_FOURSOME = {
    "round": N,
    "seated": N,
    "points_NS": N,
    "points_EW": N,
    "tricks_NS": N,
    "tricks_EW": N,
    "hands": N,
    "winner": N,
    "seats": N,
}
CAPTAIN_FOURSOME = {
    "round": N,
    "table": N,
    "request_id": T,
    "hands": N,
    "points_ns": N,
    "points_ew": N,
    "playoff": N,
    "tricks_ns": N,
    "tricks_ew": N,
    "rolloff": N,
    "players": N,
}
FOURSOME_POSTS = [
    Endpoint("host-result", HOST_FOURSOME),
    Endpoint("guest-report", CAPTAIN_FOURSOME, who="guest"),
    Endpoint("helper-result", {**HOST_FOURSOME, **RESULT}, who="scorer"),
]


@st.composite
def _spoiled(draw, base: dict, names: dict) -> dict:
    """``base`` (a request the form takes) with one to three of ``names``' fields given a bad
    value or left out, so that the code behind a valid form is reached too."""
    data = dict(base)
    for name in draw(st.lists(st.sampled_from(sorted(names)), min_size=1, max_size=3, unique=True)):
        value = draw(_values(names[name]))
        if value is MISSING:
            data.pop(name, None)
        else:
            data[name] = value
    return data


def _good_report(fmt: str, seats, *, captain: bool) -> dict:
    """A report of table 3 in round 2 that the host's form (or the captain's) takes."""
    if captain:
        if fmt == "euchre":
            return {"round": "2", "table": "3", "points_ns": "7", "points_ew": "3"}
        if fmt == "whist":
            return {"round": "2", "table": "3", "tricks_ns": "8", "tricks_ew": "5"}
        points = dict(zip(seats, ("21", "5", "0", "4"), strict=True))
        return {"round": "2", "table": "3", **{f"points_{p}": n for p, n in points.items()}}
    base = {"round": "2", "seated": " ".join(map(str, seats))}
    if fmt == "euchre":
        return {**base, "points_NS": "7", "points_EW": "3"}
    if fmt == "whist":
        return {**base, "tricks_NS": "8", "tricks_EW": "5"}
    counts = {f"{kind}_{seat}": "0" for seat in range(4) for kind in ("buncos", "minis")}
    return {**base, "points_NS": "21", "points_EW": "9", **counts}


@pytest.fixture(params=["euchre", "whist", "bunco"])
def foursome_world(client, host, request):
    """An evening at tables of four (the param's format) waiting for table 3's report in round
    2, the host logged in, a guest of table 3 and a scorer's link."""
    from tests.fixtures_foursome_night import waiting_night
    from tournament.formats.partnership.state import foursome_state

    cache.clear()
    evening = waiting_night(host, request.param)
    seats = foursome_state(evening).tables[2]
    captain = Guest.objects.filter(pk__in=[p for p in seats if p > 0]).order_by("pk").first()
    scorer = helper_link_create(evening=evening, role="scorer")
    client.force_login(host)
    return {"client": client, "evening": evening, "seats": seats, "keys": {"guest": captain.key, "scorer": scorer.key}}


def _foursome_fields(endpoint: Endpoint, world: dict) -> dict:
    names = {}
    for name, kind in endpoint.fields.items():
        if name == "seats":
            names.update({f"{k}_{seat}": kind for seat in range(4) for k in ("buncos", "minis", "rolls")})
        elif name == "players":
            names.update({f"{k}_{p}": kind for p in world["seats"] for k in ("points", "buncos", "minis", "rolls")})
        elif name == "counters":
            names.update({f"counters_{p}": kind for p in world["seats"] if p > 0})
        else:
            names[name] = kind
    return names


@pytest.mark.parametrize("endpoint", FOURSOME_POSTS, ids=lambda e: f"{e.label}-{e.who}")
@FUZZ
@given(data=st.data())
def test_the_forms_at_tables_of_four_refuse_bad_values_without_a_server_error(foursome_world, endpoint, data):
    from django.urls import reverse

    world = foursome_world
    base = _good_report(world["evening"].format, world["seats"], captain=endpoint.who == "guest")
    request = data.draw(_spoiled(base, _foursome_fields(endpoint, world)))
    if endpoint.who == "host":
        path = reverse(endpoint.name, args=[world["evening"].pk, 3])
    elif endpoint.who == "scorer":
        path = reverse(endpoint.name, args=[world["keys"]["scorer"], 3])
    else:
        path = reverse(endpoint.name, args=[world["keys"]["guest"]])
    before = db_snapshot()
    world["client"].cookies.pop("messages", None)  # each example's messages its own (see _says_what_it_did)
    response = world["client"].post(path, request)
    assert response.status_code < 500, (endpoint.label, {k: str(v)[:40] for k, v in request.items()})
    changed = changed_tables(before, db_snapshot())
    assert changed == [] or _says_what_it_did(response), (endpoint.label, changed)


@pytest.mark.parametrize("world", ["ended"], indirect=True)
@FUZZ
@given(data=st.data())
def test_the_final_count_refuses_a_count_for_nobody_without_a_server_error(world, data):
    """A counters field named for no guest ("counters_①", an id no database holds) beside the
    table's own fields: "counters_①" passed ``str.isdigit()`` and crashed ``int()``."""
    from tournament.services import ending

    table = ending.final_count_tables(world["playing"])[1]
    base = {f"counters_{g}": str(n) for g, n in table.prefill.items()}
    names = {f"counters_{key}": N for key in ("①", "²", "٣", "99999999999999999999", "-3", *table.prefill)}
    request = data.draw(_spoiled(base, names))
    _check(world, Endpoint("host-final-count", {}, {"agree": "on"}), "POST", request)
