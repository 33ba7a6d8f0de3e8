import pytest
from django.urls import reverse

from conversations.models import ChatSession

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-unusual-passphrase-42"


def test_signup_creates_a_user_logs_them_in_and_opens_a_conversation(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "minji", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 302
    user = django_user_model.objects.get(username="minji")
    conversation = ChatSession.objects.get(user=user)
    assert response.url == reverse("chat:session-detail", args=[conversation.pk])
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_with_mismatched_passwords_shows_an_error(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "minji", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )

    assert response.status_code == 200
    assert b"field__error" in response.content
    assert not django_user_model.objects.filter(username="minji").exists()


def test_signup_page_labels_every_field(client):
    response = client.get(reverse("signup"))

    content = response.content.decode()
    for field in ("id_username", "id_password1", "id_password2"):
        assert f'for="{field}"' in content


def test_login_with_valid_credentials_goes_to_the_session_list(client, django_user_model):
    django_user_model.objects.create_user(username="minji", password=PASSWORD)

    response = client.post(reverse("login"), {"username": "minji", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == reverse("chat:session-list")


def test_login_with_a_wrong_password_is_refused(client, django_user_model):
    django_user_model.objects.create_user(username="minji", password=PASSWORD)

    response = client.post(reverse("login"), {"username": "minji", "password": "wrong"})

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_nav_shows_the_user_and_a_logout_button(client, django_user_model):
    user = django_user_model.objects.create_user(username="minji", password=PASSWORD)
    client.force_login(user)

    response = client.get(reverse("chat:session-list"))

    content = response.content.decode()
    assert "minji" in content
    assert f'action="{reverse("logout")}"' in content


def test_logout_logs_the_user_out(client, django_user_model):
    user = django_user_model.objects.create_user(username="minji", password=PASSWORD)
    client.force_login(user)

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response.url == reverse("login")
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("chat:session-list")).status_code == 302
