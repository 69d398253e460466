"""The site's forms for scenarios: an imported scenario file, and pointing a scenario whose map is gone at another
map. They check nothing of their own: the file is read by scenariofile.parse against the maps its importer may
read, and a new map by the edit that writes it (every hex read against the new map)."""

from django import forms

from authoring import scenario_maps
from authoring.models import library_maps
from engine.scenarios import scenariofile
from maps.models import Map


class ScenarioImportForm(forms.Form):
    file = forms.FileField(label="Scenario file", help_text="A Hexside scenario file (JSON), as Export downloads it.")
    published = forms.BooleanField(required=False, help_text="Publish it at once (its maps must be published).")

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["doc"] = scenariofile.parse(data["file"].read(), library_maps(self.user))
        except scenariofile.ScenarioFormatError as exc:
            for finding in exc.errors:
                # the designer's words first; the JSON path after, for tools
                self.add_error("file", finding.message if finding.path == "$" else
                               f"{finding.message} (at {finding.path})")
        return data


class PointAtForm(forms.Form):
    """Which gone entry, and the map it names from now on: a map of the scenario's ruleset its owner may read and
    the scenario does not name yet."""

    entry = forms.TypedChoiceField(coerce=int, label="Map entry")
    map = forms.ModelChoiceField(queryset=Map.objects.none(), label="New map")
    revision = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, scenario, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.scenario = scenario
        self.gone = scenario_maps.gone_entries(scenario)
        self.fields["entry"].choices = [(index, f"{key} ({what}, gone)") for index, key, what in self.gone]
        named = {entry.get("id") for entry in scenario.document.get("maps") or [] if isinstance(entry, dict)}
        self.fields["map"].queryset = (Map.objects.visible_to(scenario.owner).filter(ruleset=scenario.ruleset)
                                       .exclude(pk__in=[pk for pk in named if isinstance(pk, int)])
                                       .order_by("name", "pk"))
        self.fields["map"].label_from_instance = lambda map: (
            f"{map.name} (map {map.pk}, {map.grid['columns']}×{map.grid['rows']} {map.grid['orientation']})")
        self.initial.setdefault("revision", scenario.revision)
