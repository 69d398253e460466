"""What a batch validation is started with, for the page and the API alike: the upload, the ruleset and the
maps' name."""

from django import forms

from engine import rulesets
from maps.forms import name_field


class BatchForm(forms.Form):
    file = forms.FileField(required=False)  # start_batch says what is wrong with a missing or empty one
    name = name_field()
    ruleset = forms.ChoiceField(required=False, help_text="The game the maps are converted to and checked against "
                                                          "(default: Old School Tactical).")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [("", "Old School Tactical (the default)")] + [
            (r.id, f"{r.name} ({r.id})") for r in rulesets.all_rulesets()]
