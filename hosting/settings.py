"""Settings from the environment (12-factor).

With nothing set, the service runs embedded: SQLite in the repo, timers and live updates in
process. ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL, Redis and Celery as in
production. ``APP_PROFILE=production`` turns on every deployment safeguard.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


PROFILE = os.environ.get("APP_PROFILE", "development")
if PROFILE not in {"development", "production"}:
    raise ImproperlyConfigured("APP_PROFILE must be 'development' or 'production'")
PRODUCTION = PROFILE == "production"
TESTING = "pytest" in sys.modules

DEBUG = env_bool("DEBUG", default=not PRODUCTION)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set in production")
    SECRET_KEY = "development-only-secret-key-never-use-in-production-0123456789abcdef"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost"])
if TESTING:
    ALLOWED_HOSTS = [*ALLOWED_HOSTS, "testserver"]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "hosting.core.errors.csrf_failure"  # JSON under /api/ and /live/

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc, served from our own static files
    "csp",
    "hosting",
    "notifications",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (a chosen language is kept there and in its cookie), before common.
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads the path, the query or a form for a view.
    "hosting.core.guard.ControlCharacterGuard",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "hosting.core.unavailable.DatabaseUnavailableMiddleware",
    # Inside the database guard (it reads the reader's zone): every page in the reader's zone.
    "notifications.middleware.ReaderZoneMiddleware",
]

ROOT_URLCONF = "hosting.urls"
WSGI_APPLICATION = "hosting.wsgi.application"
ASGI_APPLICATION = "hosting.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "hosting.core.context.roles",
                "notifications.context.bell",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
# Persistent connections, checked before reuse: a database restart costs one reconnect, not
# a burst of 500s (each web process keeps a single connection, see hosting/asgi.py).
# No health check per request: with it, every request's first query was preceded by a
# ``SELECT 1`` round trip (0.88 of moves, issue 31). A connection is checked on error instead:
# a query that fails marks it, and the end of that request (``close_old_connections``) closes
# it if it no longer answers, so the next request reconnects. A connection lost while idle
# costs one request a JSON 503 (hosting.core.errors), which the client sends again
# (tests/faults: "database sessions terminated mid play").
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=False)
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (in-process timers, live updates) share the file: wait, don't fail.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Tests that serve the app from a thread need that waiting too: the default in-memory test
    # database shares one cache between threads, where a lock held by another thread fails at
    # once ("database table is locked") instead of waiting for the timeout.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
SESSION_ENGINE = "hosting.core.sessions"  # the database store, read without the ORM

REDIS_URL = os.environ.get("REDIS_URL", "")

# Engines beyond the built-in ones, as "key=module" (the module exposes ENGINE): plug-ins, and
# the test engine the live-load benchmark can use.
EXTRA_ENGINES = dict(item.split("=", 1) for item in env_list("EXTRA_ENGINES", []))

# ModelBackend, with a signed-in request's user read by one fixed statement.
AUTHENTICATION_BACKENDS = ["hosting.core.backends.AccountBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The languages pages are offered in; the browser's Accept-Language picks one, the switcher
# (Django's set_language at /i18n/setlang/) keeps another in a cookie.
LANGUAGES = [("en", "English"), ("pt-br", "Português (Brasil)"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Collected files are served from STATIC_ROOT in production; elsewhere from the app folders.
STATIC_ROOT = BASE_DIR / "staticfiles" if PRODUCTION else None
WHITENOISE_USE_FINDERS = not PRODUCTION
STATICFILES_DIRS = [BASE_DIR / "hosting" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# The reverse proxies whose X-Forwarded-For (and X-Forwarded-Proto) are believed: addresses or
# networks, comma separated, or "*" (every peer: only where nothing but the proxy can connect).
# Empty (the default): the client is the connecting address, and the headers are ignored.
# uvicorn is told the same (hosting.core.proxies).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        if _proxy != "*":
            ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is not an IP address or network (e.g. 10.0.0.0/8)"
        ) from None
if os.environ.get("NUM_PROXIES", "0").strip() not in ("", "0"):
    raise ImproperlyConfigured(
        "NUM_PROXIES is no longer read: set TRUSTED_PROXIES to your proxies' addresses instead"
    )

REST_FRAMEWORK = {
    # Personal API tokens (``Authorization: Bearer``, first: an explicit header wins over a
    # cookie) and sessions for browsers; seat tokens (games.access) for bots in one game. No
    # HTTP Basic: it hashed a password on every request (~0.7 s of a web thread per failed
    # guess) and cannot play.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "hosting.core.bearer.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Whose request it is, hosting.core.proxies decides (TRUSTED_PROXIES): DRF's own reading
    # of X-Forwarded-For stays off.
    "NUM_PROXIES": 0,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # JSON only, checked at the edge (depth, NUL characters): forms are a 415.
    "DEFAULT_PARSER_CLASSES": ["hosting.core.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + ([] if PRODUCTION else ["rest_framework.renderers.BrowsableAPIRenderer"]),
    "EXCEPTION_HANDLER": "hosting.core.errors.exception_handler",
    # OpenAPI 3 at /api/schema/: each API module describes its views' bodies where they are
    # made; what they share (the error shape, the credentials) is hosting.core.openapi.
    "DEFAULT_SCHEMA_CLASS": "hosting.core.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Genius Arena API",
    "VERSION": "1",
    "DESCRIPTION": (BASE_DIR / "hosting" / "schema.md").read_text(),
    "SERVE_INCLUDE_SCHEMA": False,
    # The three games' keys are one choice set, whether a field calls it engine or game.
    "ENUM_NAME_OVERRIDES": {"GameKeyEnum": "games.rooms.choices.GAMES"},
    # Swagger UI and ReDoc from drf-spectacular-sidecar's static files: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Deep links make every operation's path an <a> inside its summary <button> (nested
    # controls, 14 px targets); the tags and operations still open on a click.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "PATH_CONVERTER_OVERRIDES": {"id": int, "number": int, "code": str},
    "COMPONENT_SPLIT_REQUEST": True,
    "APPEND_COMPONENTS": {
        "securitySchemes": {
            "seatToken": {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": "`Authorization: Seat <token>`: the seat token a claim returned "
                "(games only; no CSRF).",
            },
            "csrfToken": {
                "type": "apiKey",
                "in": "header",
                "name": "X-CSRFToken",
                "description": "A session's writes carry the `csrftoken` cookie's value here.",
            },
        }
    },
}

# Rate limits (hosting.core.throttles): shared by every process through Redis, else per process.
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
            # One pool per process, not one per request (see hosting.core.redis_clients).
            "OPTIONS": {"pool_class": "hosting.core.redis_clients.SharedConnectionPool"},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Requests per client (address) and per account, in fixed windows: far above real play (a
# bot acting every 0.1 s is 600/m) and far below a flood. ``THROTTLE_RATES`` overrides some,
# e.g. "action.client=100000/m,claim.client=off" (the live-load benchmark raises them: its
# bots all come from one address).
THROTTLE_RATES = {
    "login.client": "10/m",
    "login.account": "5/m",
    "signup.client": "10/h",
    "create.client": "120/m",
    "create.account": "60/m",
    "claim.client": "120/m",
    "claim.account": "30/m",
    "action.client": "6000/m",
    "action.account": "1200/m",
    # Casual rooms (games.rooms): making rooms and practice tables, joining, the Quick match
    # queue; and wrong room codes, few enough that 64 million codes cannot be tried.
    "room_create.client": "30/m",
    "room_create.account": "20/m",
    "room_join.client": "60/m",
    "quick.client": "60/m",
    "room_code.client": "20/h",
    # Challenges to a named player (games.challenges): far above anyone's real use.
    "challenge.client": "60/m",
    "challenge.account": "20/m",
    # Content-Security-Policy violation reports (hosting.csp_reports): a broken page sends a
    # few per load; more is a flood of the logs.
    "csp_report.client": "60/m",
} | dict(item.split("=", 1) for item in env_list("THROTTLE_RATES", []))
# Scopes counted per web process in memory rather than in Redis (hosting.core.throttles): the
# move's own limit, on every move, far above play; "none" counts every scope in Redis.
THROTTLE_LOCAL_SCOPES = frozenset(
    scope for scope in env_list("THROTTLE_LOCAL_SCOPES", ["action"]) if scope != "none"
)

# Open live streams (SSE) per client address and per browser session or personal token
# (hosting.core.stream_caps): far above a person's many tabs (one or two streams each), far
# below a flood. 0: no cap. The fault suite and the load benchmarks, whose bots all come from
# one address, raise them.
LIVE_STREAMS_PER_CLIENT = int(os.environ.get("LIVE_STREAMS_PER_CLIENT", "100"))
LIVE_STREAMS_PER_SESSION = int(os.environ.get("LIVE_STREAMS_PER_SESSION", "30"))

# Celery: Redis when configured; otherwise tasks run in process (see hosting.core.scheduler).
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Timer, bot and sweep tasks mostly wait on PostgreSQL and Redis: threads share one process's
# dispatch, where prefork hands each task to a child through a pipe (High Card's ~110 timers/s
# on two shared cores: lateness p99 87-132 ms with 4 threads, 253-574 ms with 2 children).
CELERY_WORKER_POOL = "threads"
CELERY_WORKER_CONCURRENCY = 4
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis hands a message a worker took but never acknowledged (it was killed) to another worker
# after this long. Every task is safe to run twice, and the ETA tasks armed are due within
# seconds (deadlines, computer players) or a seat's grace: five minutes covers them.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
# Redis's transport with the fix that keeps a worker alive through a Redis outage (see there).
CELERY_BROKER_TRANSPORT = "hosting.broker:Transport" if REDIS_URL else None
# Celery's Django fixup closes the database connection around every task unless told to reuse
# it: a new PostgreSQL backend per timer. hosting.celery closes connections as a request does
# instead (CONN_MAX_AGE, health checks), so the fixup's own recycling never has to.
CELERY_DB_REUSE_MAX = 2**31
CELERY_BEAT_SCHEDULE = {
    # Arms the ETA task of every deadline coming within TIMER_ARM_AHEAD_SECONDS, and is the
    # safety net under those tasks: a lost task delays a timeout by 1 s.
    "sweep-overdue-clocks": {"task": "games.sweep_overdue", "schedule": 1.0},
    # Quick match tables whose wait is over start; idle rooms close.
    "sweep-rooms": {"task": "games.rooms_sweep", "schedule": 5.0},
    "clear-expired-sessions": {"task": "hosting.clear_expired_sessions", "schedule": 3600.0},
    # Sends the reminders due, arms those coming near, and any e-mail batch whose task was lost.
    "sweep-notices": {"task": "notifications.sweep", "schedule": 5.0},
    # In long games, a person whose move has waited NOTIFY_IDLE_TURN_MINUTES is told.
    "notify-idle-turns": {"task": "games.notify_idle_turns", "schedule": 60.0},
    # Slot windows closed without agreement take their default rule; no-shows forfeit.
    "settle-slots": {"task": "tournaments.slots_settle", "schedule": 30.0},
    # A season's activity checks past their cut-off (the safety net under their ETA tasks).
    "sweep-activity-checks": {"task": "tournaments.sweep_activity_checks", "schedule": 30.0},
}
# A commit arms its deadline's ETA task only when it is this close; the sweep arms the others
# when they come this close. Most turns end long before their clock does: their tasks are
# never sent, and the worker never holds thousands of far-off ETA tasks in memory.
TIMER_ARM_AHEAD_SECONDS = 5.0
# Notifications (docs/notifications.md): a reminder's ETA task is sent this close to its time
# (the sweep arms the others as they come near); one e-mail per person gathers the notices of
# this many seconds; links in e-mails start with SITE_URL.
NOTIFY_ARM_AHEAD_SECONDS = float(os.environ.get("NOTIFY_ARM_AHEAD_SECONDS", 30))
NOTIFY_EMAIL_BATCH_SECONDS = float(os.environ.get("NOTIFY_EMAIL_BATCH_SECONDS", 60))
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
NOTIFY_IDLE_TURN_MINUTES = float(os.environ.get("NOTIFY_IDLE_TURN_MINUTES", 30))
# Beat's own scheduler, which also writes the heartbeat /healthz reads (hosting.heartbeats).
CELERY_BEAT_SCHEDULER = "hosting.heartbeats:BeatScheduler"

# Computer players wait a short, human-like moment before acting ("low,high" seconds; the
# casual-load benchmark fixes it to time the moves' lateness).
BOT_DELAY_SECONDS = tuple(
    float(part) for part in os.environ.get("BOT_DELAY_SECONDS", "0.6,1.6").split(",")
)

# Casual rooms: a disconnected seat's wait before its substitute, the Quick match wait to fill
# a table, and the idle time after which a room closes.
ROOM_GRACE_SECONDS = int(os.environ.get("ROOM_GRACE_SECONDS", 90))
QUICK_MATCH_WAIT_SECONDS = float(os.environ.get("QUICK_MATCH_WAIT_SECONDS", 15))
ROOM_IDLE_SECONDS = int(os.environ.get("ROOM_IDLE_SECONDS", 2 * 3600))
# A casual game (room, Quick match, practice) waits this long at most for its people's
# client seeds (games.fairness): their browsers send them as the game page opens.
CASUAL_SEED_WINDOW_SECONDS = float(os.environ.get("CASUAL_SEED_WINDOW_SECONDS", 5))
# A challenge to another player (games.challenges) can be accepted for this long.
CHALLENGE_EXPIRY_SECONDS = int(os.environ.get("CHALLENGE_EXPIRY_SECONDS", 24 * 3600))

# E-mail (dispute notifications): SMTP in production (EMAIL_HOST, EMAIL_PORT, ... as Django
# reads them); printed to the console otherwise, which is what ``make run`` shows.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 25))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Genius Arena <noreply@localhost>")

# Organisers' webhooks (tournaments.webhooks). A failed attempt is retried after the backoff,
# doubled each time up to its maximum (Celery's retry_backoff, with full jitter), until the
# delivery has had WEBHOOK_MAX_ATTEMPTS attempts: by default at most 30 s * (2**7 - 1), about
# an hour, over the seven retries (half that on average, with the jitter).
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "8"))
WEBHOOK_RETRY_BACKOFF_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BACKOFF_SECONDS", "30"))
WEBHOOK_RETRY_BACKOFF_MAX_SECONDS = 3600.0
WEBHOOK_RETRY_JITTER = True
WEBHOOK_TIMEOUT_SECONDS = 10.0
# Targets that are not public addresses (tournaments.webhooks.targets): a webhook must never
# become a way into the server's own network. Private, link-local, shared and reserved ranges
# only when allowed explicitly; loopback by default only in development, so that a receiver on
# the same machine works. Multicast and unspecified addresses never.
WEBHOOK_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOK_ALLOW_PRIVATE_TARGETS", False)
WEBHOOK_ALLOW_LOOPBACK = env_bool("WEBHOOK_ALLOW_LOOPBACK", not PRODUCTION)
# A webhook URL on these hosts under /api/webhooks/ is a Discord channel's: it is sent a
# readable message instead of the event's JSON.
WEBHOOK_DISCORD_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com")

# Content-Security-Policy (django-csp) on every answer: scripts, styles and everything else from
# our own origin only; no inline script or style and no eval anywhere (pages load ES modules and
# stylesheets, data travels in JSON script blocks and data- attributes). Views widen it with
# django-csp's decorators where they must: the embed page may be framed by any site and the
# API docs' Swagger UI draws icons from data: URIs. Browsers report violations to /csp-report
# (hosting.csp_reports), which logs them. docs/operations.md says more.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "report-uri": ["/csp-report"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
