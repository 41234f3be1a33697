"""Benchmark: a phone's unchanged poll (304) in process, against a bare Django view in the same
run, with each cache backend.

Builds one evening of ``--guests`` checked-in guests (drawn, round 1 rung, round 2 running) in a
throwaway database (SQLite, or ``--database-url``), then calls Django's WSGI handler directly
(what gunicorn calls, without the network) with a prebuilt request, three ways:

* **bare**: ``/bench/bare/`` (``bench/phones_urls.py``), every middleware and a view that
  returns two bytes, touching neither the database nor the cache;
* **poll**: a guest's ``/g/<key>/`` as htmx polls it (``HX-Request``, ``If-None-Match`` with the
  page's ETag), answered 304;
* queries per 304, counted with ``connection.execute_wrapper`` (no cap).

Each cache backend (``--caches``, each the ``default`` cache in turn, one Redis database
``--redis`` flushed first): ``django`` (Django's own ``RedisCache``), ``django-redis``
(``django_redis.cache.RedisCache``) and ``locmem`` (per process). The ways are interleaved
(bare, then each backend's poll, ``--repeat`` rounds of ``--requests`` requests each) and the
best round of each is kept, so a change in the machine's load falls on all alike.

Run: ``.venv/bin/python bench/bench_poll.py [--guests 500] [--repeat 7] [--requests 2000]
[--database-url URL] [--redis URL]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_django import bench_database  # noqa: E402  (sets Django's settings up)
from ratios import report  # noqa: E402

BACKENDS = {
    "django": "django.core.cache.backends.redis.RedisCache",
    "django-redis": "django_redis.cache.RedisCache",
    "locmem": "django.core.cache.backends.locmem.LocMemCache",
}


def environ(path: str, headers: dict[str, str]) -> dict:
    """A WSGI environ for a GET of ``path`` on 127.0.0.1 with ``headers`` (CGI names)."""
    import io

    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **headers,
    }


class Server:
    """Django's WSGI handler, called directly; counts the SQL queries of every request."""

    def __init__(self) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.handler = WSGIHandler()
        self.queries = 0
        self.status = ""
        self.headers: list[tuple[str, str]] = []

    def _start(self, status: str, headers: list[tuple[str, str]], exc_info=None) -> None:
        self.status, self.headers = status, headers

    def _count(self, execute, sql, params, many, context):
        self.queries += 1
        return execute(sql, params, many, context)

    def get(self, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        """(status, body) of one GET."""
        from django.db import connection

        with connection.execute_wrapper(self._count):
            body = b"".join(self.handler(environ(path, headers), self._start))
        return int(self.status.split()[0]), body

    def header(self, name: str) -> str:
        return next(v for k, v in self.headers if k.lower() == name.lower())


def use_cache(name: str, redis_url: str):
    """Make ``name`` (a key of BACKENDS) the default cache of this thread; returns it."""
    from django.conf import settings
    from django.core.cache import caches
    from django.utils.module_loading import import_string

    backend = import_string(BACKENDS[name])
    params = {"KEY_PREFIX": "htbenchpoll", "OPTIONS": {"MAX_ENTRIES": 100_000} if name == "locmem" else {}}
    cache = backend("" if name == "locmem" else redis_url, params)
    caches["default"] = cache
    settings.CACHES = {"default": {"BACKEND": BACKENDS[name], "LOCATION": redis_url, **params}}
    return cache


def main() -> None:
    """Print requests per second of the bare view and of each backend's 304, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13", help="a Redis database (flushed)")
    parser.add_argument("--caches", default=",".join(BACKENDS), help="backends to compare, comma-separated")
    parser.add_argument("--profile", action="store_true", help="profile the first backend's 304s")
    args = parser.parse_args()
    if "127.0.0.1" not in args.redis and "localhost" not in args.redis:
        parser.error("only a loopback Redis")
    names = args.caches.split(",")
    with bench_database(args.database_url):
        import redis
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.urls import clear_url_caches

        from tests.fixtures_room import played_evening

        redis.Redis.from_url(args.redis).flushdb()
        settings.ROOT_URLCONF = "phones_urls"
        settings.ALLOWED_HOSTS = ["127.0.0.1"]
        settings.DEBUG = False
        clear_url_caches()
        host = get_user_model().objects.create_user("bench-host", password="pass-word-123")
        evening = played_evening(host, args.guests)
        keys = list(evening.guests.order_by("pk").values_list("key", flat=True))
        server = Server()
        etags = {}
        for name in names:  # each backend's cache warmed, and every phone's ETag read
            use_cache(name, args.redis)
            for key in keys:
                status, _ = server.get(f"/g/{key}/", {"HTTP_HX_REQUEST": "true"})
                assert status == 200, status
                etags[key] = server.header("ETag")
        polls = [(f"/g/{key}/", {"HTTP_HX_REQUEST": "true", "HTTP_IF_NONE_MATCH": etags[key]}) for key in keys]
        ways = ["bare", *names]
        best = dict.fromkeys(ways, float("inf"))
        queries = dict.fromkeys(names, 0)
        for _ in range(args.repeat):
            for way in ways:
                if way != "bare":
                    use_cache(way, args.redis)
                server.queries = 0
                start = time.perf_counter()
                for i in range(args.requests):
                    if way == "bare":
                        status, _ = server.get("/bench/bare/", {})
                        assert status == 200
                    else:
                        path, headers = polls[i % len(polls)]
                        status, body = server.get(path, headers)
                        assert status == 304 and not body, status
                best[way] = min(best[way], time.perf_counter() - start)
                if way != "bare":
                    queries[way] = max(queries[way], server.queries)
        if args.profile:
            import cProfile
            import pstats

            use_cache(names[0], args.redis)
            profile = cProfile.Profile()
            profile.enable()
            for path, headers in polls:
                server.get(path, headers)
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        print(f"unchanged poll (304) at {args.guests} guests, in process, best of {args.repeat} x {args.requests}")
        bare = args.requests / best["bare"]
        print(f"  {'bare Django view':28} {bare:8.0f} req/s  {1e6 / bare:7.1f} µs")
        for name in names:
            rate = args.requests / best[name]
            print(
                f"  {'304, ' + name:28} {rate:8.0f} req/s  {1e6 / rate:7.1f} µs  ratio to bare {rate / bare:5.2f}"
                f"  queries per 304 {queries[name] / args.requests:.3f}"
            )
            report(
                f"unchanged poll (304), {name} cache, {args.guests} guests",
                rate / bare,
                "a bare Django view (requests per second)",
                0.8,
                lower_is_better=False,
                detail=f"{queries[name] / args.requests:.3f} queries per 304",
            )


if __name__ == "__main__":
    main()
