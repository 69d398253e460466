"""The application as `make run` serves it: ASGI, so that a visitor waiting for a job (GET /api/jobs/<id>/?wait=)
holds no thread, and a client sending its request a byte at a time holds only a socket (docs/scale.md)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
os.environ["HEXSIDE_ASGI"] = "1"  # read by the settings: no connection kept past its request
application = get_asgi_application()
