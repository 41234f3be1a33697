"""The audit log in sentences (issue 11 deliver 8): "Ann disputed table 3's result in round 2:
“wrong pool winner”", "The host rang the bell for round 2: 5 guests moved", never raw entries
such as ``was: bell={}`` or ``relaxed: ;``.

``audit_sentence`` reads one ``AuditEntry`` (its ``action`` and JSON ``detail``, as the services
write them with ``tournament.services.audit.audit_log``) and says it in words, with guests'
names. An action it does not know yet still reads as a sentence ("The host: evening end."),
without its raw details. House rule: the audit log is for the host, in the field's words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tables.formats.foursome import ghost_name
from tables.words import joined, numbered, plural
from tournament.format_setting import game_choices
from tournament.forms.bell import BELL_HELP, PRIZE_HELP
from tournament.models import AuditEntry

Names = Mapping[int, str]

CLOCK_WORDS = {
    "round_end": "how a round ends",
    "auto_advance": "auto-advance",
    "changeover_minutes": "the change-over",
    "warning_seconds": "the warning before the bell",
    "rounds_planned": "the number of rounds",
    "ends_at": "the end time",
}
SETTING_WORDS = {
    **CLOCK_WORDS,
    "name": "the name",
    "date": "the date",
    "format": "the format",
    "game": "the game",
    "counters_per_stake": "the counters in a stake",
    "minutes_per_round": "the minutes a round lasts",
    "red_label": "the red pack's label",
    "blue_label": "the blue pack's label",
    "counter_value": "a counter's value",
    "self_registration": "guests registering themselves",
    "options": "the format's options",
}
STATUS_WORDS = {"here": "checked {name} in", "registered": "checked {name} out", "left": "marked {name} as left"}
RANKS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def in_words(items: Iterable[str], limit: int = 12) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"; past ``limit`` items, "... and 20 more"."""
    items = [str(i) for i in items]
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return joined(items)


def seat_moves(moves: Iterable[tuple[str, int]]) -> str:
    """Who sits elsewhere now, in one sentence: "Ann now sits at table 3, Bob at table 1."
    (``moves`` is (name, table) in order); "" for none."""
    parts = [
        f"{name} now sits at table {table}" if i == 0 else f"{name} at table {table}"
        for i, (name, table) in enumerate(moves)
    ]
    return ", ".join(parts) + "." if parts else ""


def _clock(seconds: Any) -> str:
    seconds = max(0, int(seconds or 0))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _name(names: Names, guest: Any, fallback: str = "a guest") -> str:
    try:
        return names.get(int(guest), fallback)
    except (TypeError, ValueError):
        return fallback


def _ghost(ghost: Any) -> str:
    """A ghost of the tables of four by its name ("Ghost 2"), or "a ghost"."""
    try:
        return ghost_name(int(ghost))
    except (TypeError, ValueError):
        return "a ghost"


def _result(d: Mapping, names: Names) -> str:
    winner = d.get("pool_winner")
    return f"{_name(names, winner)} won the pool" if winner is not None else "nobody won the pool"


def _count_off(off: Any) -> str:
    off = int(off or 0)
    if not off:
        return ""
    return f", with the count {abs(off):,} {'short' if off < 0 else 'over'} as the table agrees"


def _house_rules(d: Mapping) -> str:
    changes = []
    for part, help_ in (("bell", BELL_HELP), ("prizes", PRIZE_HELP)):
        now, was = d.get(part) or {}, (d.get("was") or {}).get(part) or {}
        for name, (question, meanings) in help_.items():
            if name in now and now.get(name) != was.get(name) and now[name] in meanings:
                changes.append(
                    f"{question.rstrip('.')}: {meanings[now[name]][0].lower()}{meanings[now[name]][1:].rstrip('.')}"
                )
        if part == "bell" and "max_table" in now and now.get("max_table") != was.get("max_table"):
            changes.append(f"the most players at a table is {now['max_table']}")
    return (
        ("changed the house rules. " + ". ".join(c[:1].upper() + c[1:] for c in changes[:6]) + ".")
        if changes
        else "saved the house rules"
    )


def _bell_ring(who: str, d: Mapping, names: Names) -> str:
    cause = d.get("cause")
    subject = {"clock": "The clock", "head_pool": "The head table's result"}.get(cause or "", who)
    text = f"{subject} rang the bell for round {d.get('round')}"
    moves = int(d.get("moves") or 0)
    text += f": {moves} guest{'s' if moves != 1 else ''} moved" if moves else ": nobody moved"
    text += _table_cuts(d.get("table_cuts") or {})
    cuts = d.get("cuts") or {}
    if cuts:
        text += "; " + in_words(
            f"{_name(names, g)} cut {' then '.join(RANKS.get(int(r), str(r)) for r in ranks)}"
            for g, ranks in cuts.items()
        )
    text += "."
    warnings = [w for w in d.get("warnings") or () if isinstance(w, str)]
    return text + (" " + " ".join(warnings) if warnings else "")


def _table_cuts(cuts: Mapping) -> str:
    """At tables of four: which side won each table's cut ("; table 2 had no report or a tie:
    North–South won the cut")."""
    sides = {"NS": "North–South", "EW": "East–West"}
    return "".join(
        f"; table {table} had no report or a tie: {sides.get(side, 'a side')} won the cut"
        for table, side in cuts.items()
    )


def _counts_changed(d: Mapping, names: Names) -> str:
    """A correction's changed counters, guest by guest ("; counters: Ann 40 → 45, Bob 40 →
    35"), "" when none changed or the old result had no counts (a table that gave none, older
    entries, tables of four): counts given for the first time are the result's own words."""
    old, new = d.get("old_counters") or {}, d.get("counters") or {}
    guests = sorted(old, key=lambda g: _name(names, g))
    changed = [(g, old.get(g), new.get(g)) for g in guests if old.get(g) != new.get(g)]
    if not changed:
        return ""
    words = (f"{_name(names, g)} {'–' if a is None else a} → {'–' if b is None else b}" for g, a, b in changed)
    return "; counters: " + ", ".join(words)


def _correct(who: str, d: Mapping, names: Names) -> str:
    old = d.get("old_winner")
    said = d["words"] if d.get("words") else _result(d, names)
    text = f"{who} corrected table {d.get('table')}'s result in round {d.get('round')}: {said}"
    if old is not None and old != d.get("pool_winner"):
        text += f" (not {_name(names, old)})"
    elif d.get("old_words") and d["old_words"] != said:
        text += f" (was: {d['old_words']})"
    text += _counts_changed(d, names)
    replayed = d.get("replayed") or []
    if replayed:
        bells = len(set(replayed))
        text += f"; the {plural(bells, 'bell')} of {numbered('round', replayed)} {plural(bells, 'was')} played again"
    text += "."
    moves = d.get("moves")
    if d.get("seats_kept"):  # a later round was played in the seats taken: nobody moved
        text += " Nobody moved: the seats played since were kept."
    elif moves:
        text += " " + seat_moves((_name(names, g), t) for g, t in moves)
    elif moves is not None or d.get("moved") == 0:
        text += " Nobody sits elsewhere."
    elif d.get("moved"):
        text += f" {d['moved']} guests sit elsewhere."
    again = d.get("report_again") or []
    if again:
        text += f" {numbered('Table', again)} of the round in play must report again."
    reopened = d.get("reopened") or []
    if reopened:
        text += " The ceremony was opened again for what changed: " + "; ".join(reopened) + "."
    return text


def _vote(who: str, d: Mapping, verdict: str) -> str:
    text = f"{who} {verdict} table {d.get('table')}'s result in round {d.get('round')}"
    note = (d.get("note") or "").strip()
    return text + (f": “{note}”" if note else ".")


def _undo(who: str, d: Mapping, names: Names) -> str:
    kind = d.get("kind", "bell")
    if kind == "leave":
        return f"{who} undid {_name(names, d.get('guest_id'))}'s leaving (round {d.get('round')})."
    if kind == "arrive":
        return f"{who} undid {_name(names, d.get('guest_id'))}'s arrival (round {d.get('round')})."
    if kind == "seat":
        return f"{who} undid a seat change (round {d.get('round')}): the seats are back as they were."
    return f"{who} undid the bell of round {d.get('round')}: round {d.get('round')} waits for the host's bell."


SEAT_WORDS = {0: "North", 1: "East", 2: "South", 3: "West"}
"""A seat at a table of four by its stored number (docs/rules/tables-of-four.md)."""


def _drawn(d: Mapping) -> str:
    """Who a draw seated: "12 guests", or at tables of four with ghosts in the seats left
    "13 guests and 3 ghosts" (``sizes`` counts seats; ``ghosts`` the seats no guest took)."""
    ghosts = int(d.get("ghosts") or 0)
    guests = sum(d.get("sizes") or ()) - ghosts
    return f"{guests} {plural(guests, 'guest')}" + (f" and {ghosts} {plural(ghosts, 'ghost')}" if ghosts else "")


def _card(d: Mapping) -> str:
    rank = int(d.get("rank") or 0)
    pack = {"red": "the red pack", "blue": "the blue pack"}.get(d.get("pack") or "", "a pack")
    return f"the {RANKS.get(rank, str(rank))} of {pack}"


SENTENCES: dict[str, Callable[[str, Mapping, Names], str]] = {
    "bell.ring": _bell_ring,
    "bell.wait": lambda who, d, n: (
        f"{'The clock' if d.get('cause') == 'clock' else who} rang the bell for round "
        f"{d.get('round')}; it waits: {d.get('reason') or 'a result is missing'}"
    ),
    "bell.undo": _undo,
    "bell.reopened": lambda who, d, n: (
        f"{who} let the head table's next result ring the bell of round {d.get('round')}."
        if d.get("by") == "head_pool"
        else f"{who} chose to ring the bell of round {d.get('round')} by hand."
    ),
    "result.record": lambda who, d, n: (
        f"{who} recorded table {d.get('table')}'s result in round {d.get('round')}: "
        + (f"{d['words']}." if d.get("words") else f"{_result(d, n)}{_count_off(d.get('count_off'))}.")
    ),
    "result.correct": _correct,
    "result.confirm": lambda who, d, n: _vote(who, d, "confirmed"),
    "result.dispute": lambda who, d, n: _vote(who, d, "disputed"),
    "showdown.report": lambda who, d, n: (
        f"{who} settled the showdown at table {d.get('table')} in round "
        f"{d.get('round')} with the showdown helper: {_name(n, d.get('pool_winner'))} "
        "won the pool."
    ),
    "round.start": lambda who, d, n: (
        f"The clock started round {d.get('round')} after the change-over."
        if d.get("auto")
        else f"{who} started round {d.get('round')}."
    ),
    "round.pause": lambda who, d, n: f"{who} paused round {d.get('round')} with {_clock(d.get('seconds_left'))} left.",
    "round.resume": lambda who, d, n: f"{who} let round {d.get('round')} run again.",
    "round.extend": lambda who, d, n: (
        f"{who} added {abs(int(d.get('minutes') or 0))} minute{'s' if abs(int(d.get('minutes') or 0)) != 1 else ''} "
        f"to round {d.get('round')}."
        if int(d.get("minutes") or 0) >= 0
        else f"{who} took {abs(int(d['minutes']))} minute{'s' if abs(int(d['minutes'])) != 1 else ''} "
        f"from round {d.get('round')}."
    ),
    "round.set": lambda who, d, n: f"{who} set round {d.get('round')}'s clock to {_clock(d.get('seconds'))}.",
    "round.last": lambda who, d, n: f"Round {d.get('round')} became the last round: the evening's end time had passed.",
    "clock.settings": lambda who, d, n: (
        f"{who} changed the clock settings: {in_words(CLOCK_WORDS.get(c, 'a setting') for c in d.get('changed') or ())}."
        if d.get("changed")
        else f"{who} saved the clock settings unchanged."
    ),
    "evening.settings": lambda who, d, n: (
        f"{who} changed the evening's settings: {in_words(SETTING_WORDS.get(c, 'a setting') for c in d.get('changed') or ())}."
        if d.get("changed")
        else f"{who} saved the evening's settings unchanged."
    ),
    "options.set": lambda who, d, n: f"{who} {_house_rules(d)}".rstrip(".") + ".",
    "game.set": lambda who, d, n: f"{who} chose the game: {_game((d.get('after') or {}).get('game'))}.",
    "draw.digital": lambda who, d, n: (
        f"{who} made the draw: {_drawn(d)} at {len(d.get('sizes') or ())} tables"
        + (f" ({d['relaxed'].strip().rstrip('.')})" if (d.get("relaxed") or "").strip(" ;") else "")
        + "."
    ),
    "draw.physical.start": lambda who, d, n: (
        f"{who} started a draw with real packs for {sum(d.get('sizes') or ())} "
        f"guests at {len(d.get('sizes') or ())} tables."
    ),
    "draw.physical.record": lambda who, d, n: (
        f"{who} recorded {_name(n, d.get('guest_id'))}'s card: {_card(d)}"
        + (f", {SEAT_WORDS[d['seat']]}." if d.get("seat") in SEAT_WORDS else ".")
    ),
    "seats.change": lambda who, d, n: (
        f"{who} changed seats "
        + (f"in round {d.get('round')}" if d.get("round") else "before round 1")
        + ". "
        + str(d.get("words") or "")
    ).strip(),
    "draw.physical.withdraw": lambda who, d, n: f"{who} took back {_name(n, d.get('guest_id'))}'s card ({_card(d)}).",
    "draw.physical.finish": lambda who, d, n: f"{who} finished the draw with real packs.",
    "draw.physical.cancel": lambda who, d, n: f"{who} cancelled the draw with real packs.",
    "draw.latecomer": lambda who, d, n: (
        f"{who} seated {_name(n, d.get('guest_id'))} at table {d.get('table')} "
        f"before round 1 ({d.get('card') or 'a new card'})."
    ),
    "draw.release": lambda who, d, n: f"{who} freed {_name(n, d.get('guest_id'))}'s seat at table {d.get('table')}.",
    "draw.leave": lambda who, d, n: (
        f"{who} gave {_name(n, d.get('guest_id'))}'s seat at table {d.get('table')} to "
        f"{_ghost(d.get('ghost'))} before round 1: {_name(n, d.get('guest_id'))} left."
    ),
    "draw.arrive": lambda who, d, n: (
        f"{who} seated {_name(n, d.get('guest_id'))} at table {d.get('table')} in "
        f"{_ghost(d.get('ghost'))}'s seat before round 1."
    ),
    "draw.swap": lambda who, d, n: (
        f"{who} gave {_name(n, d.get('leaving_id'))}'s seat at table {d.get('table')} to "
        f"{_name(n, d.get('arriving_id'))}."
    ),
    "guests.register": lambda who, d, n: f"{who} registered {in_words(d.get('names') or ['nobody'])}.",
    "guests.check_in": lambda who, d, n: f"{who} checked in {in_words(d.get('names') or ['nobody'])}.",
    "guest.status": lambda who, d, n: (
        f"{who} "
        + STATUS_WORDS.get(d.get("status") or "", "changed {name}'s status").format(name=_name(n, d.get("guest_id")))
        + "."
    ),
    "guest.rename": lambda who, d, n: f"{who} renamed “{d.get('old')}” to “{d.get('new')}”.",
    "guest.remove": lambda who, d, n: f"{who} removed “{d.get('name')}” from the evening.",
    "guest.reissue_key": lambda who, d, n: f"{who} gave {_name(n, d.get('guest_id'))} a new private link.",
    "guest.revoke_key": lambda who, d, n: f"{who} stopped {_name(n, d.get('guest_id'))}'s private link.",
    "guest.leave": lambda who, d, n: (
        f"{who} marked {d.get('name') or _name(n, d.get('guest_id'))} as left. "
        + " ".join(e for e in d.get("entries") or () if isinstance(e, str))
    ).strip(),
    "guest.arrive": lambda who, d, n: (
        f"{who} seated {d.get('name') or _name(n, d.get('guest_id'))}, who arrived "
        "late. " + " ".join(e for e in d.get("entries") or () if isinstance(e, str))
    ).strip(),
    "guest.self_register_duplicate": lambda who, d, n: (
        f"Someone tried to register as “{d.get('name')}”, a name already registered: refused."
    ),
    "registration.switch": lambda who, d, n: (
        f"{who} {'opened' if d.get('on') else 'closed'} self-registration at the door."
    ),
    "helper.create": lambda who, d, n: (
        f"{who} made helper link {d.get('link')}, for {_lower(d.get('role')) or 'a helper'}."
    ),
    "helper.revoke": lambda who, d, n: (
        f"{who} revoked helper link {d.get('link')}, for "
        f"{_lower(d.get('role')) or 'a helper'}: it no longer opens anything."
    ),
    "evening.last_round": lambda who, d, n: f"{who} made round {d.get('round')} the last round of the evening.",
    "evening.end": lambda who, d, n: f"{who} ended the evening after round {d.get('round')}.",
    "final.count": lambda who, d, n: (
        f"{who} took table {d.get('table')}'s final count"
        + (
            ": " + in_words(f"{_name(n, g)} {int(c):,}" for g, c in (d.get("counters") or {}).items())
            if d.get("counters")
            else ""
        )
        + _count_off(d.get("off_by"))
        + "."
    ),
    "ceremony.reveal": lambda who, d, n: (
        f"{who} revealed the final standings on the room display."
        if d.get("shown") == "the final standings"
        else f"{who} revealed the prize “{d.get('shown') or 'the next prize'}” on the room display."
    ),
    "evening.import": lambda who, d, n: f"{who} imported this evening from a file ({d.get('guests')} guests).",
}


def _lower(text: Any) -> str:
    text = str(text or "")
    return text[:1].lower() + text[1:]


def _game(value: Any) -> str:
    return dict(game_choices()).get(str(value), "another game")


def actor(entry: AuditEntry) -> str:
    """Who did it, as the sentence's subject: "The host", a guest's name, "The door helper
    (link 2, Britt)", or "The host" for the terminal (no login)."""
    if entry.user_id is not None:
        return "The host"
    if entry.helper_id is not None and entry.helper is not None:
        return entry.helper.who[:1].upper() + entry.helper.who[1:]
    if entry.guest_id is not None and entry.guest is not None:
        return entry.guest.name
    return "The host"


def audit_sentence(entry: AuditEntry, names: Names) -> str:
    """One audit entry as a sentence with guests' names (``names``: guest id -> name). Never
    raises for an old or unexpected detail: a detail it cannot read is left out."""
    who = actor(entry)
    if entry.action == "guest.status" and entry.user_id is None and entry.helper_id is None and entry.device:
        detail = entry.detail or {}
        if detail.get("status") == "here":
            return f"{_name(names, detail.get('guest_id'))} checked in on their phone."
    say = SENTENCES.get(entry.action)
    if say is not None:
        try:
            return say(who, entry.detail or {}, names)
        except (TypeError, ValueError, KeyError, AttributeError):
            pass
    return f"{who}: {entry.action.replace('.', ' ').replace('_', ' ')}."
