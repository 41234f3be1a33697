"""Django admin for every model (the host's escape hatch; the host pages are the main way in)."""

from django.contrib import admin

from tournament import models


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


@admin.register(models.Draw)
class DrawAdmin(admin.ModelAdmin):
    list_display = ["evening", "kind", "complete", "created_at", "superseded_at"]


@admin.register(models.DrawnCard)
class DrawnCardAdmin(admin.ModelAdmin):
    list_display = ["draw", "guest", "pack", "rank"]


@admin.register(models.Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["evening", "guest", "table"]


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["evening", "number", "state", "started_at", "deadline", "clock_version"]


@admin.register(models.Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "pool_winner", "created_at", "superseded_at"]


class BellEntryInline(admin.TabularInline):
    model = models.BellEntry
    extra = 0


@admin.register(models.Bell)
class BellAdmin(admin.ModelAdmin):
    list_display = ["round", "cause", "rung_at", "undone_at"]
    inlines = [BellEntryInline]


@admin.register(models.BellEntry)
class BellEntryAdmin(admin.ModelAdmin):
    list_display = ["bell", "kind", "guest", "from_table", "to_table", "amount"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "evening", "action", "user", "guest"]
    list_filter = ["action"]


@admin.register(models.ResultVote)
class ResultVoteAdmin(admin.ModelAdmin):
    list_display = ["result", "guest", "verdict", "at"]
