"""Registering guests: one at the door, a pasted list or a CSV file, check-in and removal.

A guest list is checked whole before anything is saved: one bad row (empty name, unknown pack,
wrong columns, a name already registered or given twice) refuses the whole list with every
row's reason. House rule: names are compared in Unicode NFC with spaces collapsed and case
folded, so "Anne  Smith" and "anne smith" are the same guest, and "Zoë Martin" typed with a
composed ë or with e + U+0308 too. A name that is the same apart from accents or spacing
("Jose Nunez" beside "José Núñez") is a near-duplicate: refused with the name it looks like
until the host (or the door helper) confirms a different guest (``different``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import RestrictedError

from tables.errors import RuleError
from tables.packs import Pack
from tournament.models import Evening, Guest
from tournament.name_keys import likeness_key
from tournament.names import clean_name
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.history import GuestHasHistory, guest_history_check
from tournament.services.locks import lock_evening
from tournament.services.versions import evening_touch


class GuestListError(RuleError):
    """A guest list was refused; ``problems`` holds one line per bad row ("Row 3: ...");
    ``near`` is True when every problem is a near-duplicate the host may confirm."""

    def __init__(self, problems: list[str], *, near: bool = False):
        self.problems = problems
        self.near = near
        super().__init__("The list was not saved. Fix these rows and try again: " + " ".join(problems))


def near_duplicates(evening: Evening, names: list[str]) -> dict[str, str]:
    """Each of ``names`` (as they will be stored) that is the same name as a guest already
    registered apart from case, accents or spacing, but not the same name
    (``name_keys.likeness_key``): new name -> the registered guest's name. One query."""
    registered: dict[str, str] = {}
    for existing in evening.guests.values_list("name", flat=True):
        registered.setdefault(likeness_key(existing), existing)
    found = {}
    for name in names:
        alike = registered.get(likeness_key(name))
        if alike is not None and Guest.fold_name(alike) != Guest.fold_name(name):
            found[name] = alike
    return found


def already_words(name: str, registered: str) -> str:
    """What a host is told of a name already registered, naming the guest as registered when
    the name typed differs from it only in case or spacing: "“Ann smith” is already registered
    as “Ann Smith”" ("“Ann Smith” is already registered" when they are the same)."""
    if name == registered:
        return f"“{name}” is already registered"
    return f"“{name}” is already registered as “{registered}”"


def near_words(name: str, alike: str) -> str:
    """The question a near-duplicate asks, in the host's words."""
    return (
        f"“{name}” looks like “{alike}”, who is already registered (the same name apart from accents or "
        "spacing). If they are two guests, tick “A different guest” and add again; if it is the same "
        "guest, find them in the list."
    )


@dataclass(frozen=True)
class GuestRow:
    """One guest to register: name, pack and an optional contact (e-mail or phone)."""

    name: str
    pack: Pack
    contact: str = ""


def parse_pack(text: str, *, evening: Evening) -> Pack:
    """Read a pack from a CSV cell: red/blue, r/b, or the host's own labels ("Ladies").

    Raises ``RuleError`` naming the text and the labels that would do.
    """
    word = " ".join((text or "").split()).casefold()
    for pack in Pack:
        if word == evening.pack_label(pack).casefold():
            return pack
    try:
        return Pack.parse(word)
    except RuleError:
        raise RuleError(
            f"“{text}” is not a pack: write red or blue (or “{evening.red_label}” / “{evening.blue_label}”)."
        ) from None


DELIMITERS = ",;\t"
SEPARATOR_WORDS = {",": "commas", ";": "semicolons", "\t": "tabs"}
"""Each delimiter as a host reads it in a message."""
SNIFF_CHARS = 64_000


def guest_list_delimiter(text: str) -> str:
    """The delimiter of a guest list (comma, semicolon or tab), found by ``csv.Sniffer`` on its
    first ``SNIFF_CHARS`` characters (whole lines). When the sniffer cannot tell (one column, or
    lines that disagree), the one found most often on the first line (a comma on a tie)."""
    sample = text[:SNIFF_CHARS]
    if len(text) > SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        first = next((line for line in sample.splitlines() if line.strip()), "")
        return max(DELIMITERS, key=first.count)


def guest_list_rows(text: str) -> list[tuple[int, list[str]]]:
    """The records of a guest list's text, read whole by the ``csv`` module (so a quoted cell
    may hold the delimiter or a line break), each with the line it starts on (1 for the first);
    blank records left out, a byte order mark ignored. Raises ``GuestListError`` when the text
    is not CSV the module can read (a quote never closed)."""
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=guest_list_delimiter(text), skipinitialspace=True)
    rows, line = [], 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                rows.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as error:
        raise GuestListError([f"Row {line}: the list cannot be read as CSV ({error}); check its quotes."]) from None
    return rows


def parse_guest_list(text: str, *, evening: Evening, different: bool = False) -> list[GuestRow]:
    """Read a pasted list or a CSV file's text into guest rows.

    Columns: name, pack, and optionally contact (a format whose draw ignores the packs,
    ``FormatPlugin.plays_packs``, takes a name alone, the packs given by turns); separated by
    commas, semicolons or tabs (the
    ``csv`` module's sniffer decides, ``guest_list_delimiter``); a cell in double quotes may hold
    the separator or a line break; an optional header row (starting with "name"); a
    byte-order mark is ignored; blank lines are skipped. Row numbers in messages are the line a
    row starts on in the file (the header is row 1). Raises ``GuestListError`` with every bad
    row's reason; returns the rows otherwise. Names are compared as the module docstring says:
    a row that is the same name as another row or a registered guest apart from accents or
    spacing is a near-duplicate, refused (``near``) unless ``different`` (the host ticked
    "these are different guests").
    """
    rows = guest_list_rows(text)
    separator = SEPARATOR_WORDS[guest_list_delimiter(text.lstrip("\ufeff"))]
    if not rows:
        raise GuestListError(["The list is empty: one guest per line, as “name, pack”."])
    if rows[0][1] and rows[0][1][0].strip().casefold() == "name":
        rows = rows[1:]
    parsed, seen, problems = _rows_read(rows, evening=evening, separator=separator)
    typed = {Guest.fold_name(r.name): r.name for r in parsed}
    existing = Guest.objects.filter(evening=evening, name_key__in=list(seen)).values_list("name", flat=True)
    for name in existing:
        number = seen[Guest.fold_name(name)]
        problems.append((number, f"Row {number}: {already_words(typed[Guest.fold_name(name)], name)}."))
    if problems:
        raise GuestListError([words for _, words in sorted(problems, key=lambda problem: problem[0])])
    if not different:
        near = _near_in_list(evening, parsed, seen)
        if near:
            raise GuestListError(
                [*near, "If they are different guests, tick “These are different guests” and register the list again."],
                near=True,
            )
    return parsed


def _rows_read(
    rows: list[tuple[int, list[str]]], *, evening: Evening, separator: str
) -> tuple[list[GuestRow], dict[str, int], list[tuple[int, str]]]:
    """``parse_guest_list``'s rows read one by one: the guest rows, each folded name's row
    number, and (row, what is wrong with it) for every row refused."""
    problems: list[tuple[int, str]] = []  # (row, what is wrong with it): told in row order
    parsed: list[GuestRow] = []
    seen: dict[str, int] = {}
    packless = not format_for(evening).plays_packs  # names alone will do: the packs take no part
    for number, cells in rows:
        cells = [c.strip() for c in cells]
        if packless and len(cells) == 1:  # a guest's pack, which the format ignores, by turns
            cells = [cells[0], ("red", "blue")[len(parsed) % 2]]
        if len(cells) not in (2, 3):
            problems.append(
                (
                    number,
                    f"Row {number}: expected 2 or 3 columns (name, pack, contact) separated by {separator}, as "
                    f"this list is read, found {len(cells)}. Use one separator for the whole list.",
                )
            )
            continue
        try:
            name = clean_name(cells[0])
            pack = parse_pack(cells[1], evening=evening)
        except RuleError as error:
            problems.append((number, f"Row {number}: {error}"))
            continue
        key = Guest.fold_name(name)
        if key in seen:
            problems.append(
                (number, f"Row {number}: “{name}” is also on row {seen[key]}; give one of them a fuller name.")
            )
            continue
        seen[key] = number
        parsed.append(GuestRow(name=name, pack=pack, contact=cells[2] if len(cells) == 3 else ""))
    return parsed, seen, problems


def _near_in_list(evening: Evening, parsed: list[GuestRow], rows: dict[str, int]) -> list[str]:
    """One line per row of ``parsed`` that is a near-duplicate of a registered guest or of an
    earlier row (``rows``: folded name -> row number)."""
    lines = []
    for name, alike in near_duplicates(evening, [r.name for r in parsed]).items():
        lines.append(f"Row {rows[Guest.fold_name(name)]}: “{name}” looks like “{alike}”, who is already registered.")
    earlier: dict[str, GuestRow] = {}
    for row in parsed:
        first = earlier.setdefault(likeness_key(row.name), row)
        if first is not row:
            lines.append(
                f"Row {rows[Guest.fold_name(row.name)]}: “{row.name}” looks like “{first.name}” on row "
                f"{rows[Guest.fold_name(first.name)]}."
            )
    return lines


def guests_register(
    *,
    evening: Evening,
    rows: list[GuestRow],
    user=None,
    guest=None,
    check_in: bool = False,
    device: str = "",
    helper=None,
) -> list[Guest]:
    """Register guests in one transaction (all or none); returns the new ``Guest`` rows. Who:
    the host (``user``), a guest registering themself (``guest``) or a door helper (``helper``).

    Raises ``GuestListError`` for a duplicate name (checked again under the database's unique
    constraint, so two hosts adding the same name at once save it once), and on an evening that
    has ended (house rule: the standings and prizes are final, so nobody joins; ``ENDED_WORDS``).
    """
    if evening.stage == Evening.Stage.ENDED:
        raise GuestListError([ENDED_WORDS])
    status = Guest.Status.HERE if check_in else Guest.Status.REGISTERED
    guests = [
        Guest(
            evening=evening,
            name=row.name,
            name_key=Guest.fold_name(row.name),
            pack=row.pack.value,
            contact=row.contact,
            status=status,
        )
        for row in rows
    ]
    try:
        with transaction.atomic():
            if lock_evening(evening.pk).stage == Evening.Stage.ENDED:  # the lock order: tournament.services.locks
                raise GuestListError([ENDED_WORDS])  # ended meanwhile
            created = Guest.objects.bulk_create(guests)
            audit_log(
                evening=evening,
                action="guests.register",
                user=user,
                guest=guest,
                device=device,
                helper=helper,
                names=[g.name for g in guests],
            )
            evening_touch(evening=evening)
    except IntegrityError:
        raise GuestListError(["A name on the list is already registered; reload the page and try again."]) from None
    if created and created[0].pk is None:  # SQLite before 3.35 does not return ids
        return list(Guest.objects.filter(evening=evening, name_key__in=[g.name_key for g in guests]))
    return created


ENDED_WORDS = "The evening has ended: no guest can be added now (house rule: its standings and prizes are final)."
"""Why a guest list or a guest is refused once the evening has ended, in every format."""


def late_guest_words(evening: Evening) -> str:
    """What the host is told on checking in a new guest who cannot be seated tonight: after
    round 1 of a format whose schedule is fixed at the draw (``FormatPlugin.joins_after_the_draw``
    False: the Euchre tournament, ``docs/rules/euchre-tournament.md``, "Nobody joins after the
    draw"), "" for every other evening. One query at most."""
    if evening.stage == Evening.Stage.REGISTRATION or format_for(evening).joins_after_the_draw:
        return ""
    if not evening.rounds.exists():
        return ""
    return (
        "They cannot play tonight: this format's schedule was fixed at the draw and play has begun"
        " (house rule), so they get no seat."
    )


def guest_add(
    *,
    evening: Evening,
    name: str,
    pack: str,
    contact: str = "",
    user=None,
    check_in=False,
    device: str = "",
    guest=None,
    helper=None,
    different: bool = False,
) -> Guest:
    """Register one guest (at the door or by self-registration); returns the ``Guest``.

    Raises ``GuestListError`` (a ``RuleError``) on an evening that has ended (``ENDED_WORDS``),
    and ``RuleError`` for an empty, too long or marked-up name, an unknown pack, or a name
    already registered (in NFC, spaces collapsed, case folded); ``GuestListError`` with
    ``near`` for a near-duplicate (the same name as a registered guest's apart from accents or
    spacing) unless ``different`` (the host or door helper confirmed another guest).
    """
    if evening.stage == Evening.Stage.ENDED:
        raise GuestListError([ENDED_WORDS])
    try:
        row = GuestRow(name=clean_name(name), pack=parse_pack(pack, evening=evening), contact=contact.strip()[:200])
    except RuleError as error:
        raise GuestListError([str(error)]) from None
    registered = Guest.objects.filter(evening=evening, name_key=Guest.fold_name(row.name)).values_list(
        "name", flat=True
    )
    if (same := registered.first()) is not None:
        raise GuestListError([f"{already_words(row.name, same)}; add a surname or initial to tell them apart."])
    alike = near_duplicates(evening, [row.name]).get(row.name)
    if alike is not None and not different:
        raise GuestListError([near_words(row.name, alike)], near=True)
    return guests_register(
        evening=evening, rows=[row], user=user, check_in=check_in, device=device, guest=guest, helper=helper
    )[0]


def guest_set_status(*, guest: Guest, status: str, user=None, device: str = "", helper=None) -> Guest:
    """Check a guest in, mark them registered again, or as left. Returns the guest.

    Before the draw any change is free. After the draw, see ``tournament.services.draws`` for
    what a change of who is here means for the seating (house rule: a guest checked in after
    the draw waits for a free seat or a redraw).
    """
    if status not in Guest.Status.values:
        raise RuleError(f"Unknown status “{status}”.")
    with transaction.atomic():
        lock_evening(guest.evening_id)  # the lock order: tournament.services.locks
        Guest.objects.filter(pk=guest.pk).update(status=status)
        guest.status = status
        audit_log(
            evening=guest.evening,
            action="guest.status",
            user=user,
            device=device,
            helper=helper,
            guest_id=guest.pk,
            status=status,
        )
        evening_touch(evening=guest.evening)
    return guest


def guests_check_in(*, evening: Evening, guest_ids: list[int], user=None, device: str = "", helper=None) -> list[Guest]:
    """Check in, at once, every guest in ``guest_ids`` who is registered and not here yet (the
    door's "check in the selected" / "check in everyone listed"); guests already here, who left,
    or of another evening are skipped. One transaction, one audit entry naming them. Returns the
    guests checked in, alphabetical (empty when nobody was waiting).

    House rule: after round 1 this only marks them here; each takes a seat when the host presses
    *Seat now* between rounds (a seat changes the tables, so it is the host's call).
    """
    with transaction.atomic():
        lock_evening(evening.pk)  # the lock order: tournament.services.locks
        waiting = list(
            Guest.objects.filter(evening=evening, pk__in=guest_ids, status=Guest.Status.REGISTERED).order_by(
                "name_key", "id"
            )
        )
        if not waiting:
            return []
        Guest.objects.filter(pk__in=[g.pk for g in waiting]).update(status=Guest.Status.HERE)
        for guest in waiting:
            guest.status = Guest.Status.HERE
        audit_log(
            evening=evening,
            action="guests.check_in",
            user=user,
            device=device,
            helper=helper,
            names=[g.name for g in waiting],
        )
        evening_touch(evening=evening)
    return waiting


def guest_rename(*, guest: Guest, name: str, user=None, device: str = "") -> Guest:
    """Correct a guest's name (a typing slip, or a name stored before it had to print);
    returns the guest. Everything they played stays theirs (results point at the guest).

    Raises ``RuleError`` as ``clean_name`` does, or when another guest of the evening already
    has the name.
    """
    new = clean_name(name)
    key = Guest.fold_name(new)
    with transaction.atomic():
        other = Guest.objects.filter(evening=guest.evening, name_key=key).exclude(pk=guest.pk)
        if (same := other.values_list("name", flat=True).first()) is not None:
            raise RuleError(f"{already_words(new, same)}; add a surname or initial to tell them apart.")
        old = guest.name
        guest.name = new
        guest.save(update_fields=["name", "name_key"])
        audit_log(
            evening=guest.evening, action="guest.rename", user=user, device=device, guest_id=guest.pk, old=old, new=new
        )
        evening_touch(evening=guest.evening)
    return guest


def guest_remove(*, guest: Guest, user=None, device: str = "") -> None:
    """Remove a guest whom the evening's history never mentions (registered by mistake, or a
    no-show). Raises ``GuestHasHistory`` (a ``RuleError`` saying "mark them as left instead")
    when they drew a card, sit at a table, or appear in any result or bell; nothing is changed
    then. House rule, issue 12 item 3 (see ``tournament.services.history``)."""
    with transaction.atomic():
        lock_evening(guest.evening_id)  # the lock order: tournament.services.locks
        guest_history_check(guest)
        audit_log(evening=guest.evening, action="guest.remove", user=user, device=device, name=guest.name)
        evening_touch(evening=guest.evening)
        try:
            guest.delete()
        except RestrictedError:  # a row the check could not see yet: history wins
            raise GuestHasHistory(guest, ["appear in the evening's history"]) from None


def guest_reissue_key(*, guest: Guest, user=None, device: str = "") -> Guest:
    """Give a guest a new private link; the old one stops working at once (in other web
    processes within ``held.HELD_SECONDS``: the evening's version changes, which is what makes
    them stop trusting the old key's entry). Returns the guest."""
    from tournament.models import new_private_key
    from tournament.services.links import link_forget

    with transaction.atomic():
        lock_evening(guest.evening_id)  # the lock order: tournament.services.locks
        link_forget(key=guest.key)  # issue 6: the old key leaves the link cache on commit
        guest.key = new_private_key()
        guest.key_revoked = False
        guest.save(update_fields=["key", "key_revoked"])
        audit_log(evening=guest.evening, action="guest.reissue_key", user=user, device=device, guest_id=guest.pk)
        evening_touch(evening=guest.evening)
    return guest
