import pytest

from tests.factories import ChatFactory

pytestmark = pytest.mark.django_db


def test_ask_page_needs_a_login(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/"


def test_ask_page_offers_own_chats_and_sets_the_csrf_cookie(client, user, other_user):
    own = ChatFactory(user=user, title="Weekend plans")
    ChatFactory(user=user, title="Hidden from AI", is_excluded_from_ai=True)
    ChatFactory(user=other_user, title="Someone else's chat")
    client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<option value="{own.pk}">Weekend plans (WhatsApp)</option>' in page
    assert "Hidden from AI" not in page
    assert "Someone else" not in page
    checkbox = f'<label><input type="checkbox" value="{own.pk}"> Weekend plans (WhatsApp)</label>'
    assert checkbox in page
    nonce = response.context["request"].csp_nonce
    assert f'<script nonce="{nonce}" type="module" src="/client/ask-page.js"></script>' in page
    assert "csrftoken" in response.cookies


def test_client_modules_are_served_as_javascript(client):
    response = client.get("/client/stream.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert b'Accept: "text/event-stream"' in response.content


@pytest.mark.parametrize("name", ["missing.js", "..%2Fviews.py", "stream.py"])
def test_only_the_client_modules_are_served(client, name):
    assert client.get(f"/client/{name}").status_code == 404


def test_chat_list_moved_to_chats(client, user):
    ChatFactory(user=user, title="Weekend plans")
    client.force_login(user)
    response = client.get("/chats/")
    assert response.status_code == 200
    assert "Weekend plans" in response.content.decode()
