"""The filesystem broker: the default broker, needing no service (kombu's filesystem transport), made safe for a
reader and a writer at the same moment.

kombu's own transport creates a message file under its final name and then writes it; a worker polling the folder
can move and read the file in between, find it empty, and fail to decode it (the message is lost and the worker's
consumer restarts). Here a message is written under a name no reader takes and renamed when complete: a rename
within one folder is atomic, so a reader finds a whole message or none.
"""

import os
import uuid
from pathlib import Path
from time import monotonic

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

TRANSPORT = "hexside.broker:Transport"


def filesystem_options(folder, polling_interval=0.05):
    """Transport options that keep every file of the broker under ``folder`` (made if missing)."""
    folder = Path(folder)
    for sub in ("in", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folder / "in"),
        "data_folder_out": str(folder / "in"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
        "polling_interval": polling_interval,
    }


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"  # readers take only names ending in "<queue>.msg"
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
