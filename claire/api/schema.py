"""The OpenAPI description of ``/api/``: the error shape, and the responses every route shares.

Views document their own bodies with ``extend_schema``; ``ClaireAutoSchema`` adds what is
true of every route (authentication failures, CSRF on session writes, malformed JSON on
routes that read a body) so no route can forget them.
"""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from claire.api.errors import API_ERROR_CODE_CHOICES
from claire.ratelimit import ScopedUserThrottle

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class TokenOrBearerScheme(OpenApiAuthenticationExtension):
    target_class = "claire.api.auth.TokenOrBearerAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>` or `Bearer <key>`.",
        }


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=API_ERROR_CODE_CHOICES)
    message = serializers.CharField(help_text="For people; never another user's data.")
    details = serializers.JSONField(
        required=False, help_text="Optional: the invalid fields, or what the code names."
    )


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()

    class Meta:
        ref_name = "Error"


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=ErrorSerializer, description=description)


NOT_FOUND = error_response("`not_found`: no such object among yours (another user's alike).")
PAGE_ERRORS = error_response("`invalid_limit` or `invalid_cursor`.")
INVALID = error_response("`invalid_request` and the route's own codes; details per field.")


def limit_parameter(default: int, maximum: int) -> OpenApiParameter:
    return OpenApiParameter(
        "limit",
        int,
        description=f"Page size, 1 to {maximum} (default {default}); `invalid_limit` otherwise.",
    )


def cursor_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "before",
        str,
        description="`nextCursor` of the previous page; anything else is `invalid_cursor`.",
    )


class ClaireAutoSchema(AutoSchema):
    """drf-spectacular's schema with the responses every ``/api/`` route shares."""

    def _get_response_bodies(
        self, direction: Literal["request", "response"] = "response"
    ) -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        shared = {
            "401": error_response("`not_authenticated` or `authentication_failed`."),
            "403": error_response(
                "`permission_denied`: a session-authenticated write without `X-CSRFToken`."
                if self.method in WRITE_METHODS
                else "`permission_denied`."
            ),
            "406": error_response("`not_acceptable`: the Accept header excludes the body's type."),
        }
        if any(
            issubclass(throttle, ScopedUserThrottle)
            for throttle in getattr(self.view, "throttle_classes", ())
        ):
            shared["429"] = error_response(
                "`rate_limited`: too many requests; `Retry-After` says when to ask again."
            )
        if self.method in WRITE_METHODS and self.method != "DELETE":
            shared["400"] = error_response(
                "`malformed_json`, `invalid_request` or the route's own codes."
            )
            if getattr(self.view, "is_media_type_checked", True):
                shared["415"] = error_response("`unsupported_media_type`: send application/json.")
        for status_code, response in shared.items():
            if status_code not in responses:
                responses[status_code] = self._get_response_for_code(
                    response, status_code, direction=direction
                )
        return responses
