"""Issue 17, point 8: the demo user is an ordinary designer, password guessing is stopped on every login form,
and sign-ups are throttled per address."""

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


@override_settings(AXES_FAILURE_LIMIT=FAILURES)
def test_wrong_passwords_lock_the_account_and_the_right_one_is_refused_with_a_message(django_user_model):
    django_user_model.objects.create_user("designer", password="right-password")
    guesser = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(FAILURES - 1):
        assert login_page(guesser, "designer", "wrong").status_code == 200
    response = login_page(guesser, "designer", "wrong")
    assert response.status_code == 429
    response = login_page(guesser, "designer", "right-password")
    assert response.status_code == 429 and not signed_in(guesser)
    text = response.content.decode()
    assert "even with the right password" in text and "minutes" in text
    assert int(response["Retry-After"]) > 60
    # per account: the owner, from another address, is refused too while the lock lasts
    owner = Client(REMOTE_ADDR="10.0.0.2")
    assert login_page(owner, "designer", "right-password").status_code == 429 and not signed_in(owner)


@override_settings(AXES_FAILURE_LIMIT=FAILURES)
def test_guessing_many_accounts_from_one_address_locks_the_address(django_user_model):
    django_user_model.objects.create_user("victim", password="victim-password")
    guesser = Client(REMOTE_ADDR="10.0.0.3")
    for k in range(FAILURES):
        login_page(guesser, f"someone-{k}", "wrong")
    assert login_page(guesser, "victim", "victim-password").status_code == 429 and not signed_in(guesser)
    # the account itself is not locked: its owner elsewhere signs in
    owner = Client(REMOTE_ADDR="10.0.0.4")
    response = login_page(owner, "victim", "victim-password")
    assert response.status_code == 302 and signed_in(owner)


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


@override_settings(AXES_FAILURE_LIMIT=FAILURES)
def test_the_admin_login_is_locked_too(django_user_model):
    django_user_model.objects.create_superuser("boss", password="boss-password")
    client = Client(REMOTE_ADDR="10.0.0.6")
    for _ in range(FAILURES):
        client.post("/admin/login/", {"username": "boss", "password": "wrong", "next": "/admin/"})
    response = client.post("/admin/login/", {"username": "boss", "password": "boss-password", "next": "/admin/"})
    assert response.status_code == 429 and not signed_in(client)
    assert "even with the right password" in response.content.decode()


@override_settings(AXES_FAILURE_LIMIT=FAILURES, HEXSIDE_THROTTLE_RATES={"token": "100/minute"})
def test_the_api_token_endpoint_is_locked_too(django_user_model):
    django_user_model.objects.create_user("scripter", password="script-password")
    client = Client(REMOTE_ADDR="10.0.0.7")
    for _ in range(FAILURES):
        response = client.post("/api/token/", {"username": "scripter", "password": "wrong"},
                               content_type="application/json")
        assert response.status_code in (400, 429)
    response = client.post("/api/token/", {"username": "scripter", "password": "script-password"},
                           content_type="application/json")
    assert response.status_code == 429 and "token" not in response.json()
    assert "even with the right password" in response.json()["errors"][0]["message"]
    assert response.has_header("Retry-After")


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
