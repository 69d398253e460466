"""What else stands on a map, for deleting it with care. Maps import no other app, so an app whose things name
maps (scenarios) registers here, in its AppConfig.ready(), how to find them; deleting a map then lists them, and
the owner's own ones go with the map only when asked, in the same transaction."""

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from maps import bodies


@dataclass(frozen=True)
class Dependent:
    """One thing that names a map: what it is called, where its page is, and how it goes."""

    what: str  # "scenario"
    title: str
    url: str
    owner: str
    mine: bool  # the map's owner's own, so deleted with it when asked, or kept with the map embedded
    delete: Callable[[], None]
    keep: Callable[[], None] | None = None  # puts the map inside it, so that it stands without the map


_finders = []


def register(finder):
    """``finder(map)`` returns the Dependents naming the map, in the order to list them."""
    if finder not in _finders:
        _finders.append(finder)


def of(map):
    return [dependent for finder in _finders for dependent in finder(map)]


class NotKept(Exception):
    """One of the owner's things could not take the map inside it (its own limits); nothing is deleted."""


class MapInUse(Exception):
    """The owner's own things stand on the map and the request did not say to delete them too."""

    def __init__(self, dependents):
        self.dependents = dependents
        names = ", ".join(f"“{d.title}”" for d in dependents)
        super().__init__(f"your {dependents[0].what}{'s' if len(dependents) != 1 else ''} {names} "
                         f"{'use' if len(dependents) != 1 else 'uses'} this map: keep "
                         f"{'them' if len(dependents) != 1 else 'it'} with the map embedded, delete "
                         f"{'them' if len(dependents) != 1 else 'it'} with the map, or point "
                         f"{'them' if len(dependents) != 1 else 'it'} at another map first")


def delete_map(map, with_dependents=False, keep_dependents=False):
    """Delete a map and its history; with ``with_dependents`` the owner's own things on it too, or with
    ``keep_dependents`` those kept, the map embedded in each, all in one transaction (MapInUse with neither, or
    NotKept, and nothing is deleted). Others' things on it stay, saying their map is gone. Returns the owner's
    dependents deleted or kept."""
    with transaction.atomic():
        mine = [dependent for dependent in of(map) if dependent.mine]
        if mine and not (with_dependents or keep_dependents):
            raise MapInUse(mine)
        for dependent in mine:
            if keep_dependents and dependent.keep is not None:
                dependent.keep()
            else:
                dependent.delete()
        pk = map.pk
        map.delete()
        transaction.on_commit(lambda: bodies.forget(pk))
    return mine
