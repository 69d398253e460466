"""The search box and filters of the site's lists (the maps, the scenarios), read from the query string: a
filtered list is a page of its own address, so that it pages, reloads and is shared like any other."""

from django import forms
from django.core.paginator import Paginator

from engine import rulesets

PER_PAGE = 50


class ListFilter(forms.Form):
    """What a list may be narrowed by: words in the name, a game, and (where the list has them) whose."""

    q = forms.CharField(required=False, max_length=100, label="Search", strip=True)
    game = forms.ChoiceField(required=False, label="Game")
    show = forms.ChoiceField(required=False, label="Show")

    def __init__(self, data, shows=()):
        super().__init__(data)
        self.fields["game"].choices = [("", "every game")] + [(r.id, r.name) for r in rulesets.all_rulesets()]
        if shows:
            self.fields["show"].choices = list(shows)
        else:
            del self.fields["show"]


def listed(request, queryset, *, search, shows=(), show=None):
    """One page of ``queryset`` narrowed by the request's filter: ``search`` is the field the words are looked for
    in, ``show(queryset, choice)`` narrows by one of ``shows``. A value that is not one of the choices is left out
    and said in the form's errors; the list is then narrowed by the rest."""
    form = ListFilter(request.GET, shows)
    form.is_valid()
    values = form.cleaned_data
    if values.get("q"):
        queryset = queryset.filter(**{f"{search}__icontains": values["q"]})
    if values.get("game"):
        queryset = queryset.filter(ruleset=values["game"])
    if show is not None and values.get("show"):
        queryset = show(queryset, values["show"])
    page = Paginator(queryset, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return {"page": page, "items": page.object_list, "filter": form, "query": query.urlencode(),
            "filtered": any(values.get(name) for name in ("q", "game", "show"))}
