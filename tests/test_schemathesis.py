"""Issue 7, point 5 and issue 17, point 13: schemathesis generates requests for every operation of /api/schema/, as
an anonymous and as a signed-in user, against the WSGI application. None may get a server error, and every answer
is what the schema says: a documented status code, a documented content type, a body and headers that match the
response schema.

Sized to that purpose: every operation, each way of asking, with a few generated examples (the schema's own
examples first; HEXSIDE_SCHEMATHESIS_EXAMPLES, default 3), no shrinking, no database of examples. A search for
new bad inputs is a run by hand with more: HEXSIDE_SCHEMATHESIS_EXAMPLES=100 pytest tests/test_schemathesis.py.
"""

import copy
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from hexside.wsgi import application
from tests.conftest import MAP_DOCUMENT

EXAMPLES = int(os.environ.get("HEXSIDE_SCHEMATHESIS_EXAMPLES", "3"))

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


@pytest.fixture
def wsgi_keeps_the_test_connection():
    """The WSGI handler closes the database connection after each request; in a test, that connection holds the
    test's transaction. Django's own test client disconnects the same signal handlers."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token(user):
    from rest_framework.authtoken.models import Token

    return Token.objects.create(user=user).key


def whole(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@pytest.fixture
def things(user, user_client, user_map, other_published_map, small_scenario, settings, tmp_path):
    """Something at each kind of path: a map, a scenario, jobs (one asked anonymously, so with no requester, and
    one with a result file), so that the answers about real things are checked too, not only the 404s."""
    from django.core.files.base import ContentFile

    from jobs.models import Job

    settings.MEDIA_ROOT = tmp_path
    scenario = user_client.post("/api/scenarios/", {"document": small_scenario}, format="json").json()["id"]
    anonymous = Job.objects.create(kind="los", subject_type="map", subject_id=other_published_map.pk,
                                   content_hash=other_published_map.content_hash, request_key="anonymous",
                                   parameters={"from": "A1", "to": "J8"}, status="succeeded", result={"clear": True})
    mine = Job.objects.create(kind="map-image", subject_type="map", subject_id=user_map.pk, requested_by=user,
                              content_hash=user_map.content_hash, request_key="mine", parameters={},
                              status="succeeded", result={"filename": "hill.png", "bytes": 8})
    mine.result_file.save("hill.png", ContentFile(b"\x89PNG\r\n\x1a\n"))
    return {"maps": [user_map.pk, other_published_map.pk], "scenarios": [scenario],
            "jobs": [anonymous.pk, mine.pk]}


@pytest.fixture
def small_scenario():
    from tests.scenarios.conftest import SMALL

    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = copy.deepcopy(MAP_DOCUMENT)
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_every_answer_is_what_the_schema_says(case, signed_in, token, things, wsgi_keeps_the_test_connection):
    headers = {"Authorization": f"Token {token}"} if signed_in else {}
    # The WSGI transport hands back the body as sent; a map's answer is gzip to a client that takes it
    # (maps/bodies.py, tested in tests/maps/test_bodies.py), so the schema is checked on the plain body.
    headers["Accept-Encoding"] = "identity"
    ids = things.get(case.path.split("/")[2], [])
    parameters = case.path_parameters or {}
    given = whole(parameters.get("id"))  # path parameters come as numbers or as the text sent
    if ids and given is not None and 0 <= given < 3 * len(ids):
        parameters["id"] = ids[given % len(ids)]  # mostly, one that exists
    if whole(parameters.get("number")) is not None and whole(parameters["number"]) > 3:
        parameters["number"] = 1
    case.call_and_validate(headers=headers, checks=CHECKS)


def test_the_schema_documents_every_error_and_download(api_client):
    """What schemathesis holds the answers to, said by the schema itself (each fact failed before issue 17)."""
    document = api_client.get("/api/schema/?format=json").json()
    components = document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert "403" in responses, (method, path)
            if "{" in path:
                assert "404" in responses, (method, path)
            if method in ("post", "put", "patch"):
                assert {"400", "413"} <= set(responses), (method, path)
            for code, response in responses.items():
                if code.startswith("4"):
                    assert response.get("content"), (method, path, code)  # every error has its body
    for path in ("/api/maps/", "/api/maps/import/", "/api/scenarios/", "/api/token/"):
        assert "429" in document["paths"][path]["post"]["responses"], path
    assert components["JobSummary"]["properties"]["requested_by"]["nullable"] is True
    assert components["Job"]["properties"]["requested_by"]["nullable"] is True
    job_file = document["paths"]["/api/jobs/{id}/file/"]["get"]["responses"]["200"]["content"]
    assert {"application/pdf", "image/png", "application/octet-stream"} <= set(job_file)
    scan = document["paths"]["/api/maps/{id}/background/"]["get"]["responses"]["200"]["content"]
    assert set(scan) == {"image/png", "image/jpeg"}
    edits = components["EditRequest"]
    assert edits["additionalProperties"] is False
    assert edits["properties"]["operations"]["minItems"] == 1
    scenario_ops = components["ScenarioEditRequest"]["properties"]["operations"]["items"]["oneOf"]
    assert {op["title"]: set(op["properties"]) for op in scenario_ops}["remove"] == {"op", "path"}
    assert components["MapUpdate"]["properties"]["name"]["minLength"] == 1
