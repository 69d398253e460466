"""Which rulesets there are: the built-in games (engine/rulesets/games.py), the custom profiles registered by
hand, and those the loader gives (the database and HEXSIDE_RULESETS_DIR, set by the maps app); get() looks one
up by id."""

from collections.abc import Callable

from engine.rulesets import games
from engine.rulesets.catalogue import Ruleset, UnknownRuleset
from engine.rulesets.reading import _builtin

_custom: dict[str, Ruleset] = {}  # registered by hand
# where else custom profiles come from: a callable returning {id: Ruleset}
_loader: Callable[[], dict[str, Ruleset]] | None = None


def builtin_ids() -> tuple[str, ...]:
    return games.ids()


def set_loader(loader: Callable[[], dict[str, Ruleset]] | None) -> None:
    """Set the one source of custom profiles beyond register(): ``loader()`` returns {id: Ruleset}, the current
    set, and is called on every lookup of a custom id and every listing, so it must be cheap when nothing has
    changed (cache what it read). None removes it."""
    global _loader
    _loader = loader


def _custom_rulesets() -> dict[str, Ruleset]:
    """Every custom profile known now: the loader's, then the ones registered by hand on top."""
    loaded = dict(_loader()) if _loader is not None else {}
    loaded.update(_custom)
    return loaded


def get(ruleset_id: str) -> Ruleset:
    """The built-in or custom ruleset with this id (a custom one as the loader or register() gives it now)."""
    if games.is_game(ruleset_id):
        return _builtin(ruleset_id)
    if isinstance(ruleset_id, str) and ruleset_id in _custom:
        return _custom[ruleset_id]
    custom = _custom_rulesets()
    try:
        return custom[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(list(games.ids()) + sorted(custom))
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r}; known: {known}") from None


def all_rulesets() -> list[Ruleset]:
    """The built-in games in their usual order, then the custom profiles by id."""
    custom = _custom_rulesets()
    return [_builtin(rid) for rid in games.ids()] + [custom[rid] for rid in sorted(custom)]


def register(ruleset: Ruleset) -> Ruleset:
    """Make a custom profile available to get() by hand; registering the same id again replaces it."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"register() takes a Ruleset, not {type(ruleset).__name__}")
    if games.is_game(ruleset.id):
        raise ValueError(f"{ruleset.id!r} is a built-in ruleset and cannot be replaced")
    _custom[ruleset.id] = ruleset
    return ruleset


def unregister(ruleset_id: str) -> None:
    if games.is_game(ruleset_id):
        raise ValueError(f"{ruleset_id!r} is a built-in ruleset and cannot be removed")
    _custom.pop(ruleset_id, None)
