"""The published OpenAPI contract: valid, complete (every route), and honest about errors."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from openapi_spec_validator import validate

from claire.api.errors import API_ERROR_CODES
from tests.claire.api.routes import ASSISTANT_MESSAGES_PATH, api_routes

PROJECT = Path(__file__).resolve().parents[3]
PRODUCT_PACKAGES = ("assistant", "billing", "claire", "conversations", "indexing", "retrieval")


@pytest.fixture(scope="module")
def schema():
    from claire.api.views import api_schema

    return api_schema()


def test_schema_is_served_and_validates(client):
    response = client.get(reverse("api-schema"), {"format": "json"})
    assert response.status_code == 200
    document = response.json()
    validate(document)
    assert document["openapi"] == "3.1.0"


def test_schema_generation_has_no_warnings():
    # A view whose bodies cannot be described (an unknown field, a missing annotation) warns;
    # --fail-on-warn turns that into a failure.
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=StringIO())


def test_every_api_route_and_method_is_in_the_schema(schema):
    documented = {
        (path, method.upper()) for path, item in schema["paths"].items() for method in item
    }
    routes = {(route.path, method) for route in api_routes() for method in route.methods}
    assert len(routes) >= 24
    assert routes - documented == set(), "routes missing from the schema"
    assert documented - routes == set(), "schema operations without a route"


def test_the_answer_endpoint_documents_the_stream_and_its_parts(schema):
    operation = schema["paths"][ASSISTANT_MESSAGES_PATH]["post"]
    content = operation["responses"]["200"]["content"]
    assert set(content) == {"text/event-stream", "application/json"}
    part = schema["components"]["schemas"]["StreamPart"]
    assert part["discriminator"]["propertyName"] == "type"
    assert set(part["discriminator"]["mapping"]) == {
        "start",
        "data-status",
        "data-thread",
        "data-sources",
        "text-start",
        "text-delta",
        "text-end",
        "data-finish",
        "finish",
        "data-error",
        "error",
    }
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AskRequestRequest"
    }


def test_every_operation_documents_auth_and_the_error_shape(schema):
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    detail = schema["components"]["schemas"]["ErrorDetail"]
    assert set(detail["properties"]) == {"code", "message", "details"}
    assert set(detail["required"]) == {"code", "message"}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            assert {"tokenAuth": []} in operation["security"], (path, method)
            assert {"cookieAuth": []} in operation["security"], (path, method)
            for status in ("401", "403"):
                body = operation["responses"][status]["content"]["application/json"]
                assert body["schema"] == {"$ref": "#/components/schemas/Error"}, (path, method)


def test_error_code_enum_is_the_registry(schema):
    assert schema["components"]["schemas"]["ErrorCode"]["enum"] == list(API_ERROR_CODES)


def test_every_error_code_raised_in_product_code_is_documented():
    literal = re.compile(r"""(?:CodedError\(\s*code|default_code\s*)=\s*f?["']([a-z_{}]+)["']""")
    found: set[str] = set()
    for package in PRODUCT_PACKAGES:
        for path in (PROJECT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            found |= set(literal.findall(path.read_text()))
    # ``invalid_{name}`` in indexing expands to the two names it is called with.
    found = {code for code in found if "{" not in code} | {"invalid_limit", "invalid_cursor"}
    command_only = {"price_book_locked", "invalid_price_book", "price_book_version_taken"}
    assert len(found) >= 20
    assert found - command_only - set(API_ERROR_CODES) == set()


def test_browsable_page_lists_every_operation(client, schema):
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    page = response.content.decode()
    for path, item in schema["paths"].items():
        for method in item:
            assert f'<span class="method">{method.upper()}</span> {path}' in page
    assert "<script" not in page
