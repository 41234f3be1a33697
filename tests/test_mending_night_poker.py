"""A Progressive Poker night that goes wrong and is mended, played as a host plays it, through
the site's own pages (Django's test client pressing the pages' buttons, ``tests/page_forms``):
a late guest seated between rounds 1 and 2, a guest who leaves between rounds 2 and 3, another
whom the host tries to mark as left in the middle of round 3 (refused: guests leave between
rounds) and marks after its bell, round 3's bell undone because table 2's winner was
reported wrong, round 3 rung again, then round 2's table 2 count corrected (before the leaver
left, after the late guest came), then rounds 4 and 5. Every page tells the same story, and
the standings equal the answer worked by hand below from docs/rules/progressive-poker.md; the
mended evening exported and imported back (the host's import page) has the same standings,
history and corrections.

The night, worked by hand (three tables of four, a stake of 50; docs/rules/progressive-poker.md,
'The bell', 'Guests who leave or arrive', 'Corrections', 'Prizes', 'Standings'):

- R1: table 1 H1 wins (H1 65, H2 50, H3 45, H4 40): H1 a yellow counter, H4 (fewest, not in
  the call) down to the booby table; M1 up from table 2; B1 (60, B2 40) up from table 3.
  Tables: [H1 H2 H3 M1] [B1 M2 M3 M4] [H4 B2 B3 B4].
- Yara arrives: the booby table, with a stake of 50 ('arrive_at' booby).
- R2: table 1 H2 wins, H3 in the call (H1 55, H2 70, H3 45, M1 40): H2 a yellow counter, M1
  down; table 2 M2 wins (B1 60, M2 70, M3 40, M4 40); table 3 Yara wins (H4 40, B2 30, B3 50,
  B4 50, Yara 60). Tables: [H1 H2 H3 M2] [B1 Yara M3 M4] [H4 B2 B3 B4 M1].
- M4 leaves (table 2 plays with three: 'leave_fill' below_three).
- R3 (B4's leaving refused while it is played): table 1 H1 wins (H1 85, H2 60, H3 35, M2
  60): H3 down; table 2 reported as M3's, the bell undone, Yara's entered, rung again; table 3
  H4 wins (H4 50, B2 30, B3 40, B4 50, M1 40). Tables: [H1 H2 Yara M2] [B1 H4 M3]
  [H3 B2 B3 B4 M1]. B4 leaves: [H3 B2 B3 M1].
- Correction: round 2's table 2 was M3 45 and M4 35 (M2 still the winner): the bells are rung
  again, nobody sits elsewhere; M4 (gone) ends with 35, M3 holds 45 until counted again.
- R4: table 1 Yara wins, M2 in the call (H1 80, H2 50, Yara 80, M2 55): H2 down; table 2 M3
  wins; table 3 B2 wins (H3 30, B2 45, B3 40, M1 30). Tables: [H1 M3 Yara M2] [B1 H4 B2]
  [H3 H2 B3 M1].
- R5: table 1 H1 wins (H1 100, M3 35, Yara 80, M2 45): M3 down; table 2 B1 wins; table 3 M1
  wins (H3 20, H2 55, B3 35, M1 40). Tables: [H1 B1 Yara M2] [M1 H4 B2] [H3 H2 B3 M3].
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.urls import reverse

from tests.fixtures_bell import seat_by_names
from tests.page_forms import press, said, text_of
from tests.test_corrections import BOOBY, HEAD, MIDDLE
from tournament.exchange.export import evening_export
from tournament.models import AuditEntry, Bell, Evening, Guest, Result
from tournament.services.prizes import evening_standings
from tournament.services.state import evening_state

pytestmark = pytest.mark.django_db

YARA = "Yara Young"
# name -> (yellow counters, counters, counters won), worked by hand (module docstring)
STANDINGS = {
    "H1": (3, 100, 50),
    YARA: (1, 80, 30),
    "H2": (1, 55, 5),
    "B1": (0, 60, 10),
    "H4": (0, 50, 0),
    "B4": (0, 50, 0),
    "M2": (0, 45, -5),
    "B2": (0, 45, -5),
    "M1": (0, 40, -10),
    "M3": (0, 35, -15),
    "B3": (0, 35, -15),
    "M4": (0, 35, -15),
    "H3": (0, 20, -30),
}
# places: yellow counters, then counters; level guests share a place ('Standings')
PLACES = {
    "H1": 1,
    YARA: 2,
    "H2": 3,
    "B1": 4,
    "H4": 5,
    "B4": 5,
    "M2": 7,
    "B2": 7,
    "M1": 9,
    "M3": 10,
    "B3": 10,
    "M4": 10,
    "H3": 13,
}
TABLES = [{"H1", "B1", YARA, "M2"}, {"M1", "H4", "B2"}, {"H3", "H2", "B3", "M3"}]
LEFT = {"M4", "B4"}


class Host:
    """The host at the laptop: the evening's pages and their buttons."""

    def __init__(self, client, evening: Evening, ids: dict[str, int]) -> None:
        self.client, self.evening, self.ids = client, evening, ids
        self.board = reverse("host-evening", args=[evening.pk])
        self.guests = reverse("host-guests", args=[evening.pk])

    def url(self, name: str, *args) -> str:
        return reverse(name, args=[self.evening.pk, *args])

    def said(self, response) -> list[str]:
        return said(response)

    def start(self, number: int) -> None:
        answer = press(self.client, self.board, f"Start round {number}")
        assert f"Round {number} has started." in said(answer), said(answer)

    def result(self, table: int, winner: str, call=(), counters: dict | None = None) -> None:
        typed = {"pool_winner": self.ids[winner], "in_call": [self.ids[n] for n in call]}
        typed |= {f"counters_{self.ids[n]}": c for n, c in (counters or {}).items()}
        answer = press(self.client, self.url("host-result", table), "Save the result", typed)
        assert f"Result saved for table {table}." in said(answer), (
            said(answer),
            text_of(answer.content.decode())[-800:],
        )

    def ring(self, number: int) -> None:
        answer = press(self.client, self.board, "Ring the bell now")
        assert f"The bell of round {number} has rung." in said(answer), said(answer)

    def play(self, number: int, results: dict[int, tuple]) -> None:
        self.start(number)
        for table, result in results.items():
            self.result(table, *result)
        self.ring(number)

    def guest_button(self, name: str, button: str):
        return press(self.client, self.guests, button, where=f"/guests/{self.ids[name]}/")


def tables(evening: Evening, ids: dict[str, int]) -> list[set[str]]:
    names = {pk: name for name, pk in ids.items()}
    return [{names[g] for g in table} for table in evening_state(evening).tables]


def mended_night(client, host) -> tuple[Evening, dict[str, int]]:
    """The night of the module docstring, played through the host's pages."""
    from tests.factories import EveningFactory

    client.force_login(host)
    evening = EveningFactory(host=host, name="Mended night", rounds_planned=6, round_end=Evening.RoundEnd.CLOCK)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    desk = Host(client, evening, ids)
    desk.play(
        1,
        {
            1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}),
            2: ("M1",),
            3: ("B1", [], {"B1": 60, "B2": 40, "B3": 50, "B4": 50}),
        },
    )
    assert tables(evening, ids) == [{"H1", "H2", "H3", "M1"}, {"B1", "M2", "M3", "M4"}, {"H4", "B2", "B3", "B4"}]

    # Yara comes late: registered at the door, then checked in, which seats her
    answer = press(client, desk.guests, "Add the guest", {"one-name": YARA, "one-pack": "red", "one-check_in": None})
    assert answer.status_code == 200
    ids[YARA] = Guest.objects.get(evening=evening, name=YARA).pk
    answer = desk.guest_button(YARA, "Check in")
    assert any(YARA in m and "table 3" in m for m in said(answer)), said(answer)
    assert tables(evening, ids)[2] == {"H4", "B2", "B3", "B4", YARA}

    desk.play(
        2,
        {
            1: ("H2", ["H3"], {"H1": 55, "H2": 70, "H3": 45, "M1": 40}),
            2: ("M2", [], {"B1": 60, "M2": 70, "M3": 40, "M4": 40}),
            3: (YARA, [], {"H4": 40, "B2": 30, "B3": 50, "B4": 50, YARA: 60}),
        },
    )
    assert tables(evening, ids) == [{"H1", "H2", "H3", "M2"}, {"B1", YARA, "M3", "M4"}, {"H4", "B2", "B3", "B4", "M1"}]
    answer = desk.guest_button("M4", "Left")
    assert any("M4" in m for m in said(answer)), said(answer)
    assert tables(evening, ids)[1] == {"B1", YARA, "M3"}

    desk.start(3)
    before = _snapshot(evening)
    answer = desk.guest_button("B4", "Left")  # in the middle of round 3: refused, nothing changes
    (refusal,) = said(answer)
    assert refusal == "A round is in play: ring its bell first, then mark B4 as left."
    assert _snapshot(evening) == before
    desk.result(1, "H1", [], {"H1": 85, "H2": 60, "H3": 35, "M2": 60})
    desk.result(2, "M3")  # wrong: Yara won it
    desk.result(3, "H4", [], {"H4": 50, "B2": 30, "B3": 40, "B4": 50, "M1": 40})
    desk.ring(3)
    assert "M3" in tables(evening, ids)[0]

    # the host sees the mistake: undo round 3's bell from the board, enter table 2 again, ring
    answer = press(client, desk.board, "Undo", where="in")
    assert any("The bell of round 3 is undone" in m for m in said(answer)), said(answer)
    assert tables(evening, ids) == [{"H1", "H2", "H3", "M2"}, {"B1", YARA, "M3"}, {"H4", "B2", "B3", "B4", "M1"}]
    desk.result(2, YARA)
    desk.ring(3)
    assert tables(evening, ids) == [{"H1", "H2", YARA, "M2"}, {"B1", "H4", "M3"}, {"H3", "B2", "B3", "B4", "M1"}]
    answer = desk.guest_button("B4", "Left")  # after the bell: taken
    assert any("B4" in m for m in said(answer)), said(answer)

    # round 2's table 2 was counted wrong (M3 45 and M4 35): corrected from the corrections page
    url = desk.url("host-correction", 2, 2)
    typed = {f"counters_{ids['M3']}": 45, f"counters_{ids['M4']}": 35}
    answer = press(client, url, "Save the correction", typed)
    assert answer.redirect_chain, text_of(answer.content.decode())[-1500:]
    assert tables(evening, ids) == [{"H1", "H2", YARA, "M2"}, {"B1", "H4", "M3"}, {"H3", "B2", "B3", "M1"}]

    desk.play(
        4,
        {
            1: (YARA, ["M2"], {"H1": 80, "H2": 50, YARA: 80, "M2": 55}),
            2: ("M3",),
            3: ("B2", [], {"H3": 30, "B2": 45, "B3": 40, "M1": 30}),
        },
    )
    desk.play(
        5,
        {
            1: ("H1", [], {"H1": 100, "M3": 35, YARA: 80, "M2": 45}),
            2: ("B1",),
            3: ("M1", [], {"H3": 20, "H2": 55, "B3": 35, "M1": 40}),
        },
    )
    return Evening.objects.get(pk=evening.pk), ids


def _snapshot(evening: Evening) -> tuple:
    return (
        sorted(Bell.objects.of_evening(evening.pk).values_list("pk", "undone_at")),
        sorted(evening.seats.values_list("guest_id", "table", "position")),
        sorted(evening.guests.values_list("pk", "status")),
    )


@pytest.fixture
def night(client, host):
    return mended_night(client, host)


def _standing(evening: Evening) -> dict[str, tuple[int, int, int]]:
    return {
        line.guest.name: (line.row.yellow, line.row.counters, line.row.counters_won)
        for line in evening_standings(evening).lines
    }


def test_the_mended_night_ends_where_the_rules_worked_by_hand_put_it(night):
    evening, ids = night
    assert tables(evening, ids) == TABLES
    assert _standing(evening) == STANDINGS
    lines = evening_standings(evening).lines
    assert {line.guest.name: line.place for line in lines} == PLACES
    prizes = {p.prize.key: sorted(g.name for g in p.winners) for p in evening_standings(evening).prizes}
    # most yellow counters H1 (3); counters won: red H1 +50, blue H2 +5; booby H3 -30
    assert prizes["head_table"] == ["H1"]
    assert prizes["booby"] == ["H3"]
    assert sorted(v for k, v in prizes.items() if k not in ("head_table", "booby")) == [["H1"], ["H2"]]
    assert {g.name for g in evening.guests.filter(status=Guest.Status.LEFT)} == LEFT
    steps = list(Bell.objects.of_evening(evening.pk).live().in_order().values_list("kind", "round__number"))
    assert steps == [
        ("bell", 1),
        ("arrive", 1),
        ("bell", 2),
        ("leave", 2),
        ("bell", 3),
        ("leave", 3),
        ("bell", 4),
        ("bell", 5),
    ]
    # round 2's table 2: the first count kept and marked replaced, the corrected one live
    kept = Result.objects.filter(round__evening=evening, round__number=2, table=2).order_by("pk")
    assert [r.superseded_at is not None for r in kept] == [True, False]
    assert kept.last().counters[str(ids["M4"])] == 35
    # round 3's table 2: M3's result replaced by Yara's after the undo
    r3 = Result.objects.filter(round__evening=evening, round__number=3, table=2).order_by("pk")
    assert [(r.pool_winner_id, r.superseded_at is not None) for r in r3] == [(ids["M3"], True), (ids[YARA], False)]


def _page(client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200, (name, response.status_code)
    return text_of(response.content.decode())


def test_every_page_tells_the_same_story_of_the_mended_night(night, client):
    """The board, the guests list, the standings, the corrections history, the audit log, the
    room display, the phones of the late guest and of a leaver, and the pre-filled score
    sheets agree with one another and with the answer worked by hand."""
    from tests.pdf_reading import page_texts

    evening, ids = night
    e = evening.pk
    board = _page(client, "host-evening", e)
    assert "Guests (11 here)" in board and "Round 5 is over" in board and "Start round 6" in board
    assert "Undo round 5's bell" in board

    guests = _page(client, "host-guests", e)
    assert "13 registered · 11 here" in guests
    rows = dict(re.findall(r"(\b[HMB][1-4]|Yara Young) (?:Red|Blue) pack (Checked in \d|Left)", guests))
    seated_at = {name: f"Checked in {n}" for n, table in enumerate(TABLES, 1) for name in table}
    assert rows == seated_at | {name: "Left" for name in LEFT}

    standings = _page(client, "host-standings", e)
    table = standings.split("Standings # Guest Yellow Counters Fresh stakes Won", 1)[1]
    listed = re.findall(r"(\d+) [RB] ([HMB][1-4]|Yara Young)( \(left\))? (\d+) (\d+) 0 (-?\d+)", table)
    assert {name: (int(place), int(y), int(c), int(w)) for place, name, _, y, c, w in listed} == {
        name: (PLACES[name], *STANDINGS[name]) for name in STANDINGS
    }
    assert {name for _, name, left, *_ in listed if left} == LEFT
    assert "Most yellow counters : R H1 3 yellow counters" in standings
    assert "out of the running for the booby prize" in standings
    assert "Booby prize : R H3 The most counters lost: 30" in standings

    corrections = _page(client, "host-corrections", e)
    for number in range(1, 6):
        assert corrections.count(f"Round {number} · bell rung by the host") == 1
    assert "Round 2 · bell rung by the host" in corrections
    round_2 = corrections.split("Round 2 · ", 1)[1].split("Round 1 · ", 1)[0]
    assert "2 B1 , M2 , M3 , M4 M2 won the pool" in round_2  # who sat there then, M4 (gone now) included
    assert "3 H4 , B2 , B3 , B4 , Yara Young Yara Young won the pool" in round_2
    round_3 = corrections.split("Round 3 · ", 1)[1].split("Round 2 · ", 1)[0]
    assert "2 B1 , Yara Young , M3 Yara Young won the pool" in round_3

    audit = _page(client, "host-audit", e)
    for words in (
        "The host seated Yara Young , who arrived late.",
        "The host marked M4 as left.",
        "The host marked B4 as left.",
        "The host undid the bell of round 3",
        "The host corrected table 2's result in round 2: M2 won the pool; counters: M3 40 → 45, M4 40 → 35; the "
        "bells of rounds 2 and 3 were played again. Nobody sits elsewhere.",
    ):
        assert audit.count(words) == 1, words

    room = _page(client, "room", evening.public_key)
    assert "Round 5 is over" in room and "A yellow counter H1" in room

    yara = _page(client, "guest-page", Guest.objects.get(pk=ids[YARA]).key)
    assert "Go to Table 1" in yara and "80 counters · 1 yellow counter · place 2 of 13" in yara
    assert "R H1 100 R B1 60 R Yara Young (you) 80 B M2 45" in yara
    gone = _page(client, "guest-page", Guest.objects.get(pk=ids["M4"]).key)
    assert "You have left the evening" in gone and "You: place 10, 0 yellow, 35 counters" in gone
    assert "B4 (left): 0 yellow, 50 counters" in yara  # the phones' standings mark a leaver too

    results = client.get(reverse("host-print-results", args=[e]))
    printed = " | ".join(" | ".join(page.split("\n")) for page in page_texts(results.content))
    assert "| 10 | M4 (left) | Blue pack | 0 | 35 | 0 | -15 |" in printed  # marked as on the standings page
    assert "| 5 | B4 (left) | Blue pack | 0 | 50 | 0 | +0 |" in printed and printed.count("(left)") == 2

    printing = _page(client, "host-print", e)
    assert "cannot be seated" not in printing  # the draw is done: no plan for the 11 here now
    pull = client.get(reverse("host-print-pull", args=[e]))
    assert pull.status_code == 200 and pull["Content-Type"] == "application/pdf"
    cards = " | ".join(page_texts(pull.content)[0].split("\n"))
    assert cards.count("| Ace | 2 | Deuce | 2 | Trey | 2 | Total | 6") == 2  # the draw's twelve cards
    pull_page = _page(client, "host-draw-pull", e)
    assert "Play has begun: this is the pull list of the draw in force" in pull_page
    assert "12 guests at 3 tables" in pull_page

    pdf = client.get(reverse("host-print-scores", args=[e]) + "?variant=prefilled")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    sheets = [" | ".join(t.split("\n")) for t in page_texts(pdf.content)]
    assert "| 2 | B1 | 60 | M2 | ✓ | 70 | M3 | 45 | M4 | 35 |" in sheets[1]  # the corrected count
    assert "| 3 | B1 | Yara Young | ✓ | M3 |" in sheets[1]  # the winner entered after the undo
    assert "| 5 | H1 | ✓ | 100 | 3 | M3 | 35 | 0 | Yara Young | 80 | 1 | M2 | 45 | 0 |" in sheets[0]


def _story(evening: Evening) -> dict:
    """What an evening's history says, by guests' names: the standings, the steps (live and
    undone, in order), and every result (live and replaced), each by round and table."""
    names = dict(evening.guests.values_list("pk", "name"))

    def named(counters: dict) -> dict:
        return {names[int(k)]: v for k, v in counters.items()}

    def step(b: Bell) -> tuple:
        return (b.kind, b.round.number, names.get(b.record.get("guest"), ""))

    steps = [step(b) for b in Bell.objects.of_evening(evening.pk).live().in_order().select_related("round")]
    undone = sorted(
        step(b) for b in Bell.objects.of_evening(evening.pk).exclude(undone_at=None).select_related("round")
    )
    results = sorted(
        (
            r.round.number,
            r.table,
            r.superseded_at is not None,
            names.get(r.pool_winner_id, ""),
            sorted(named(r.counters).items()),
            sorted(names[g] for g in r.in_call),
        )
        for r in Result.objects.filter(round__evening=evening).select_related("round")
    )
    return {
        "standings": _standing(evening),
        "places": {line.guest.name: line.place for line in evening_standings(evening).lines},
        "steps": steps,
        "undone": undone,
        "results": results,
        "tables": tables(evening, {n: pk for pk, n in names.items()}),
        "left": sorted(evening.guests.filter(status=Guest.Status.LEFT).values_list("name", flat=True)),
    }


def test_the_mended_night_exported_and_imported_back_tells_the_same_story(night, client, host):
    """The board's Export (JSON), then the host's import page: the copy's standings, its steps
    (the undone bell and the arrivals and departures included), its results (the replaced ones
    kept and marked) and its seats equal the original's; the copy exports the same again."""
    evening, _ = night
    export = client.get(reverse("host-export", args=[evening.pk]))
    assert export.status_code == 200
    upload = io.BytesIO(export.content)
    upload.name = "mended-night.json"
    page = reverse("host-evening-import")
    answer = client.post(page, {"file": upload}, follow=True)
    assert any("every bell replayed" in m for m in said(answer)), text_of(answer.content.decode())[-2000:]
    copy = Evening.objects.exclude(pk=evening.pk).get(host=host)
    assert _story(copy) == _story(evening)
    assert AuditEntry.objects.filter(evening=copy).exists()
    again = evening_export(copy)
    first = json.loads(export.content)
    for part in ("guests", "rounds"):
        assert len(again[part]) == len(first[part]), part
