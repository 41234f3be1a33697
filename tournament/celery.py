"""The Celery app that rings timed bells.

Broker: ``CELERY_BROKER_URL`` (or ``REDIS_URL``); without either, Celery's filesystem broker in
``var/celery/`` so that ``make run`` needs no server. Tasks are thin: they take ids, re-fetch,
check that the state they were scheduled for still holds, then call a service.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("headtable")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
