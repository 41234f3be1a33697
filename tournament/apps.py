"""The tournament app's configuration."""

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    """Registers the tournament app (models, admin, commands, tasks)."""

    name = "tournament"
    verbose_name = "Head Table"

    def ready(self) -> None:
        """Connect the signal receivers (``tournament.signals``: auto-advance after a bell) and keep
        private keys out of Django's loggers (``tournament.private_logs``)."""
        from tournament import private_logs, signals  # noqa: F401 (importing connects the receivers)

        private_logs.install()
