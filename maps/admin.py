"""Admin for maps, their revisions and custom rulesets.

Map documents are read-only here: a change of a map goes through its edits or an import, so that it is
checked and recorded as a revision. Custom rulesets are the one thing a designer writes in the admin.
"""

import json

from django.contrib import admin
from django.utils.html import format_html

from maps.models import CustomRuleset, Map, MapRevision


def pretty_json(value):
    return format_html("<pre style=\"max-height: 40rem; overflow: auto\">{}</pre>",
                       json.dumps(value, indent=2, ensure_ascii=False))


class MapRevisionInline(admin.TabularInline):
    model = MapRevision
    fields = ["number", "created", "author", "summary", "content_hash"]
    readonly_fields = fields
    ordering = ["-number"]
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True


@admin.register(Map)
class MapAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "ruleset", "revision", "published", "updated"]
    list_filter = ["published", "ruleset"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["owner"]
    fields = ["name", "owner", "published", "ruleset", "grid", "revision", "content_hash", "created", "updated",
              "document_view"]
    readonly_fields = ["name", "ruleset", "grid", "revision", "content_hash", "created", "updated", "document_view"]
    raw_id_fields = ["owner"]
    inlines = [MapRevisionInline]

    def has_add_permission(self, request):
        return False  # maps are made by the API: create or import

    @admin.display(description="document")
    def document_view(self, map):
        return pretty_json(map.document)


@admin.register(MapRevision)
class MapRevisionAdmin(admin.ModelAdmin):
    list_display = ["map", "number", "author", "created", "summary"]
    list_select_related = ["map", "author"]
    search_fields = ["map__name", "summary"]
    fields = ["map", "number", "author", "created", "summary", "content_hash", "document_view"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # history is kept whole

    @admin.display(description="document")
    def document_view(self, revision):
        return pretty_json(revision.document)


@admin.register(CustomRuleset)
class CustomRulesetAdmin(admin.ModelAdmin):
    list_display = ["slug", "owner", "maps_count", "updated"]
    search_fields = ["slug"]
    fields = ["slug", "owner", "data", "created", "updated"]
    readonly_fields = ["created", "updated"]
    raw_id_fields = ["owner"]

    def get_changeform_initial_data(self, request):
        return {"owner": request.user.pk}

    @admin.display(description="maps using it")
    def maps_count(self, ruleset):
        return ruleset.maps_using().count()

    def has_delete_permission(self, request, obj=None):
        # A map must always be readable: its ruleset cannot go while maps use it.
        if obj is not None and obj.maps_using().exists():
            return False
        return super().has_delete_permission(request, obj)
