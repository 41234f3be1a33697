"""The Celery app that rings timed bells.

Broker: ``CELERY_BROKER_URL`` (or ``REDIS_URL``); without either, Celery's filesystem broker in
``var/celery/`` so that ``make run`` needs no server, with each message written whole
(``filesystem-atomic://``, registered by ``tournament.filesystem_broker``: kombu's own transport
crashed the worker when it read a message file being written). Tasks are thin: they take ids, re-fetch,
check that the state they were scheduled for still holds, then call a service.

``RequeueTimedTasks`` is a consumer bootstep: it runs each time the worker's consumer connects
to the broker (at start and after every reconnect, e.g. when Redis restarted) and queues the
timed bells again (``tournament.tasks.requeue_timed_tasks``).
"""

import logging
import os

from celery import Celery, bootsteps

import tournament.filesystem_broker  # noqa: F401  registers filesystem-atomic:// before any connection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("headtable")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class RequeueTimedTasks(bootsteps.StartStopStep):
    """Consumer bootstep: after the consumer (re)connects, queue every running round's timed
    bell again (``tournament.tasks.requeue_timed_tasks``). A worker drops the timed tasks it
    holds when its broker connection breaks; without this they would wait for the sweeper
    (up to 5 s late) or the visibility timeout. Errors are logged, never raised: the worker
    must keep running."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent) -> None:
        from tournament.tasks import requeue_timed_tasks

        try:
            requeue_timed_tasks()
        except Exception:
            logging.getLogger(__name__).exception("Could not queue the timed bells again")


app.steps["consumer"].add(RequeueTimedTasks)
