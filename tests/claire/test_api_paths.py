"""One path rule under /api/: no trailing slash needed, never a redirect, JSON errors only;
``Bearer`` is an alias of ``Token``."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _api_paths(patterns=None, prefix: str = "") -> list[str]:
    """Every route of the URL configuration under api/, with 1 for each path converter."""
    found = []
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += _api_paths(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and route.startswith("api/"):
            parts = ["1" if part.startswith("<") else part for part in route.split("/")]
            found.append("/" + "/".join(parts))
    return sorted(set(found))


API_PATHS = _api_paths()


def _assert_json_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == code


def test_the_api_routes_are_all_found_and_none_ends_with_a_slash():
    assert "/api/chats" in API_PATHS
    assert "/api/memory/loops" in API_PATHS
    assert "/api/billing/spend" in API_PATHS
    assert [path for path in API_PATHS if path.endswith("/")] == []


@pytest.mark.parametrize("path", API_PATHS)
def test_a_method_no_route_takes_is_a_json_405_with_or_without_the_slash(api_client, path):
    for variant in (path, path + "/"):
        _assert_json_error(api_client.put(variant, {}, format="json"), 405, "method_not_allowed")


@pytest.mark.parametrize(
    "path", ["/api/nothing-here", "/api/chats/abc", "/api/", "/api/memory/loops/1/open/"]
)
def test_a_path_naming_no_endpoint_is_a_json_404(api_client, path):
    _assert_json_error(api_client.get(path), 404, "not_found")
    _assert_json_error(api_client.post(path, {}, format="json"), 404, "not_found")


def test_a_trailing_slash_serves_the_same_endpoint_without_a_redirect(api_client, user):
    plain = api_client.get("/api/me")
    slashed = api_client.get("/api/me/")
    assert (plain.status_code, slashed.status_code) == (200, 200)
    assert (
        slashed.json()
        == plain.json()
        == {
            "id": user.pk,
            "email": user.email,
            "timezone": user.timezone,
        }
    )
    # A POST keeps its body: validated, not redirected.
    merge = api_client.post("/api/memory/merges/", {"keepPersonId": 1}, format="json")
    _assert_json_error(merge, 400, "invalid_request")
    assert api_client.get("/api/memory/loops/").json() == {"loops": []}


def test_bearer_is_an_alias_of_token(user):
    key = Token.objects.create(user=user).key
    client = APIClient()

    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.get("/api/me").json()["id"] == user.pk

    client.credentials(HTTP_AUTHORIZATION=f"bearer {key}")
    assert client.get("/api/me").status_code == 200

    client.credentials(HTTP_AUTHORIZATION="Bearer not-a-key")
    _assert_json_error(client.get("/api/me"), 401, "authentication_failed")

    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key} extra")
    response = client.get("/api/me")
    _assert_json_error(response, 401, "authentication_failed")
    assert "Token <key>" in response.json()["error"]["message"]
