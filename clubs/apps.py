"""The clubs app's configuration."""

from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Registers the clubs app (a club, its members, its evenings and seasons)."""

    name = "clubs"
    verbose_name = "Clubs"
