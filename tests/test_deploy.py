"""Issue 7, point 7: safe defaults. DEBUG only when asked for, no start without a secret key, Django's password
validators, `check --deploy` clean with the settings docs/scale.md gives, and job reads that do not show who
asked or where it ran to anyone but the requester and staff."""

import re
import runpy
import secrets
from pathlib import Path

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.management import call_command
from django.test import override_settings
from environs import EnvError

from jobs import runner
from jobs.models import Job

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "hexside" / "settings.py"
# What the environment of a fresh shell may hold that the settings read; each test sets its own.
ENV_NAMES = ("SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "HEXSIDE_HTTPS", "HEXSIDE_VAR_DIR", "DATABASE_URL",
             "CELERY_BROKER_URL", "HEXSIDE_CACHE_URL")


def load_settings(monkeypatch, tmp_path, **env):
    """hexside/settings.py run afresh with exactly this environment (var/ in tmp_path unless given)."""
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HEXSIDE_VAR_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS))


def test_debug_is_off_unless_asked_for(monkeypatch, tmp_path):
    assert load_settings(monkeypatch, tmp_path, SECRET_KEY="k" * 60)["DEBUG"] is False
    assert load_settings(monkeypatch, tmp_path, SECRET_KEY="k" * 60, DEBUG="0")["DEBUG"] is False
    assert load_settings(monkeypatch, tmp_path, DEBUG="1")["DEBUG"] is True


def test_each_variable_is_read_as_its_kind_and_a_wrong_one_stops_the_start_naming_it(monkeypatch, tmp_path):
    key = "k" * 60
    with pytest.raises(EnvError, match="HEXSIDE_MAX_HEXES"):
        load_settings(monkeypatch, tmp_path, SECRET_KEY=key, HEXSIDE_MAX_HEXES="lots")
    with pytest.raises(EnvError, match="DEBUG"):
        load_settings(monkeypatch, tmp_path, SECRET_KEY=key, DEBUG="maybe")
    read = load_settings(monkeypatch, tmp_path, SECRET_KEY="$" + key, HEXSIDE_MAX_HEXES="40000",
                         HEXSIDE_MAX_ANALYSIS_PAIRS="1e6", HEXSIDE_STORAGE_QUOTA_MB="2.5", HEXSIDE_HTTPS="1",
                         HEXSIDE_SSL_REDIRECT="0", ALLOWED_HOSTS="a.example,b.example")
    assert read["SECRET_KEY"] == "$" + key  # taken as it is: a "$" does not name another variable
    assert (read["HEXSIDE_MAX_HEXES"], read["HEXSIDE_MAX_ANALYSIS_PAIRS"], read["HEXSIDE_STORAGE_QUOTA_MB"]) == (
        40000, 1_000_000, 2.5)
    assert read["SECURE_SSL_REDIRECT"] is False and read["ALLOWED_HOSTS"] == ["a.example", "b.example"]
    assert read["CSRF_TRUSTED_ORIGINS"] == ["https://a.example", "https://b.example"]


def test_without_debug_a_missing_secret_key_refuses_to_start(monkeypatch, tmp_path):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        load_settings(monkeypatch, tmp_path)
    (tmp_path / "secret_key").write_text("a-key-kept-under-var-" + secrets.token_urlsafe(40) + "\n")
    kept = load_settings(monkeypatch, tmp_path)
    assert kept["SECRET_KEY"].startswith("a-key-kept-under-var-") and "development" not in kept["SECRET_KEY"]


def production_environment():
    """The `export NAME=VALUE` lines of docs/scale.md; a key read from a file there is made up here."""
    env = {}
    for name, value in re.findall(r"^export (\w+)=(\S+)", (ROOT / "docs/scale.md").read_text(), re.M):
        env[name] = secrets.token_urlsafe(50) if "$(" in value else value.strip('"')
    return env


SECURITY_SETTINGS = ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "MIDDLEWARE", "SECURE_SSL_REDIRECT",
                     "SECURE_PROXY_SSL_HEADER", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
                     "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "CSRF_TRUSTED_ORIGINS",
                     "AUTH_PASSWORD_VALIDATORS")


def test_check_deploy_is_clean_with_the_settings_docs_scale_gives(monkeypatch, tmp_path):
    env = production_environment()
    assert {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "HEXSIDE_HTTPS"} <= set(env)
    monkeypatch.delenv("DJANGO_ALLOW_ASYNC_UNSAFE", raising=False)  # the browser tests' setting, not production's
    production = load_settings(monkeypatch, tmp_path, **env)
    assert production["DEBUG"] is False
    with override_settings(**{name: production[name] for name in SECURITY_SETTINGS if name in production}):
        call_command("check", deploy=True, fail_level="WARNING")


def test_djangos_four_password_validators(user):
    for weak in ("password", "12345678901", "designer1", "abc"):
        with pytest.raises(ValidationError):
            validate_password(weak, user)
    validate_password("tall-amber-hedgerow-42", user)


@pytest.mark.django_db
def test_job_reads_show_who_asked_and_the_worker_only_to_the_requester_and_staff(
        user_client, other_client, api_client, admin_client, user, other_published_map):
    url = user_client.post(f"/api/maps/{other_published_map.pk}/los/", {"from": "A1", "to": "J8"},
                           format="json").json()["url"]
    job = Job.objects.get()
    taken = runner.take(job.pk, "worker-7@host.internal pid 4242")
    runner.finish(taken, runner.Outcome({"result": "clear"}))

    mine = user_client.get(url).json()
    assert mine["requested_by"] == user.username and "4242" in mine["worker"]
    assert admin_client.get(url).json()["requested_by"] == user.username
    for client in (api_client, other_client):  # anonymous, and the map's owner who did not ask
        body = client.get(url).json()
        assert body["requested_by"] is None and body["worker"] == ""
        assert user.username not in str(body) and "4242" not in str(body) and "host.internal" not in str(body)
