"""Settings for ``bench/bench_phones.py``'s gunicorn server: the project's settings, production
style (DEBUG off), with a bare view added (``phones_urls``) and the cache chosen by
``BENCH_CACHE``: "redis" (``django_redis.cache.RedisCache`` at ``BENCH_REDIS_URL``, shared by
every process: the production setting), "django-cache" (Django's own
``django.core.cache.backends.redis.RedisCache`` there, for comparison) or "locmem" (Django's
default, one cache per process)."""

import os

os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-" + "x" * 40)

from tournament.settings import *  # noqa: E402,F403

ROOT_URLCONF = "phones_urls"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
_BACKENDS = {"redis": "django_redis.cache.RedisCache", "django-cache": "django.core.cache.backends.redis.RedisCache"}
if os.environ.get("BENCH_CACHE", "redis") in _BACKENDS:
    CACHES = {
        "default": {
            "BACKEND": _BACKENDS[os.environ.get("BENCH_CACHE", "redis")],
            "LOCATION": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14"),
            "KEY_PREFIX": "htbench",
            # production's blocking pool (tournament/settings.py) for django-redis only
            **({"OPTIONS": REDIS_CACHE_OPTIONS} if os.environ.get("BENCH_CACHE", "redis") == "redis" else {}),  # noqa: F405
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
