"""What a host does to a club, each in one transaction (all or nothing): create it, import its
roster, add an evening for it (its guests picked from the roster, with subs), promote a sub,
mark a member as left, move an evening into a club, open and close a season.

Every refusal is a ``tables.errors.RuleError`` whose message names the member, guest, evening or
season in the host's words; nothing is saved then. Rules: ``docs/clubs.md`` (house rules, all of
them: the product's own, written there).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from clubs.models import Club, ClubEvening, ClubGuest, Member, Season, club_touch
from tables.errors import RuleError
from tables.packs import Pack
from tables.seasons import season_dates_refused
from tournament.models import Draw, Evening, Guest
from tournament.name_keys import fold_name
from tournament.names import clean_name
from tournament.registry import format_named
from tournament.services.guests import GuestListError, GuestRow, guest_list_rows, guests_register, parse_guest_list

MEMBER_HAS_HISTORY = (
    "{name} played {count} of the club's evenings: a member with history is not removed (their nights "
    "count in the seasons). Mark them as left the club instead."
)


@dataclass(frozen=True)
class MemberRow:
    """One member to add: name (as it will be stored), pack, optional e-mail or phone."""

    name: str
    pack: Pack
    contact: str = ""


def _club_locked(club: Club) -> Club:
    """The club's row, locked for the caller's transaction (two tabs importing at once wait)."""
    return Club.objects.select_for_update().get(pk=club.pk)


def club_create(
    *, host, name: str, format: str, evening_settings: Mapping, season_order: str = "", subs_shown: bool = True
) -> Club:
    """A new club of ``host`` (a Django user) named ``name`` playing ``format`` (an installed
    format's key), whose evenings start from ``evening_settings`` (the evening form's fields by
    name, JSON values), ranking its seasons by ``season_order`` (blank: the format's default).
    Raises ``RuleError`` for a format not installed, one that keeps no season, or an order the
    format does not rank by."""
    name = " ".join((name or "").split())
    if not name:
        raise RuleError("Give the club a name.")
    rules = format_named(format).season_rules
    if rules is None:
        raise RuleError(f"{format_named(format).title} keeps no season: choose another format for the club.")
    rules.order(season_order)
    return Club.objects.create(
        host=host,
        name=name,
        format=format,
        evening_settings=dict(evening_settings),
        season_order=season_order,
        subs_shown=subs_shown,
    )


def club_settings_change(*, club: Club, season_order: str, subs_shown: bool) -> Club:
    """Change how the club's seasons rank (``season_order``, one of its format's) and whether
    subs are shown in them. Raises ``RuleError`` for an order the format does not rank by."""
    rules = format_named(club.format).season_rules
    if rules is None:
        raise RuleError("This club's format keeps no season.")
    rules.order(season_order)
    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(season_order=season_order, subs_shown=subs_shown)
        club_touch(club.pk)
    club.season_order, club.subs_shown = season_order, subs_shown
    return club


def parse_member_list(text: str, *, club: Club) -> list[MemberRow]:
    """Read a pasted roster or a CSV file's text (``tournament.services.guests.guest_list_rows``:
    commas, semicolons or tabs; quotes; a header row starting with "name"): "name, pack[,
    contact]" per row, the pack red or blue (r/b). A member is in one pack: a row whose pack is
    neither, a name given twice, or a name already on the roster in the other pack is refused,
    naming the row. Raises ``GuestListError`` with every bad row's reason."""
    rows = guest_list_rows(text)
    if not rows:
        raise GuestListError(["The list is empty: one member per line, as “name, pack”."])
    if rows[0][1] and rows[0][1][0].strip().casefold() == "name":
        rows = rows[1:]
    problems: list[str] = []
    parsed: list[MemberRow] = []
    seen: dict[str, tuple[int, Pack]] = {}
    for number, raw in rows:
        cells = [c.strip() for c in raw]
        if len(cells) not in (2, 3):
            problems.append(f"Row {number}: expected 2 or 3 columns (name, pack, contact), found {len(cells)}.")
            continue
        try:
            name = clean_name(cells[0])
            pack = Pack.parse(cells[1])
        except RuleError as error:
            problems.append(f"Row {number}: {error} A member is in one pack, red or blue.")
            continue
        key = fold_name(name)
        if key in seen:
            first, first_pack = seen[key]
            also = "" if first_pack is pack else f" in the {first_pack.value} pack: a member is in one pack"
            problems.append(f"Row {number}: “{name}” is also on row {first}{also}.")
            continue
        seen[key] = (number, pack)
        parsed.append(MemberRow(name=name, pack=pack, contact=cells[2] if len(cells) == 3 else ""))
    for member in Member.objects.filter(club=club, name_key__in=list(seen)):
        number, pack = seen[member.name_key]
        if pack.value != member.pack:
            problems.append(
                f"Row {number}: “{member.name}” is already a member, in the {member.pack} pack: a member is in "
                "one pack (change it on the roster)."
            )
        else:
            problems.append(f"Row {number}: “{member.name}” is already a member.")
    if problems:
        raise GuestListError(problems)
    return parsed


def members_add(*, club: Club, rows: Sequence[MemberRow]) -> list[Member]:
    """Add ``rows`` to the club's roster, all or none (checked again under the unique name rule:
    two tabs adding one name save it once). Raises ``GuestListError``."""
    try:
        with transaction.atomic():
            _club_locked(club)
            club_touch(club.pk)
            return Member.objects.bulk_create(
                [
                    Member(club=club, name=r.name, name_key=fold_name(r.name), pack=r.pack.value, contact=r.contact)
                    for r in rows
                ]
            )
    except IntegrityError:
        raise GuestListError(["A name on the list is already a member; reload the page and try again."]) from None


def member_remove(*, member: Member) -> None:
    """Take ``member`` off the roster. Raises ``RuleError`` when they have history (a guest row of
    one of the club's evenings is theirs): mark them as left instead (``member_mark_left``)."""
    with transaction.atomic():
        _club_locked(member.club)
        count = ClubGuest.objects.filter(member=member).count()
        if count:
            raise RuleError(MEMBER_HAS_HISTORY.format(name=member.name, count=count))
        Member.objects.filter(pk=member.pk).delete()
        club_touch(member.club_id)


def member_mark_left(*, member: Member, on: datetime.date | None = None) -> Member:
    """Mark ``member`` as having left the club on ``on`` (default today): they keep their history
    and their lines in past seasons, and are no longer offered for a new evening. ``on`` None on
    a member who left: back in the club. Returns the member."""
    with transaction.atomic():
        Member.objects.filter(pk=member.pk).update(left_on=on)
        club_touch(member.club_id)
    member.left_on = on
    return member


def _member_guest_rows(members: Sequence[Member]) -> list[GuestRow]:
    return [GuestRow(name=m.name, pack=Pack(m.pack), contact=m.contact) for m in members]


def club_evening_create(
    *, club: Club, evening: Evening, member_ids: Sequence[int], subs: str = "", user=None, device: str = ""
) -> Evening:
    """Save ``evening`` (unsaved, from the evening form) as the club's: its guests are the
    members ``member_ids`` (the roster's, not left) and the subs pasted in ``subs`` ("name,
    pack" per line, as a guest list), each guest linked to the member they are or marked sub.
    One transaction. Raises ``RuleError`` for another host's club or another format, a member
    not on the roster or who left (a stale tab), a sub who is a member, no guest at all, and
    ``GuestListError`` for a bad sub row."""
    if evening.host_id != club.host_id:
        raise RuleError("This club is another host's.")
    if evening.format != club.format:
        raise RuleError(
            f"{club.name} plays {format_named(club.format).title}: an evening of "
            f"{format_named(evening.format).title} is not one of its evenings."
        )
    with transaction.atomic():
        _club_locked(club)
        members = list(Member.objects.filter(club=club, pk__in=list(member_ids)))
        problems = _picked_problems(club, members, member_ids)
        if problems:
            raise RuleError(" ".join(problems))
        if not members and not subs.strip():
            raise RuleError("Tick the members who come tonight, or add subs: the evening has no guest yet.")
        evening.save()
        ClubEvening.objects.create(club=club, evening=evening)
        created = guests_register(evening=evening, rows=_member_guest_rows(members), user=user, device=device)
        by_key = {m.name_key: m for m in members}
        links = [ClubGuest(club=club, guest=g, member=by_key[g.name_key]) for g in created]
        if subs.strip():
            rows = parse_guest_list(subs, evening=evening, different=True)
            _subs_not_members(club, rows)
            links += [
                ClubGuest(club=club, guest=g)
                for g in guests_register(evening=evening, rows=rows, user=user, device=device)
            ]
        ClubGuest.objects.bulk_create(links)
        club_touch(club.pk)
    return evening


def _subs_not_members(club: Club, rows: Sequence[GuestRow]) -> None:
    """Raise ``RuleError`` for a sub who is on the club's roster (tick them instead)."""
    on_roster = Member.objects.filter(club=club, name_key__in=[fold_name(r.name) for r in rows]).first()
    if on_roster is not None:
        raise RuleError(
            f"“{on_roster.name}” is a member of {club.name}: tick their name on the roster instead of adding them as a sub."
        )


def _picked_problems(club: Club, members: Sequence[Member], asked: Sequence[int]) -> list[str]:
    """What is wrong with the members ticked for a new evening: one not (or no longer) on the
    roster, one who left the club."""
    problems = []
    if len(members) != len(set(asked)):
        problems.append(f"A member ticked is no longer on {club.name}'s roster; reload the page and tick again.")
    left = [m.name for m in members if m.left_on is not None]
    if left:
        problems.append(f"{', '.join(left)} left the club: mark them back in the club first, or add them as subs.")
    return problems


def sub_promote(*, club: Club, guest: Guest) -> Member:
    """Make ``guest``, a sub at one of the club's evenings, a member (their name, pack and
    contact). House rule (``docs/clubs.md``, "A sub who becomes a member"): one person, one
    line: every evening of the club they played as a sub under that name becomes theirs as a
    member, so their earlier nights count in the season from the start. Raises ``RuleError``
    for a guest of no evening of the club, one who is a member already, or a name on the roster."""
    with transaction.atomic():
        _club_locked(club)
        if not ClubEvening.objects.filter(club=club, evening_id=guest.evening_id).exists():
            raise RuleError(f"{guest.name} is not a guest of one of {club.name}'s evenings.")
        link = ClubGuest.objects.filter(guest=guest).first()
        if link is not None and link.member_id is not None:
            raise RuleError(f"{guest.name} is a member already.")
        if Member.objects.filter(club=club, name_key=guest.name_key).exists():
            raise RuleError(f"“{guest.name}” is already on the roster: a member is one person, by one name.")
        member = Member.objects.create(club=club, name=guest.name, pack=guest.pack, contact=guest.contact)
        sub_guests = Guest.objects.filter(evening__club_evening__club=club, name_key=guest.name_key)
        ClubGuest.objects.filter(club=club, guest__in=sub_guests, member__isnull=True).update(member=member)
        linked = set(ClubGuest.objects.filter(guest__in=sub_guests).values_list("guest_id", flat=True))
        ClubGuest.objects.bulk_create(
            [
                ClubGuest(club=club, guest_id=g, member=member)
                for g in sub_guests.values_list("pk", flat=True)
                if g not in linked
            ]
        )
        club_touch(club.pk)
    return member


def evening_club_set(*, evening: Evening, club: Club | None) -> Evening:
    """Make ``evening`` one of ``club``'s (None: no club's), its guests linked to the members of
    their names and the others subs. Refused (``RuleError``) once the evening has had its draw
    when it would leave the club it is in (its nights count in that club's season), for another
    host's club, and for an evening of another format than the club's."""
    with transaction.atomic():
        if club is not None:
            _club_locked(club)
            if club.host_id != evening.host_id:
                raise RuleError("This club is another host's.")
            if club.format != evening.format:
                raise RuleError(
                    f"{club.name} plays {format_named(club.format).title}: “{evening.name}” plays "
                    f"{format_named(evening.format).title}."
                )
        now = ClubEvening.objects.select_related("club").filter(evening=evening).first()
        if now is not None and (club is None or now.club_id != club.pk):
            if Draw.objects.filter(evening=evening).exists():
                target = f"to {club.name}" if club is not None else "out of it"
                raise RuleError(
                    f"“{evening.name}” has had its draw as an evening of {now.club.name}: its guests' nights count "
                    f"in that club's season, so it cannot move {target}."
                )
            ClubGuest.objects.filter(guest__evening=evening).delete()
            now.delete()
            club_touch(now.club_id)
        if club is not None and (now is None or now.club_id != club.pk):
            ClubEvening.objects.create(club=club, evening=evening)
            members = {m.name_key: m for m in Member.objects.filter(club=club)}
            ClubGuest.objects.bulk_create(
                [ClubGuest(club=club, guest=g, member=members.get(g.name_key)) for g in evening.guests.all()]
            )
            club_touch(club.pk)
    return evening


def season_open(*, club: Club, name: str, starts_on: datetime.date, ends_on: datetime.date | None = None) -> Season:
    """A new season of ``club``: its evenings dated ``starts_on`` to ``ends_on`` (None: until the
    host closes it). Raises ``RuleError`` (``tables.seasons.season_dates_refused``) for an end
    before the start or days shared with another season of the club, naming it."""
    name = " ".join((name or "").split()) or f"Season of {starts_on:%Y}"
    with transaction.atomic():
        _club_locked(club)
        others = [(s.name, s.starts_on, s.ends_on) for s in Season.objects.filter(club=club)]
        refused = season_dates_refused(starts_on, ends_on, others)
        if refused:
            raise RuleError(refused)
        club_touch(club.pk)
        return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)


def season_close(*, season: Season, on: datetime.date) -> Season:
    """Close ``season`` on ``on`` (its last day). Raises ``RuleError`` for a day before it starts
    or one that would make it overlap another season (as ``season_open``)."""
    with transaction.atomic():
        _club_locked(season.club)
        others = [
            (s.name, s.starts_on, s.ends_on) for s in Season.objects.filter(club=season.club).exclude(pk=season.pk)
        ]
        refused = season_dates_refused(season.starts_on, on, others)
        if refused:
            raise RuleError(refused)
        Season.objects.filter(pk=season.pk).update(ends_on=on)
        club_touch(season.club_id)
        season.ends_on = on
    return season
