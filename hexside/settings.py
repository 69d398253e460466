"""Settings for Hexside. Everything that differs between a laptop and a deployment comes from the environment."""
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from environs import Env

from hexside import broker

# Typed reads of the environment (environs): a value that is not what its setting takes stops the start with an
# error naming the variable. Booleans take 1/0, true/false, yes/no, on/off.
env = Env()
BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = env.path("HEXSIDE_VAR_DIR", BASE_DIR / "var")

# DEBUG only when asked for. Outside DEBUG there is no default key: one known to the world signs nobody's session.
DEBUG = env.bool("DEBUG", False)
SECRET_KEY_FILE = VAR_DIR / "secret_key"  # `make run` writes one there
SECRET_KEY = env.str("SECRET_KEY", "") or (SECRET_KEY_FILE.read_text().strip() if SECRET_KEY_FILE.is_file() else "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            f"SECRET_KEY is not set: set the SECRET_KEY environment variable, or write a key to {SECRET_KEY_FILE} "
            "(`make run` does), or run with DEBUG=1 on your own machine.")
    SECRET_KEY = "hexside-development-key-not-for-production"
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])

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
    "axes",
    "csp",
    "documents",
    "maps",
    "jobs",
    "authoring",
    "validations",
]

MIDDLEWARE = [
    "hexside.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "hexside.middleware.ApiErrorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it answers a locked-out sign-in on every login form (site, admin, API token).
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy (django-csp): the pages load scripts and styles from this site only and run no inline
# script, so an injected <script> or on* attribute does nothing. Images may be data: and blob: URLs (the painter's
# canvases and downloaded job results); the API's Swagger UI gets its inline styles on its own view (maps/api.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Password guessing (django-axes, with the handler of hexside/accounts.py): after HEXSIDE_LOGIN_FAILURES failed
# sign-ins for one account from one address, that account is refused from that address for
# HEXSIDE_LOGIN_COOLOFF_MINUTES, the right password included; its owner elsewhere still signs in. After
# HEXSIDE_LOGIN_ADDRESS_FAILURES failed sign-ins from one address, whichever accounts they named, that address is
# refused for as long. The address is the throttles' (hexside/throttles.py: REMOTE_ADDR, or the trusted proxies').
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "hexside.accounts.SigninHandler"
AXES_FAILURE_LIMIT = env.int("HEXSIDE_LOGIN_FAILURES", 5)
HEXSIDE_LOGIN_ADDRESS_FAILURES = env.int("HEXSIDE_LOGIN_ADDRESS_FAILURES", 30)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("HEXSIDE_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair: a stranger elsewhere cannot lock the owner out
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "hexside.accounts.client_address"
AXES_LOCKOUT_CALLABLE = "hexside.accounts.locked_out"
AXES_VERBOSE = False

ROOT_URLCONF = "hexside.urls"

# Errors go to stderr (the terminal under `make run`, the service's journal in a deployment), each line with the
# id of its request (hexside/logs.py), which the error answers name. HEXSIDE_LOG_LEVEL lowers the threshold.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "hexside.logs.RequestIdFilter"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s [request %(request_id)s] %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "filters": ["request_id"], "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": env.str("HEXSIDE_LOG_LEVEL", "WARNING")},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": env.str("HEXSIDE_LOG_LEVEL", "WARNING"),
                   "propagate": False},
    },
}

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
        default=f"sqlite:///{VAR_DIR / 'hexside.sqlite3'}",
        # Served as ASGI (hexside/asgi.py), each request has a thread of its own: its connection ends with it.
        conn_max_age=0 if env.bool("HEXSIDE_ASGI", False) else 60,
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
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
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
# Static files are served by the application itself (whitenoise), from what `collectstatic` gathered.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}


def static_file_headers(headers, path, url):
    """whitenoise answers a static file before the CSP middleware runs: the file carries the pages' policy too
    (a script or an SVG opened on its own is held to it)."""
    from csp.utils import build_policy  # noqa: PLC0415 - the settings module is read before the apps load

    headers["Content-Security-Policy"] = build_policy()


WHITENOISE_ADD_HEADERS_FUNCTION = static_file_headers

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-maps"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "hexside.schema.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": [
        "hexside.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "hexside.pagination.Pagination",
    "PAGE_SIZE": 100,
    # One JSON reader for every request: it refuses what Python's json would take but nothing else should
    # (deep nesting, NaN, lone surrogates, NUL, huge integers) with a 400 naming the problem.
    "DEFAULT_PARSER_CLASSES": [
        "web.parsers.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "hexside.errors.exception_handler",
    # How many proxies in front add X-Forwarded-For: 0 when clients connect directly (make run), 1 behind one
    # nginx. The throttles' address comes from it; a client's own X-Forwarded-For is not believed.
    "NUM_PROXIES": env.int("HEXSIDE_NUM_PROXIES", 0),
}
# Per user when signed in, per address otherwise (web/throttles.py): N/second, N/minute, N/hour or N/day.
HEXSIDE_THROTTLE_RATES = {
    "jobs": env.str("HEXSIDE_THROTTLE_JOBS", "30/minute"),
    "jobs-address": env.str("HEXSIDE_THROTTLE_JOBS_ADDRESS", "120/minute"),
    "imports": env.str("HEXSIDE_THROTTLE_IMPORTS", "10/minute"),
    "imports-address": env.str("HEXSIDE_THROTTLE_IMPORTS_ADDRESS", "30/minute"),
    "token": env.str("HEXSIDE_THROTTLE_TOKEN", "10/minute"),
    "signup": env.str("HEXSIDE_THROTTLE_SIGNUP", "5/hour"),
    "validations": env.str("HEXSIDE_THROTTLE_VALIDATIONS", "10/minute"),
    "validations-address": env.str("HEXSIDE_THROTTLE_VALIDATIONS_ADDRESS", "30/minute"),
    "images": env.str("HEXSIDE_THROTTLE_IMAGES", "60/minute"),
    "images-address": env.str("HEXSIDE_THROTTLE_IMAGES_ADDRESS", "240/minute"),
    "findings": env.str("HEXSIDE_THROTTLE_FINDINGS", "60/minute"),
    "findings-address": env.str("HEXSIDE_THROTTLE_FINDINGS_ADDRESS", "240/minute"),
    # A revision stored per request: a painter's stroke or a scenario edit (a designer paints a stroke a second
    # at the most; the hostile client of issue 27 sent 52 a second).
    "edits": env.str("HEXSIDE_THROTTLE_EDITS", "240/minute"),
    "edits-address": env.str("HEXSIDE_THROTTLE_EDITS_ADDRESS", "600/minute"),
}

# The throttles' counts must be shared by every web process: Redis when the broker is Redis, else a folder
# under var/ (every gunicorn worker on this machine sees it). HEXSIDE_CACHE_URL chooses another cache.
HEXSIDE_CACHE_URL = env.str("HEXSIDE_CACHE_URL", "") or env.str("CELERY_BROKER_URL", "")
if HEXSIDE_CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": HEXSIDE_CACHE_URL}}
else:
    cache_dir = HEXSIDE_CACHE_URL[len("file://"):] if HEXSIDE_CACHE_URL.startswith("file://") else VAR_DIR / "cache"
    # One file per user or address counted; past MAX_ENTRIES a third are dropped (their counts start again).
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(cache_dir),
                          "OPTIONS": {"MAX_ENTRIES": 10_000}}}

# -- what one request may cost ------------------------------------------------------------------------------
# A body larger than this is refused (413) before it is read; it bounds imports and every JSON request.
HEXSIDE_MAX_UPLOAD_BYTES = env.int("HEXSIDE_MAX_UPLOAD_BYTES", 20 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = HEXSIDE_MAX_UPLOAD_BYTES
# A map may hold at most this many hexes (columns x rows; 500 x 500 by default, the largest grid) and its map
# file at most this many bytes, checked at create, import and every edit (400 naming the limit). A 500 x 500
# map with every hex listed writes about 16 MB, so both byte limits let it in.
HEXSIDE_MAX_HEXES = env.int("HEXSIDE_MAX_HEXES", 500 * 500)
HEXSIDE_MAX_MAP_BYTES = env.int("HEXSIDE_MAX_MAP_BYTES", 20 * 1024 * 1024)

# -- behind HTTPS (HEXSIDE_HTTPS=1, as docs/scale.md deploys): secure cookies, HSTS, redirects --------------
if env.bool("HEXSIDE_HTTPS", False):
    SECURE_SSL_REDIRECT = env.bool("HEXSIDE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("HEXSIDE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS if host and not host.startswith("[")]

SPECTACULAR_SETTINGS = {
    "TITLE": "Hexside API",
    "DESCRIPTION": "Maps, rulesets, line of sight and background jobs of the Hexside studio.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # No online validator badge: it would send the schema to a server on the internet.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

# Celery: a folder on disk by default, Redis (or any kombu broker) with CELERY_BROKER_URL.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_DIR = env.path("CELERY_BROKER_DIR", VAR_DIR / "broker")
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT = broker.TRANSPORT  # kombu's, writing each message whole (hexside/broker.py)
    CELERY_BROKER_TRANSPORT_OPTIONS = broker.filesystem_options(CELERY_BROKER_DIR)
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A job that hangs must not run (and beat its heartbeat) for ever: past the soft limit its task is interrupted
# and the job fails saying so; the hard limit, a little later, kills a task that ignores the interruption.
CELERY_TASK_SOFT_TIME_LIMIT = env.float("HEXSIDE_JOB_TIME_LIMIT", 900.0)
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 30
# After a pool process dies, how long Celery waits for a result it may have sent before requeueing its task
# (default 10 s, the pool slot idle meanwhile). Job results are in the database, so there is nothing to wait for.
CELERY_WORKER_LOST_WAIT = env.float("CELERY_WORKER_LOST_WAIT", 1.0)
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", False)

# Where the sample maps live; `make run` loads them.
SAMPLES_DIR = BASE_DIR / "maps" / "samples"
SCENARIO_SAMPLES_DIR = BASE_DIR / "authoring" / "samples"
# Extra ruleset files (JSON, the same shape as engine/games/*/catalogue.json) a designer drops in.
HEXSIDE_RULESETS_DIR = env.path("HEXSIDE_RULESETS_DIR", VAR_DIR / "rulesets")

# Importing community maps (engine/importers/, docs/importing.md): what one upload may cost.
HEXSIDE_IMPORT_MAX_BYTES = env.int("HEXSIDE_IMPORT_MAX_BYTES", 20 * 1024 * 1024)
HEXSIDE_IMPORT_MAX_ZIP_ENTRIES = env.int("HEXSIDE_IMPORT_MAX_ZIP_ENTRIES", 2000)
HEXSIDE_IMPORT_MAX_ZIP_TOTAL_BYTES = env.int("HEXSIDE_IMPORT_MAX_ZIP_TOTAL_BYTES", 200 * 1024 * 1024)
HEXSIDE_IMPORT_MAX_ZIP_RATIO = env.int("HEXSIDE_IMPORT_MAX_ZIP_RATIO", 200)
HEXSIDE_IMPORT_MAX_IMAGE_PIXELS = env.int("HEXSIDE_IMPORT_MAX_IMAGE_PIXELS", 60_000_000)
# Pixels one conversion decodes for the tile pictures of its proposed mapping, in all (engine/importers/pictures.py).
HEXSIDE_IMPORT_PICTURE_PIXELS = env.int("HEXSIDE_IMPORT_PICTURE_PIXELS", 32_000_000)
# What one upload may declare, read from its headers before its batch is queued (engine/importers/declared.py):
# hexes of all its maps (boards x hexes, Tiled maps' tiles), and pixels of all the images they name.
HEXSIDE_IMPORT_MAX_HEXES = int(env.float("HEXSIDE_IMPORT_MAX_HEXES", 2_000_000))
HEXSIDE_IMPORT_MAX_PIXELS = int(env.float("HEXSIDE_IMPORT_MAX_PIXELS", 500_000_000))

# Rules-level checks (engine/checks, docs/validation.md): how many LOS answers are asked both ways, within how many
# seconds, on a map page or GET /api/maps/<id>/findings/ and per file of a batch validation; and how many parts
# (run in parallel on however many workers there are) a batch is split into.
HEXSIDE_FINDINGS_LOS_PAIRS = env.int("HEXSIDE_FINDINGS_LOS_PAIRS", 12)
HEXSIDE_FINDINGS_LOS_SECONDS = env.float("HEXSIDE_FINDINGS_LOS_SECONDS", 0.25)
HEXSIDE_FINDINGS_LOS_MAX_HEXES = env.int("HEXSIDE_FINDINGS_LOS_MAX_HEXES", 10_000)
# A map's findings are worked out once per content and kept (maps/findings.py): up to this many hexes on the
# request that first asks, past it by a map-findings job (the page says they are being checked meanwhile).
HEXSIDE_FINDINGS_WAIT_HEXES = env.int("HEXSIDE_FINDINGS_WAIT_HEXES", 5_000)
# The findings of at most this many map contents are kept (each edit is new content); older ones go first.
HEXSIDE_FINDINGS_KEPT = env.int("HEXSIDE_FINDINGS_KEPT", 500)
HEXSIDE_BATCH_LOS_PAIRS = env.int("HEXSIDE_BATCH_LOS_PAIRS", 24)
HEXSIDE_BATCH_LOS_SECONDS = env.float("HEXSIDE_BATCH_LOS_SECONDS", 1.0)
HEXSIDE_BATCH_PARTS = env.int("HEXSIDE_BATCH_PARTS", 4)

VAR_DIR.mkdir(parents=True, exist_ok=True)
STATIC_ROOT.mkdir(exist_ok=True)

# Board scans under a map (the painter's tracing): the upload's limits, checked with Pillow.
HEXSIDE_SCAN_MAX_BYTES = env.int("HEXSIDE_SCAN_MAX_BYTES", 20 * 1024 * 1024)
HEXSIDE_SCAN_MAX_PIXELS = env.int("HEXSIDE_SCAN_MAX_PIXELS", 60_000_000)

# What one designer may store (maps/quotas.py): their maps' revisions, board scans and batch uploads, in MB
# (1 MB = 1,048,576 bytes). 0: no quota.
HEXSIDE_STORAGE_QUOTA_MB = env.float("HEXSIDE_STORAGE_QUOTA_MB", 500.0)

# -- The cost of a job, bounded before it is queued (issue 7). Refused with a 400 naming the setting. --
# A whole-map analysis answers n (n - 1) / 2 pairs of hexes: more than this is refused.
HEXSIDE_MAX_ANALYSIS_PAIRS = int(env.float("HEXSIDE_MAX_ANALYSIS_PAIRS", 2e8))
# Up to this many pairs an analysis also stores the full matrix (.npz, 4 bytes a pair); past it, only the
# per-hex counts, each part answering its pairs a bounded number at a time (the job's result says its mode).
HEXSIDE_ANALYSIS_MATRIX_PAIRS = int(env.float("HEXSIDE_ANALYSIS_MATRIX_PAIRS", 12.5e6))
# Sight lines of a scenario trace its setup zones against the play area and the enemy: past this many hexes
# crossed (the lines engine.scenarios.sightlines.pairs_bound works out from the scenario alone, times half the
# map's columns and rows) the job is refused before it is queued. 1e9 is a few minutes of one worker process.
HEXSIDE_MAX_SIGHT_LINES_HEXES = int(env.float("HEXSIDE_MAX_SIGHT_LINES_HEXES", 1e9))
# A scenario names at most this many maps of the library, each once (authoring/scenario_maps.py).
HEXSIDE_MAX_SCENARIO_MAPS = env.int("HEXSIDE_MAX_SCENARIO_MAPS", 8)
# A viewshed answers every hex of its map: maps with more hexes are refused.
HEXSIDE_MAX_VIEWSHED_HEXES = env.int("HEXSIDE_MAX_VIEWSHED_HEXES", 500 * 500)
# numba's compiled kernels are cached here (`manage.py warm_kernels` fills it; read-only deployments point it at
# a folder filled at build time). Read by engine/los through NUMBA_CACHE_DIR, which it sets before numba loads.
HEXSIDE_NUMBA_CACHE_DIR = env.str("HEXSIDE_NUMBA_CACHE_DIR", str(VAR_DIR / "numba-cache"))
os.environ.setdefault("NUMBA_CACHE_DIR", HEXSIDE_NUMBA_CACHE_DIR)
# /maps/<id>/map.png is drawn by a map-image job, never by the web process. For maps up to this many hexes the
# request waits for the job (at most this many seconds); larger maps get a placeholder (202, Retry-After) at once.
HEXSIDE_MAP_IMAGE_WAIT_HEXES = env.int("HEXSIDE_MAP_IMAGE_WAIT_HEXES", 10_000)
HEXSIDE_MAP_IMAGE_WAIT_SECONDS = env.float("HEXSIDE_MAP_IMAGE_WAIT_SECONDS", 10.0)
