"""Hypothesis strategies read from the published OpenAPI schema: bodies that follow it, and
the hostile inputs a client can send instead (malformed or invalid UTF-8 bytes, wrong types,
huge strings, NUL bytes, naive and impossible timestamps, duplicated list items, deep nesting,
bad cursors, limits and ids)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

MAX_ITEMS = 3
HUGE = 200_000
# Texts a client may put where an integer, a cursor or an id belongs.
BAD_NUMBERS = (
    "",
    "0",
    "-1",
    "abc",
    "1.5",
    "1e9",
    "99999999999999999999999999",
    "١٢٣",  # Arabic-Indic digits: str.isdigit() is true, int() accepts them
    "²",  # a superscript: isdigit() true, int() refuses
    " 7",
    "0x10",
    "NaN",
    "\x00",
)
BAD_CURSORS = (
    *BAD_NUMBERS,
    "1_",
    "_1",
    "99999999999999999999999_1",
    "1_99999999999999999999999",
    "2026-02-30T10:00:00+00:00_1",
    "2026-03-01T10:00:00_1",
    "9999-12-31T23:59:59+00:00_9223372036854775808",
    "not-a-cursor",
    "x" * 5_000,
)
BAD_TIMESTAMPS = (
    "2026-03-01T10:00:00",  # naive
    "2026-02-30T10:00:00Z",  # impossible
    "2026-13-01T10:00:00Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59-23:59",
    "2026-03-01T25:61:61Z",
    "yesterday",
    "",
)
MALFORMED_BODIES = (
    b"",
    b"{",
    b"[1,",
    b"null",
    b"[]",
    b'"text"',
    b"\xff\xfe\xfd",
    b'{"a": "\xc3\x28"}',
    b'{"question": "\xed\xa0\x80"}',  # an encoded surrogate
    b"NaN",
    b"1e999999",
    b'{"a": 1, "a": 2}',
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
)


def resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    reference = schema.get("$ref")
    if reference:
        return resolve(components[reference.rsplit("/", 1)[-1]], components)
    if "allOf" in schema and len(schema["allOf"]) == 1:
        merged = {**resolve(schema["allOf"][0], components), **schema}
        merged.pop("allOf")
        return merged
    return schema


def from_schema(schema: dict[str, Any], components: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that follow ``schema`` (the subset of JSON Schema drf-spectacular writes)."""
    schema = resolve(schema, components)
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "oneOf" in schema or "anyOf" in schema:
        options = schema.get("oneOf") or schema["anyOf"]
        return st.one_of(*(from_schema(option, components) for option in options))
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        return st.one_of(*(from_schema({**schema, "type": item}, components) for item in kind))
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum", -(2**31)), max_value=2**31)
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "string":
        return _string(schema)
    if kind == "array":
        return st.lists(
            from_schema(schema.get("items", {}), components),
            min_size=schema.get("minItems", 0),
            max_size=min(schema.get("maxItems", MAX_ITEMS), MAX_ITEMS),
        )
    properties = schema.get("properties", {})
    required = set(schema.get("required", ()))
    optional = [name for name in properties if name not in required]
    return st.fixed_dictionaries(
        {
            name: from_schema(properties[name], components)
            for name in properties
            if name in required
        },
        optional={name: from_schema(properties[name], components) for name in optional},
    )


def _string(schema: dict[str, Any]) -> st.SearchStrategy[str]:
    match schema.get("format"):
        case "date-time":
            return st.datetimes(timezones=st.timezones()).map(lambda moment: moment.isoformat())
        case "date":
            return st.dates().map(lambda day: day.isoformat())
        case "uuid":
            return st.uuids().map(str)
        case "email":
            return st.sampled_from(["ana@example.com", "x@y.io", ""])
    if "pattern" in schema:
        return st.from_regex(schema["pattern"], fullmatch=True)
    shortest = schema.get("minLength", 0)
    return st.text(min_size=shortest, max_size=max(shortest, min(schema.get("maxLength", 40), 40)))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replaced(copy[head], rest, new)
    return copy


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _deep(depth: int) -> Any:
    value: Any = 1
    for level in range(depth):
        value = {"a": value} if level % 2 else [value]
    return value


@st.composite
def mutated(draw: st.DrawFn, valid: Any) -> Any:
    """One hostile change to a valid body."""
    paths = _paths(valid)
    strings = [path for path in paths if isinstance(_at(valid, path), str)]
    lists = [path for path in paths if isinstance(_at(valid, path), list) and _at(valid, path)]
    kinds = ["wrong_type", "deep"]
    if strings:
        kinds += ["huge", "nul", "timestamp", "number_text"]
    if lists:
        kinds.append("duplicate")
    kind = draw(st.sampled_from(kinds))
    if kind == "wrong_type":
        path = draw(st.sampled_from(paths))
        new = draw(st.sampled_from([None, 0, -1, 2**63, 1.5, True, "x", [], {}, [1], {"a": 1}]))
        return _replaced(valid, path, new)
    if kind == "deep":
        path = draw(st.sampled_from(paths))
        return _replaced(valid, path, _deep(draw(st.sampled_from([50, 900]))))
    if kind == "duplicate":
        path = draw(st.sampled_from(lists))
        items = _at(valid, path)
        return _replaced(valid, path, [*items, items[0]])
    path = draw(st.sampled_from(strings))
    original = _at(valid, path)
    new = {
        "huge": lambda: "x" * HUGE,
        "nul": lambda: original[: len(original) // 2] + "\x00" + original[len(original) // 2 :],
        "timestamp": lambda: draw(st.sampled_from(BAD_TIMESTAMPS)),
        "number_text": lambda: draw(st.sampled_from(BAD_NUMBERS)),
    }[kind]()
    return _replaced(valid, path, new)


def encoded(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def request_bodies(schema: dict[str, Any] | None, components: dict[str, Any]) -> Any:
    """Raw request bodies: valid ones, mutated ones, and malformed bytes."""
    if schema is None:
        return st.one_of(st.just(b""), st.sampled_from(MALFORMED_BODIES))
    valid = from_schema(schema, components)
    return st.one_of(
        valid.map(encoded),
        valid.flatmap(mutated).map(encoded),
        st.sampled_from(MALFORMED_BODIES),
    )


def query_values(name: str, schema: dict[str, Any]) -> st.SearchStrategy[str | None]:
    bad = BAD_CURSORS if name == "before" else BAD_NUMBERS
    good = (
        st.integers(min_value=-5, max_value=300).map(str)
        if schema.get("type") == "integer"
        else st.text(max_size=30)
    )
    return st.one_of(st.none(), good, st.sampled_from(bad))
