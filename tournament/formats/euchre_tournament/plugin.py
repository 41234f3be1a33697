"""The Euchre tournament's plug-in: Progressive Euchre's tables, reports and pages, with the
rotation schedule's rules (``tables.formats.euchre_tournament.play``), its own score cards (each
player's whole schedule), its rules page and its guests' phones saying who sits a game out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from tables.errors import RuleError
from tables.formats.bell import FoursomeState
from tables.formats.euchre_tournament.play import GAMES, NUMBER, TournamentRules
from tables.seasons import SeasonOrder, SeasonRules
from tournament.formats.euchre.plugin import EuchreFormat

if TYPE_CHECKING:
    from tournament.models import Draw, Evening, Guest
    from tournament.plugin import DocumentKind, PhoneBoard


SITTING_OUT = (
    "You score the sit-out's points (6, house rule) and play again next game: "
    "your score card lists every game's table and partner."
)
"""A sit-out's phone, in place of "Not seated yet" (docs/rules/euchre-tournament.md, "A sit-out's score")."""


class EuchreTournamentFormat(EuchreFormat):
    """The Euchre tournament (``docs/rules/euchre-tournament.md``): a game at every table of
    four, every player's points their own, the next game's seats from the schedule."""

    key: ClassVar[str] = "euchre_tournament"
    seats_by_schedule: ClassVar[bool] = True
    evening_fields: ClassVar[tuple[str, ...]] = ()
    """None of the family's options: the schedule seats every game whoever won (no movement, no
    partners kept) and the prizes go by points, ties to games won then the cut (``play.prizes``);
    a tie at a table is played off, the family's default."""
    fixed_at_draw: ClassVar[tuple[str, ...]] = ("rounds_planned",)
    """The number of games, which the schedule is drawn for (``rounds_change_refused``)."""
    round_end_words: ClassVar[str] = "When every table has reported (the tournament's way: no table rings for the room)"
    default_round_end: ClassVar[str] = "head_pool"
    """A new tournament's games end when every table has reported, as its rules say
    (``docs/rules/euchre-tournament.md``, "A game"), unless the host chooses the clock."""
    season_rules: ClassVar[SeasonRules | None] = SeasonRules(
        columns=(("points", "points"), ("wins", "games won")),
        orders=(SeasonOrder("points", "Total points", ("points",)),),
    )
    """A euchre tournament club's year: total points (``docs/clubs.md``); no stars, no prize of its own."""

    @property
    def rules(self) -> TournamentRules:
        """The tournament's rules, before an evening's games are known (its title, tallies)."""
        return TournamentRules(games=None)

    def rules_of(self, evening: Evening) -> TournamentRules:
        """The rules for the evening's planned games (``Evening.rounds_planned``: the schedule
        is made for them)."""
        return TournamentRules(games=evening.rounds_planned)

    def rounds_change_refused(self, evening: Evening, planned: int | None) -> str | None:
        """The number of games is fixed once the schedule is drawn (house rule: the schedule,
        printed on every score card, is made for it)."""
        from tournament.services.evening_settings import drawn

        if evening.pk is None or planned == evening.rounds_planned or not drawn(evening):
            return None
        fixed = f"The number of games is fixed once the schedule is drawn: this evening plays {evening.rounds_planned}. Nothing was saved."
        if evening.rounds.exists():  # game 1 has started: no draw again
            return fixed
        return f"{fixed} To play another number of games, draw again before game 1."

    def state_at_draw(self, draw: Draw) -> FoursomeState:
        """Game 1's tables (``Draw.layout``) and every player's number; the players who sit
        game 1 out hold the sit-out table's cards (one past the last table)."""
        out = [
            guest
            for guest, _ in draw.cards.filter(rank=len(draw.layout) + 1)
            .order_by("seat")
            .values_list("guest_id", "seat")
        ]
        return self.rules_of(draw.evening).start(draw.layout, out)

    joins_after_the_draw: ClassVar[bool] = False
    plays_packs: ClassVar[bool] = False
    ranked_tables: ClassVar[bool] = False

    def sitting_out(self, evening: Evening) -> frozenset[int]:
        """The players with a number not at a table of the game in play or next, and not gone
        (a leaver's schedule is a ghost's): the schedule's sit-outs (docs/rules/euchre-tournament.md,
        "The schedule"). Empty before the draw and once the evening has ended (no game is to
        come: the guests list says nobody "sits this round out" then). Two or three queries."""
        if evening.stage == evening.Stage.ENDED:
            return frozenset()
        try:
            state = self.state(evening)
        except RuleError:
            return frozenset()
        from tournament.models import Guest

        seated = {p for table in state.tables for p in table}
        gone = set(evening.guests.filter(status=Guest.Status.LEFT).values_list("pk", flat=True))  # a ghost plays on
        return frozenset(p for p in state.tallies if p > 0 and p not in seated and p not in gone)

    def played_guests(self, evening: Evening, bells, state: object = None) -> frozenset[int] | None:
        """``FormatPlugin.played_guests``, and the players who sat a rung game out by the
        schedule: a sit-out scores for that game (docs/rules/euchre-tournament.md, "A sit-out's
        score"), so has played it."""
        played = super().played_guests(evening, bells)
        if played is None:
            return None
        if not isinstance(state, FoursomeState):
            try:
                state = self.state(evening)
            except RuleError:
                return played
        return played | {p for p, tallies in state.tallies.items() if p > 0 and tallies.get("sat_out")}

    def card_ranks(self, tables: int) -> int:
        """The tables' cards and the sit-out table's, one past the last."""
        return tables + 1

    def import_check_draw(self, data: dict, row: dict) -> None:
        """The file's draw seats every card of a table at its seat of the layout, and the
        sit-outs' cards at the sit-out table (one past the last). Raises ``EveningImportError``."""
        from tournament.exchange.rows import EveningImportError, where

        d, layout = data["draws"].index(row), row.get("layout") or []
        for c, card in enumerate(row["cards"]):
            seat, rank = card.get("seat"), card["rank"]
            at_table = rank <= len(layout) and seat is not None and layout[rank - 1][seat] == card["guest"]
            if not at_table and not (rank == len(layout) + 1 and seat is not None):
                raise EveningImportError(
                    f"{where(['draws', d, 'cards', c])}: the card of guest number {card['guest']} does not "
                    "match the schedule's seats."
                )

    def movement_words(self, evening: Evening) -> str:
        """Nobody moves by results: every game's seats are the schedule's."""
        return "Every game's tables and partners come from the schedule drawn before play, whoever won."

    def leave_state(self, state: FoursomeState, guest: int) -> FoursomeState:
        """A guest who leaves hands their number to a new ghost, who plays the rest of their
        schedule (house rule): in their seat when they are seated, else (sitting this game out)
        by the number alone. They keep their points. Raises ``RuleError`` for a guest who holds
        no number."""
        if any(guest in table for table in state.tables):
            return super().leave_state(state, guest)
        number = state.tallies.get(guest, {}).get(NUMBER)
        if not number:
            raise RuleError("{guest} is not playing this tournament.", guests=(guest,))
        ghost = -(state.ghosts + 1)
        tallies = {p: dict(t) for p, t in state.tallies.items()}
        tallies[guest][NUMBER] = 0
        tallies[ghost] = {NUMBER: number, GAMES: tallies[guest].get(GAMES, 0)}
        return FoursomeState(state.tables, tallies, state.ghosts + 1)

    def seat_change(self, *, evening: Evening, guest: Guest, leaving: bool, user, device: str) -> str:
        """A guest who leaves gives their place to a ghost, who plays the rest of their schedule
        (house rule; ``leave_state``); nobody joins once round 1 has started (before it, after
        the draw, a late guest takes a ghost's number if there is one: the family's
        ``seat_change``)."""
        if not evening.rounds.exists():
            return super().seat_change(evening=evening, guest=guest, leaving=leaving, user=user, device=device)
        if not leaving:
            raise RuleError(
                f"{guest.name} cannot join: a Euchre tournament's schedule is fixed before play (house rule)."
            )
        if any(guest.pk in table for table in self.state(evening).tables):
            return super().seat_change(evening=evening, guest=guest, leaving=True, user=user, device=device)
        from tournament.formats.partnership.bell import foursome_guest_leaves

        foursome_guest_leaves(evening=evening, guest=guest, user=user, device=device)
        return f"{guest.name} has left; a ghost plays the rest of their schedule. {guest.name} keeps their points."

    def guest_page_context(self, guest: Guest, shared: PhoneBoard) -> dict | None:
        """The phone of a guest at tables of four; a player who sits the round out is told so
        (``sitting_out``: the words the family's page shows instead of "Not seated yet")."""
        context = super().guest_page_context(guest, shared) or {}
        state = self.state(guest.evening)
        seated = any(guest.pk in table for table in state.tables)
        if guest.pk in state.tallies and not seated:  # in place of "Not seated yet"
            context["sitting_out"] = SITTING_OUT
            context["sitting_out_next"] = self.next_game_words(guest.evening, state, guest.pk)
        return context

    def next_game_words(self, evening: Evening, state: FoursomeState, guest: int) -> str:
        """Where a sit-out plays next, by the schedule (``TournamentRules.next_place``), as
        their phone says it: "Next you play game 3 at table 2, sitting East; your partner:
        Ann." (a safe string, the partner's name isolated in a ``<bdi>`` so a right-to-left
        name keeps its place), or "You sit out the rest of the tournament's games." when the
        schedule seats them in no later game; "" for a guest who holds no number."""
        from django.utils.html import format_html

        from tables.formats.euchre_tournament.play import NUMBER
        from tournament.formats.partnership.state import player_name, player_names

        if not state.tallies.get(guest, {}).get(NUMBER):
            return ""
        place = self.rules_of(evening).next_place(state, guest)
        if place is None or place.seat is None:
            return "You sit out the rest of the tournament's games."
        holder = {t[NUMBER] - 1: p for p, t in state.tallies.items() if t.get(NUMBER)}
        partner = holder.get(place.partner) if place.partner is not None else None
        where = format_html("Next you play game {} at table {}, sitting {}", place.game, place.table, place.seat.word)
        if partner is None:
            return format_html("{}.", where)
        return format_html("{}; your partner: <bdi>{}</bdi>.", where, player_name(partner, player_names(evening)))

    documents_instead: ClassVar[Mapping[str, str | None]] = {**EuchreFormat.documents_instead}

    def document_kinds(self) -> tuple[DocumentKind, ...]:
        """Every player's score card with their whole schedule, table cards, the results and
        certificates."""
        from tournament.formats.euchre_tournament.documents import DOCUMENTS

        return DOCUMENTS

    def document(self, *, evening: Evening, slug: str, paper: str, variant: str, base_url: str | None):
        """``formats.euchre_tournament.documents.document``."""
        from tournament.formats.euchre_tournament.documents import document

        return document(evening=evening, slug=slug, paper=paper, variant=variant, base_url=base_url)

    def document_check(self, *, evening: Evening, slug: str, variant: str) -> None:
        """``formats.euchre_tournament.documents.document_check``: the score cards checked
        without their rows."""
        from tournament.formats.euchre_tournament.documents import document_check

        document_check(evening=evening, slug=slug, variant=variant)
