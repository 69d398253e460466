"""Issue 7, point 4: rate limits on starting jobs, importing maps and trying passwords, per user and per address,
counted in a cache every web process shares."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from jobs.models import Job
from maps.models import Map

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
RATES = {"jobs": "3/minute", "jobs-address": "100/minute", "imports": "2/minute", "imports-address": "100/minute",
         "token": "3/minute"}


def assert_throttled(response):
    assert response.status_code == 429, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    assert "throttled" in response.json()["detail"].lower() and response.has_header("Retry-After")


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_starting_jobs_is_throttled_per_user(user_client, other_client, other_published_map):
    url = f"/api/maps/{other_published_map.pk}/los/"
    for k in range(3):
        assert user_client.post(url, {"from": "A1", "to": f"J{k + 1}"}, format="json").status_code == 202
    assert_throttled(user_client.post(url, {"from": "A1", "to": "J5"}, format="json"))
    assert_throttled(user_client.post(f"/api/maps/{other_published_map.pk}/analysis/", {}, format="json"))
    assert Job.objects.count() == 3
    # another user is counted apart
    assert other_client.post(url, {"from": "A1", "to": "J6"}, format="json").status_code == 202


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_anonymous_requests_are_throttled_per_address(other_published_map):
    url = f"/api/maps/{other_published_map.pk}/viewshed/"
    here = APIClient(REMOTE_ADDR="203.0.113.7")
    for _ in range(3):
        assert here.post(url, {"from": "A1"}, format="json").status_code in (401, 403)
    assert_throttled(here.post(url, {"from": "A1"}, format="json"))
    elsewhere = APIClient(REMOTE_ADDR="203.0.113.8")
    assert elsewhere.post(url, {"from": "A1"}, format="json").status_code in (401, 403)


@override_settings(HEXSIDE_THROTTLE_RATES={**RATES, "jobs-address": "4/minute"})
def test_many_accounts_from_one_address_share_its_rate(user, other_user, other_published_map):
    url = f"/api/maps/{other_published_map.pk}/los/"
    clients = []
    for person in (user, other_user):
        client = APIClient(REMOTE_ADDR="192.0.2.44")
        client.force_login(person)
        clients.append(client)
    for k in range(4):
        assert clients[k % 2].post(url, {"from": "A1", "to": f"J{k + 1}"}, format="json").status_code == 202
    assert_throttled(clients[0].post(url, {"from": "A1", "to": "J7"}, format="json"))
    assert_throttled(clients[1].post(url, {"from": "A1", "to": "J7"}, format="json"))


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_a_client_cannot_choose_its_address_with_x_forwarded_for(user):
    client = APIClient(REMOTE_ADDR="198.51.100.9")
    for k in range(3):
        assert client.post("/api/token/", {"username": user.username, "password": "wrong"}, format="json",
                           HTTP_X_FORWARDED_FOR=f"10.0.0.{k}").status_code == 400
    assert_throttled(client.post("/api/token/", {"username": user.username, "password": "wrong"}, format="json",
                                 HTTP_X_FORWARDED_FOR="10.0.0.99"))


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_imports_and_creating_maps_are_throttled(user_client, map_document):
    assert user_client.post("/api/maps/import/", map_document, format="json").status_code == 201
    assert user_client.post("/api/maps/", {"document": map_document}, format="json").status_code == 201
    assert_throttled(user_client.post("/api/maps/import/", map_document, format="json"))
    assert_throttled(user_client.post("/api/maps/", {"document": map_document}, format="json"))
    assert Map.objects.count() == 2


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_wrong_passwords_are_throttled_then_even_the_right_one_waits(user):
    client = APIClient(REMOTE_ADDR="198.51.100.3")
    for k in range(3):
        response = client.post("/api/token/", {"username": user.username, "password": f"guess-{k}"}, format="json")
        assert response.status_code == 400
    assert_throttled(client.post("/api/token/", {"username": user.username, "password": "designer-password"},
                                 format="json"))
    cache.clear()  # the minute has passed
    assert client.post("/api/token/", {"username": user.username, "password": "designer-password"},
                       format="json").status_code == 200


def test_the_throttle_cache_is_shared_between_processes():
    """A count written by one web process is seen by another: what gunicorn's workers need."""
    cache.set("throttle:shared-check", 41, 60)
    code = ("import django; django.setup(); from django.core.cache import cache; "
            "cache.set('throttle:shared-check', cache.get('throttle:shared-check') + 1, 60)")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60,
                   env={**os.environ, "DJANGO_SETTINGS_MODULE": "hexside.settings"})
    assert cache.get("throttle:shared-check") == 42


@override_settings(HEXSIDE_THROTTLE_RATES={**RATES, "edits": "3/minute", "edits-address": "100/minute"})
def test_edits_are_throttled_per_user_and_a_refused_edit_stores_nothing(user_client, other_client, user_map,
                                                                          other_user, make_map):
    """Issue 27 point 5: each edit stores a revision; 52 a second was possible."""
    url = f"/api/maps/{user_map.pk}/edits/"
    for k in range(3):
        revision = Map.objects.get(pk=user_map.pk).revision
        ops = [{"op": "set_level", "hexes": ["B2"], "level": k % 2 + 1}]
        assert user_client.post(url, {"revision": revision, "operations": ops}, format="json").status_code == 200
    revision = Map.objects.get(pk=user_map.pk).revision
    refused = user_client.post(url, {"revision": revision, "operations": [{"op": "set_level", "hexes": ["B3"],
                                                                            "level": 1}]}, format="json")
    assert_throttled(refused)
    assert Map.objects.get(pk=user_map.pk).revision == revision
    restore = user_client.post(f"/api/maps/{user_map.pk}/revisions/1/restore/", {"revision": revision},
                               format="json")
    assert_throttled(restore)
    theirs = make_map(other_user)
    ops = [{"op": "set_level", "hexes": ["B2"], "level": 1}]
    assert other_client.post(f"/api/maps/{theirs.pk}/edits/", {"revision": 1, "operations": ops},
                             format="json").status_code == 200  # another user is counted apart
