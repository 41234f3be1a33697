"""Standings and prizes at tables of four: each player's tallies (stars, points, tricks, wins,
losses, buncos, mini buncos) and the format's prizes.

Rules: ``docs/rules/tables-of-four.md`` through ``tables.formats.prizes`` (a prize whose best count is 0
goes to no one; ghosts win nothing; each "most" prize once per pack where both packs play, the
booby prize once; a prize read from the bells, as Bunco's last bunco of the night: the
format's ``last_prize``). House rules: the standings' order (the format's ranks,
``tables.formats.FoursomeFormat.standing``: the most or the fewest of each tally first); a tie for a prize is cut with a generator seeded by
the evening's public key, so every page shows the same cut (as for Progressive Poker).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass

from tables.errors import RuleError
from tables.formats import LastPrize
from tables.formats.bell import FoursomeState
from tables.formats.foursome import ghost_name, is_ghost
from tables.formats.prizes import FORMATS_RULE, last_bunco, rank_players
from tables.packs import Pack
from tables.prizes import Prize
from tournament.formats.partnership.rung_steps import EVENINGS_KEPT, RungSteps, rung_steps
from tournament.formats.partnership.state import draw_state, foursome_rules
from tournament.kept import Kept
from tournament.models import Bell, Evening, Guest
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.services.naming import namer
from tournament.services.prizes import not_played, played_guests, prize_seed
from tournament.services.versions import evening_token


@dataclass(frozen=True)
class FoursomeLine:
    """One line of the standings: the place (ties share it), the player's id, name and guest
    (None for a ghost), their tallies (name -> total) and the table they sit at now (None when
    not seated)."""

    place: int
    player: int
    name: str
    guest: Guest | None
    tallies: Mapping[str, int]
    table: int | None

    @property
    def is_ghost(self) -> bool:
        """Whether this line is a ghost's (it wins no prize)."""
        return is_ghost(self.player)


@dataclass(frozen=True)
class FoursomePrizeLine:
    """One prize as shown: its key, title (with the host's pack labels), winners and reason."""

    prize: Prize
    title: str
    winners: tuple[Guest, ...]
    reason: str


@dataclass(frozen=True)
class FoursomeStandings:
    """The tallies shown (name, words) in order, the standings lines and the prizes."""

    tallies: tuple[tuple[str, str], ...]
    lines: tuple[FoursomeLine, ...]
    prizes: tuple[FoursomePrizeLine, ...]
    did_not_play: tuple[Guest, ...] = ()
    """The guests who took part in no rung round (``services.prizes.not_played``): no place,
    no prize."""


def foursome_standings(
    evening: Evening,
    *,
    guests: Mapping[int, Guest] | None = None,
    state: FoursomeState | None = None,
    steps: RungSteps | None = None,
) -> FoursomeStandings:
    """The standings and prizes of an evening at tables of four, in at most four queries whatever
    its size (the live steps, their records not decoded yet, the draw before the first bell, the
    guests: each only when not given). Guests only: a ghost holds no place (``docs/rules/tables-of-four.md``: ghosts are left out), so places
    run 1 to the number of guests. Before the draw everything is empty. ``guests`` (guest id ->
    guest, every guest of the evening), ``state`` (``foursome_state``'s) and ``steps``
    (``rung_steps``'s: the live bells, whose records are decoded once per process and bell) when
    the caller has them, else read here. Raises ``RuleError`` for stored options the rules do
    not know."""
    fmt, options = foursome_rules(evening)
    if steps is None:
        steps = rung_steps(evening, with_state=state is None)
    if state is None:
        try:
            state = steps.state_after()
            if state is None:
                state = draw_state(evening)
        except RuleError:
            return FoursomeStandings(fmt.tallies, (), ())
    if guests is None:
        guests = {g.pk: g for g in evening.guests.all()}
    played = played_guests(evening, state, bells=[Bell(pk=b.pk, record=b.stored) for b in steps.bells])
    if played is not None:  # a guest who never played holds no place and wins no prize
        state = players_only(state, played)
    names = {pk: g.name for pk, g in guests.items()}
    lines, tallies = _lines(fmt, options, state, guests)
    packs = {g: Pack(guests[g].pack) for g in tallies if g in guests}
    prizes = list(
        format_for(evening)
        .rules_of(evening)
        .prizes(state, packs, options=options, rng=random.Random(prize_seed(evening)))
    )
    if fmt.last_prize is not None:
        prizes.append(_last_prize(steps, fmt.last_prize))
    named = namer(names)
    return FoursomeStandings(
        fmt.tallies,
        lines,
        did_not_play=not_played(guests, played),
        prizes=tuple(
            FoursomePrizeLine(
                p,
                _title(evening, p),
                tuple(sorted((guests[g] for g in p.winners if g in guests), key=lambda g: (name_order(g.name), g.pk))),
                p.reason_for(named),
            )
            for p in prizes
        ),
    )


_KEPT: Kept[FoursomeStandings] = Kept(EVENINGS_KEPT)  # evening token -> its standings, by what they read


def kept_standings(
    evening: Evening, *, guests: Mapping[int, Guest], state: FoursomeState, steps: RungSteps
) -> FoursomeStandings:
    """``foursome_standings`` of ``evening`` with its ``guests`` (every guest), the ``state``
    read from ``steps`` (``rung_steps``: ``steps.state_after()``), kept by this process under
    everything they are computed from: the live steps (their ids and times: the records and the
    state), every guest's row and the evening's row but its version. A change that leaves all
    of these as they were (a table's report, a round started, a helper's link: most changes
    between two bells) draws the same standings, so the first draw after it computes none; a
    bell, a correction, an undo, a guest added, renamed, checked in or gone, an option or a
    label changed computes them again. Before the first step (the draw's seats) they are
    computed each time. Raises as ``foursome_standings``."""
    if not steps.keys or state is not steps.stored_state:
        return foursome_standings(evening, guests=guests, state=state, steps=steps)
    fields = [f.attname for f in Guest._meta.concrete_fields]
    shown = [f.attname for f in Evening._meta.concrete_fields if f.attname != "version"]
    key = (
        steps.keys,
        json.dumps([getattr(evening, f) for f in shown], default=str),
        tuple(tuple(guest.__dict__[f] for f in fields) for guest in guests.values()),
    )
    token = evening_token(evening.pk, evening.public_key)
    return _KEPT.get(token, key, lambda: foursome_standings(evening, guests=guests, state=state, steps=steps))


def _lines(
    fmt, options, state: FoursomeState, guests: Mapping[int, Guest]
) -> tuple[tuple[FoursomeLine, ...], dict[int, dict[str, int]]]:
    """The standings lines of ``state`` (players sharing a place by name, ``name_keys.name_order``;
    ghosts hold no place: ``docs/rules/tables-of-four.md``) and every player's tallies."""
    seated = {p: n for n, t in enumerate(state.tables, start=1) for p in t}
    tallies = {p: dict(state.tallies.get(p, {})) for p in {*seated, *state.tallies}}
    names = {pk: g.name for pk, g in guests.items()}
    ranked = (
        FoursomeLine(
            place,
            p,
            ghost_name(p) if is_ghost(p) else names.get(p, "A guest"),
            guests.get(p),
            tallies[p],
            seated.get(p),
        )
        for place, p in rank_players(
            {p: t for p, t in tallies.items() if not is_ghost(p)},
            fmt.ranks(prize_by_points=options.prize_by_points),
        )
    )
    return tuple(sorted(ranked, key=lambda line: (line.place, name_order(line.name), line.player))), tallies


def players_only(state: FoursomeState, played: frozenset[int]) -> FoursomeState:
    """``state`` for the standings and prizes of the guests who ``played`` (``FormatPlugin
    .played_guests``): a guest seated now who played no rung round sits as a fresh ghost (ghosts
    hold no place and win no prize, ``docs/rules/tables-of-four.md``), and the tallies of a
    guest who never played are left out."""
    ghosts = state.ghosts
    tables = []
    for table in state.tables:
        seats = []
        for p in table:
            if p > 0 and p not in played:
                ghosts += 1
                p = -ghosts
            seats.append(p)
        tables.append(tuple(seats))
    tallies = {p: t for p, t in state.tallies.items() if p < 0 or p in played}
    return FoursomeState(tuple(tables), tallies, ghosts)  # type: ignore[arg-type]


def _last_prize(steps: RungSteps, rule: LastPrize) -> Prize:
    """A prize read from the bells' history (the format's ``LastPrize``; Bunco's last bunco of the
    night, club rules): who added some of its tally in the latest round that had any (several
    that round share it: the bell does not know which roll came last). ``steps``: the evening's
    live bells in round order (``rung_steps``). No query."""
    winners = last_bunco([bell.record.added for bell in steps.bells], rule.tally)
    return Prize(rule.key, rule.title, winners, rule.won if winners else rule.nobody, FORMATS_RULE)


def _title(evening: Evening, prize: Prize) -> str:
    for pack in Pack:
        if prize.key.endswith(f"_{pack.value}"):
            return prize.title.removesuffix(f", {pack.value} pack") + f", {evening.pack_label(pack)}"
    return prize.title
