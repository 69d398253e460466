"""What the scenario commands share: finding the maps a scenario file names, as the page's download names them.

A scenario downloaded from the page names its library maps by id; one written by hand names map files by name.
The commands read both: an id from this server's library (its published maps, and with --user that designer's
own), a name from the folder of map files (--maps, the sample maps by default) and then from that library."""

from django.conf import settings
from django.contrib.auth import get_user_model

from engine.scenarios import scenariofile
from maps.cli import CliError
from maps.models import Map


def add_map_options(parser):
    parser.add_argument("--maps", default=None, metavar="DIR",
                        help="A folder of map files named by the scenario (default: the sample maps).")
    parser.add_argument("--user", default=None, metavar="NAME",
                        help="Whose maps the scenario may name by id or name besides the published ones (the "
                             "designer who downloaded it).")


def map_lookup(options):
    """scenariofile.parse's map lookup for the command's --maps and --user."""
    user = None
    if options.get("user"):
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CliError(f"--user: no user named {options['user']!r}")
    folder = scenariofile.folder_maps(options.get("maps") or settings.SAMPLES_DIR)
    readable = Map.objects.filter(published=True) if user is None else Map.objects.visible_to(user)
    whose = "published" if user is None else f"published or {user.username}'s own"

    def lookup(entry):
        if "id" in entry:
            map = readable.filter(pk=entry["id"]).first()
            if map is None:
                raise scenariofile.MapLookupError(f"no {whose} map {entry['id']} in this server's library"
                                                  + ("" if user else " (name its designer with --user)"))
            return map.mapdoc()
        try:
            return folder(entry)
        except scenariofile.MapLookupError:
            found = readable.filter(name=entry["name"]).order_by("-published", "pk").first()
            if found is None:
                raise
            return found.mapdoc()

    return lookup
