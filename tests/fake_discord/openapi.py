"""Discord's official OpenAPI description as a referee: request bodies and answers checked against it.

The fake answers a request body the spec refuses with 400 / 50035 and Discord's error tree, and a
test checks every answer of the fake against the operation's response schema, so neither the bot
nor the fake can drift from what the real API accepts and returns. `jsonschema` is not a dependency,
and the spec uses a small subset of JSON Schema (type, const, enum, properties, required, items,
lengths, bounds, oneOf/anyOf/allOf, $ref, pattern, uniqueItems, additionalProperties, min/max
properties): :func:`errors` implements exactly that subset.

Three deliberate readings: a snowflake may be an integer (Discord accepts ``"users": [123]``, and
discord.py sends some ids as integers); ``oneOf`` is read as ``anyOf``, as Discord's own unions
overlap (a null branch next to an object whose fields are all optional); and the errors of a field
in a 50035 error tree carry string codes (``"BASE_TYPE_REQUIRED"``), as Discord sends and documents
them, where the spec reuses its integer-coded `Error`.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC_PATH = Path(__file__).resolve().parents[3] / "shared" / "data" / "discord" / "openapi.json"
SNOWFLAKE_REF = "#/components/schemas/SnowflakeType"
INNER_ERRORS_REF = "#/components/schemas/InnerErrors"
#: A field's errors in Discord's error tree, as Discord sends them (string codes).
_INNER_ERRORS = {
    "type": "object", "required": ["_errors"], "additionalProperties": False,
    "properties": {"_errors": {"type": "array", "items": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}},
}
_PYTHON_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}

#: One problem: where (keys and list indexes), Discord's error code, a sentence.
Problem = tuple[tuple[str, ...], str, str]


@functools.cache
def spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


def resolve(ref: str) -> dict[str, Any]:
    node: Any = spec()
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _PYTHON_TYPES[kind])


def errors(schema: Mapping[str, Any], value: Any, where: tuple[str, ...] = ()) -> list[Problem]:
    """Every way `value` breaks `schema` (empty when valid)."""
    if "$ref" in schema:
        if schema["$ref"] == SNOWFLAKE_REF and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return []
        if schema["$ref"] == INNER_ERRORS_REF:
            return errors(_INNER_ERRORS, value, where)
        found = errors(resolve(schema["$ref"]), value, where)
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        return found + (errors(rest, value, where) if rest else [])
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_type_ok(k, value) for k in kinds):
            return [(where, "BASE_TYPE_BAD_TYPE" if value is not None else "BASE_TYPE_REQUIRED",
                     f"Must be of type {' or '.join(kinds)}, not {type(value).__name__}.")]
    found: list[Problem] = []
    if "const" in schema and value != schema["const"]:
        found.append((where, "BASE_TYPE_CHOICES", f"Value must be {schema['const']!r}."))
    if "enum" in schema and value not in schema["enum"]:
        found.append((where, "BASE_TYPE_CHOICES", f"Value must be one of {schema['enum']}."))
    for key in ("allOf",):
        for branch in schema.get(key) or ():
            found += errors(branch, value, where)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            found += _union(schema[key], value, where)
    if isinstance(value, str):
        found += _string(schema, value, where)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            found.append((where, "NUMBER_TYPE_MIN", f"Must be at least {schema['minimum']}."))
        if "maximum" in schema and value > schema["maximum"]:
            found.append((where, "NUMBER_TYPE_MAX", f"Must be at most {schema['maximum']}."))
    elif isinstance(value, list):
        found += _array(schema, value, where)
    elif isinstance(value, dict):
        found += _object(schema, value, where)
    return found


def _union(branches: list[Mapping[str, Any]], value: Any, where: tuple[str, ...]) -> list[Problem]:
    """Valid when one branch is; else the problems of the branch that came closest."""
    best: list[Problem] | None = None
    for branch in branches:
        found = errors(branch, value, where)
        if not found:
            return []
        if best is None or _closer(found, best):
            best = found
    return best or []


def _closer(found: list[Problem], best: list[Problem]) -> bool:
    """A branch of another JSON type, or of another ``type`` field (Discord's unions are told apart
    by it: a button is not a select menu), is farther from the value than any other."""
    def other_kind(problems: list[Problem]) -> bool:
        return any((code.startswith("BASE_TYPE_") and "type" in text) or (where[-1:] == ("type",))
                   for where, code, text in problems)
    return (other_kind(best), len(best)) > (other_kind(found), len(found))


def _string(schema: Mapping[str, Any], value: str, where: tuple[str, ...]) -> list[Problem]:
    found = []
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        found.append((where, "BASE_TYPE_MAX_LENGTH", f"Must be {schema['maxLength']} or fewer in length."))
    if "minLength" in schema and len(value) < schema["minLength"]:
        found.append((where, "BASE_TYPE_MIN_LENGTH", f"Must be {schema['minLength']} or more in length."))
    if "pattern" in schema and re.search(schema["pattern"], value) is None:
        found.append((where, "STRING_TYPE_REGEX", f"String value did not match validation regex {schema['pattern']}."))
    return found


def _array(schema: Mapping[str, Any], value: list[Any], where: tuple[str, ...]) -> list[Problem]:
    found = []
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        found.append((where, "BASE_TYPE_MAX_LENGTH", f"Must be {schema['maxItems']} or fewer in length."))
    if "minItems" in schema and len(value) < schema["minItems"]:
        found.append((where, "BASE_TYPE_MIN_LENGTH", f"Must be {schema['minItems']} or more in length."))
    if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in value}) < len(value):
        found.append((where, "BASE_TYPE_UNIQUE", "Values must be unique."))
    if isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            found += errors(schema["items"], item, (*where, str(index)))
    return found


def _object(schema: Mapping[str, Any], value: dict[str, Any], where: tuple[str, ...]) -> list[Problem]:
    found = []
    properties = schema.get("properties") or {}
    for name in schema.get("required") or ():
        if name not in value:
            found.append(((*where, name), "BASE_TYPE_REQUIRED", "This field is required"))
    if "maxProperties" in schema and len(value) > schema["maxProperties"]:
        found.append((where, "BASE_TYPE_MAX_LENGTH", f"Must have {schema['maxProperties']} or fewer keys."))
    if "minProperties" in schema and len(value) < schema["minProperties"]:
        found.append((where, "BASE_TYPE_MIN_LENGTH", f"Must have {schema['minProperties']} or more keys."))
    extra = schema.get("additionalProperties")
    for name, item in value.items():
        if name in properties:
            found += errors(properties[name], item, (*where, name))
        elif isinstance(extra, Mapping):
            found += errors(extra, item, (*where, name))
        elif extra is False:
            found.append(((*where, name), "UNKNOWN_FIELD", "Unknown field."))
    return found


def error_tree(problems: list[Problem]) -> dict[str, Any]:
    """Discord's ``errors`` object: the problems nested by path, each leaf an ``_errors`` list. A node is
    either errors or children, never both (the spec's ``ErrorDetails``): a field refused whole (26
    choices) is reported alone, not beside what is wrong inside it."""
    tree: dict[str, Any] = {}
    whole = {where for where, _, _ in problems}
    for where, code, text in problems:
        if any(where[:n] in whole for n in range(len(where))):
            continue  # inside a field already refused whole
        node = tree
        for key in where:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": text})
    return tree


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    definition: Mapping[str, Any]

    def request_schema(self, content_type: str) -> Mapping[str, Any] | None:
        """The JSON schema of the body (of its ``payload_json`` for a multipart upload)."""
        content = (self.definition.get("requestBody") or {}).get("content") or {}
        media = content.get("application/json")
        if media is None and content_type.startswith("multipart/"):
            media = content.get("multipart/form-data")
        return None if media is None else media["schema"]

    def response_schema(self, status: int) -> Mapping[str, Any] | None:
        """The schema of an answer with `status`; None when the spec gives that status no body."""
        responses = self.definition.get("responses") or {}
        answer = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
        if answer is None:
            raise KeyError(f"{self.method} {self.template} documents no {status} answer")
        if "$ref" in answer:
            answer = resolve(answer["$ref"])
        media = (answer.get("content") or {}).get("application/json")
        return None if media is None else media["schema"]


def _templates() -> Iterator[tuple[str, re.Pattern[str], Mapping[str, Any]]]:
    for template, methods in spec()["paths"].items():
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        yield template, re.compile(pattern), methods


@functools.cache
def _operation(method: str, path: str) -> Operation | None:
    matches = [(template, methods) for template, pattern, methods in _templates()
               if pattern.fullmatch(path) and method.lower() in methods]
    if not matches:
        return None
    template, methods = min(matches, key=lambda match: match[0].count("{"))
    return Operation(method, template, methods[method.lower()])


def operation(method: str, path: str) -> Operation | None:
    """The operation serving `method path` (path after /api/v10); a literal segment wins over a
    parameter (``messages/@original`` over ``messages/{message_id}``)."""
    return _operation(method, _ID_SEGMENT.sub("/0", path))


#: Ids in a path, and snowflakes in a JSON text: which id it is changes nothing to a check, so paths
#: and bodies alike in all but their ids share one check (a bot's login syncs the same commands).
_ID_SEGMENT = re.compile(r"/\d+(?=/|$)")
_SNOWFLAKE_TEXT = re.compile(r'"[1-9][0-9]{14,19}"')


def _canonical(value: Any) -> str:
    return _SNOWFLAKE_TEXT.sub('"1"', json.dumps(value, sort_keys=True))


def request_problems(method: str, path: str, body: Any, content_type: str) -> list[Problem]:
    """What the spec refuses in a request body (no problem for a route it does not describe)."""
    found = operation(method, path)
    schema = None if found is None else found.request_schema(content_type)
    if found is None or schema is None or body is None and content_type.startswith("multipart/"):
        return []
    return list(_request_problems(method, found.template, content_type, _canonical(body)))


@functools.lru_cache(maxsize=512)
def _request_problems(method: str, template: str, content_type: str, text: str) -> tuple[Problem, ...]:
    schema = _operation(method, template).request_schema(content_type)  # type: ignore[union-attr]
    if "allOf" in schema and content_type.startswith("multipart/"):
        schema = schema["allOf"][0]  # the files[n] parts are checked by the fake itself
    return tuple(errors(schema, json.loads(text)))


def response_problems(method: str, path: str, status: int, body: Any) -> list[Problem]:
    """What the spec refuses in an answer of the fake."""
    found = operation(method, path)
    if found is None:
        return [((), "NO_OPERATION", f"the spec has no {method} {path}")]
    if status >= 500:
        return []  # the spec describes no server error (they come from Discord's proxies, in any shape)
    return list(_response_problems(method, found.template, status, _canonical(body)))


@functools.lru_cache(maxsize=512)
def _response_problems(method: str, template: str, status: int, text: str) -> tuple[Problem, ...]:
    schema = _operation(method, template).response_schema(status)  # type: ignore[union-attr]
    body = json.loads(text)
    if schema is None:
        return () if body is None else (((), "NO_BODY", f"a {status} answer to {method} {template} has no body"),)
    return tuple(errors(schema, body))
