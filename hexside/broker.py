"""The filesystem broker's folders: the default broker, needing no service (kombu's filesystem transport)."""

from pathlib import Path


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
