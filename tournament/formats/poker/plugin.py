"""Progressive Poker's plug-in: the product's pages were built for it first and serve it as they
are; what is its own (counters, the final count, the showdown, its documents) is answered here
from the services that keep it (``docs/rules/progressive-poker.md``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar

from tables.errors import RuleError
from tables.formats.engine import DrawnSeat, FormatRules, Plan, Seating
from tables.formats.poker.bell import BellOptions, BellRecord, EveningState, TableResult
from tables.formats.poker.rules import POKER_RULES
from tables.packs import Pack
from tables.seasons import SeasonOrder, SeasonRules
from tables.seats import TableLimits
from tournament.plugin import FormatPlugin

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from tournament.formats.poker.standings import EveningStandings
    from tournament.models import Bell, Draw, Evening, Guest, Round
    from tournament.plugin import BellPreview, CorrectionForm, DocumentKind, PhysicalView, PullPack, StepReplay


class PokerFormat(FormatPlugin[EveningState, "EveningStandings", TableResult, BellRecord]):
    """Progressive Poker: the state is ``tables.formats.poker.bell.EveningState`` (tables, counters, yellow
    counters, stakes), the standings ``formats.poker.standings.EveningStandings``."""

    key: ClassVar[str] = "poker"
    evening_fields: ClassVar[tuple[str, ...]] = ("game", "counters_per_stake", "counter_value")
    fields_legend: ClassVar[str] = "the game and its counters"
    round_end_words: ClassVar[str] = "When the head table's pool is recorded (the rules' way)"
    head_table_rang: ClassVar[str] = "when the head table's pool was decided"
    counters: ClassVar[bool] = True
    final_count: ClassVar[bool] = True
    showdown: ClassVar[bool] = True
    seats_named: ClassVar[bool] = False
    table_games: ClassVar[tuple[tuple[str, str], ...]] = (
        ("draw_poker", "Draw Poker"),
        ("whiskey_poker", "Whiskey Poker"),
        ("commerce", "Commerce"),
        ("thirty_one", "Thirty-One (Schnautz)"),
        ("my_ship_sails", "My Ship Sails"),
    )
    """Draw Poker and the seed games (values match ``tables.formats.poker.showdown.Game``;
    ``docs/rules/progressive-poker.md``, its opening: each game has its page)."""
    pages: ClassVar[Mapping[str, str]] = {
        "guest_showdown": "tournament.formats.poker.showdown_pages.guest_showdown_page",
        "host_showdown": "tournament.formats.poker.showdown_pages.host_showdown_page",
        "house_rules": "tournament.formats.poker.house_rules_page.house_rules_page",
        "game": "tournament.formats.poker.game_pages.host_game_page",
    }
    """The showdown helper, its own pages (``formats/poker/showdown_pages.py``), the house rules
    (``formats/poker/house_rules_page.py``) and the host's page of the game at the tables
    (``formats/poker/game_pages.py``); the product's pages serve Progressive Poker everywhere
    else."""

    season_rules: ClassVar[SeasonRules | None] = SeasonRules(
        columns=(("yellow", "yellow counters"), ("counters_won", "counters won")),
        orders=(SeasonOrder("yellow", "Yellow counters, then counters won", ("yellow", "counters_won")),),
    )
    """A poker club's year: yellow counters, then counters won, fresh stakes charged (``docs/clubs.md``)."""

    documents_instead: ClassVar[Mapping[str, str | None]] = {
        "score-cards": "score-sheets",
        "tally-sheets": "score-sheets",
    }

    @property
    def rules(self) -> FormatRules:
        """Progressive Poker's rules (``tables.formats.poker.rules``): plan, draw, bell, prizes."""
        return POKER_RULES

    def stored_option_checks(self, evening: Mapping[str, object]) -> Mapping[str, Callable[[dict], object]]:
        """The bell's and the prizes' house rules (``BellOptions``, ``PrizeOptions``) and the
        game's options, read for the evening's ``game`` (``tables.formats.poker.showdown``)."""
        from tables.formats.poker.prizes import PrizeOptions
        from tables.formats.poker.showdown import Game, options_for

        return {
            "bell": BellOptions.from_mapping,
            "prizes": PrizeOptions.from_mapping,
            "game": lambda values: options_for(Game.parse(str(evening["game"])), values),
        }

    def document_kinds(self) -> tuple[DocumentKind, ...]:
        """Seating cards, table cards, score sheets, the pull list, results, certificates."""
        from tournament.documents.contents import DOCUMENTS

        return DOCUMENTS

    def document(self, *, evening: Evening, slug: str, paper: str, variant: str, base_url: str | None):
        """``formats.poker.documents.poker_document``."""
        from tournament.formats.poker.documents import poker_document

        return poker_document(evening=evening, slug=slug, paper=paper, variant=variant, base_url=base_url)

    def document_check(self, *, evening: Evening, slug: str, variant: str) -> None:
        """``formats.poker.documents.poker_document_check``: the seating cards and score sheets
        checked without their rows."""
        from tournament.formats.poker.documents import poker_document_check

        poker_document_check(evening=evening, slug=slug, variant=variant)

    def document_note(self, *, evening: Evening, slug: str) -> str:
        """The pull list's note: who draws from the other pack (``formats.poker.documents.pull_list_note``)."""
        if slug != "pull-list":
            return ""
        from tournament.formats.poker.documents import pull_list_note

        return pull_list_note(evening)

    def state(self, evening: Evening) -> EveningState:
        """``formats.poker.state.poker_state``: the last bell's state, the final count after the end."""
        from tournament.formats.poker.state import poker_state

        return poker_state(evening)

    def standings(self, evening: Evening, *, guests: Mapping[int, Guest] | None = None) -> EveningStandings:
        """``formats.poker.standings.poker_standings``: places by yellow counters, then counters won."""
        from tournament.formats.poker.standings import poker_standings

        return poker_standings(evening, guests)

    def season_tallies(self, evenings) -> dict[int, dict[int, dict[str, int]]]:
        """Each evening's yellow counters and counters won (fresh stakes charged:
        ``tables.prizes.standings``) after its last live bell, the final count's counters once
        it has ended, for every guest on record. Two queries (``services.state.last_states_after``
        and the final counts)."""
        from dataclasses import replace

        from tables.formats.poker.prizes import standings
        from tournament.models import Evening, FinalCount
        from tournament.services.state import last_states_after

        stake = {e.pk: e.counters_per_stake for e in evenings}
        ended = [e.pk for e in evenings if e.stage == Evening.Stage.ENDED]
        final: dict[int, dict[int, int]] = {}
        counts = FinalCount.objects.filter(evening__in=ended, superseded_at__isnull=True)
        for evening, counters in counts.values_list("evening_id", "counters"):
            final.setdefault(evening, {}).update({int(g): int(c) for g, c in counters.items()})
        out: dict[int, dict[int, dict[str, int]]] = {}
        for evening, after in last_states_after(evenings).items():
            state = EveningState.from_json(after)
            if final.get(evening):
                state = replace(state, counters={**dict(state.counters), **final[evening]})
            rows = standings(
                state, dict.fromkeys(state.counters, "red"), stake=stake[evening]
            )  # packs count nothing here
            out[evening] = {row.guest: {"yellow": row.yellow, "counters_won": row.counters_won} for row in rows}
        return out

    def kitty_prizes(self, evening: Evening) -> tuple[tuple[str, str], ...]:
        """The head table's prize, the two packs' (``tables.prizes.award_prizes``) and the booby
        prize unless the evening gives none (``PrizeOptions.booby_rule``)."""
        from tournament.formats.poker.standings import prize_options

        prizes = [("head_table", "Most yellow counters"), ("red_pack", "Most counters won, red pack")]
        prizes.append(("blue_pack", "Most counters won, blue pack"))
        if prize_options(evening).booby_rule != "none":
            prizes.append(("booby", "Booby prize"))
        return tuple(prizes)

    table_money_words: ClassVar[tuple[str, str]] = (
        "counters won, fresh stakes charged",
        "counters lost, fresh stakes charged",
    )

    def table_money(self, evening: Evening) -> dict[int, int]:
        """The settlement sheet in cents (``formats.poker.standings.poker_standings``: counters won
        times a counter's value, fresh stakes charged); empty when a counter has no value."""
        from tournament.formats.poker.standings import poker_standings

        if evening.counter_value is None:
            return {}
        return {s.guest.pk: int(s.line.amount * 100) for s in poker_standings(evening).settlement}

    def bell_apply(
        self,
        *,
        rnd: Round,
        evening: Evening,
        cause: str,
        user,
        device: str,
        cuts: Mapping | None = None,
        state: EveningState | None = None,
    ) -> Bell | None:
        """``formats.poker.bell.poker_bell_apply`` (the bell may wait for a missing result)."""
        from tournament.formats.poker.bell import poker_bell_apply

        return poker_bell_apply(rnd=rnd, evening=evening, cause=cause, user=user, device=device, cuts=cuts, state=state)

    def bell_undone(self, *, evening: Evening, bell: Bell) -> None:
        """``formats.poker.bell.poker_seats_back``: the seats before the bell, check-ins given back."""
        from tournament.formats.poker.bell import poker_seats_back

        poker_seats_back(evening, bell)

    def played_seats(self, bell: Bell) -> tuple[tuple[int, ...], ...]:
        """The guests at each table when round ``bell.round`` was dealt (its bell's "before")."""
        return tuple(tuple(t) for t in bell.record["before"]["tables"])

    def step_replay(self, evening: Evening) -> StepReplay[EveningState, TableResult, BellRecord]:
        """``formats.poker.corrections.PokerReplay``: ``tables.formats.poker.bell`` rings again."""
        from tournament.formats.poker.corrections import PokerReplay

        return PokerReplay(evening)

    def correction_form(
        self, evening: Evening, *, rnd: Round, table: int, players, result, data
    ) -> CorrectionForm[TableResult]:
        """``formats.poker.corrections.poker_correction_form``: winner, callers, counters.
        Raises ``RuleError`` when the round's bell is no longer live (undone since the page
        read the evening: the corrections page then says so, never a server error)."""
        from tournament.formats.poker.corrections import poker_correction_form

        bell = rnd.bells.live().bells().first()
        if bell is None:
            raise RuleError(f"The bell of round {rnd.number} has been undone meanwhile: there is nothing to correct.")
        return poker_correction_form(rnd=rnd, bell=bell, table=table, players=players, result=result, data=data)

    def correction_context(self, evening: Evening, *, rnd: Round, form) -> dict:
        """Progressive Poker's fields: ``poker/correction_fields.html``, and what saving does to
        the later rounds (``correction_note``, ``docs/rules/progressive-poker.md``, "Corrections")."""
        return {
            "fields": "poker/correction_fields.html",
            "correction_note": "The guests are then seated where the corrected bells send them. If a later "
            "round's results name a guest this result would have seated elsewhere, nothing is saved and you "
            "are told why and what you can do.",
        }

    def result_words(self, result, names) -> str:
        """The winner in words: "Ann won the pool" ("nobody won the pool" without a winner)."""
        if result.pool_winner_id is None:
            return "nobody won the pool"
        return f"{names.get(result.pool_winner_id, 'A guest')} won the pool"

    def example_correction(self, evening: Evening, *, rnd: Round, table: int) -> TableResult:
        """``formats.poker.corrections.poker_example_correction``: another guest wins the pool."""
        from tournament.formats.poker.corrections import poker_example_correction

        bell = rnd.bells.live().bells().get()
        return poker_example_correction(evening, rnd=rnd, bell=bell, table=table)

    def example_result(self, *, evening: Evening, rnd: Round, table: int, user=None, reporter: Guest | None = None):
        """The table's first guest wins the pool with nobody else in the call and takes five
        counters (or what is left) from the last guest; every guest's counters are given, so
        they add up at the head table as the bell requires (``services.results.result_record``,
        ``services.captains.captain_report``)."""
        from tournament.services.captains import captain_report
        from tournament.services.results import result_record

        state = self.state(evening)
        ids = list(state.tables[table - 1])
        counters = {g: state.counters.get(g, 0) for g in ids}
        take = min(5, counters[ids[-1]])
        counters[ids[-1]] -= take
        counters[ids[0]] += take
        if reporter is not None:
            return captain_report(
                guest=reporter,
                round_number=rnd.number,
                table=table,
                pool_winner=ids[0],
                counters=counters,
            )
        return result_record(round=rnd, table=table, pool_winner=ids[0], counters=counters, user=user)

    def seat_change(self, *, evening: Evening, guest: Guest, leaving: bool, user, device: str) -> str:
        """``formats.poker.departures.guest_depart`` / ``guest_arrive``: the bell rules keep every
        table playable (``docs/rules/progressive-poker.md``, "Late and early"); the moves in words.
        After the draw and before round 1 the guest is marked, and the host confirms the re-plan
        on the draw page (``formats.poker.draw_replans.draw_guest_marked``)."""
        from tournament.formats.poker import departures

        if not evening.rounds.exists():
            from tournament.formats.poker.draw_replans import draw_guest_marked

            return draw_guest_marked(evening=evening, guest=guest, leaving=leaving, user=user, device=device)

        change = departures.guest_depart if leaving else departures.guest_arrive
        record = change(evening=evening, guest=guest, user=user, device=device)
        moved = [entry.about or entry.guest.name for entry in record.entries.select_related("guest")]
        return " ".join(moved) or f"{guest.name} is {'marked as left' if leaving else 'seated'}."

    def table_limits(self) -> TableLimits:
        """Any chair at a table with room: 3 to 7 players (house rule, docs/rules/progressive-poker.md
        "Changing seats": a table keeps three as after a departure, and seven at most as the plan)."""
        from tables.formats.poker.plan import LARGEST_SIZE

        return TableLimits(3, LARGEST_SIZE)

    def seats_changed(self, *, evening, last, change, before, after, words, names) -> Bell:
        """``formats.poker.seat_changes.poker_seats_step``: a ``BellRecord`` of kind "seat"."""
        from tournament.formats.poker.seat_changes import poker_seats_step

        return poker_seats_step(
            evening=evening, last=last, change=change, before=before, after=after, words=words, names=names
        )

    def export_standings(self, evening: Evening, guests: list) -> tuple[list[dict], list[dict], list[dict]]:
        """``formats.poker.codec.poker_standings_export``: counters, yellow counters, stakes, prizes."""
        from tournament.formats.poker.codec import poker_standings_export

        return poker_standings_export(evening, guests)

    def import_check_draw(self, data: dict, row: dict) -> None:
        """Progressive Poker's draw seats no card at a named seat, at two tables or more."""
        from tournament.exchange.rows import EveningImportError, where

        seated = bool(row.get("layout")) or any(c.get("seat") is not None for c in row["cards"])
        if seated or len(row["sizes"]) < 2:
            raise EveningImportError(
                f"{where(['evening', 'format'])}: {self.title} does not match "
                f"{where(['draws', data['draws'].index(row)]).lower()}, which seats tables of four with "
                "partners: the format was changed after the draw."
            )

    def import_play(self, *, data: dict, evening: Evening, draw: Draw, row: dict, gid, host) -> None:
        """``formats.poker.codec.poker_import``: every bell replayed by ``tables.formats.poker.bell``."""
        from tournament.formats.poker.codec import poker_import

        poker_import(data=data, evening=evening, draw=draw, row=row, gid=gid, host=host)

    def evening_form_clean(self, data: dict, instance: Evening) -> dict[str, str]:
        """A blank game keeps the saved one; the counters per stake must be given."""
        if not data.get("game"):
            data["game"] = instance.game
        if data.get("counters_per_stake") is None:
            return {"counters_per_stake": "Give the counters per stake (Progressive Poker's stake)."}
        return {}

    def options_stored(self, stored: Mapping[str, object], chosen: Mapping[str, object] | None) -> dict | None:
        """Progressive Poker keeps its options in the evening's own fields: None."""
        return None

    # -- counters: the pool, the counts and the house rules (``FormatPlugin``'s counters block) --

    def counted_state(self, evening: Evening, *, final: bool = True) -> EveningState:
        """``formats.poker.state.poker_state``: the final count's counters once ended (``final``)."""
        from tournament.formats.poker.state import poker_state

        return poker_state(evening, final=final)

    def ring_options(self, evening: Evening) -> BellOptions:
        """``formats.poker.state.ring_options``: the house rules, the last bell never waiting for counts."""
        from tournament.formats.poker.state import ring_options

        return ring_options(evening)

    def house_rule(self, evening: Evening, name: str) -> str:
        """The evening's choice for ``BellOptions`` field ``name`` (``formats.poker.state.bell_options``)."""
        from tables.formats.poker.bell.options import CHOICES
        from tournament.formats.poker.state import bell_options

        if name not in CHOICES:
            raise RuleError(f"Progressive Poker keeps no house rule called {name}.")
        return str(getattr(bell_options(evening), name))

    def bell_preview(self, rnd: Round) -> BellPreview:
        """``formats.poker.bell.poker_bell_preview``: the bell dry-run with random cuts."""
        from tournament.formats.poker.bell import poker_bell_preview

        return poker_bell_preview(rnd)

    def seat_change_record(self, state: EveningState, change) -> BellRecord:
        """``formats.poker.seat_changes.poker_seat_record`` within ``table_limits``."""
        from tournament.formats.poker.seat_changes import poker_seat_record

        return poker_seat_record(state, change, self.table_limits())

    def sizes_relaxed(self, sizes) -> str | None:
        """``tables.formats.poker.plan.relaxations``: the plan's limits a hand-made draw breaks."""
        from tables.formats.poker.plan import relaxations

        return relaxations(tuple(sizes))

    def standing_rows(self, evening: Evening, state: EveningState, guests) -> tuple[tuple[int, int, object], ...]:
        """``formats.poker.standings.board_standings``: yellow counters, then counters won."""
        from tournament.formats.poker.standings import board_standings

        return board_standings(evening, state, guests)

    def pool_result(self, *, table, pool_winner, in_call=(), tied=(), counters=None) -> TableResult:
        """A ``tables.formats.poker.bell.TableResult``: the pool's winner, the callers, those who
        split it, every counter given after the deal."""
        return TableResult(
            table=table,
            pool_winner=pool_winner,
            in_call=frozenset(in_call),
            tied=frozenset(tied),
            counters=dict(counters or {}),
        )

    def result_check(self, state: EveningState, result: TableResult) -> None:
        """``tables.formats.poker.bell.check_one``: the winner and callers at the table, counters
        whole and for its players only."""
        from tables.formats.poker.bell import check_one

        check_one(state, result)

    def count_off(self, state: EveningState, table: int, counters: Mapping[int, int]) -> int | None:
        """``tables.formats.poker.bell.checks.count_off``, the rule's one home."""
        from tables.formats.poker.bell.checks import count_off

        return count_off(state, table, counters)

    # -- the table games and the rules pages (``formats/poker/game_pages.py``) -------------------

    def game_rules_page(self, request: HttpRequest, game: str, evening: Evening | None) -> HttpResponse | None:
        """``game_pages.game_rules_page``: a seed game's rules and options (None for a name
        that is no seed game)."""
        from tournament.formats.poker.game_pages import game_rules_page

        return game_rules_page(request, game, evening)

    def evening_rules_page(self, request: HttpRequest, evening: Evening) -> HttpResponse | None:
        """``game_pages.evening_rules_page``: the whole rules page headed by the evening's game."""
        from tournament.formats.poker.game_pages import evening_rules_page

        return evening_rules_page(request, evening)

    # -- the draw before round 1 (``formats/poker/physical_draw.py``) ----------------------------

    def free_seats(self, plan: Plan) -> tuple[int, ...]:
        """``physical_draw.poker_free_seats``: the tables between head and booby below seven."""
        from tournament.formats.poker.physical_draw import poker_free_seats

        return poker_free_seats(plan)

    def plan_with_latecomer(self, plan: Plan, table: int) -> Plan:
        """``physical_draw.poker_plan_with_latecomer`` (``tables.formats.poker.plan``)."""
        from tournament.formats.poker.physical_draw import poker_plan_with_latecomer

        return poker_plan_with_latecomer(plan, table)

    def plan_without_guest(self, plan: Plan, table: int) -> Plan:
        """``physical_draw.poker_plan_without_guest``: the head and booby tables keep four."""
        from tournament.formats.poker.physical_draw import poker_plan_without_guest

        return poker_plan_without_guest(plan, table)

    def from_other_pack(self, plan: Plan, *, red: int, blue: int) -> dict[Pack, int]:
        """``physical_draw.poker_from_other_pack``: the pull list split by the packs' guests."""
        from tournament.formats.poker.physical_draw import poker_from_other_pack

        return poker_from_other_pack(plan, red=red, blue=blue)

    def physical_draw_plan(self, evening: Evening, here, *, accept_relaxed: bool) -> Plan:
        """``physical_draw.poker_physical_plan``: ``plan_tables``, the roster checked."""
        from tournament.formats.poker.physical_draw import poker_physical_plan

        return poker_physical_plan(here, accept_relaxed=accept_relaxed)

    def physical_card(self, draw: Draw, *, guest_id: int, card: str) -> DrawnSeat:
        """``physical_draw.poker_physical_card``: a table card ("3 red"), taken by ``PhysicalDraw``."""
        from tournament.formats.poker.physical_draw import poker_physical_card

        return poker_physical_card(draw, guest_id=guest_id, card=card)

    def physical_draw_seating(self, draw: Draw) -> Seating:
        """``physical_draw.poker_physical_seating``: every guest at their card's table."""
        from tournament.formats.poker.physical_draw import poker_physical_seating

        return poker_physical_seating(draw)

    def physical_draw_progress(self, draw: Draw, view: PhysicalView) -> PhysicalView:
        """``physical_draw.poker_physical_progress``: the table cards pulled, left and drawn."""
        from tournament.formats.poker.physical_draw import poker_physical_progress

        return poker_physical_progress(draw, view)

    def pull_list(self, evening: Evening, open_draw: Draw | None) -> tuple[Plan, list[PullPack]]:
        """``physical_draw.poker_pull_list``: the table cards to pull from each pack."""
        from tournament.formats.poker.physical_draw import poker_pull_list

        return poker_pull_list(evening, open_draw)
