"""The API's surface is a contract with organisers' scripts and bots: every path, operation
and response code of the OpenAPI document stays as recorded in ``openapi_operations.json``.
A change to it is deliberate: regenerate the file and say why in the commit."""

from __future__ import annotations

import json
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator

RECORDED = Path(__file__).with_name("openapi_operations.json")
METHODS = ("get", "post", "put", "patch", "delete")


def test_paths_operations_and_response_codes_are_as_recorded():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    now = {
        path: {m: sorted(op["responses"]) for m, op in ops.items() if m in METHODS}
        for path, ops in schema["paths"].items()
    }
    assert now == json.loads(RECORDED.read_text())
