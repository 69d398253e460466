"""The job layer is kind-agnostic: jobs/ imports no app, and a kind (with a subject) that only a test registers
works end to end through it (asked, run, answered, visible to whoever may read its subject, gone with it)."""

import ast
import re
from pathlib import Path

import pytest
from celery import shared_task
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.urls import include, path

import jobs
from jobs import conf, dispatch, kinds, runner, subjects
from jobs.api import SubjectJobView
from jobs.models import Job
from jobs.runner import JobTask

APPS = {"maps", "authoring", "validations", "documents"}
MODEL_REFERENCE = re.compile(r"^({})\.\w+$".format("|".join(APPS)))
# Migrations are history: the first one made the foreign key to maps.Map that 0004 replaced by a subject.
JOBS_MODULES = sorted(p for p in Path(jobs.__file__).parent.rglob("*.py") if "migrations" not in p.parts)


@pytest.mark.parametrize("module", JOBS_MODULES, ids=lambda p: str(p.relative_to(Path(jobs.__file__).parent)))
def test_the_job_layer_imports_no_app(module):
    tree = ast.parse(module.read_text(), filename=str(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if not node.level else []
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert not MODEL_REFERENCE.match(node.value), f"{module.name}:{node.lineno} names {node.value!r}"
            continue
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in APPS, f"{module.name}:{node.lineno} imports {name}"


# -- a kind of the tests' own: a greeting for a person (a user as the job's subject) ---------------------------

GREETING = kinds.Kind("greeting", "tests.jobs.greet", label="greeting")


def people_readable_by(user):
    """A person is readable by themself alone."""
    User = get_user_model()
    return User.objects.filter(pk=user.pk) if user.is_authenticated else User.objects.none()


PERSON = subjects.Subject("person", get_user_model(), readable=people_readable_by, hash_field="username",
                          owner_field="id", label="person")


@shared_task(base=JobTask, bind=True, name="tests.jobs.greet")
def greet(self, job_id):
    def work(job):
        return {"greeting": f"{job.parameters['word']}, {get_user_model().objects.get(pk=job.subject_id).username}"}

    runner.run(self, job_id, work)


class GreetingJobView(SubjectJobView):
    kind = "greeting"

    def get_subject(self, request, pk):
        return get_object_or_404(people_readable_by(request.user), pk=pk)

    def parameters(self, request, person):
        return {"word": str(request.data.get("word", "hello"))}


urlpatterns = [
    path("api/people/<int:pk>/greeting/", GreetingJobView.as_view()),
    path("", include("hexside.urls")),
]


@pytest.fixture
def greeting_kind():
    """The test app's ready(): its kind and subject registered; forgotten afterwards."""
    kinds.register(GREETING)
    subjects.register(PERSON)
    yield
    kinds.KINDS.pop(GREETING.name)
    subjects.unregister(PERSON.name)


def run_in_process(job_id):
    """What a worker does with the job's message: run the task its kind names, with the message's ticket."""
    dispatch.message(Job.objects.get(pk=job_id)).apply()


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_kind_registered_by_another_app_runs_end_to_end(greeting_kind, user, user_client, other_client):
    url = f"/api/people/{user.pk}/greeting/"
    asked = user_client.post(url, {"word": "hail"}, format="json")
    assert asked.status_code == 202, asked.content
    job_id = asked.json()["job"]
    assert Job.objects.get(pk=job_id).queue == conf.get("QUEUE")  # not interactive: the queue of heavy jobs
    run_in_process(job_id)

    body = user_client.get(asked.json()["url"]).json()
    assert body["status"] == "succeeded" and body["kind"] == "greeting"
    assert body["result"] == {"greeting": "hail, designer"}
    assert body["person"] == user.pk and body["map"] is None and body["stale"] is False
    assert body["map_hash"] == "designer"  # the subject's content hash: here its username

    again = user_client.post(url, {"word": "hail"}, format="json")
    assert again.status_code == 200 and again.json()["id"] == job_id  # the stored answer, not asked again
    listed = user_client.get(f"/api/jobs/?kind=greeting&person={user.pk}").json()["results"]
    assert [job["id"] for job in listed] == [job_id]
    refused = user_client.get("/api/jobs/?person=someone")
    assert refused.status_code == 400 and "person" in refused.json()
    assert user_client.get("/api/jobs/?kind=no-such-kind").status_code == 400

    # Another user may not read this person, so neither its jobs.
    assert other_client.get(asked.json()["url"]).status_code == 404
    assert other_client.post(url, {}, format="json").status_code == 404

    user.username = "renamed"
    user.save()
    assert user_client.get(asked.json()["url"]).json()["stale"] is True
    user.delete()
    assert not Job.objects.filter(pk=job_id).exists()  # the subject's jobs go with it


@pytest.mark.django_db
def test_a_maps_jobs_go_with_it(user_map):
    job, _ = dispatch.submit("los", {"from": "C4", "to": "H6", "from_level": None, "to_level": None,
                                     "markers": []}, subject=user_map)
    assert (job.subject_type, job.subject_id) == ("map", user_map.pk)
    user_map.delete()
    assert not Job.objects.filter(pk=job.pk).exists()
