"""The tournament app's configuration."""

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    """Registers the tournament app (models, admin, commands, tasks)."""

    name = "tournament"
    verbose_name = "Head Table"
