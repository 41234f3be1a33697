"""Settings for Head Table, read from the environment.

Environment variables (all optional for a laptop):
    DATABASE_URL       default: SQLite file var/headtable.sqlite3
    CELERY_BROKER_URL  or REDIS_URL; default: Celery's filesystem broker under var/celery/
                       (``filesystem-atomic://``, tournament/filesystem_broker.py)
    SECRET_KEY         default: read from SECRET_KEY_FILE; else, with DEBUG on, a development key, and
                       with DEBUG off the key kept in var/secret_key (made once, random, mode 600;
                       several machines serving one site must be given one SECRET_KEY)
    SECRET_KEY_FILE    a file holding the secret key (``make party`` keeps one in var/secret_key)
    DEBUG              "1" for Django's debug pages (developers: ``DEBUG=1 make run``); anything
                       else or unset: off (the default, so a plain ``manage.py runserver`` shows a
                       host the site's own pages, never a traceback or the settings)
    ALLOWED_HOSTS      comma-separated; default: localhost names
    CSRF_TRUSTED_ORIGINS comma-separated origins, e.g. https://party.example.org
    SITE_URL           how guests reach the site, used in printed QR codes; default http://127.0.0.1:8000
    SITE_LOCAL_URL     the same site under its multicast DNS name (``make party``), e.g. http://headtable.local:8000
    DB_POOL            "1": a pool of PostgreSQL connections (psycopg_pool), for an ASGI server
                       (``make party`` sets it with ``CONN_MAX_AGE=0``; SQLite ignores it)
    WEB_THREADS        threads per process serving requests under the ASGI server (``make party``),
                       default 8 (``tournament.version_waits.SiteApplication``)
    WAIT_THREADS       threads per process for the phones' waits' look-ups and pages, default 2
    HTTPS              "1" behind HTTPS (a deployment): HSTS, the SSL redirect and secure session and
                       CSRF cookies, so ``manage.py check --deploy`` is clean; default "0" (the party on
                       the venue's Wi-Fi is plain HTTP, where secure cookies would never reach the browser)
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("HEADTABLE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = os.environ.get("DEBUG", "0") == "1"  # off unless asked for: a traceback shows code and settings
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and os.environ.get("SECRET_KEY_FILE"):
    SECRET_KEY = Path(os.environ["SECRET_KEY_FILE"]).read_text(encoding="ascii").strip()
    if not SECRET_KEY:
        raise ImproperlyConfigured(f"The secret key file {os.environ['SECRET_KEY_FILE']} is empty.")
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "dev-only-not-secret-head-table"
    else:  # this computer's own key, made once (as ``make party`` keeps it)
        from tournament.party import party_secret_key

        SECRET_KEY = party_secret_key(VAR_DIR).read_text(encoding="ascii").strip()
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
CSRF_FAILURE_VIEW = "tournament.views.guest_csrf.csrf_failure"  # our plain page, never Django's
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
SITE_LOCAL_URL = os.environ.get("SITE_LOCAL_URL", "").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "csp",
    "tournament",
    "clubs",
]

HEAD_TABLE_FORMATS = [
    "tournament.formats.poker.plugin.PokerFormat",
    "tournament.formats.euchre.plugin.EuchreFormat",
    "tournament.formats.whist.plugin.WhistFormat",
    "tournament.formats.bunco.plugin.BuncoFormat",
    "tournament.formats.euchre_tournament.plugin.EuchreTournamentFormat",
]
"""The formats this site plays (``tournament.registry``), the default first: a format's plug-in
class by dotted path. Adding a format is its package and one line here."""

FORMAT_FAMILIES = ["tournament.formats.partnership"]
"""Packages that several formats share (the partnership family's templates)."""

INSTALLED_APPS += [*FORMAT_FAMILIES, *(path.rsplit(".", 2)[0] for path in HEAD_TABLE_FORMATS)]
"""Each format's package is a Django app, for its own templates and static files."""

MIDDLEWARE = [
    # First: a phone's unchanged poll is answered 304 from the cache, with the headers the rest
    # would give it, before any other middleware runs (issue 26 item 1).
    "tournament.unchanged_polls.UnchangedPollMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tournament.csp_once.PolicyOnceCSPMiddleware",  # django-csp's, the policy built once
    "tournament.private_doors.PrivateDoorMiddleware",
    "tournament.not_allowed.NotAllowedPageMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a login from a name and address locked out by wrong passwords.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Brute-force protection for the host's login (and the admin's): 5 wrong passwords for one name from
# one address lock that pair out for 10 minutes (house rule: a host who mistypes can wait out a
# short pause, a guesser gets 720 tries a day at most); a right password clears the count.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1 / 6  # hours: 10 minutes
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# "Nothing from other sites": every script, style, image and font is served by us (htmx too), and
# no page runs inline script or style, so the policy needs no 'unsafe-inline' and no nonces.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:"],  # QR codes are drawn as data: images
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"
ASGI_APPLICATION = "tournament.asgi.application"  # make party: uvicorn's workers under gunicorn

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Threads serving requests in each process under the ASGI server (make party): Django's WSGI handler
# in a pool kept for the process's life (tournament.version_waits.SiteApplication); a long request
# (a PDF for 500 guests) holds one.
WEB_THREADS = int(os.environ.get("WEB_THREADS", "8"))
# Threads for the phones' waits (their key look-ups and the pages in their answers), a pool apart:
# that work is all Python, so more threads would only fight over the interpreter's lock.
WAIT_THREADS = int(os.environ.get("WAIT_THREADS", "2"))

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'headtable.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web, Celery worker) share one file: wait for locks instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-headtable.sqlite3")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and os.environ.get("DB_POOL") == "1":
    # Under ASGI (make party, DB_POOL=1 with CONN_MAX_AGE=0) each request's synchronous part runs
    # in a thread of its own; a pool (psycopg_pool) lends it a connection instead of opening one
    # per request (issue 26 item 2, docs/deployment.md).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # As many as the process's request threads and its waits' threads, and two to spare.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": WEB_THREADS + WAIT_THREADS + 2,
        "timeout": 20,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "host-evenings"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static", ("guide", BASE_DIR / "docs" / "images")]  # the guide's screenshots
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns when it is missing; collectstatic fills it
# WhiteNoise serves the static files from where they are (the finders), as well as from STATIC_ROOT
# once collected, so a plain ``manage.py runserver`` with DEBUG off still has its styles and scripts.
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Celery: Redis (or any broker) from the environment, else the filesystem broker under var/:
# kombu's own, with each message written whole (tournament/filesystem_broker.py: kombu's
# crashed the worker with a JSONDecodeError when it read a file being written, kombu #1551).
# "filesystem://" given by hand means the same folder broker, so it gets the same fix.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or os.environ.get("REDIS_URL") or "filesystem-atomic://"
if CELERY_BROKER_URL in ("filesystem://", "filesystem-atomic://"):
    CELERY_BROKER_URL = "filesystem-atomic://"
    _queue = VAR_DIR / "celery" / "queue"
    _done = VAR_DIR / "celery" / "processed"  # where the worker claims a message: same filesystem
    _control = VAR_DIR / "celery" / "control"
    for _folder in (_queue, _done, _control):
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue),
        "data_folder_out": str(_queue),
        "processed_folder": str(_done),
        "unreadable_folder": str(VAR_DIR / "celery" / "unreadable"),
        "control_folder": str(_control),
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_TASK_ALWAYS_EAGER") == "1"
CELERY_BEAT_SCHEDULE = {
    "ring-overdue-bells": {"task": "tournament.tasks.ring_overdue_bells", "schedule": 5.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# The cache holds each evening's version (the live pages' ETag) and the private-key lookup, so
# an unchanged poll costs no query. Across processes and machines it must be shared: Redis when
# CACHE_URL or REDIS_URL (or a redis:// broker) is set; else each process has its own memory
# cache, which stays correct (entries expire after a second) at about one query per poll.
# django-redis keeps one Redis client (and its connection pool) per process; Django's own
# RedisCache builds a client on every call, which cost an unchanged poll a third of its time
# (issue 26 item 1: 0.38x a bare view's throughput in process, against 0.58x with django-redis;
# bench/bench_poll.py measures both).
_cache_url = (
    os.environ.get("CACHE_URL")
    or os.environ.get("REDIS_URL")
    or (CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "")
)
# redis-py's own pool refuses its 101st connection ("Too many connections"), which a burst of
# requests takes at once under ASGI (uvicorn runs each request's synchronous part in a thread of
# its own: 500 phones refetching after a bell made guest pages fail with a 500). The blocking
# pool makes a request wait for a free connection instead, at most REDIS_POOL_WAIT seconds.
REDIS_POOL_SIZE = int(os.environ.get("REDIS_POOL_SIZE", "64"))  # connections per process
REDIS_POOL_WAIT = 10  # seconds a request waits for a free connection before the error
REDIS_CACHE_OPTIONS = {
    "CONNECTION_POOL_CLASS": "redis.BlockingConnectionPool",
    "CONNECTION_POOL_KWARGS": {"max_connections": REDIS_POOL_SIZE, "timeout": REDIS_POOL_WAIT},
}
CACHES = {
    "default": (
        {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": _cache_url,
            "KEY_PREFIX": "headtable",
            "OPTIONS": REDIS_CACHE_OPTIONS,
        }
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Behind HTTPS (HTTPS=1) the four settings ``check --deploy`` asks for; off on the LAN party, which
# is plain HTTP (secure cookies would never be sent back and the redirect would lock phones out).
HTTPS = os.environ.get("HTTPS", "0") == "1"
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    # Both only reach below and at the site's own name (party.example.org covers *.party.example.org;
    # a preload list entry needs the apex domain's owner to apply): set "0" to leave them out.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = os.environ.get("SECURE_HSTS_INCLUDE_SUBDOMAINS", "1") == "1"
    SECURE_HSTS_PRELOAD = os.environ.get("SECURE_HSTS_PRELOAD", "1") == "1"
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # A proxy in front (nginx, Caddy, a platform's router) terminates TLS and says so in this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"private_keys": {"()": "tournament.private_logs.KeyRedactingFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["private_keys"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False, "filters": ["private_keys"]},
        "django.request": {"filters": ["private_keys"]},
    },
}
