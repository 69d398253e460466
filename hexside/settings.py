"""Settings for Hexside. Everything that differs between a laptop and a deployment comes from the environment."""
import os
from pathlib import Path

import dj_database_url

from hexside.broker import filesystem_options

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("HEXSIDE_VAR_DIR", BASE_DIR / "var"))

SECRET_KEY = os.environ.get("SECRET_KEY", "hexside-development-key-not-for-production")
DEBUG = os.environ.get("DEBUG", "1") == "1"
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "maps",
    "jobs",
    "authoring",
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

ROOT_URLCONF = "hexside.urls"

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

WSGI_APPLICATION = "hexside.wsgi.application"

# SQLite by default (nothing to install); PostgreSQL or any other database with DATABASE_URL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'hexside.sqlite3'}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web server and worker share the file: wait for a lock instead of failing at once, take the write lock
    # when a transaction starts (so two edits queue instead of deadlocking), and let readers work during a write.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Tests start real worker processes, which must see the test database: a file, not memory.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"hexside-test-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "media/"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-maps"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Hexside API",
    "DESCRIPTION": "Maps, rulesets, line of sight and background jobs of the Hexside studio.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}

# Celery: a folder on disk by default, Redis (or any kombu broker) with CELERY_BROKER_URL.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_DIR = Path(os.environ.get("CELERY_BROKER_DIR", VAR_DIR / "broker"))
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_options(CELERY_BROKER_DIR)
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A job that hangs must not run (and beat its heartbeat) for ever: past the soft limit its task is interrupted
# and the job fails saying so; the hard limit, a little later, kills a task that ignores the interruption.
CELERY_TASK_SOFT_TIME_LIMIT = float(os.environ.get("HEXSIDE_JOB_TIME_LIMIT", "900"))
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 30
# After a pool process dies, how long Celery waits for a result it may have sent before requeueing its task
# (default 10 s, the pool slot idle meanwhile). Job results are in the database, so there is nothing to wait for.
CELERY_WORKER_LOST_WAIT = float(os.environ.get("CELERY_WORKER_LOST_WAIT", "1"))
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_TASK_ALWAYS_EAGER", "0") == "1"

# Where the sample maps live; `make run` loads them.
SAMPLES_DIR = BASE_DIR / "maps" / "samples"
SCENARIO_SAMPLES_DIR = BASE_DIR / "authoring" / "samples"
# Extra ruleset files (JSON, the same shape as maps/rulesets/data/*.json) a designer drops in.
HEXSIDE_RULESETS_DIR = Path(os.environ.get("HEXSIDE_RULESETS_DIR", VAR_DIR / "rulesets"))

VAR_DIR.mkdir(parents=True, exist_ok=True)

# Board scans under a map (the painter's tracing): the upload's limits, checked with Pillow.
HEXSIDE_SCAN_MAX_BYTES = int(os.environ.get("HEXSIDE_SCAN_MAX_BYTES", 20 * 1024 * 1024))
HEXSIDE_SCAN_MAX_PIXELS = int(os.environ.get("HEXSIDE_SCAN_MAX_PIXELS", 60_000_000))
