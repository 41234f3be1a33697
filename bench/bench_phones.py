"""Benchmark: every guest's phone polling the guest page, against gunicorn on PostgreSQL, with a
bell every 2 minutes (at least one bell whatever the duration), compared with a bare Django view
on the same server in the same run.

What it does (all traffic on 127.0.0.1, everything bounded in count and time):

1. Creates a throwaway PostgreSQL database (``--pg``, default ``postgres://postgres@127.0.0.1:5432``)
   and migrates it; builds an evening of ``--phones`` checked-in guests, draws it, starts round 1.
2. Starts gunicorn (``--workers`` processes x ``--threads`` threads, gthread, keep-alive) serving
   the site plus ``/bench/bare/`` (``bench/phones_urls.py``); every response carries the number of
   SQL queries it ran (``bench/phones_wsgi.py``). Cache: ``--cache redis`` (django-redis, shared, the
   production setting), ``django-cache`` (Django's own ``RedisCache``, for comparison) or ``locmem``
   (Django's default, per process).
3. Saturation (``--concurrency`` keep-alive connections, back to back), interleaved: the bare
   view, an unchanged guest poll (304), a changed guest poll (full partial, 200), then again,
   ``--saturate-rounds`` rounds of ``--saturate`` seconds each, the best rate of each kept.
   Throughput ratios are against the bare view (``bench/ratios.py``; goal for the 304: >= 0.8x,
   issue 26 item 1).
4. The phones: ``--phones`` simulated phones, each with its own private link, load the page once
   and then poll it the way ``templates/guest/_page.html`` does (htmx, every ``POLL_SECONDS``,
   ``HX-Request`` and ``If-None-Match``), for ``--minutes``. Every ``--bell-minutes`` the bench
   rings a bell (the first sooner when the run is shorter, so any run of more than
   ``BELL_TAIL`` seconds rings one; none in its last ``BELL_TAIL`` seconds, the phones' time to
   see it; ``bell_offsets``): every table's result, the bell and the next round's start, in one transaction
   (``tournament.services``). Reported: errors, latency p50/p95/p99/max (304s, 200s, all), SQL
   queries per poll (measured in the server), and how long after each bell every phone had
   the new page (the issue asks for 5 s).
5. The push (``--push``, issue 26 item 2): each phone also waits on ``/g/<key>/wait/?v=N`` on a
   second connection, as ``static/live.js`` does, refetches its page the moment the wait answers
   "changed", and skips its timed poll while the push answers; the report gives, per bell, how long after the bell's commit every phone had
   the new page (p50/p95/p99/max, and how many within 1 s). ``--server asgi`` serves the site with
   gunicorn's uvicorn workers (``tournament.asgi``, what ``make party`` runs) instead of gthread
   (there the SQL queries per request are not counted).

Any failure fails the bench (exit status 1, every error printed): a bell that could not ring (its
process gets every connection setting: ``--pg``, the database, ``--cache``, ``--redis``), a
phone's request that failed or answered anything but 200/304, an error in a saturation test, or
gunicorn exiting before the end.

Run: ``.venv/bin/python bench/bench_phones.py [--phones 500] [--minutes 5] [--cache redis]``; the
push: ``... --push --server asgi --saturate 0 --minutes 1.5 --bell-minutes 0.33``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
MAX_PHONES, MAX_MINUTES, TIMEOUT = 2000, 30, 10.0
FIRST_LOAD_TIMEOUT = 60.0  # every phone opening its full page at once, on a busy machine
sys.path.insert(0, str(BENCH))

from bells import BELL_TAIL, bell_offsets  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--phones", type=int, default=500, help=f"simulated phones (at most {MAX_PHONES})")
    p.add_argument("--minutes", type=float, default=5.0, help=f"how long the phones poll (at most {MAX_MINUTES})")
    p.add_argument("--bell-minutes", type=float, default=2.0, help="a bell every this many minutes")
    p.add_argument("--cache", choices=["redis", "django-cache", "locmem"], default="redis")
    p.add_argument("--redis", default="redis://127.0.0.1:6379/14", help="the cache's Redis (db is flushed)")
    p.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server (loopback)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--saturate", type=float, default=5.0, help="seconds per saturation test and round")
    p.add_argument("--saturate-rounds", type=int, default=3, help="interleaved rounds; the best of each kept")
    p.add_argument("--concurrency", type=int, default=16, help="connections in the saturation tests")
    p.add_argument("--server", choices=["gthread", "asgi"], default="gthread", help="gunicorn's worker class")
    p.add_argument("--push", action="store_true", help="phones also wait on the push (/g/<key>/wait/)")
    p.add_argument(
        "--no-page-in-answer", action="store_true", help="the push's waits do not ask for the page in the answer"
    )
    p.add_argument("--ring", type=int, default=0, help=argparse.SUPPRESS)  # internal: ring one bell, print version
    p.add_argument("--db", default="", help=argparse.SUPPRESS)  # internal: the database --ring uses
    args = p.parse_args()
    if not (1 <= args.phones <= MAX_PHONES and 0 < args.minutes <= MAX_MINUTES):
        p.error(f"--phones 1..{MAX_PHONES}, --minutes up to {MAX_MINUTES}")
    if not args.ring and not bell_offsets(args.minutes * 60, args.bell_minutes * 60):
        p.error(f"--minutes too short for a bell: a run must last more than {BELL_TAIL:.0f} s")
    for url in (args.pg, args.redis):
        if "127.0.0.1" not in url and "localhost" not in url:
            p.error("only loopback servers: " + url)
    return args


ARGS = parse_args()
VAR = Path(os.environ["HEADTABLE_VAR_DIR"]) if ARGS.ring else Path(tempfile.mkdtemp(prefix="headtable-bench-phones-"))
DB_NAME = ARGS.db or f"headtable_bench_phones_{os.getpid()}"
ENV = {
    **os.environ,
    "HEADTABLE_VAR_DIR": str(VAR),
    "DATABASE_URL": f"{ARGS.pg}/{DB_NAME}",
    "CONN_MAX_AGE": "0" if ARGS.server == "asgi" else "60",  # under ASGI each request's thread is new
    "DB_POOL": "1" if ARGS.server == "asgi" else "0",  # ... and borrows a pooled connection (make party's)
    "DJANGO_SETTINGS_MODULE": "phones_settings",
    "BENCH_CACHE": ARGS.cache,
    "BENCH_REDIS_URL": ARGS.redis,
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-not-secret-" + "x" * 40,
    "CELERY_BROKER_URL": "",
    "REDIS_URL": "",
    "PYTHONPATH": os.pathsep.join([str(BENCH), str(ROOT)]),
    "LOG_LEVEL": "ERROR",
}
os.environ.update(ENV)
sys.path[:0] = [str(BENCH), str(ROOT)]

from ratios import report as report_ratio  # noqa: E402

# ---------------------------------------------------------------- database, evening, server


def create_database() -> None:
    import psycopg

    with psycopg.connect(f"{ARGS.pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}"')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=ENV, check=True, timeout=300
    )


def drop_database() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{ARGS.pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def build_evening():
    """An evening of ARGS.phones checked-in guests, drawn, round 1 running; returns (evening, keys)."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    from tables.packs import Pack
    from tournament.models import Evening
    from tournament.services.clock import round_start
    from tournament.services.draws import draw_digital
    from tournament.services.guests import GuestRow, guests_register

    cache.clear()
    host = get_user_model().objects.create_user("bench-host", password="bench-pass-123")
    evening = Evening.objects.create(host=host, name="Bench evening", date="2026-12-04", minutes_per_round=180)
    rows = [GuestRow(name=f"Guest {i:04d}", pack=Pack.RED if i % 2 else Pack.BLUE) for i in range(ARGS.phones)]
    guests_register(evening=evening, rows=rows, check_in=True)
    draw_digital(evening=evening, accept_relaxed=True)
    round_start(evening=evening)
    keys = list(evening.guests.order_by("pk").values_list("key", flat=True))
    return evening, keys


def ring_bell(evening, committed: list[float] | None = None) -> int:
    """Every table's result, the bell and the next round, in one transaction; returns the
    evening's version after it. ``committed`` gets the wall-clock time the transaction committed
    (taken by the first of its commit callbacks, before the version is published to the phones)."""
    from django.db import transaction

    from tournament.models import Evening
    from tournament.services.bell import bell_ring
    from tournament.services.clock import round_start
    from tournament.services.results import result_record
    from tournament.services.state import current_round, evening_state

    with transaction.atomic():
        if committed is not None:
            transaction.on_commit(lambda: committed.append(time.time()))  # runs first: before the publish
        rnd = current_round(evening)
        state = evening_state(evening)
        for number, ids in enumerate(state.tables, 1):
            counters = None
            if number == 1:
                counters = {g: state.counters[g] for g in ids}
                counters[ids[0]] += 5
                counters[ids[-1]] -= 5
            result_record(round=rnd, table=number, pool_winner=ids[0], counters=counters)
        bell_ring(round_id=rnd.pk, cause="host")
        round_start(evening=evening)
    return Evening.objects.values_list("version", flat=True).get(pk=evening.pk)


def ring_arguments(evening_id: int) -> list[str]:
    """The arguments of the process that rings one bell: every connection setting of this run."""
    return ["--ring", str(evening_id), "--db", DB_NAME, "--pg", ARGS.pg, "--cache", ARGS.cache, "--redis", ARGS.redis]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int) -> subprocess.Popen:
    workers = (
        ["tournament.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"]
        if ARGS.server == "asgi"
        else ["phones_wsgi:application", "--worker-class", "gthread", "--threads", str(ARGS.threads)]
    )
    cmd = [
        str(Path(sys.executable).with_name("gunicorn")),
        workers[0],
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(ARGS.workers),
        *workers[1:],
        "--keep-alive",
        "10",
        "--backlog",
        "2048",
        "--worker-connections",
        "2000",
        "--log-level",
        "warning",
        "--chdir",
        str(ROOT),
    ]
    server = subprocess.Popen(cmd, cwd=ROOT, env=ENV, start_new_session=True)
    SERVER_PID[0] = server.pid
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"GET /bench/bare/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    return server
        except OSError:
            time.sleep(0.2)
    stop(server)
    raise SystemExit("gunicorn did not start within 30 s")


SERVER_PID = [0]  # gunicorn's arbiter, once started (for ``worker_threads``)


def server_cpu() -> float:
    """CPU seconds (user and system) gunicorn's worker processes have used so far (Linux
    ``/proc``; 0.0 where it cannot read)."""
    try:
        children = Path(f"/proc/{SERVER_PID[0]}/task/{SERVER_PID[0]}/children").read_text().split()
        used = 0
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            used += int(fields[11]) + int(fields[12])
        return used / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def worker_threads() -> int:
    """Threads in gunicorn's worker processes now (Linux ``/proc``; 0 where it cannot read)."""
    try:
        children = Path(f"/proc/{SERVER_PID[0]}/task/{SERVER_PID[0]}/children").read_text().split()
        return sum(len(os.listdir(f"/proc/{pid}/task")) for pid in children)
    except OSError:
        return 0


def stop(server: subprocess.Popen) -> None:
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(server.pid, signal.SIGKILL)


# ---------------------------------------------------------------- a tiny keep-alive HTTP client


class Conn:
    """One keep-alive HTTP/1.1 connection to the server (like a phone's browser)."""

    def __init__(self, port: int):
        self.port, self.reader, self.writer, self.reconnects = port, None, None, 0

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def get(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
        """GET ``path``; returns (status, headers)."""
        status, got, _ = await self.get_body(path, headers)
        return status, got

    async def get_body(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        """GET ``path``; returns (status, headers, body). Retries once when a reused idle
        connection was closed by the server before answering (as browsers do)."""
        for attempt in (1, 2):
            reused = self.writer is not None
            if not reused:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
            try:
                self.writer.write("\r\n".join(lines).encode())
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                await self.close()
                if reused and attempt == 1:
                    self.reconnects += 1
                    continue
                raise
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            status = int(status_line.split()[1])
            got = {}
            for line in header_lines:
                if ":" in line:
                    k, v = line.split(":", 1)
                    got[k.strip().lower()] = v.strip()
            length = int(got.get("content-length", "0"))
            body = await self.reader.readexactly(length) if length else b""
            if got.get("connection", "").lower() == "close":
                await self.close()
            return status, got, body
        raise ConnectionError("unreachable")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def version_of(etag: str) -> int:
    return int(etag.strip('"').split(".")[1])


# ---------------------------------------------------------------- saturation


async def saturate(
    port: int, name: str, paths: list[str], etags: list[str] | None, htmx: bool, failures: list[str]
) -> float:
    """Back-to-back requests on ARGS.concurrency connections for ARGS.saturate seconds; req/s.
    Requests that failed or answered anything but 200/304 are added to ``failures``."""
    done, errors = [0], [0]
    end = time.monotonic() + ARGS.saturate

    async def worker(i: int) -> None:
        conn = Conn(port)
        headers = {"HX-Request": "true"} if htmx else {}
        if etags:
            headers["If-None-Match"] = etags[i % len(etags)]
        path = paths[i % len(paths)]
        while time.monotonic() < end:
            try:
                status, _ = await asyncio.wait_for(conn.get(path, headers), TIMEOUT)
                if status in (200, 304):
                    done[0] += 1
                else:
                    errors[0] += 1
            except (TimeoutError, OSError, asyncio.IncompleteReadError):
                errors[0] += 1
                await conn.close()
        await conn.close()

    start = time.monotonic()
    await asyncio.gather(*(worker(i) for i in range(ARGS.concurrency)))
    rate = done[0] / (time.monotonic() - start)
    print(f"  {name:<38} {rate:8.0f} req/s   ({done[0]} done, {errors[0]} errors)", flush=True)
    if errors[0]:
        failures.append(f"saturation, {name}: {errors[0]} requests failed")
    return rate


# ---------------------------------------------------------------- the phones


class Stats:
    def __init__(self):
        self.lat = {200: [], 304: []}
        self.queries = {200: [], 304: []}
        self.errors: list[str] = []
        self.first_load: list[float] = []
        self.bells: list[tuple[float, int]] = []  # (monotonic time of commit, version after)
        self.caught: list[list[float]] = []  # per bell: seconds until each phone had it
        self.pages: list[list[tuple[float, int]]] = []  # per phone: (time, version) of each new page
        self.reconnects = 0
        self.pushed = 0  # pages refetched because the push said "changed"
        self.brought = 0  # pages that came in the push's answer (no refetch)
        self.failures: list[str] = []  # what failed in another thread or process (fails the bench)
        self.cpu: list[tuple[float, float, float]] = []  # (monotonic, server CPU s, this process's CPU s)


async def phones(port: int, keys: list[str], evening, poll: float, stats: Stats) -> None:
    loop = asyncio.get_running_loop()
    end = time.monotonic() + ARGS.minutes * 60

    async def phone(key: str) -> None:
        conn = Conn(port)
        path = f"/g/{key}/"
        await asyncio.sleep(random.uniform(0, poll))
        etag, had = "", []  # (monotonic time, version) of every new page this phone got
        pushed = None
        try:
            t0 = time.monotonic()
            status, headers = await asyncio.wait_for(conn.get(path, {}), FIRST_LOAD_TIMEOUT)
            stats.first_load.append(time.monotonic() - t0)
            if status != 200:
                stats.errors.append(f"first load {status}")
            shown = [version_of(headers.get("etag", '"x.0.0"'))]  # the version the page shows
            # the cookie the first load set (the CSRF cookie, if its page has a form), sent back as a browser does
            cookie = {"Cookie": headers["set-cookie"].split(";")[0]} if "set-cookie" in headers else {}
            healthy = [False]  # the push answers: the timed poll is skipped (static/live.js)
            if ARGS.push:
                pushed = asyncio.ensure_future(waiting(key, shown, had, healthy, cookie))
            next_at = time.monotonic()
            while time.monotonic() < end:
                next_at += poll
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                if healthy[0]:
                    continue
                sent = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1{path}", **cookie}
                if etag:
                    sent["If-None-Match"] = etag
                t0 = time.monotonic()
                try:
                    status, headers = await asyncio.wait_for(conn.get(path, sent), TIMEOUT)
                except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
                    stats.errors.append(type(error).__name__)
                    await conn.close()
                    continue
                took = time.monotonic() - t0
                if status not in (200, 304):
                    stats.errors.append(f"status {status}")
                    continue
                stats.lat[status].append(took)
                stats.queries[status].append(int(headers.get("x-bench-queries", "-1")))
                if status == 200:
                    etag = headers.get("etag", "")
                    had.append((time.monotonic(), version_of(etag)))
                    shown[0] = max(shown[0], version_of(etag))
        finally:
            if pushed is not None:
                pushed.cancel()
            stats.reconnects += conn.reconnects
            stats.pages.append(had)
            await conn.close()

    async def waiting(
        key: str, shown: list[int], had: list[tuple[float, int]], healthy: list[bool], cookie: dict[str, str]
    ) -> None:
        """The push, as ``static/live.js`` does it: wait on the version shown (asking for the
        page in the answer, unless ``--no-page-in-answer``); an answer that is the page is the
        new page; on "changed", refetch the page (htmx's request, a new ETag) and wait again; while it answers, the
        phone's timed poll is skipped (``healthy``); on an error or no answer in 30 s, the poll
        is back and the wait is asked again 3 s later."""
        conn, page = Conn(port), Conn(port)
        path = f"/g/{key}/"
        try:
            while time.monotonic() < end:
                try:
                    asked = f"{path}wait/?v={shown[0]}" + ("" if ARGS.no_page_in_answer else "&page=1")
                    status, got, body = await asyncio.wait_for(conn.get_body(asked, cookie), 30)
                    if status == 200 and got.get("content-type", "").startswith("text/html"):
                        answer = {"state": "page"}  # the page itself (views.waits.page_answer)
                        had.append((time.monotonic(), version_of(got.get("etag", ""))))
                        shown[0] = max(shown[0], version_of(got.get("etag", "")))
                        stats.brought += 1
                        healthy[0] = True
                        await asyncio.sleep(random.uniform(0.5, 1.5))  # live.js's pause before the next wait
                        continue
                    else:
                        answer = json.loads(body) if status == 200 else {}
                    healthy[0] = answer.get("state") in ("changed", "unchanged", "page")
                    if status != 200:
                        stats.errors.append(f"wait status {status}")
                    if answer.get("state") == "changed":
                        sent = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1{path}", **cookie}
                        status, headers = await asyncio.wait_for(page.get(path, sent), TIMEOUT)
                        if status == 200:
                            had.append((time.monotonic(), version_of(headers.get("etag", ""))))
                            shown[0] = max(shown[0], version_of(headers.get("etag", "")))  # what the page shows
                        else:  # a refetch the server failed (a 500 under the burst) fails the bench
                            stats.errors.append(f"refetch on the push: status {status}")
                        stats.pushed += 1
                    elif not healthy[0]:
                        await asyncio.sleep(3)
                except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
                    stats.errors.append(f"wait {type(error).__name__}")
                    healthy[0] = False
                    await conn.close()
                    await asyncio.sleep(3)
        finally:
            await conn.close()
            await page.close()

    def bells() -> None:
        """Ring in a separate process, so the bell's work does not slow this client down. A
        failure is recorded in ``stats.failures`` (it fails the bench) and stops the bells."""
        try:
            ring_every(ARGS.bell_minutes * 60)
        except BaseException as error:  # noqa: BLE001 - any failure here must fail the bench
            stats.failures.append(f"the bell thread: {type(error).__name__}: {error}")

    def ring_every(every: float) -> None:
        start = end - ARGS.minutes * 60
        for offset in bell_offsets(ARGS.minutes * 60, every):
            time.sleep(max(0.0, start + offset - time.monotonic()))
            started = time.monotonic()
            out = subprocess.run(
                [sys.executable, __file__, *ring_arguments(evening.pk)],
                env=ENV,
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=120,
            )
            if out.returncode != 0:
                raise RuntimeError(
                    f"bell {len(stats.bells) + 1} failed (exit status {out.returncode}):\n{out.stderr[-2000:]}"
                )
            version, committed = out.stdout.strip().splitlines()[-1].split()
            version, committed_mono = int(version), time.monotonic() - (time.time() - float(committed))
            stats.bells.append((committed_mono, int(version)))
            print(
                f"  bell {len(stats.bells)} rung in {time.monotonic() - started:.2f} s (version {version});"
                f" threads in gunicorn's workers: {worker_threads()}",
                flush=True,
            )

    def sample_cpu() -> None:
        """Every 50 ms: (time, the server's CPU seconds, this load generator's), for the CPU
        each bell cost (``Stats.cpu``)."""
        while time.monotonic() < end + 5:
            stats.cpu.append((time.monotonic(), server_cpu(), time.process_time()))
            time.sleep(0.05)

    ringer = threading.Thread(target=bells, daemon=True)
    ringer.start()
    sampler = threading.Thread(target=sample_cpu, daemon=True)
    sampler.start()
    await asyncio.gather(*(phone(k) for k in keys))
    ringer.join(timeout=60)
    del loop
    for committed, version in stats.bells:  # when did each phone first have this bell's page?
        stats.caught.append(
            [
                max(0.0, min(t for t, v in had if v >= version) - committed)
                for had in stats.pages
                if any(v >= version for _, v in had)
            ]
        )


def report(stats: Stats, rates: dict[str, float], poll: float, phones_n: int) -> None:
    ms = lambda v: f"{v * 1000:7.1f}"  # noqa: E731
    polls = stats.lat[200] + stats.lat[304]
    print("\nResults")
    print(
        f"  phones {phones_n}, poll every {poll} s, {ARGS.minutes} min, bells every {ARGS.bell_minutes} min, "
        f"cache {ARGS.cache}, gunicorn {ARGS.workers} workers "
        + ("(uvicorn, ASGI)" if ARGS.server == "asgi" else f"x {ARGS.threads} threads (gthread)")
        + f", PostgreSQL, push {'on' if ARGS.push else 'off'}"
    )
    total = len(polls) + len(stats.errors)
    print(
        f"  polls {len(polls)} ({len(stats.lat[304])} x 304, {len(stats.lat[200])} x 200), errors {len(stats.errors)}"
        f"{' ' + str(sorted(set(stats.errors))[:5]) if stats.errors else ''}, "
        f"idle-connection retries {stats.reconnects}"
    )
    print(f"  achieved {total / (ARGS.minutes * 60):.0f} polls/s")
    print("  latency ms           p50     p95     p99     max")
    for name, values in (
        ("all polls", polls),
        ("304 unchanged", stats.lat[304]),
        ("200 changed", stats.lat[200]),
        ("first page load", stats.first_load),
    ):
        if values:
            print(f"  {name:<16} {ms(pct(values, 50))} {ms(pct(values, 95))} {ms(pct(values, 99))} {ms(max(values))}")
    q304, q200 = stats.queries[304], stats.queries[200]
    allq = q304 + q200
    if allq:
        print(
            f"  SQL queries per poll: {statistics.mean(allq):.3f} on average; 304: {statistics.mean(q304) if q304 else 0:.3f}"
            f" (max {max(q304) if q304 else 0}); 200: {statistics.mean(q200) if q200 else 0:.1f}"
        )
    if not stats.bells:
        print(f"  no bell rang in this run (none in the last {BELL_TAIL:.0f} s)")
    for i, caught in enumerate(stats.caught, 1):
        if caught:
            print(
                f"  bell {i}: {len(caught)}/{phones_n} phones had the new page; after p50 {pct(caught, 50):.2f} s,"
                f" p95 {pct(caught, 95):.2f} s, p99 {pct(caught, 99):.2f} s, max {max(caught):.2f} s;"
                f" within 1 s: {sum(c <= 1.0 for c in caught)}/{phones_n}"
            )
            committed = stats.bells[i - 1][0]
            span = [c for c in stats.cpu if committed <= c[0] <= committed + pct(caught, 99)]
            if len(span) >= 2:
                print(
                    f"    CPU from the bell's commit to the p99 phone: the server {span[-1][1] - span[0][1]:.2f} s,"
                    f" the phones' load generator {span[-1][2] - span[0][2]:.2f} s"
                    f" (over {span[-1][0] - span[0][0]:.2f} s of a {os.cpu_count()}-core machine)"
                )
    if ARGS.push:
        print(f"  pages refetched on the push: {stats.pushed}; pages in the push's answer: {stats.brought}")
    if rates:
        bare = rates["bare"]
        print(f"  throughput (saturation, same server, same run, best of {ARGS.saturate_rounds} interleaved):")
        for name, rate in rates.items():
            print(f"    {name:<34} {rate:8.0f} req/s   ratio to bare view {rate / bare:5.2f}")
        for name, rate in rates.items():
            if name != "bare":
                report_ratio(
                    f"{name}, {phones_n} guests, gunicorn, cache {ARGS.cache}",
                    rate / bare,
                    "a bare Django view (requests per second)",
                    0.8 if "304" in name else None,
                    lower_is_better=False,
                )


def failed(stats: Stats, server: subprocess.Popen) -> list[str]:
    """Everything that went wrong in the run (empty when nothing did): the other threads' and
    processes' failures, the phones' failed requests, gunicorn gone before the end."""
    failures = list(stats.failures)
    if stats.errors:
        kinds = {kind: stats.errors.count(kind) for kind in sorted(set(stats.errors))}
        failures.append(f"{len(stats.errors)} phone requests failed: {kinds}")
    if server.poll() is not None:
        failures.append(f"gunicorn exited (status {server.returncode}) before the end of the run")
    return failures


def main() -> None:
    import django

    django.setup()
    from tournament.views.guest import POLL_SECONDS

    print(f"Setting up: database {DB_NAME}, {ARGS.phones} guests ...", flush=True)
    server, failures = None, ["the run did not finish"]
    try:
        create_database()
        evening, keys = build_evening()
        port = free_port()
        server = start_gunicorn(port)
        print(f"gunicorn on 127.0.0.1:{port}", flush=True)

        async def run() -> tuple[dict[str, float], Stats]:
            rates: dict[str, float] = {}
            stats = Stats()
            if ARGS.saturate > 0:
                print("Saturation:", flush=True)
                paths = [f"/g/{k}/" for k in keys]
                conn = Conn(port)
                etags = []
                for path in paths[: ARGS.concurrency]:
                    etags.append((await conn.get(path, {"HX-Request": "true"}))[1]["etag"])
                await conn.close()
                ways = {
                    "bare": ("bare Django view", ["/bench/bare/"], None, False),
                    "guest poll, unchanged (304)": (
                        "guest poll, unchanged (304)",
                        paths[: ARGS.concurrency],
                        etags,
                        True,
                    ),
                    "guest poll, changed (200 partial)": ("guest poll, changed (200 partial)", paths, None, True),
                }
                for _ in range(ARGS.saturate_rounds):  # interleaved, so the machine's load falls on all alike
                    for key, (name, way_paths, way_etags, htmx) in ways.items():
                        rate = await saturate(port, name, way_paths, way_etags, htmx, stats.failures)
                        rates[key] = max(rates.get(key, 0.0), rate)
            print(f"Phones: {ARGS.phones} for {ARGS.minutes} min ...", flush=True)
            await phones(port, keys, evening, POLL_SECONDS, stats)
            return rates, stats

        rates, stats = asyncio.run(run())
        report(stats, rates, POLL_SECONDS, ARGS.phones)
        failures = failed(stats, server)
    finally:
        if server is not None:
            stop(server)
        drop_database()
        shutil.rmtree(VAR, ignore_errors=True)
        if ARGS.cache != "locmem":
            try:
                import redis

                redis.Redis.from_url(ARGS.redis).flushdb()
            except Exception as error:  # noqa: BLE001 - cleanup only
                print(f"(could not flush the bench's Redis db: {error})")
    if failures:
        print("\nBENCH FAILED:", file=sys.stderr)
        for failure in failures:
            print(f"  - {failure}", file=sys.stderr)
        raise SystemExit(1)


def ring_only() -> None:
    """Internal (``--ring EVENING``): ring one bell in this process and print the new version."""
    import django

    django.setup()
    from tournament.models import Evening

    committed: list[float] = []
    version = ring_bell(Evening.objects.get(pk=ARGS.ring), committed)
    print(version, committed[0])  # the version after the bell, and when it was committed (wall clock)


if __name__ == "__main__":
    ring_only() if ARGS.ring else main()
