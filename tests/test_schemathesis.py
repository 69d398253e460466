"""Issue 7, point 5: schemathesis generates requests for every operation of /api/schema/, as an anonymous and as a
signed-in user, against the WSGI application; none may get a server error.

Bounded: a few examples per operation (HEXSIDE_SCHEMATHESIS_EXAMPLES, default 6), no shrinking, no database of
examples, so the run stays well under a minute.
"""

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings

from hexside.wsgi import application

EXAMPLES = int(os.environ.get("HEXSIDE_SCHEMATHESIS_EXAMPLES", "6"))

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


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


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_no_operation_answers_a_server_error(case, signed_in, token, user_map, other_published_map,
                                            wsgi_keeps_the_test_connection):
    headers = {"Authorization": f"Token {token}"} if signed_in else {}
    if "id" in (case.path_parameters or {}) and case.path_parameters["id"] in (0, 1):
        case.path_parameters["id"] = user_map.pk  # now and then, a map that exists
    response = case.call(headers=headers)
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:500])
