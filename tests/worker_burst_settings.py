"""Settings for the worker tests/test_worker_burst.py starts: the test settings, with the
broker's folder looked at every 2 ms when it was empty instead of every second (kombu's
``polling_interval``), so that in a burst the worker lists the folder while other processes
are writing into it as often as a long evening's worth of polls would."""

from tournament.settings_test import *  # noqa: F401,F403
from tournament.settings_test import CELERY_BROKER_TRANSPORT_OPTIONS

CELERY_BROKER_TRANSPORT_OPTIONS = {**CELERY_BROKER_TRANSPORT_OPTIONS, "polling_interval": 0.002}
