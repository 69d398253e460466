"""Which sides of a scenario a request's reader holds: the one answer every channel asks (the page, the editor's
API reads, revisions, the file download, and the jobs with their files), as scenario_maps.maps_for is for maps.

The owner and the scenario's editors (ScenarioEditor, made by the owner) hold every side (visibility.ALL).
Anyone else holds the sides whose live links they carry: a link's token given as ``?link=<token>`` (an API
client), or kept in their session when they opened the link's page (/scenarios/<id>/side/<token>/), so that the
page's own requests and downloads carry it. A link opens a side of a scenario its holder may read anyway (a
published one): it adds a side's private part, it does not publish a private scenario.
"""

from authoring.models import ScenarioEditor, SideLink
from engine.scenarios import visibility

SESSION_KEY = "scenario_side_links"
QUERY_PARAMETER = "link"
KEPT_LINKS = 32  # the links one session remembers (the newest)


def tokens_of(request):
    """The link tokens a request carries: its ?link= and those its session remembers."""
    tokens = []
    given = getattr(request, "GET", {}).get(QUERY_PARAMETER)
    if given:
        tokens.append(given)
    session = getattr(request, "session", None)
    if session is not None:
        tokens += [t for t in session.get(SESSION_KEY, []) if isinstance(t, str)]
    return tokens


def remember(request, link):
    """Keep a link's token in the request's session (its page was opened)."""
    kept = [t for t in request.session.get(SESSION_KEY, []) if t != link.token]
    request.session[SESSION_KEY] = ([link.token] + kept)[:KEPT_LINKS]


def is_owner(user, scenario):
    return bool(user is not None and user.is_authenticated and user.pk == scenario.owner_id)


def is_editor(user, scenario):
    """Whether ``user`` is one of the scenario's editors (not its owner)."""
    return bool(user is not None and user.is_authenticated
                and ScenarioEditor.objects.filter(scenario=scenario, user=user).exists())


def may_edit(user, scenario):
    """The owner and the editors may change the scenario's document (edits, restore, title)."""
    return is_owner(user, scenario) or is_editor(user, scenario)


def sides_for(request, scenario):
    """visibility.ALL for the owner and the editors; else the frozenset of side ids whose live links the request
    carries (and that the scenario still has); empty for everyone else."""
    user = getattr(request, "user", None)
    if may_edit(user, scenario):
        return visibility.ALL
    tokens = tokens_of(request)
    if not tokens:
        return frozenset()
    held = set(SideLink.objects.live().filter(scenario=scenario, token__in=tokens).values_list("side", flat=True))
    return frozenset(held & {s.get("id") for s in scenario.document.get("sides") or []})


def may_read_job(job, request):
    """Whether a job about a scenario is this request's to read: its result and file were made for sides the
    reader holds (a job asked before jobs carried their sides was made for the owner), on maps the reader may
    read (an editor does not read the owner's private map through the owner's job)."""
    from authoring.models import Scenario
    from authoring.scenario_maps import pins_readable

    scenario = Scenario.objects.filter(pk=job.subject_id).select_related("owner").first()
    if scenario is None:
        return False
    wanted = (job.parameters or {}).get("sides", visibility.ALL)
    if not visibility.covers(sides_for(request, scenario), wanted):
        return False
    return pins_readable((job.parameters or {}).get("maps"), getattr(request, "user", None))


def sheets_for(scenario, sides):
    """The card's sheets this reader may have: the public card, and the secret sheet of each side they hold
    (every side's for the owner and the editors). (sheet, label) as cards.sheet_choices."""
    from engine.scenarios import cards

    choices = cards.sheet_choices(scenario.document)
    return [(sheet, label) for sheet, label in choices if sheet == cards.PUBLIC or visibility.holds(sides, sheet)]
