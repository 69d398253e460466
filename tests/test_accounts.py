"""Issue 17, point 8: the demo user is an ordinary designer, password guessing is stopped on every login form,
and sign-ups are throttled per address. Issue 27, point 6: nobody can lock an account for its owner."""

import io

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

FAILURES = 5


def login_page(client, username, password):
    return client.post("/accounts/login/", {"username": username, "password": password})


def signed_in(client):
    return "_auth_user_id" in client.session


def test_demo_user_is_an_ordinary_user_and_an_old_superuser_demo_is_demoted(django_user_model):
    call_command("demo_user", stdout=io.StringIO())
    demo = django_user_model.objects.get(username="demo")
    assert demo.check_password("demo") and not demo.is_superuser and not demo.is_staff
    demo.is_superuser = demo.is_staff = True
    demo.save()
    out = io.StringIO()
    call_command("demo_user", stdout=out)
    demo.refresh_from_db()
    assert not demo.is_superuser and not demo.is_staff and "administrator" in out.getvalue()


# -- password guessing (issue 27, point 6): the (account, address) pair is locked, and an address guessing at many
# accounts; never an account for its owner elsewhere. On all three sign-in forms, from several addresses.

ADDRESS_FAILURES = 8
GUESSING = override_settings(AXES_FAILURE_LIMIT=FAILURES, HEXSIDE_LOGIN_ADDRESS_FAILURES=ADDRESS_FAILURES,
                             HEXSIDE_THROTTLE_RATES={"token": "1000/minute"})
ENDPOINTS = ["site", "admin", "token"]


def sign_in(where, client, username, password):
    """(status, signed in, the refusal's message or None) of one sign-in on one of the three forms."""
    if where == "token":
        response = client.post("/api/token/", {"username": username, "password": password},
                               content_type="application/json")
        body = response.json()
        message = body["errors"][0]["message"] if response.status_code == 429 else None
        return response, "token" in body, message
    url = "/accounts/login/" if where == "site" else "/admin/login/"
    response = client.post(url, {"username": username, "password": password, "next": "/admin/"})
    message = response.context["locked_out"] if response.status_code == 429 else None
    return response, signed_in(client), message


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_superuser("owner", password="owner-password")  # the admin's too


@GUESSING
@pytest.mark.parametrize("where", ENDPOINTS)
def test_a_stranger_guessing_locks_only_their_own_address_out_of_the_account(where, owner):
    guesser = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(FAILURES - 1):
        response, ok, _ = sign_in(where, guesser, "owner", "wrong")
        assert response.status_code in (200, 400) and not ok
    response, ok, message = sign_in(where, guesser, "owner", "wrong")
    assert response.status_code == 429 and not ok
    response, ok, message = sign_in(where, guesser, "owner", "owner-password")
    assert response.status_code == 429 and not ok
    assert "even with the right password" in message and "this account from this address" in message
    assert "minutes" in message and int(response["Retry-After"]) > 60
    # a client's own X-Forwarded-For is not believed (no trusted proxy in front: HEXSIDE_NUM_PROXIES = 0)
    spoofed = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert sign_in(where, spoofed, "owner", "owner-password")[0].status_code == 429
    # the owner, from an address that has not failed, signs in
    response, ok, _ = sign_in(where, Client(REMOTE_ADDR="10.0.0.2"), "owner", "owner-password")
    assert ok and response.status_code in (200, 302)


@GUESSING
@pytest.mark.parametrize("where", ENDPOINTS)
def test_one_failure_each_from_many_addresses_locks_nobody(where, owner):
    for k in range(2 * FAILURES):
        assert not sign_in(where, Client(REMOTE_ADDR=f"10.0.1.{k}"), "owner", "wrong")[1]
    assert sign_in(where, Client(REMOTE_ADDR="10.0.1.0"), "owner", "owner-password")[1]
    assert sign_in(where, Client(REMOTE_ADDR="10.0.2.1"), "owner", "owner-password")[1]


@GUESSING
@pytest.mark.parametrize("where", ENDPOINTS)
def test_an_address_guessing_at_many_accounts_is_locked(where, owner):
    guesser = Client(REMOTE_ADDR="10.0.3.1")
    for k in range(ADDRESS_FAILURES):  # fewer than FAILURES for each account: no pair is locked
        sign_in(where, guesser, f"someone-{k % 3}", "wrong")
    response, ok, message = sign_in(where, guesser, "owner", "owner-password")
    assert response.status_code == 429 and not ok
    assert "from this address" in message and "this account" not in message
    assert int(response["Retry-After"]) > 60
    # the account itself is not locked: its owner elsewhere signs in
    assert sign_in(where, Client(REMOTE_ADDR="10.0.3.2"), "owner", "owner-password")[1]


@GUESSING
def test_a_lock_on_one_form_holds_on_the_others_from_that_address(owner):
    guesser = Client(REMOTE_ADDR="10.0.4.1")
    for _ in range(FAILURES):
        sign_in("site", guesser, "owner", "wrong")
    assert sign_in("token", guesser, "owner", "owner-password")[0].status_code == 429
    assert sign_in("admin", guesser, "owner", "owner-password")[0].status_code == 429
    assert sign_in("admin", Client(REMOTE_ADDR="10.0.4.2"), "owner", "owner-password")[1]


@override_settings(AXES_FAILURE_LIMIT=FAILURES)
def test_a_success_before_the_limit_starts_the_count_again(django_user_model):
    django_user_model.objects.create_user("forgetful", password="right-password")
    client = Client(REMOTE_ADDR="10.0.0.5")
    for _ in range(FAILURES - 1):
        login_page(client, "forgetful", "wrong")
    assert login_page(client, "forgetful", "right-password").status_code == 302
    client.logout()
    for _ in range(FAILURES - 1):
        login_page(client, "forgetful", "wrong")
    assert login_page(client, "forgetful", "right-password").status_code == 302


def test_signing_out_revokes_the_api_token(django_user_model):
    django_user_model.objects.create_user("scripter", password="script-password")
    client = Client(REMOTE_ADDR="10.0.5.1")
    token = client.post("/api/token/", {"username": "scripter", "password": "script-password"},
                        content_type="application/json").json()["token"]
    api = Client(REMOTE_ADDR="10.0.5.1", HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/jobs/").status_code == 200
    assert login_page(client, "scripter", "script-password").status_code == 302
    assert client.post("/accounts/logout/").status_code == 302 and not signed_in(client)
    refused = api.get("/api/jobs/")  # 403: the session's authentication comes first, and sends no challenge
    assert refused.status_code == 403 and "Invalid token" in refused.json()["detail"]
    again = client.post("/api/token/", {"username": "scripter", "password": "script-password"},
                        content_type="application/json").json()["token"]
    assert again != token


@override_settings(HEXSIDE_THROTTLE_RATES={"signup": "3/hour"})
def test_sign_ups_are_throttled_per_address(django_user_model):
    def sign_up(address, name):
        return Client(REMOTE_ADDR=address).post("/accounts/signup/", {
            "username": name, "password1": "a-long-enough-password", "password2": "a-long-enough-password"})

    for k in range(3):
        assert sign_up("10.0.1.1", f"new-{k}").status_code == 302
    refused = sign_up("10.0.1.1", "one-too-many")
    assert refused.status_code == 429 and refused.has_header("Retry-After")
    assert "Too many new accounts from this address" in refused.content.decode()
    assert not django_user_model.objects.filter(username="one-too-many").exists()
    assert sign_up("10.0.1.2", "elsewhere").status_code == 302
