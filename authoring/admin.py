from django.contrib import admin

from authoring.models import Scenario, ScenarioEditor, ScenarioRevision, SideLink


class ScenarioRevisionInline(admin.TabularInline):
    model = ScenarioRevision
    fields = ["number", "author", "created", "summary", "content_hash"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False


class ScenarioEditorInline(admin.TabularInline):
    """The users the owner made editors (they read every side and edit)."""

    model = ScenarioEditor
    fields = ["user", "added"]
    readonly_fields = ["added"]
    raw_id_fields = ["user"]
    extra = 0


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):
    list_display = ["title", "ruleset", "owner", "published", "revision", "updated"]
    list_filter = ["ruleset", "published"]
    search_fields = ["title", "owner__username"]
    readonly_fields = ["revision", "content_hash", "created", "updated"]
    inlines = [ScenarioEditorInline, ScenarioRevisionInline]


@admin.register(SideLink)
class SideLinkAdmin(admin.ModelAdmin):
    """Side links, to see and revoke; the token is never shown (whoever reads it holds the side)."""

    list_display = ["scenario", "side", "created", "revoked"]
    list_filter = ["revoked"]
    fields = ["scenario", "side", "created", "revoked"]
    readonly_fields = ["scenario", "side", "created"]
