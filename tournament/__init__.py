"""The Django side of Head Table: models, services, views, printing and the Celery clock.

It loads what happened from the database, asks ``tables/`` what the rules say, and saves the
outcome in one transaction. The Celery app is imported here so that ``@shared_task`` binds to it.
"""

from tournament.celery import app as celery_app

__all__ = ["celery_app"]
