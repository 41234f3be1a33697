"""The partnership family's plug-in: the state, bell, standings, pages and options every format
at tables of four shares (``docs/rules/tables-of-four.md``); a format of the family names its
key and what is its own (``tournament.formats.euchre``, ``whist``, ``bunco``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from tables.errors import RuleError
from tables.formats import FoursomeOptions, play_changes
from tables.formats.bell import FoursomeBell, FoursomeState
from tables.formats.engine import DrawnSeat, Plan, Seating
from tables.packs import Pack
from tables.seats import TableLimits
from tournament.plugin import FormatPlugin

if TYPE_CHECKING:
    from django import forms
    from django.http import HttpRequest, HttpResponse

    from tournament.formats.partnership.boards import FoursomeBoard
    from tournament.formats.partnership.captain_form import FoursomeReportForm
    from tournament.formats.partnership.report_forms import FoursomeResultForm
    from tournament.formats.partnership.standings import FoursomeStandings
    from tournament.models import Bell, Draw, Evening, Guest, Round
    from tournament.plugin import (
        BellPreview,
        CorrectionForm,
        DocumentKind,
        PhoneBoard,
        PhysicalView,
        PullPack,
        RoomBoard,
        StepReplay,
    )

_HOST = "tournament.formats.partnership.host_pages."

FOUR_SEATS_KEPT = (
    "These tables keep four seats each, so no table can take one more or one fewer: "
    "redraw, or let a latecomer take the seat of a guest who left."
)
"""Why a table of four neither takes a latecomer nor lets a guest go before round 1."""


FoursomeReport = Mapping[str, object]
"""What a table of four reports for a round, as stored (``Result.report``): each side's points
or tricks ("NS"/"EW"), the hands, a tie's winner, Bunco's buncos and rolls by player."""
FoursomeRecord = FoursomeBell | dict[str, object]
"""A step's record at tables of four: a bell's (``FoursomeBell``), or a departure's, an
arrival's or a seat change's tables before and after, as stored (``Bell.record``)."""


class PartnershipFormat(FormatPlugin[FoursomeState, "FoursomeStandings", FoursomeReport, FoursomeRecord]):
    """A format at tables of four: the state is ``tables.formats.bell.FoursomeState`` (tables in
    seat order North, East, South, West, ghosts negative, and every player's tallies), the
    standings ``formats.partnership.standings.FoursomeStandings``; the host's pages for the board,
    a table's report, the draw, the bell and the standings are the family's own; corrections are the
    product's pages over its ``correction_form`` and ``step_replay``."""

    evening_fields: ClassVar[tuple[str, ...]] = ("movement", "partners_change", "ties", "prize_ties")
    """The family's options: a format adds its own (Euchre: prizes by points) or leaves out one
    its game never needs (Drive Whist: no tie at a table, 13 tricks a hand)."""
    fields_legend: ClassVar[str] = "movement, partners, ties and prizes"
    fixed_at_draw: ClassVar[tuple[str, ...]] = ("movement", "partners_change", "ties")
    """The options of play (``options_change_refused``); the prizes' options may still change."""
    tie_playoff: ClassVar[str] = "one more hand"
    """How a tie at a table is played off, in the format's words ("one more roll")."""
    result_form: ClassVar[type[FoursomeResultForm] | None] = None
    """The host's form of a table's report (a scorer's and a correction's too), a
    ``formats.partnership.report_forms.FoursomeResultForm``: each format names its own (Euchre's
    ``EuchreResultForm``); a format built on another (a subclass of its plug-in) takes the
    other's, as its templates (``template``)."""
    phone_form: ClassVar[type[FoursomeReportForm] | None] = None
    """A captain's form of a table's report on the phone, a
    ``formats.partnership.captain_form.FoursomeReportForm`` (Euchre's ``EuchreReportForm``):
    named and inherited as ``result_form``."""
    seats_named: ClassVar[bool] = True
    seats_by_schedule: ClassVar[bool] = False
    """Whether the next game's seats are a schedule's, whoever won (the bell's words say so)."""
    pages: ClassVar[Mapping[str, str]] = {
        "board": _HOST + "board_page",
        "result": _HOST + "result_page",
        "draw": _HOST + "draw_page",
        "draw_change": _HOST + "redraw_advice",
        "seating": _HOST + "seating_page",
        "bell_confirm": _HOST + "bell_confirm_page",
        "standings": _HOST + "standings_page",
        "house_rules": _HOST + "house_rules_redirect",
        "bell_cuts": _HOST + "bell_cuts_redirect",
        "table_jump": _HOST + "table_jump",
        "table": _HOST + "table_page",
        "moves": _HOST + "moves_page",
        "captain": "tournament.formats.partnership.guest_pages.foursome_captain",
        "scorer": "tournament.formats.partnership.scorer_pages.scorer_page",
        "scorer_result": "tournament.formats.partnership.scorer_pages.scorer_result_page",
    }

    documents_instead: ClassVar[Mapping[str, str | None]] = {
        "seating-cards": "score-cards",
        "score-sheets": "score-cards",
        "tally-sheets": "score-cards",
    }

    def host_report_form(
        self, data: Mapping[str, object] | None, *, players: Sequence[int], names: Sequence[str], initial=None
    ) -> FoursomeResultForm:
        """The format's ``result_form`` for a table's four ``players`` (North first; ghosts
        negative) and their ``names``, bound to ``data`` (None: blank), with the format's limits
        (``FoursomeFormat.limits``) and ``initial`` values. Raises ``NotImplementedError`` for a
        format that names no form (a site set up wrongly, not a host's mistake)."""
        if self.result_form is None:
            raise NotImplementedError(f"{type(self).__name__} names no result_form for a table's report.")
        return self.result_form(data, players=players, names=names, limits=self._limits(), initial=initial)

    def phone_report_form(
        self, data: Mapping[str, object] | None = None, *, seats: Sequence[tuple[int, str]]
    ) -> FoursomeReportForm:
        """The format's ``phone_form`` for a table's ``seats`` ((player id, name) North first),
        bound to ``data`` (None: blank), with the format's limits. Raises ``NotImplementedError``
        as ``host_report_form``."""
        if self.phone_form is None:
            raise NotImplementedError(f"{type(self).__name__} names no phone_form for a table's report.")
        return self.phone_form(data, seats=seats, limits=self._limits())

    def _limits(self) -> tuple[tuple[str, int], ...]:
        """The format's report limits (``FoursomeFormat.limits``)."""
        fmt = self.entry.foursome
        return fmt.limits if fmt is not None else ()

    def document_kinds(self) -> tuple[DocumentKind, ...]:
        """Score cards, table cards, results and certificates (a format with tally sheets adds them)."""
        from tournament.formats.partnership.documents import DOCUMENTS

        return tuple(kind for kind in DOCUMENTS if kind.slug != "tally-sheets")

    def document(self, *, evening: Evening, slug: str, paper: str, variant: str, base_url: str | None):
        """``formats.partnership.documents.document``."""
        from tournament.formats.partnership.documents import document

        return document(evening=evening, slug=slug, paper=paper, variant=variant, base_url=base_url)

    def document_check(self, *, evening: Evening, slug: str, variant: str) -> None:
        """``formats.partnership.documents.document_check``: the score cards checked without
        their rows."""
        from tournament.formats.partnership.documents import document_check

        document_check(evening=evening, slug=slug, variant=variant)

    def evening_form_fields(self, *, shared: bool = False) -> dict[str, forms.Field]:
        """``formats.partnership.option_fields.format_fields``, those of ``evening_fields``
        (movement, partners, ties at a table, tied prizes; Euchre's points): ``shared`` in the
        family's words, else in this format's own (``tie_playoff``)."""
        from tournament.formats.partnership.option_fields import format_fields

        if not self.evening_fields:
            return {}
        fields = format_fields(None if shared else self.entry.foursome, playoff=self.tie_playoff)
        return {name: field for name, field in fields.items() if name in self.evening_fields}

    def evening_form_initial(self, options: Mapping[str, object] | None) -> dict[str, object]:
        """``formats.partnership.option_fields.format_initial``."""
        from tournament.formats.partnership.option_fields import format_initial

        return format_initial(options)  # type: ignore[arg-type]

    def evening_form_options(self, data: Mapping[str, object]) -> dict | None:
        """``formats.partnership.option_fields.format_options``: only what differs from a blank choice."""
        from tournament.formats.partnership.option_fields import format_options

        return format_options(dict(data))

    def stored_option_checks(self, evening: Mapping[str, object]) -> Mapping[str, Callable[[dict], object]]:
        """The format's own options (``FoursomeOptions``, ``Evening.options["format"]``)."""
        return {"format": FoursomeOptions.from_mapping}

    def options(self, stored: Mapping[str, object] | None) -> FoursomeOptions:
        """The host's options for the format from the evening's ``options`` (``"format"``);
        raises ``RuleError`` for an option the rules do not know."""
        return FoursomeOptions.from_mapping(dict((stored or {}).get("format", {})))  # type: ignore[call-overload]

    def options_change_refused(self, evening: Evening, chosen: Mapping[str, object]) -> str | None:
        """The options of play (movement, partners, ties at a table) are fixed once the seats are
        drawn (house rule, ``tables.formats.play_changes``); the prizes' options may change."""
        from tournament.services.evening_settings import drawn

        if evening.pk is None:
            return None
        changed = play_changes(
            self.entry.foursome,  # type: ignore[arg-type]
            self.options(evening.options),
            FoursomeOptions.from_mapping(dict(chosen)),
        )
        if not changed or not drawn(evening):
            return None
        return (
            f"The options of play cannot change after the draw ({', '.join(changed)}): every bell of this evening "
            "is rung by the options it was drawn with. Nothing was saved. To play other options, create a new evening."
        )

    def options_stored(self, stored: Mapping[str, object], chosen: Mapping[str, object] | None) -> dict | None:
        """``stored`` with the format's options ``chosen`` in ``"format"`` (None: none chosen)."""
        if chosen is None:
            return None
        return {**stored, "format": dict(chosen)}

    def options_differ(self, stored: Mapping[str, object], chosen: Mapping[str, object]) -> bool:
        """Whether ``chosen`` plays differently from the options in ``stored``."""
        return self.options(stored) != FoursomeOptions.from_mapping(dict(chosen))

    def movement_words(self, evening: Evening) -> str:
        """How players move at the bell, in words for the host's pages: the family's movement by
        results (``host_pages.movement_by_bell``); a format seating by a schedule says so."""
        from tournament.formats.partnership.host_pages import movement_by_bell

        return movement_by_bell(evening)

    def leave_state(self, state: FoursomeState, guest: int) -> FoursomeState:
        """The state once ``guest`` (id) has left between rounds: a new ghost takes their seat,
        they keep their tallies (``tables.formats.bell.guest_leaves``). Raises ``RuleError`` for a
        guest not seated."""
        from tables.formats.bell import guest_leaves

        return guest_leaves(state, guest)

    def state_at_draw(self, draw: Draw) -> FoursomeState:
        """The state after ``draw``, before any bell: its layout's tables, every tally at 0."""
        return FoursomeState.start(draw.layout)

    def state(self, evening: Evening) -> FoursomeState:
        """``formats.partnership.state.foursome_state``: the last bell's state, else the draw's tables."""
        from tournament.formats.partnership.state import foursome_state

        return foursome_state(evening)

    def standings(self, evening: Evening, *, guests: Mapping[int, Guest] | None = None) -> FoursomeStandings:
        """``formats.partnership.standings.foursome_standings``: places by the format's tallies."""
        from tournament.formats.partnership.standings import foursome_standings

        return foursome_standings(evening, guests=guests)

    def season_tallies(self, evenings) -> dict[int, dict[int, dict[str, int]]]:
        """Each evening's tallies after its last live bell (``tables.formats.records``), for every
        guest seated or on record (ghosts left out: they are nobody's), the tallies
        ``season_rules.columns`` names (0 where the state has none). One query
        (``services.state.last_states_after``)."""
        from tables.formats.records import state_from_json
        from tournament.services.state import last_states_after

        names = [name for name, _ in self.season_rules.columns] if self.season_rules else []
        out: dict[int, dict[int, dict[str, int]]] = {}
        for evening, after in last_states_after(evenings).items():
            state = state_from_json(after)
            players = {p for table in state.tables for p in table} | set(state.tallies)
            out[evening] = {
                p: {name: int(state.tallies.get(p, {}).get(name, 0)) for name in names} for p in players if p > 0
            }
        return out

    def kitty_prizes(self, evening: Evening) -> tuple[tuple[str, str], ...]:
        """The format's prizes as the evening's options make them (``tables.formats.prize_rules``),
        and its prize read from the bells' history (``FoursomeFormat.last_prize``: Bunco's last
        bunco of the night)."""
        from tables.formats import prize_rules
        from tournament.formats.partnership.state import foursome_rules

        fmt, options = foursome_rules(evening)
        prizes = tuple((rule.key, rule.title) for rule in prize_rules(fmt, options))
        last = fmt.last_prize
        return prizes + (((last.key, last.title),) if last is not None else ())

    def bell_apply(
        self,
        *,
        rnd: Round,
        evening: Evening,
        cause: str,
        user,
        device: str,
        cuts: Mapping | None = None,
        state: FoursomeState | None = None,
    ) -> Bell | None:
        """``formats.partnership.bell.foursome_bell_apply`` (this bell never waits)."""
        from tournament.formats.partnership.bell import foursome_bell_apply

        return foursome_bell_apply(rnd=rnd, evening=evening, cause=cause, user=user, device=device, state=state)

    def bell_undone(self, *, evening: Evening, bell: Bell) -> None:
        """``formats.partnership.bell.foursome_bell_undone``: the seats of the state before it."""
        from tournament.formats.partnership.bell import foursome_bell_undone

        foursome_bell_undone(evening=evening, bell=bell)

    def example_report(self, seats: tuple[int, ...]) -> dict:
        """A report of this format for a table seated ``seats`` (North, East, South, West; ghosts
        below 0) that North–South win (``tables.formats.records`` gives its shape)."""
        raise NotImplementedError

    def example_result(self, *, evening: Evening, rnd: Round, table: int, user=None, reporter: Guest | None = None):
        """North–South win the table (``example_report``), reported by the host
        (``formats.partnership.reports.foursome_report``) or from ``reporter``'s phone
        (``foursome_captain_report``)."""
        from tournament.formats.partnership.reports import foursome_captain_report, foursome_report

        report = self.example_report(tuple(self.state(evening).tables[table - 1]))
        if reporter is not None:
            return foursome_captain_report(guest=reporter, round_number=rnd.number, table=table, report=report)
        return foursome_report(round=rnd, table=table, report=report, user=user)

    def played_seats(self, bell: Bell) -> tuple[tuple[int, ...], ...]:
        """The four at each table when round ``bell.round`` was played (its bell's "before")."""
        return tuple(tuple(t) for t in bell.record["before"])

    def step_replay(self, evening: Evening) -> StepReplay[FoursomeState, FoursomeReport, FoursomeRecord]:
        """``formats.partnership.corrections.FoursomeReplay``: the format's engine rings again."""
        from tournament.formats.partnership.corrections import FoursomeReplay

        return FoursomeReplay(evening)

    def correction_form(
        self, evening: Evening, *, rnd: Round, table: int, players, result, data
    ) -> CorrectionForm[FoursomeReport]:
        """``formats.partnership.corrections.foursome_correction_form``: the host's report form."""
        from tournament.formats.partnership.corrections import foursome_correction_form

        return foursome_correction_form(evening, table=table, players=players, result=result, data=data)

    def correction_context(self, evening: Evening, *, rnd: Round, form) -> dict:
        """The family's fields (``partnership/correction_fields.html``) around the format's own
        report fields (``template("host_report")``), with the round (Bunco's target number), and
        what saving does to the later rounds (``correction_note``, ``docs/rules/tables-of-four.md``,
        "Corrections": a later round played keeps its seats)."""
        return {
            "fields": "partnership/correction_fields.html",
            "report_fields": self.template("host_report"),
            "round": rnd,
            "sides": [("NS", "North–South"), ("EW", "East–West")],
            "correction_note": "If a later round has been played since, it was played in the seats the guests "
            "really took: nobody moves, and only this round's scores change.",
        }

    def result_words(self, result, names) -> str:
        """``host_pages.report_words``: each side's points or tricks, the tie, the buncos."""
        from tournament.formats.partnership.host_pages import report_words

        return report_words(result.report or {}, dict(names))

    def example_correction(self, evening: Evening, *, rnd: Round, table: int) -> FoursomeReport:
        """``formats.partnership.corrections.foursome_example_correction``: East–West win instead."""
        from tournament.formats.partnership.corrections import foursome_example_correction

        bell = rnd.bells.live().bells().get()
        return foursome_example_correction(evening, bell=bell, table=table)

    def seat_change(self, *, evening: Evening, guest: Guest, leaving: bool, user, device: str) -> str:
        """Between rounds a guest who leaves gives their seat to a ghost and keeps their tallies;
        a late guest takes the ghost seat nearest the foot table, or opens a new foot table with
        three ghosts (``formats.partnership.bell.foursome_guest_leaves`` / ``foursome_guest_arrives``;
        ``docs/rules/tables-of-four.md``). Returns what happened in words. After the draw and
        before round 1 a leaver's seat goes to a ghost and a late guest takes a ghost's seat
        (``formats.partnership.draw_seats.foursome_draw_seat_change``)."""
        from tables.formats.foursome import ghost_name
        from tournament.formats.partnership import bell as foursome_bell

        if not evening.rounds.exists():
            from tournament.formats.partnership.draw_seats import foursome_draw_seat_change

            return foursome_draw_seat_change(evening=evening, guest=guest, leaving=leaving, user=user, device=device)

        change = foursome_bell.foursome_guest_leaves if leaving else foursome_bell.foursome_guest_arrives
        record = change(evening=evening, guest=guest, device=device, user=user).record
        before, after = record["before"], record["after"]
        if leaving:
            table = next(n for n, players in enumerate(before) if guest.pk in players)
            ghost = ghost_name(after[table][before[table].index(guest.pk)])
            return (
                f"{guest.name} has left; {ghost} takes their seat at table {table + 1}. "
                f"{guest.name} keeps their tallies."
            )
        table = next(n for n, players in enumerate(after) if guest.pk in players)
        if table >= len(before):
            return f"{guest.name} opens a new foot table, table {table + 1}, with three ghosts."
        ghost = ghost_name(before[table][after[table].index(guest.pk)])
        return f"{guest.name} takes {ghost}'s seat at table {table + 1}."

    def table_limits(self) -> TableLimits:
        """Four seats a table, North, East, South, West: a move names its seat, a ghost's seat is
        taken by moving a guest to it (docs/rules/tables-of-four.md, "Changing seats")."""
        return TableLimits(4, 4, fixed_seats=True)

    def place_words(self, table: int, seat: int) -> str:
        """ "table 3, North"."""
        from tables.formats.foursome import Seat as SeatName

        return f"table {table}, {SeatName(seat).word}"

    def seats_changed(self, *, evening, last, change, before, after, words, names) -> Bell:
        """``formats.partnership.bell.foursome_seats_step``: the family's "seat" step."""
        from tournament.formats.partnership.bell import foursome_seats_step

        return foursome_seats_step(
            evening=evening, last=last, guest=change.guest, before=before, after=after, words=words, names=names
        )

    def guest_page_context(self, guest: Guest, shared: PhoneBoard) -> dict | None:
        """``formats.partnership.guest_pages.foursome_page_context``: partner, opponents, tally
        (``shared`` is the product's ``selectors.guest_boards.Shared``)."""
        from tournament.formats.partnership.guest_pages import foursome_page_context
        from tournament.selectors.guest_boards import Shared

        return foursome_page_context(guest, cast(Shared, shared))

    def room_context(self, evening: Evening, board: RoomBoard, *, mode: str, asked: str, etag: str) -> dict | None:
        """``formats.partnership.room.room_context``: tables by seat, moves with the stayers
        (``board`` is the product's ``selectors.board.EveningBoard``)."""
        from tournament.formats.partnership.room import room_context
        from tournament.selectors.board import EveningBoard

        return room_context(evening, cast(EveningBoard, board), mode=mode, asked=asked, etag=etag)

    def room_ceremony(self, evening: Evening, *, finished: bool) -> dict:
        """``formats.partnership.room.room_ceremony``: no final count, the format's tallies."""
        from tournament.formats.partnership.room import room_ceremony

        return room_ceremony(evening, finished=finished)

    def rules_page(self, request: HttpRequest, evening: Evening | None) -> HttpResponse | None:
        """``formats.partnership.rules_pages.rules_page``: the rules, the options in words."""
        from tournament.formats.partnership.rules_pages import rules_page

        return rules_page(request, self.entry.foursome, evening)  # type: ignore[arg-type]

    def export_standings(self, evening: Evening, guests: list) -> tuple[list[dict], list[dict], list[dict]]:
        """``formats.partnership.codec.foursome_standings_export``: seats by position, tallies, prizes."""
        from tournament.formats.partnership.codec import foursome_standings_export

        return foursome_standings_export(evening)

    def import_references(self, data: dict) -> list[tuple[list, int]]:
        """``formats.partnership.codec.foursome_references``: layouts, reports, votes, records."""
        from tournament.formats.partnership.codec import foursome_references

        return foursome_references(data)

    def import_check_draw(self, data: dict, row: dict) -> None:
        """``formats.partnership.codec.check_draw``: a seat of the layout for every card."""
        from tournament.formats.partnership.codec import check_draw

        check_draw(data, row, self.title)

    def import_play(self, *, data: dict, evening: Evening, draw: Draw, row: dict, gid, host) -> None:
        """``formats.partnership.codec.foursome_import``: every bell replayed by the format's rules."""
        from tournament.formats.partnership.codec import foursome_import

        foursome_import(data, evening, draw, row, gid, host)

    def family_board(self, evening: Evening, guests: Mapping[int, Guest] | None = None) -> FoursomeBoard:
        """``formats.partnership.boards.foursome_board``: tables by seat, reports, moves."""
        from tournament.formats.partnership.boards import foursome_board

        return foursome_board(evening, guests)

    # -- counters (``FormatPlugin``'s counters block): none at tables of four ---------------------

    def _no_counters(self) -> RuleError:
        """The refusal of a counters question: tables of four report points, tricks or buncos."""
        return RuleError(
            f"This evening plays {self.title} at tables of four, where a table reports each side's points "
            "(at Bunco each player's buncos), not a pool and counters."
        )

    def counted_state(self, evening: Evening, *, final: bool = True) -> FoursomeState:
        """No final count at tables of four: the state now (``state``)."""
        return self.state(evening)

    def pool_result(self, *, table, pool_winner, in_call=(), tied=(), counters=None) -> FoursomeReport:
        """Refused: a table of four reports its sides' points, not a pool."""
        raise self._no_counters()

    def result_check(self, state: FoursomeState, result: object) -> None:
        """Refused: a table of four reports its sides' points, not a pool."""
        raise self._no_counters()

    def count_off(self, state: FoursomeState, table: int, counters: Mapping[int, int]) -> int | None:
        """Refused: no counters change hands at tables of four."""
        raise self._no_counters()

    def ring_options(self, evening: Evening) -> FoursomeOptions:
        """The options of play the bell is rung with (``formats.partnership.state.foursome_rules``)."""
        from tournament.formats.partnership.state import foursome_rules

        return foursome_rules(evening)[1]

    def house_rule(self, evening: Evening, name: str) -> str:
        """Refused: the bell's house rules are Progressive Poker's; the tables of four's options
        are the evening form's (``evening_form_fields``)."""
        raise RuleError(f"{self.title} keeps no house rule called {name}: its options are on the evening's page.")

    def bell_preview(self, rnd: Round) -> BellPreview:
        """Nobody cuts at a bell at tables of four (a tie at a table is the options' ``ties``):
        the preview names no one."""
        from tournament.plugin import BellPreview

        return BellPreview(None, "", ())

    def standing_rows(self, evening: Evening, state: FoursomeState, guests) -> tuple[tuple[int, int, object], ...]:
        """None on the product's board: the family's board shows the standings (``family_board``)."""
        return ()

    def seat_change_record(self, state: FoursomeState, change) -> FoursomeRecord:
        """Refused: a seat change at tables of four is replayed from its stored tables
        (``formats.partnership.codec``, ``foursome_seats_step``), not from who moved."""
        raise RuleError(f"A seat change at {self.title} is taken again from its tables before and after.")

    def sizes_relaxed(self, sizes) -> str | None:
        """Tables of four relax nothing: a ghost fills an empty seat (``docs/rules/tables-of-four.md``)."""
        return None

    # -- the draw before round 1 (``formats/partnership/physical_draw.py``) ----------------------

    def free_seats(self, plan: Plan) -> tuple[int, ...]:
        """None: a table of four keeps its four seats (a latecomer takes a ghost's or a leaver's)."""
        return ()

    def plan_with_latecomer(self, plan: Plan, table: int) -> Plan:
        """Refused: a table of four keeps its four seats (``docs/rules/tables-of-four.md``, "Late and early")."""
        raise RuleError(FOUR_SEATS_KEPT)

    def plan_without_guest(self, plan: Plan, table: int) -> Plan:
        """Refused: a table of four keeps its four seats (``docs/rules/tables-of-four.md``, "Late and early")."""
        raise RuleError(FOUR_SEATS_KEPT)

    def from_other_pack(self, plan: Plan, *, red: int, blue: int) -> dict[Pack, int]:
        """Each pack's guests beyond its seats once the ghosts have theirs (red North and East,
        blue South and West; ``tables.formats.foursome.ghost_seats``); nobody where the packs
        take no part in the draw (``plays_packs``)."""
        from tables.formats.foursome import ghost_seats

        if not self.plays_packs:
            return dict.fromkeys(Pack, 0)
        ghosts = ghost_seats(red, blue)
        seats = {pack: 2 * len(plan.sizes) - sum(1 for g in ghosts if g.pack is pack) for pack in Pack}
        return {Pack.RED: max(0, red - seats[Pack.RED]), Pack.BLUE: max(0, blue - seats[Pack.BLUE])}

    def physical_draw_plan(self, evening: Evening, here, *, accept_relaxed: bool) -> Plan:
        """``physical_draw.seat_physical_plan``: the digital draw's plan for the guests here."""
        from tournament.formats.partnership.physical_draw import seat_physical_plan

        return seat_physical_plan(evening, here)

    def physical_card(self, draw: Draw, *, guest_id: int, card: str) -> DrawnSeat:
        """``physical_draw.seat_physical_card``: a seat card ("3 N"), taken by ``SeatDraw``."""
        from tournament.formats.partnership.physical_draw import seat_physical_card

        return seat_physical_card(draw, guest_id=guest_id, card=card)

    def physical_draw_seating(self, draw: Draw) -> Seating:
        """``physical_draw.seat_physical_seating``: every guest at their card's seat, the ghosts kept."""
        from tournament.formats.partnership.physical_draw import seat_physical_seating

        return seat_physical_seating(draw)

    def physical_draw_progress(self, draw: Draw, view: PhysicalView) -> PhysicalView:
        """``physical_draw.seat_cards_progress``: the seat cards pulled, left and drawn."""
        from tournament.formats.partnership.physical_draw import seat_cards_progress

        return seat_cards_progress(draw, view)

    def pull_list(self, evening: Evening, open_draw: Draw | None) -> tuple[Plan, list[PullPack]]:
        """``physical_draw.seat_pull_list``: the digital draw's seat cards for the guests here."""
        from tournament.formats.partnership.physical_draw import seat_pull_list

        return seat_pull_list(evening)
