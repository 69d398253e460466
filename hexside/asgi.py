"""The application as `make run` serves it: ASGI, so that a visitor waiting for a job (GET /api/jobs/<id>/?wait=)
holds no thread that serves pages, and a client sending its request a byte at a time holds only a socket
(docs/scale.md)."""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
os.environ["HEXSIDE_ASGI"] = "1"  # read by the settings: no connection kept past its request

_END = object()


async def chunks_in_a_thread(iterator):
    read = sync_to_async(next, thread_sensitive=False)  # a file read: any thread of the loop's pool will do
    while (chunk := await read(iterator, _END)) is not _END:
        yield chunk


class Handler(ASGIHandler):
    """Django's, sending files a chunk at a time. Given a response with a sync iterator (a FileResponse: a job's
    result file, a map's picture, whitenoise's static files), Django's reads it whole into memory first, and
    warns each time."""

    async def send_response(self, response, send):
        if response.streaming and not response.is_async:
            response.streaming_content = chunks_in_a_thread(iter(response.streaming_content))
        return await super().send_response(response, send)


django.setup(set_prefix=False)
application = Handler()
