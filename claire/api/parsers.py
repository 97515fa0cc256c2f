"""JSON request bodies with bounded nesting.

Python's ``json`` recurses once per level: a body of a few kilobytes nested 100,000 deep raises
``RecursionError`` inside the parser, and a body nested a few hundred deep parses but sends
every later recursive walk (serializers, ``json.dumps`` of a JSONField) towards the same limit.
No request of the API nests deeper than a handful of levels, so anything deeper than
``MAX_JSON_DEPTH`` is refused with ``json_too_deep`` before a serializer sees it.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING, Any

from rest_framework.parsers import JSONParser
from rest_framework.status import HTTP_400_BAD_REQUEST

if TYPE_CHECKING:
    from claire.errors import CodedError

MAX_JSON_DEPTH = 32


# claire.api.errors imports DRF's views, which import the configured parsers (this module):
# the error class is imported when an error is raised.
def json_too_deep() -> CodedError:
    from claire.errors import CodedError

    return CodedError(
        code="json_too_deep",
        message=f"The JSON body nests deeper than {MAX_JSON_DEPTH} levels.",
        status_code=HTTP_400_BAD_REQUEST,
    )


def json_depth_exceeds(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when ``value`` nests lists and objects more than ``limit`` levels deep (walked
    without recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: list[Any] = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def json_loads_bounded(raw: str | bytes) -> Any:
    """``json.loads`` that raises ``CodedError(malformed_json)`` for text that is not JSON and
    ``CodedError(json_too_deep)`` for nesting beyond ``MAX_JSON_DEPTH``."""
    from claire.errors import CodedError

    try:
        value = json.loads(raw)
    except RecursionError:
        raise json_too_deep() from None
    except ValueError:
        raise CodedError(code="malformed_json", message="The body is not valid JSON.") from None
    if json_depth_exceeds(value):
        raise json_too_deep()
    return value


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with ``json_loads_bounded``."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        from claire.errors import CodedError

        encoding = (parser_context or {}).get("encoding", "utf-8")
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (UnicodeDecodeError, LookupError):
            raise CodedError(code="malformed_json", message="The body is not UTF-8 JSON.") from None
        return json_loads_bounded(text)
