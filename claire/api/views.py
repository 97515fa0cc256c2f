"""The published API contract: the OpenAPI document and a page that shows it to people."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.views import SpectacularAPIView
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


@cache
def api_schema() -> dict[str, Any]:
    """The OpenAPI document of ``/api/`` (built once per process: routes do not change)."""
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def _operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    operations = []
    for path, item in schema["paths"].items():
        for method in HTTP_METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            request_body = operation.get("requestBody", {}).get("content", {})
            operations.append(
                {
                    "anchor": operation["operationId"],
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary", ""),
                    "description": operation.get("description", ""),
                    "parameters": operation.get("parameters", []),
                    "request": {
                        media_type: json.dumps(body.get("schema", {}), indent=2)
                        for media_type, body in request_body.items()
                    },
                    "responses": [
                        {
                            "status": status,
                            "description": response.get("description", ""),
                            "content": {
                                media_type: json.dumps(body.get("schema", {}), indent=2)
                                for media_type, body in response.get("content", {}).items()
                            },
                        }
                        for status, response in sorted(operation["responses"].items())
                    ],
                }
            )
    return operations


class ApiSchemaView(SpectacularAPIView):
    """The OpenAPI document; its errors (a wrong method) in the API's JSON error shape."""

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if getattr(response, "exception", False):
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = "application/json"
        return response


class ApiDocsView(APIView):
    """A browsable page of the schema, rendered on the server (no script, no CDN). Public,
    like the schema: it holds no user data."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    schema = None  # not an operation of the API it documents

    def get(self, request: Request) -> HttpResponse:
        schema = api_schema()
        components = schema.get("components", {}).get("schemas", {})
        return render(
            request,
            "api/docs.html",
            {
                "info": schema["info"],
                "operations": _operations(schema),
                "components": {
                    name: json.dumps(body, indent=2) for name, body in sorted(components.items())
                },
            },
        )
