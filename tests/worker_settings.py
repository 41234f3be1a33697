"""Settings for a worker started by tests/test_worker.py's visibility-timeout test: the test
settings, with Redis' sweep for unacknowledged messages run every second instead of every
100 s (kombu's default ``unacked_restore_interval`` 10 s x ``unacked_restore_throttle`` 10),
so that a 5 s ``visibility_timeout`` really hands the waiting bell task out again and again
during a 20 s round."""

from tournament.settings_test import *  # noqa: F401,F403
from tournament.settings_test import CELERY_BROKER_TRANSPORT_OPTIONS

CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
