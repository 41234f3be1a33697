"""The tournament app's configuration."""

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    """Registers the tournament app (models, admin, commands, tasks)."""

    name = "tournament"
    verbose_name = "Head Table"

    def ready(self) -> None:
        """Connect the signal receivers (auto-advance after a bell lives in services.clock) and keep
        private keys out of Django's loggers (``tournament.private_logs``)."""
        import tournament.services.clock  # noqa: F401
        from tournament import private_logs

        private_logs.install()
