"""A partnership game whose lowest score wins, added as a plug-in only (issue 23).

The toy here, *Progressive Hearts* at tables of four, lives in this module and nowhere else: its
rules are a ``FoursomeFormat`` value (its own ``score``, its standings' order with the fewest
points first, its prizes), its plug-in a subclass of ``EuchreFormat`` (whose report forms and
templates it takes: each side's points, a play-off on a tie) naming its key and its rules. It is
installed the way a site installs a format, by a line in ``settings.HEAD_TABLE_FORMATS`` (here an
override for these tests, the registry's cache emptied before and after), and nothing in the
family is told about it (``docs/architecture.md``, "Add a format").

Checked: a table's lower side wins and moves up; the standings rank the fewest points first;
the prizes and the ceremony name the guest with the fewest points, and the booby prize the most;
and every capability of the matrix (``tests/test_capabilities.py``) passes for it.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from itertools import pairwise
from typing import ClassVar

import pytest
from django.conf import settings
from django.test import override_settings

import tests.test_capabilities as matrix
from tables.formats import CardColumn, FoursomeFormat, Rank, RulesWords
from tables.formats.engine import FoursomeRules, foursome_entry
from tables.formats.foursome import Foursome, Movement, Side, pair
from tables.formats.prizes import PrizeRule
from tables.formats.scoring import ScoreError, TableScore
from tables.seasons import SeasonOrder, SeasonRules
from tests.factories import EveningFactory, GuestFactory
from tournament.format_setting import loaded_formats
from tournament.formats.euchre.plugin import EuchreFormat
from tournament.registry import format_for, format_named
from tournament.services.draws import draw_digital
from tournament.services.ending import ceremony, ceremony_next

HEARTS_MOST = 130
"""The toy's most points a side in a round (five hands of 26)."""


def hearts_score(table: Foursome, *, points: Mapping[Side | str, int], playoff: Side | str | None = None) -> TableScore:
    """A table of the toy's round: each side's points; the side with fewer wins (a play-off
    names the winner of a tie). Every player adds their side's points; the winners a win, the
    losers a loss. Raises ``ScoreError`` for a side missing or a count that is not 0 to 130."""
    try:
        values = {Side(side): points[side] for side in points}
    except ValueError:
        raise ScoreError("The points are given for North–South (NS) and East–West (EW) only.") from None
    if set(values) != set(Side) or any(type(v) is not int or not 0 <= v <= HEARTS_MOST for v in values.values()):
        raise ScoreError(f"Give both sides' points, each a whole number 0 to {HEARTS_MOST}.")
    ns, ew = values[Side.NORTH_SOUTH], values[Side.EAST_WEST]
    winner = Side(playoff) if ns == ew and playoff else None
    if ns != ew:
        if playoff:
            raise ScoreError(f"There is no tie at {ns} points to {ew}: leave the play-off out.")
        winner = Side.NORTH_SOUTH if ns < ew else Side.EAST_WEST
    added = {p: {"points": values[side]} for side in Side for p in pair(table, side)}
    words = f"{winner.words} won, {values[winner]} points to {values[winner.other]}" if winner else "a tie"
    return TableScore(winner, added, {"wins": 1}, {"losses": 1}, words)


HEARTS = FoursomeFormat(
    key="hearts",
    title="Progressive Hearts",
    movement=Movement.LADDER,
    partners_change=True,
    tallies=(("points", "points"), ("wins", "wins"), ("losses", "losses")),
    prizes=(
        PrizeRule("fewest_points", "Fewest points", "points", most=False),
        PrizeRule("booby", "Booby prize: most points", "points", per_pack=False),
    ),
    score=hearts_score,
    source="a toy for the tests: hearts, the fewest points win",
    standing=(Rank("points", most=False), Rank("wins")),
    report_keys=frozenset({"points", "playoff"}),
    limits=(("points", HEARTS_MOST),),
    card_columns=(CardColumn("Points", "points"),),
    words=RulesWords(unscored="win, no loss, no points"),
)
RULES = FoursomeRules(foursome_entry(HEARTS), HEARTS)


class HeartsFormat(EuchreFormat):
    """The toy's plug-in: Euchre's report forms and templates (each side's points), its own
    key, rules and example report (North–South take fewer points, so they win)."""

    key: ClassVar[str] = "hearts"
    season_rules: ClassVar[SeasonRules | None] = SeasonRules(
        columns=(("points", "points"), ("wins", "wins")),
        orders=(SeasonOrder("points", "Fewest points, then wins", ("points", "wins"), fewest=frozenset({"points"})),),
    )

    @property
    def rules(self) -> FoursomeRules:  # type: ignore[override]
        """The toy's rules: the family's ``FoursomeRules`` on ``HEARTS``."""
        return RULES

    def example_report(self, seats: tuple[int, ...]) -> dict:
        """North–South 9 points, East–West 17: North–South win (the fewest)."""
        return {"points": {"NS": 9, "EW": 17}}


TOY = f"{__name__}.HeartsFormat"


@pytest.fixture
def hearts_installed():
    """The site with the toy installed beside every format (one line more in the setting)."""
    loaded_formats.cache_clear()
    with override_settings(HEAD_TABLE_FORMATS=[*settings.HEAD_TABLE_FORMATS, TOY]):
        yield format_named("hearts")
        loaded_formats.cache_clear()
    loaded_formats.cache_clear()


def test_the_toy_is_installed_by_its_line_alone(hearts_installed):
    assert isinstance(hearts_installed, HeartsFormat)
    assert hearts_installed.title == "Progressive Hearts" and hearts_installed.entry.foursome is HEARTS


def test_the_lower_side_wins_a_table():
    score = hearts_score((1, 2, 3, 4), points={"NS": 9, "EW": 17})
    assert score.winner is Side.NORTH_SOUTH
    assert score.tallies((1, 2, 3, 4), Side.NORTH_SOUTH) == {
        1: {"points": 9, "wins": 1},
        3: {"points": 9, "wins": 1},
        2: {"points": 17, "losses": 1},
        4: {"points": 17, "losses": 1},
    }


def _ended(host, guests: int = 8):
    """A toy evening of ``guests`` played two rounds to its end, every table North–South 9 to
    East–West 17 (the capability matrix's example report)."""
    evening = EveningFactory(host=host, format="hearts", rounds_planned=2, round_end="clock")
    for i in range(guests):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    matrix._play(evening, host, rounds=2)
    evening.refresh_from_db()
    return evening


def test_standings_rank_the_fewest_points_first(db, host, hearts_installed):
    evening = _ended(host)
    lines = [ln for ln in format_for(evening).standings(evening).lines if not ln.is_ghost]
    points = [ln.tallies.get("points", 0) for ln in lines]
    assert points == sorted(points) and points[0] < points[-1], points
    assert lines[0].place == 1 and lines[0].tallies["points"] == 18  # two rounds at 9: won both

    def key(line):
        return (line.tallies.get("points", 0), -line.tallies.get("wins", 0))

    assert all(a.place < b.place if key(a) != key(b) else a.place == b.place for a, b in pairwise(lines))


def test_prizes_and_the_ceremony_name_the_fewest_points(db, host, hearts_installed):
    evening = _ended(host)
    standings = format_for(evening).standings(evening)
    totals = {ln.player: ln.tallies.get("points", 0) for ln in standings.lines if not ln.is_ghost}
    fewest, most = min(totals.values()), max(totals.values())
    prizes = {p.prize.key: p for p in standings.prizes}
    assert set(prizes) == {"fewest_points_red", "fewest_points_blue", "booby"}
    for key in ("fewest_points_red", "fewest_points_blue"):
        winners = prizes[key].winners
        assert winners and all(
            totals[g.pk] == min(totals[p] for p in totals if p in _pack(evening, g.pack)) for g in winners
        )
    assert any(
        totals[g.pk] == fewest for key in ("fewest_points_red", "fewest_points_blue") for g in prizes[key].winners
    )
    assert prizes["booby"].winners and all(totals[g.pk] == most for g in prizes["booby"].winners)
    assert prizes["booby"].reason.startswith(f"{most} points")
    steps = ceremony(evening).steps
    for step in range(steps):
        ceremony_next(evening=evening, seen_step=step, user=host)
        evening.refresh_from_db()
    shown = ceremony(evening)
    assert shown.finished
    named = {p.title: {g.pk for g in p.winners} for p in shown.prizes}
    assert all(named[p.title] == {g.pk for g in p.winners} for p in standings.prizes if p.winners)


def _pack(evening, pack: str) -> set[int]:
    return set(evening.guests.filter(pack=pack).values_list("pk", flat=True))


def test_the_rules_page_says_the_fewest_rank_first(db, client, hearts_installed):
    page = client.get("/rules/hearts/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Guests are placed by points (the fewest first), then wins" in text
    assert "Euchre prizes by" not in text and "The booby prize goes to the guest with the fewest" not in text


CAPABILITIES = [
    test
    for name, test in vars(matrix).items()
    if name.startswith("test_")
    and "key" in inspect.signature(test).parameters
    and "browser" not in inspect.signature(test).parameters
]
"""Every capability of the matrix that runs without a browser (the axe walk needs one)."""


@pytest.mark.parametrize("capability", CAPABILITIES, ids=[c.__name__.removeprefix("test_") for c in CAPABILITIES])
def test_the_capability_matrix_passes_for_the_toy(db, host, client, hearts_installed, capability):
    """The matrix's own test, every capability, with the toy's key (its example results)."""
    given = {"db": db, "host": host, "client": client, "key": "hearts"}
    capability(**{name: given[name] for name in inspect.signature(capability).parameters})


def test_an_import_checked_before_the_toy_was_installed_takes_its_file(db, host):
    """The import's schema checks are kept per process; one built before a format is installed
    (any import earlier in the process) still takes a file of that format once it is: they are
    kept per the site's installed formats (the full run failed the toy's export and import so)."""
    from tournament.exchange import importer
    from tournament.exchange.export import evening_export

    importer._validator()  # built for the five formats
    importer._compiled()
    loaded_formats.cache_clear()
    with override_settings(HEAD_TABLE_FORMATS=[*settings.HEAD_TABLE_FORMATS, TOY]):
        try:
            evening = _ended(host)
            copy = importer.evening_import(data=json.loads(json.dumps(evening_export(evening))), host=host)
            assert copy.format == "hearts"
        finally:
            loaded_formats.cache_clear()
    loaded_formats.cache_clear()
