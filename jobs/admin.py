"""Jobs in the admin: find them by status, kind and date; read their result; cancel them."""

import json

from django.contrib import admin, messages
from django.utils.html import format_html

from jobs import dispatch
from jobs.models import Job

RESULT_PREVIEW = 20_000


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "status", "progress", "subject", "requested_by", "cost", "created", "finished",
                    "attempts", "worker"]
    list_filter = ["status", "kind", "subject_type", "created"]
    search_fields = ["=id", "requested_by__username", "requested_from", "worker", "error"]
    date_hierarchy = "created"
    list_select_related = ["requested_by"]
    actions = ["cancel_jobs"]
    fields = ["kind", "status", "step", "progress", "message", "subject_type", "subject_id", "content_hash",
              "parameters_pretty", "result_pretty", "result_file", "error", "requested_by", "requested_from", "cost",
              "created", "started", "finished", "worker", "heartbeat", "attempts", "parts_total", "parts_done",
              "request_key", "result_key", "token"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="about", ordering="subject_type")
    def subject(self, job):
        return f"{job.subject_type} {job.subject_id}" if job.subject_type else "-"

    @admin.display(description="parameters")
    def parameters_pretty(self, job):
        return format_html("<pre>{}</pre>", json.dumps(job.parameters, indent=2, ensure_ascii=False))

    @admin.display(description="result")
    def result_pretty(self, job):
        if job.result_in_file and job.result_file:
            with job.result_file.open("rb") as f:
                head = f.read(RESULT_PREVIEW).decode(errors="replace")
            return format_html("<pre>{}\n… (the result is the file {}, {:,} bytes)</pre>", head, job.result_file.name,
                               job.result_file.size)
        if job.result is None:
            return "-"
        text = json.dumps(job.result, indent=2, ensure_ascii=False)
        if len(text) > RESULT_PREVIEW:
            text = text[:RESULT_PREVIEW] + f"\n… ({len(text):,} characters in all)"
        return format_html("<pre>{}</pre>", text)

    @admin.action(description="Cancel the selected jobs", permissions=["delete"])
    def cancel_jobs(self, request, queryset):
        count = sum(dispatch.cancel(job) for job in queryset)
        self.message_user(request, f"{count} job(s) cancelled.", messages.SUCCESS)
