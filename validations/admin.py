from django.contrib import admin

from validations.models import BatchFile, BatchValidation


class BatchFileInline(admin.TabularInline):
    model = BatchFile
    fields = ["index", "name", "source_format", "verdict", "errors", "warnings", "map"]
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(BatchValidation)
class BatchValidationAdmin(admin.ModelAdmin):
    """Batch validations, read-only: what was uploaded, by whom, and each file's verdict."""

    list_display = ["name", "owner", "created", "files_total", "job"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["owner", "job"]
    readonly_fields = ["owner", "name", "upload", "size", "job", "files_total", "created"]
    inlines = [BatchFileInline]

    def has_add_permission(self, request):
        return False
