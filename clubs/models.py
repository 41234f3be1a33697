"""A club, its members, its evenings and its seasons, as rows (``docs/clubs.md``).

A club is a host's (``Club.host``, a Django user, as an evening's host). Its members are a roster
(``Member``: name in NFC, folded for duplicates as guests' are, ``tournament.name_keys``). An
evening of the club is linked by ``ClubEvening`` (one to one: an evening belongs to at most one
club) and each of its guests by ``ClubGuest``: to the member they are (one identity across every
evening) or to nobody (a sub). Nothing here changes ``tournament``'s tables: an evening outside a
club has no link and works as it always has. A member with history (a guest row linked to them)
is never deleted: ``ClubGuest.member`` is ``RESTRICT`` and the services refuse first, in words
("mark them as left the club").
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.functions import Now

from tournament.models import Evening, Guest, PackChoice, new_private_key
from tournament.name_keys import fold_name, normal_name


class Club(models.Model):
    """A host's club: its name, its usual format (``Evening.format``'s keys) and the evening form's
    settings a new evening of the club starts from (``evening_settings``: field name -> value, as
    ``tournament.forms.evening.EveningForm`` takes its initial values), how its seasons rank
    (``season_order``: one of the format's ``SeasonRules.orders``; blank: the format's default),
    and whether subs are shown in the season standings (house rule: shown, winning no prize)."""

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="clubs")
    name = models.CharField(max_length=120)
    format = models.CharField(max_length=30)
    evening_settings = models.JSONField(default=dict, blank=True)
    season_order = models.CharField(max_length=30, blank=True)
    subs_shown = models.BooleanField(default=True)
    created_at = models.DateTimeField(db_default=Now())
    currency = models.CharField(max_length=3, default="USD")  # the kitty's one currency (ISO 4217)
    # Grows by one with every change the clubs app makes to the club, its roster, its evenings'
    # links and kitties or its seasons (``club_touch``): with its seasons' evenings' own versions
    # it is the key its seasons' standings and ledgers are kept under (``clubs.versions``).
    version = models.PositiveBigIntegerField(default=1)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


def club_touch(club_id: int) -> None:
    """Bump the club's ``version`` by one (in the database), so that every season of the club is
    read again rather than answered from what was kept (``clubs.versions``). Call it inside the
    service's transaction, with every change the clubs app makes to what a season's standings,
    ledger or calendar read: the roster, the club's settings and currency, an evening's club
    link, guests' member links, kitty and settlement, a season's dates and dues. Raises nothing."""
    Club.objects.filter(pk=club_id).update(version=F("version") + 1)


class Member(models.Model):
    """One of the club's regulars: name (NFC; ``name_key`` folded, unique in the club), pack
    (red or blue), an optional e-mail or phone, and the day they left the club (None: a member
    now). A member who left keeps their history and their past seasons' lines."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=120)
    name_key = models.CharField(max_length=120, editable=False)
    pack = models.CharField(max_length=4, choices=PackChoice.choices)
    contact = models.CharField(max_length=200, blank=True)
    left_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["name_key", "id"]
        constraints = [models.UniqueConstraint(fields=["club", "name_key"], name="member_name_unique_per_club")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name = normal_name(self.name)
        self.name_key = fold_name(self.name)
        super().save(*args, **kwargs)


class ClubEvening(models.Model):
    """An evening of the club (one to one: an evening is in at most one club), and its kitty
    (``docs/clubs.md``, "The kitty"): the entry fee in cents, the payouts (``tables.kitty.Payout``
    as JSON: prize, title, cents or share), and when it was settled (None: not yet; its
    ``KittyEntry`` rows are the settlement sheet)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="club_evenings")
    evening = models.OneToOneField(Evening, on_delete=models.CASCADE, related_name="club_evening")
    fee_cents = models.PositiveIntegerField(default=0)
    payouts = models.JSONField(default=list, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    # The season's calendar (``docs/clubs.md``, "The calendar"): where, from what time (the site's
    # time zone, ``settings.TIME_ZONE``) and at which member's the evening is.
    place = models.CharField(max_length=200, blank=True)
    starts_at = models.TimeField(default=datetime.time(19, 0))
    host_member = models.ForeignKey(
        "Member", on_delete=models.SET_NULL, null=True, blank=True, related_name="evenings_hosted"
    )

    def __str__(self) -> str:
        return f"{self.evening} ({self.club})"


class ClubGuest(models.Model):
    """A guest of a club's evening: the member they are, or None for a sub (a guest who is not a
    member). A guest of a club evening with no row is a sub too (added at the door)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="club_guests")
    guest = models.OneToOneField(Guest, on_delete=models.CASCADE, related_name="club_guest")
    member = models.ForeignKey(Member, on_delete=models.RESTRICT, null=True, blank=True, related_name="guests")

    def __str__(self) -> str:
        return f"{self.guest} ({'sub' if self.member_id is None else 'member'})"


class Season(models.Model):
    """A run of the club's evenings: the evenings dated ``starts_on`` to ``ends_on`` (both
    included; None: until the host closes it). Two seasons of a club share no day
    (``tables.seasons.season_dates_refused``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(db_default=Now())
    dues_cents = models.PositiveIntegerField(default=0)  # each member's season dues (the kitty)
    # The season ceremony (``docs/clubs.md``, "The season ceremony"): how many steps the host has
    # revealed (None: not begun; one per prize, then the final standings), and the room display's
    # private key (``/m/<room_key>/room/``: 192 random bits, as a guest's key).
    ceremony_step = models.PositiveSmallIntegerField(null=True, blank=True)
    room_key = models.CharField(max_length=43, unique=True, default=new_private_key, editable=False)

    class Meta:
        ordering = ["-starts_on", "id"]

    def __str__(self) -> str:
        return self.name


class KittyEntry(models.Model):
    """One line of a settled evening's settlement sheet (``tables.kitty.Entry``): who (the guest
    and the member they are; none: the season pot), what for in words, the cents (0 or more),
    and whether it was collected (``paid_in``) or, for ``kind`` "carried", carried to the
    season pot (else paid out). Written once, when the host settles the evening."""

    club_evening = models.ForeignKey(ClubEvening, on_delete=models.CASCADE, related_name="kitty_entries")
    guest = models.ForeignKey(Guest, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    member = models.ForeignKey(Member, on_delete=models.RESTRICT, null=True, blank=True, related_name="kitty_entries")
    name = models.CharField(max_length=120, blank=True)
    kind = models.CharField(max_length=10)
    words = models.CharField(max_length=200)
    cents = models.PositiveIntegerField()
    paid_in = models.BooleanField(default=False)

    class Meta:
        ordering = ["club_evening", "id"]

    def __str__(self) -> str:
        return f"{self.name or 'season pot'}: {self.words}"


class MemberLink(models.Model):
    """A member's private link for one season (``/m/<key>/``: their page and their calendar
    feed, ``docs/clubs.md``, "A member's page"). ``key`` is 192 random bits as a guest's is
    (``tournament.models.new_private_key``); one link per member and season; reissuing it (a new
    key) kills the old one."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="links")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="member_links")
    key = models.CharField(max_length=43, unique=True, default=new_private_key, editable=False)
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        constraints = [models.UniqueConstraint(fields=["member", "season"], name="member_link_one_per_season")]

    def __str__(self) -> str:
        return f"{self.member} ({self.season})"
