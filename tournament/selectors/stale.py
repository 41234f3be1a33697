"""A stale page's button: what changed since the page was drawn, and whether that refuses the
action (issue 22 item 7; the host's guide, docs/host-guide.md, "A page left open in another tab").

Every host action form carries ``seen`` (``tournament.forms.seen``): the evening's version
and its newest audit entry when the page was drawn. ``stale_refusal`` reads the audit entries
written since and answers the refusal's words when one of them touches what the action acts
on, else None. The house rule, per action (``ActsOn``):

- **Refused on any later change to the play** (``ANY_CHANGE``): the draw (deal, accept the
  plan and deal, the physical draw's start, cards, finish and cancel, the changes before
  round 1), the bell (ring now, ring anyway, who rings a reopened round), starting a round, and
  undo. They act on the whole evening as the page showed it: a draw, a bell, an undo, an
  arrival or departure, a seat change, a result, a correction, a check-in at the door, a
  setting, the clock or the ceremony since then refuses them.
- **Refused only when what they act on changed**: a guest's button on the guests page (check
  in, check out, seat now, left) by a change to that guest only (another guest's check-in
  refuses nothing, ``acts_on_guest``); a correction of round R's table T by a step of the
  evening (a bell, an undo, an arrival, a departure, a seat change, the draw, another
  correction), a result of round R's table T or the ceremony (``acts_on_result``); the clock's
  buttons by the clock or a step (``CLOCK``); a reveal of the ceremony by the ceremony, a
  result or a step (``CEREMONY``); the evening's settings by a setting or the draw
  (``SETTINGS``).
- **Never refusing anything**: a private link given or stopped, a helper's link, a guest
  renamed, the door's self-registration switch (they change no play).

House rule: a stale button changes nothing and says why, naming what changed since from the
audit log (``tournament.selectors.audit_sentences``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Max
from django.utils import timezone

from tournament.forms.seen import Seen
from tournament.models import AuditEntry, Evening
from tournament.selectors.audit_sentences import audit_sentence

# What an audit entry changed: the topics an action can act on.
STEPS = "steps"  # who sits where and who plays: the draw, bells, undos, arrivals, departures, seat changes
DRAW = "draw"  # the draw itself, and the start of round 1 (after which the draw is fixed)
RESULTS = "results"  # results, reports, votes, corrections, final counts
CLOCK = "clock"  # the round's clock and its settings
DOOR = "door"  # guests registered, checked in or out, removed
SETTING = "settings"  # the evening's settings, house rules, the game
CEREMONY = "ceremony"  # the last round, the end of the evening, the final count, the prizes revealed
PLAY = frozenset({STEPS, DRAW, RESULTS, CLOCK, DOOR, SETTING, CEREMONY})

TOPICS: Mapping[str, frozenset[str]] = {
    "bell.ring": frozenset({STEPS}),
    "bell.wait": frozenset({STEPS}),
    "bell.undo": frozenset({STEPS}),
    "bell.reopened": frozenset({STEPS}),
    "guest.leave": frozenset({STEPS, DOOR}),
    "guest.arrive": frozenset({STEPS, DOOR}),
    "seats.change": frozenset({STEPS, DRAW}),  # before round 1 a seat change is a new draw
    "round.start": frozenset({STEPS, CLOCK}),  # round 1's start is the draw's too (``topics_of``)
    "evening.import": PLAY,
    "result.record": frozenset({RESULTS}),
    "result.report": frozenset({RESULTS}),
    "result.confirm": frozenset({RESULTS}),
    "result.dispute": frozenset({RESULTS}),
    "showdown.report": frozenset({RESULTS}),
    "result.correct": frozenset({RESULTS, STEPS, CEREMONY}),
    "final.count": frozenset({RESULTS, CEREMONY}),
    "round.pause": frozenset({CLOCK}),
    "round.resume": frozenset({CLOCK}),
    "round.extend": frozenset({CLOCK}),
    "round.set": frozenset({CLOCK}),
    "round.last": frozenset({CLOCK, CEREMONY}),
    "clock.settings": frozenset({CLOCK, SETTING}),
    "evening.settings": frozenset({SETTING}),
    "options.set": frozenset({SETTING}),
    "game.set": frozenset({SETTING}),
    "evening.last_round": frozenset({CEREMONY}),
    "evening.end": frozenset({CEREMONY, STEPS}),
    "ceremony.reveal": frozenset({CEREMONY}),
    "guests.register": frozenset({DOOR}),
    "guests.check_in": frozenset({DOOR}),
    "guest.register": frozenset({DOOR}),
    "guest.check_in": frozenset({DOOR}),
    "guest.status": frozenset({DOOR}),
    "guest.remove": frozenset({DOOR}),
    # No play: these refuse nothing.
    "guest.rename": frozenset(),
    "guest.reissue_key": frozenset(),
    "guest.revoke_key": frozenset(),
    "guest.self_register_duplicate": frozenset(),
    "helper.create": frozenset(),
    "helper.revoke": frozenset(),
    "registration.switch": frozenset(),
}
UNKNOWN = frozenset({STEPS, RESULTS})  # an action this table does not name yet (a seat change...)
SHOWN = 3  # changes named in a refusal; past that, "and N more changes"


def topics_of(action: str, detail: Mapping[str, Any] | None = None) -> frozenset[str]:
    """What an audit entry's ``action`` (with its ``detail``) changed (``TOPICS``): every
    "draw.*" is the draw and its seats, and so is the start of round 1 (the draw is fixed
    then); an action not listed counts as a step and a result (``UNKNOWN``), so a new kind of
    step (a seat change) refuses what a step refuses until it is listed."""
    if action.startswith("draw."):
        return frozenset({DRAW, STEPS})
    if action == "round.start" and _number((detail or {}).get("round")) == 1:
        return TOPICS[action] | {DRAW}
    return TOPICS.get(action, UNKNOWN)


@dataclass(frozen=True)
class ActsOn:
    """What a host action acts on: the ``topics`` any change to which refuses it; a guest
    (``guest``: their id and ``name``) whose own changes refuse it; a round's table
    (``result``: (round, table)) whose results refuse it."""

    topics: frozenset[str] = frozenset()
    guest: tuple[int, str] | None = None
    result: tuple[int, int] | None = None

    def touched_by(self, entry: AuditEntry) -> bool:
        """Whether ``entry`` changed what this action acts on."""
        detail: Mapping[str, Any] = entry.detail if isinstance(entry.detail, dict) else {}
        changed = topics_of(entry.action, detail)
        if changed & self.topics:
            return True
        at = (_number(detail.get("round")), _number(detail.get("table")))
        if self.result is not None and RESULTS in changed and at == self.result:
            return True
        if self.guest is not None and changed:
            return _names_guest(detail, *self.guest)
        return False


def _number(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _names_guest(detail: Mapping[str, Any], guest_id: int, name: str) -> bool:
    """Whether an entry's ``detail`` is about this guest: their id as ``guest_id``,
    ``leaving_id`` or ``arriving_id``, or their name as ``name`` or among ``names``."""
    ids = {_number(detail.get(key)) for key in ("guest_id", "leaving_id", "arriving_id")}
    listed = detail.get("names")
    names = listed if isinstance(listed, list) else []
    return guest_id in ids or detail.get("name") == name or name in names


ANY_CHANGE = ActsOn(topics=PLAY)
CLOCK_BUTTONS = ActsOn(topics=frozenset({CLOCK, STEPS, CEREMONY}))
CEREMONY_STEP = ActsOn(topics=frozenset({CEREMONY, RESULTS, STEPS}))
SETTINGS = ActsOn(topics=frozenset({SETTING, DRAW}))
SEATS = ActsOn(topics=frozenset({STEPS, DRAW, CEREMONY}))
"""A seat change and its undo: refused by any step since (a bell, an undo, an arrival, a
departure, another seat change), the draw, or the end of the evening; not by a result, a
check-in or the clock (house rule: the seats the host looked at are still the seats)."""


def acts_on_guest(guest_id: int, name: str) -> ActsOn:
    """A guest's button on the guests page: refused only by a change to that guest."""
    return ActsOn(guest=(guest_id, name))


def acts_on_result(round_number: int, table: int) -> ActsOn:
    """A correction of round ``round_number``'s table ``table``: refused by a step, the draw,
    the ceremony, or a result of that very table and round."""
    return ActsOn(topics=frozenset({STEPS, DRAW, CEREMONY}), result=(round_number, table))


def acts_on_report(round_number: int, table: int) -> ActsOn:
    """A scorer's report of round ``round_number``'s table ``table``: refused only by a result
    of that very table and round since the scorer's form was drawn (a guest's report, the
    host's, another scorer's, a correction). House rule: a helper's stale form never replaces a
    report it did not show; the round number and the seats are checked by the scorer's form
    itself."""
    return ActsOn(result=(round_number, table))


def report_came_in(evening: Evening, seen: Seen | None, round_number: int, table: int) -> str | None:
    """The words refusing a scorer's report of round ``round_number``'s table ``table`` posted
    from a form drawn at ``seen`` (None: no mark, never refused) when a report of that table
    arrived or changed since ("Nothing was saved: table 2's report came in since you opened
    this page: ..."), else None. ``evening`` should be the evening as just locked. House rule
    (``acts_on_report``)."""
    if seen is None or not changes_since(evening, seen, acts_on_report(round_number, table)):
        return None
    return (
        f"Nothing was saved: table {table}'s report came in since you opened this page: "
        "look at it, then send yours if it is still needed."
    )


def page_seen(evening: Evening) -> Seen:
    """When a page of ``evening`` is drawn: its version and its newest audit entry's id, read
    in one query (so the two agree). A missing evening reads as ``Seen(0, 0)``."""
    row = (
        Evening.objects.filter(pk=evening.pk)
        .order_by()
        .annotate(newest=Max("audit__id"))
        .values_list("version", "newest")
        .first()
    )
    return Seen(0, 0) if row is None else Seen(row[0], row[1] or 0)


def changes_since(evening: Evening, seen: Seen, acts_on: ActsOn) -> list[AuditEntry]:
    """The audit entries written since ``seen`` that touch ``acts_on``, oldest first; none when
    the evening's version is still ``seen.version`` (one query then: none when the caller
    passes the evening as just locked). One query more otherwise."""
    if evening.version <= seen.version:
        return []
    entries = (
        AuditEntry.objects.filter(evening_id=evening.pk, pk__gt=seen.entry)
        .select_related("helper", "guest")
        .order_by("id")
    )
    return [entry for entry in entries if acts_on.touched_by(entry)]


def _clause(entry: AuditEntry, names: Mapping[int, str]) -> str:
    """An entry as part of a sentence, with its time: "the host made the draw: 8 guests at 2
    tables (05:41)"."""
    text = audit_sentence(entry, names).strip().split(". ")[0].rstrip(".")
    if text.startswith(("The ", "A ")):
        text = text[0].lower() + text[1:]
    return f"{text} ({timezone.localtime(entry.at):%H:%M})"


def stale_words(entries: Iterable[AuditEntry], names: Mapping[int, str]) -> str:
    """The refusal: "Nothing was changed: since this page was drawn, the host made the draw: 8
    guests at 2 tables (05:41). Look at the page again." (at most ``SHOWN`` changes named,
    then "and N more changes")."""
    entries = list(entries)
    clauses = [_clause(e, names) for e in entries[:SHOWN]]
    more = len(entries) - SHOWN
    if more > 0:
        clauses.append(f"{more} more change{'s' if more != 1 else ''}")
    said = clauses[0] if len(clauses) == 1 else "; ".join(clauses[:-1]) + "; and " + clauses[-1]
    return f"Nothing was changed: since this page was drawn, {said}. Look at the page again."


def stale_refusal(evening: Evening, seen: Seen | None, acts_on: ActsOn) -> str | None:
    """The words refusing an action posted from a page drawn at ``seen`` (None: the form
    carried no mark, never refused), or None when nothing it acts on (``acts_on``) changed
    since. ``evening`` should be the evening as just locked, so its version is current."""
    if seen is None:
        return None
    entries = changes_since(evening, seen, acts_on)
    if not entries:
        return None
    names = dict(evening.guests.values_list("pk", "name"))
    return stale_words(entries, names)
