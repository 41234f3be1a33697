"""Django admin for every model (the host's escape hatch; the host pages are the main way in).

Deleting is as safe here as on the host's pages (issue 12 item 3): a guest whom the evening's
history refers to is listed as protected, with the reason and "mark them as left instead", and
nothing is deleted; the history itself (draws, cards, seats, rounds, results, votes, bells,
their entries, the audit log) has no delete at all (undo and corrections mark rows undone or
superseded instead). Deleting a whole evening deletes all of it.
"""

from django.contrib import admin

from tournament import models
from tournament.services.history import guest_history


class HistoryAdmin(admin.ModelAdmin):
    """An admin for rows of the evening's history: they are read and edited, never deleted."""

    def has_delete_permission(self, request, obj=None) -> bool:
        """Always False: history rows stay (see the module docstring)."""
        return False


@admin.register(models.Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "host", "game", "stage", "version"]
    list_filter = ["stage", "game"]
    search_fields = ["name"]


@admin.register(models.Guest)
class GuestAdmin(admin.ModelAdmin):
    list_display = ["name", "evening", "pack", "status"]
    list_filter = ["status", "pack"]
    search_fields = ["name"]
    exclude = ["key"]

    def get_deleted_objects(self, objs, request):
        """Django's list of what a delete would remove, with every guest whom history refers to
        added to the protected list (so the admin refuses the whole delete and says why)."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        refused = [
            f"{guest.name}: they {', '.join(reasons)}. Mark them as left instead."
            for guest in objs
            if (reasons := guest_history(guest))
        ]
        if refused:  # say why in words (Django would list the history rows' types as "no permission")
            return deleted, counts, set(), refused
        return deleted, counts, perms_needed, protected


@admin.register(models.Draw)
class DrawAdmin(HistoryAdmin):
    list_display = ["evening", "kind", "complete", "created_at", "superseded_at"]


@admin.register(models.DrawnCard)
class DrawnCardAdmin(HistoryAdmin):
    list_display = ["draw", "guest", "pack", "rank"]


@admin.register(models.Seat)
class SeatAdmin(HistoryAdmin):
    list_display = ["evening", "guest", "table"]


@admin.register(models.Round)
class RoundAdmin(HistoryAdmin):
    list_display = ["evening", "number", "state", "started_at", "deadline", "clock_version"]


@admin.register(models.Result)
class ResultAdmin(HistoryAdmin):
    list_display = ["round", "table", "pool_winner", "created_at", "superseded_at"]


class BellEntryInline(admin.TabularInline):
    model = models.BellEntry
    extra = 0
    can_delete = False


@admin.register(models.Bell)
class BellAdmin(HistoryAdmin):
    list_display = ["round", "cause", "rung_at", "undone_at"]
    inlines = [BellEntryInline]


@admin.register(models.BellEntry)
class BellEntryAdmin(HistoryAdmin):
    list_display = ["bell", "kind", "guest", "from_table", "to_table", "amount"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(HistoryAdmin):
    list_display = ["at", "evening", "action", "user", "guest"]
    list_filter = ["action"]


@admin.register(models.ResultVote)
class ResultVoteAdmin(HistoryAdmin):
    list_display = ["result", "guest", "verdict", "at"]


@admin.register(models.FinalCount)
class FinalCountAdmin(HistoryAdmin):
    list_display = ("evening", "table", "off_by", "created_at", "superseded_at")


@admin.register(models.HelperLink)
class HelperLinkAdmin(HistoryAdmin):
    """Helpers' links (the key is not shown; revoke a link from the door page)."""

    list_display = ["evening", "number", "role", "label", "created_at", "revoked_at"]
    exclude = ["key"]


@admin.register(models.PhoneSend)
class PhoneSendAdmin(HistoryAdmin):
    list_display = ["at", "evening", "action", "guest", "words"]
    list_filter = ["action"]
