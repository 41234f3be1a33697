"""The shared cache's Redis connections under a burst: a request that finds every connection of
its process busy waits for one instead of failing (redis-py's own pool raised "Too many
connections" at its 101st, and 500 phones refetching their page after a bell under ASGI, a
thread per request, got a 500). The settings' options are the ones production uses."""

from __future__ import annotations

import os
import threading

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings
from django_redis import get_redis_connection

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def small_pool():
    """The production cache settings on a test Redis, with a pool of two connections."""
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.ConnectionError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    options = {**settings.REDIS_CACHE_OPTIONS}
    options["CONNECTION_POOL_KWARGS"] = {**options["CONNECTION_POOL_KWARGS"], "max_connections": 2}
    shared = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"test-pool-{os.getpid()}",
            "OPTIONS": options,
        }
    }
    with override_settings(CACHES=shared):
        cache = caches["default"]
        yield cache
        cache.clear()


def test_a_request_waits_for_a_busy_connection_instead_of_failing(small_pool):
    small_pool.set("seen", 7)
    pool = get_redis_connection("default").connection_pool
    busy = [pool.get_connection(), pool.get_connection()]  # every connection of the process in use
    answers, errors = [], []

    def read() -> None:
        try:
            answers.append(small_pool.get("seen"))
        except Exception as error:  # noqa: BLE001 - any error is the fault under test
            errors.append(error)

    reader = threading.Thread(target=read)
    try:
        reader.start()
        reader.join(timeout=0.3)
        assert reader.is_alive(), "the read should wait while every connection is busy"
        pool.release(busy.pop())
        reader.join(timeout=5)
        assert not reader.is_alive()
        assert errors == [] and answers == [7]
    finally:
        for connection in busy:
            pool.release(connection)


def test_a_burst_of_threads_larger_than_the_pool_all_get_their_answer(small_pool):
    small_pool.set_many({f"k{i}": i for i in range(40)})
    answers, errors = {}, []

    def read(i: int) -> None:
        try:
            answers[i] = small_pool.get(f"k{i}")
        except Exception as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=read, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert errors == []
    assert answers == {i: i for i in range(40)}
