"""What a host does to a club's kitty, each in one transaction (all or nothing): set the club's
currency and a season's dues, set an evening's entry fee and payouts, settle an evening.

The money arithmetic is ``tables.kitty`` (pure, whole cents); this module loads the evening
(who played, the prizes and their winners as the format awarded them, the money at the tables
as the format counts it: ``FormatPlugin.kitty_prizes``, ``season_tallies``, ``standings``,
``table_money``), calls it, and saves the sheet's lines as ``KittyEntry`` rows. Every refusal
is a ``tables.errors.RuleError`` in the host's words; nothing is saved then. House rules:
``docs/clubs.md``, "The kitty".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, ClubEvening, KittyEntry, Member, Season, club_touch
from tables.errors import RuleError
from tables.kitty import Award, KittyRules, KittySheet, Payout, kitty_refused, kitty_settle, parse_money, parse_share
from tournament.models import Evening, Guest
from tournament.registry import format_for

SETTLED = "“{name}” is settled already: its settlement sheet is kept as it was paid."


def payouts_from_json(data: object) -> tuple[Payout, ...]:
    """The payouts stored on a club evening (``ClubEvening.payouts``: a list of {prize, title,
    cents | share}); anything else reads as no payout."""
    if not isinstance(data, list):
        return ()
    return tuple(
        Payout(str(p["prize"]), str(p["title"]), p.get("cents"), p.get("share"))
        for p in data
        if isinstance(p, dict) and "prize" in p
    )


def payouts_to_json(payouts: Sequence[Payout]) -> list[dict]:
    """``payouts`` as ``ClubEvening.payouts`` stores them."""
    return [{"prize": p.prize, "title": p.title, "cents": p.cents, "share": p.share} for p in payouts]


def kitty_rules(link: ClubEvening) -> KittyRules:
    """The club evening's kitty as ``tables.kitty`` takes it."""
    return KittyRules(link.fee_cents, payouts_from_json(link.payouts))


def parse_payouts(text: str, prizes: Sequence[tuple[str, str]]) -> tuple[Payout, ...]:
    """Read the payouts a host typed, one a line: "prize, amount or share" ("Most buncos, 40 %",
    "Booby prize, 5.00"); the prize by its title or the start of it, as the format gives its
    ``prizes`` (key, title). Raises ``RuleError`` naming every bad line."""
    problems: list[str] = []
    payouts: list[Payout] = []
    for number, line in enumerate((text or "").splitlines(), 1):
        if not line.strip():
            continue
        name, _, value = line.rpartition(",")
        key = _prize_named(name, prizes)
        if key is None:
            titles = "; ".join(title for _, title in prizes)
            problems.append(
                f"Line {number}: “{name.strip() or line.strip()}” is not one of tonight's prizes ({titles})."
            )
            continue
        title = dict(prizes)[key]
        try:
            if "%" in value:
                payouts.append(Payout(key, title, share=parse_share(value, what=f"Line {number}: the share")))
            else:
                payouts.append(Payout(key, title, cents=parse_money(value, what=f"Line {number}: the amount")))
        except RuleError as error:
            problems.append(str(error))
    if problems:
        raise RuleError(" ".join(problems))
    return tuple(payouts)


def _prize_named(name: str, prizes: Sequence[tuple[str, str]]) -> str | None:
    """The key of the prize ``name`` names (its key, or its title or the start of it, case
    ignored), or None."""
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        return None
    for key, title in prizes:
        if wanted in (key.casefold(), title.casefold()):
            return key
    starts = [key for key, title in prizes if title.casefold().startswith(wanted)]
    return starts[0] if len(starts) == 1 else None


def _link_locked(evening: Evening) -> ClubEvening:
    """The evening's club link, locked for the caller's transaction. Raises ``RuleError`` for
    an evening of no club."""
    link = ClubEvening.objects.select_for_update().select_related("club").filter(evening=evening).first()
    if link is None:
        raise RuleError(f"“{evening.name}” is not a club's evening: it keeps no kitty.")
    return link


def kitty_set(*, evening: Evening, fee: int, payouts: Sequence[Payout]) -> ClubEvening:
    """Set the club evening's entry fee (``fee`` cents) and ``payouts``. Raises ``RuleError``
    (``tables.kitty.kitty_refused``) for a negative fee, shares over 100 %, payouts adding up to
    more than the pot of tonight's guests (each paying the fee), a prize the evening does not
    give, or an evening settled already."""
    with transaction.atomic():
        link = _link_locked(evening)
        if link.settled_at is not None:
            raise RuleError(SETTLED.format(name=evening.name))
        known = {key for key, _ in format_for(evening).kitty_prizes(evening)}
        unknown = [p.title for p in payouts if p.prize not in known]
        if unknown:
            raise RuleError(f"{', '.join(unknown)}: not a prize of this evening.")
        pot = fee * Guest.objects.filter(evening=evening).count()
        refused = kitty_refused(KittyRules(fee, tuple(payouts)), pot=pot)
        if refused:
            raise RuleError(refused)
        link.fee_cents, link.payouts = fee, payouts_to_json(payouts)
        link.save(update_fields=["fee_cents", "payouts"])
        club_touch(link.club_id)
    return link


def club_money_set(*, club: Club, currency: str) -> Club:
    """Set the club's one currency (three letters, "USD"). Raises ``RuleError`` for anything
    else, and once an evening of the club is settled (house rule: its sums are in that money)."""
    code = (currency or "").strip().upper()
    if len(code) != 3 or not code.isalpha() or not code.isascii():
        raise RuleError(f"“{currency}” is not a currency: give its three letters (USD, EUR, GBP).")
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        if code != club.currency and ClubEvening.objects.filter(club=club, settled_at__isnull=False).exists():
            raise RuleError(f"{club.name} has settled evenings in {club.currency}: its currency stays.")
        Club.objects.filter(pk=club.pk).update(currency=code)
        club_touch(club.pk)
    club.currency = code
    return club


def season_dues_set(*, season: Season, dues: int) -> Season:
    """Set each member's dues for ``season`` (cents). Raises ``RuleError`` for negative dues and
    once an evening of the season is settled (house rule: dues are charged at a member's first
    settled evening, so they stay as they were charged)."""
    if dues < 0:
        raise RuleError("Season dues cannot be negative.")
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=season.club_id)
        if ClubEvening.objects.filter(evening__in=season_evenings_query(season), settled_at__isnull=False).exists():
            raise RuleError(f"An evening of “{season.name}” is settled: its dues stay as they were charged.")
        Season.objects.filter(pk=season.pk).update(dues_cents=dues)
        club_touch(season.club_id)
    season.dues_cents = dues
    return season


def season_evenings_query(season: Season):
    """The club's evenings dated within ``season`` (both ends included), as a query."""
    evenings = Evening.objects.filter(club_evening__club_id=season.club_id, date__gte=season.starts_on)
    return evenings.filter(date__lte=season.ends_on) if season.ends_on is not None else evenings


def season_of(evening: Evening, club: Club) -> Season | None:
    """The season of ``club`` the evening's date falls in, or None. One query."""
    for season in Season.objects.filter(club=club, starts_on__lte=evening.date):
        if season.ends_on is None or evening.date <= season.ends_on:
            return season
    return None


@dataclass(frozen=True)
class EveningKitty:
    """An evening's settlement as computed (not saved): the sheet (persons are guest ids as
    text), each guest by id, and the member each guest is (guest id -> member, or absent: a sub)."""

    sheet: KittySheet
    guests: dict[int, Guest]
    members: dict[int, Member]


def evening_kitty(link: ClubEvening) -> EveningKitty:
    """The club evening's settlement sheet as it would be settled now (``tables.kitty.kitty_settle``):
    who played pays the fee, the prizes pay their winners as the format awarded them, the
    members' season dues at their first settled evening of the season, the money at the tables.
    Raises ``RuleError`` for a bad kitty, payouts over the pot, or table money the pot cannot pay."""
    evening, club = link.evening, link.club
    plugin = format_for(evening)
    played = plugin.season_tallies([evening]).get(evening.pk, {})
    guests = {g.pk: g for g in Guest.objects.filter(evening=evening).select_related("club_guest")}
    members = _members_of(club, guests)
    awards = [
        Award(p.prize.key, p.title, tuple(str(g.pk) for g in p.winners)) for p in plugin.standings(evening).prizes
    ]
    table = {str(g): c for g, c in plugin.table_money(evening).items()}
    sheet = kitty_settle(
        kitty_rules(link),
        players=[str(g) for g in guests if g in played],
        awards=awards,
        dues=_dues(link, [g for g in guests if g in played], members),
        table=table,
        currency=club.currency,
        table_words=plugin.table_money_words,
    )
    return EveningKitty(sheet, guests, members)


def _members_of(club: Club, guests: dict[int, Guest]) -> dict[int, Member]:
    """Guest id -> the member they are: linked, or a member of their name (``clubs.selectors``,
    "who is who"); a sub is left out. One query."""
    roster = list(Member.objects.filter(club=club))
    by_pk = {m.pk: m for m in roster}
    by_name = {m.name_key: m for m in roster}
    members = {}
    for pk, guest in guests.items():
        link = getattr(guest, "club_guest", None)
        member = by_pk.get(link.member_id) if link is not None and link.member_id else by_name.get(guest.name_key)
        if member is not None:
            members[pk] = member
    return members


def _dues(link: ClubEvening, played: Sequence[int], members: dict[int, Member]) -> dict[str, int]:
    """Guest id (text) -> the season dues they pay tonight: a member who played, in a season
    with dues, at their first settled evening of it (house rule)."""
    season = season_of(link.evening, link.club)
    if season is None or not season.dues_cents:
        return {}
    paid = set(
        KittyEntry.objects.filter(
            kind="dues", club_evening__evening__in=season_evenings_query(season), member__isnull=False
        ).values_list("member_id", flat=True)
    )
    return {str(g): season.dues_cents for g in played if g in members and members[g].pk not in paid}


def evening_settle(*, evening: Evening) -> KittySheet:
    """Settle the club evening: its settlement sheet (``evening_kitty``) saved as ``KittyEntry``
    rows, once. Raises ``RuleError`` for an evening of no club, one not ended yet (house rule:
    the prizes are final only then), one settled already, and as ``evening_kitty`` does."""
    with transaction.atomic():
        link = _link_locked(evening)
        if link.settled_at is not None:
            raise RuleError(SETTLED.format(name=evening.name))
        if link.evening.stage != Evening.Stage.ENDED:
            raise RuleError(f"“{evening.name}” has not ended: settle it once its prizes are final.")
        kitty = evening_kitty(link)
        rows = []
        for entry in kitty.sheet.entries:
            guest = kitty.guests.get(int(entry.person)) if entry.person else None
            member = kitty.members.get(guest.pk) if guest is not None else None
            rows.append(
                KittyEntry(
                    club_evening=link,
                    guest=guest,
                    member=member,
                    name=member.name if member is not None else (guest.name if guest is not None else ""),
                    kind=entry.kind,
                    words=entry.words,
                    cents=entry.cents,
                    paid_in=entry.paid_in,
                )
            )
        KittyEntry.objects.bulk_create(rows)
        link.settled_at = timezone.now()
        link.save(update_fields=["settled_at"])
        club_touch(link.club_id)
    return kitty.sheet


def kitty_money_set(*, season: Season, currency: str, dues: int) -> Season:
    """Set the club's currency and ``season``'s dues together, all or nothing (``club_money_set``,
    ``season_dues_set``: their refusals)."""
    with transaction.atomic():
        club_money_set(club=season.club, currency=currency)
        return season_dues_set(season=season, dues=dues)
