"""The Content-Security-Policy (django-csp, settings.CONTENT_SECURITY_POLICY) on pages, the API
and the embed page, the API docs without inline script, and the /csp-report endpoint."""

from __future__ import annotations

import json
import logging
import re

import pytest
from django.test import override_settings

from tests.tournaments.builders import started

pytestmark = pytest.mark.django_db

STRICT = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
    "report-uri": "/csp-report",
}


def policy(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    directives = [part.strip().split(" ", 1) for part in header.split(";")]
    return {name: value for name, value in directives}


def test_a_page_and_the_api_answer_the_strict_policy(client):
    for response in (client.get("/"), client.get("/api/ping"), client.get("/games/")):
        assert response.status_code == 200
        assert policy(response) | STRICT == policy(response)
        assert "unsafe" not in response["Content-Security-Policy"]


def test_the_embed_page_may_be_framed_anywhere_under_the_same_strict_policy(client):
    tournament, _, _ = started("single_elimination", 4)
    embed = client.get(f"/tournaments/{tournament.slug}/embed")
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed
    assert policy(embed) == STRICT | {"frame-ancestors": "*"} | {
        name: value for name, value in policy(embed).items() if name not in STRICT
    }
    assert "unsafe" not in embed["Content-Security-Policy"]
    detail = client.get(f"/tournaments/{tournament.slug}/")
    assert policy(detail)["frame-ancestors"] == "'none'"


def test_the_api_docs_load_their_start_up_script_as_a_file(client):
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    assert "<style" not in html and "style=" not in html
    assert policy(page)["img-src"] == "'self' data:"  # Swagger UI's icons
    script = re.search(r'<script src="([^"]*script=[^"]*)"', html).group(1)
    served = client.get(script.replace("&amp;", "&"))
    assert served.status_code == 200
    assert served["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in served.content


# -- /csp-report ------------------------------------------------------------------------------

REPORT = {
    "csp-report": {
        "document-uri": "http://testserver/games/",
        "referrer": "",
        "violated-directive": "script-src-elem",
        "effective-directive": "script-src-elem",
        "original-policy": "default-src 'self'; report-uri /csp-report",
        "disposition": "enforce",
        "blocked-uri": "inline",
        "line-number": 12,
        "source-file": "http://testserver/games/",
        "status-code": 200,
        "script-sample": "",
    }
}


def logged(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "hosting.csp_reports"]


def post_report(client, body: bytes | str, content_type: str = "application/csp-report"):
    return client.post("/csp-report", data=body, content_type=content_type)


def test_a_report_is_logged_and_answered_204(client, caplog):
    with caplog.at_level(logging.WARNING, logger="hosting.csp_reports"):
        response = post_report(client, json.dumps(REPORT))
    assert response.status_code == 204 and response.content == b""
    (record,) = logged(caplog)
    assert record.csp_report == {
        "document-uri": "http://testserver/games/",
        "effective-directive": "script-src-elem",
        "blocked-uri": "inline",
        "source-file": "http://testserver/games/",
        "line-number": "12",
        "disposition": "enforce",
    }
    assert "script-src-elem" in record.getMessage() and "original-policy" not in str(record)


def test_the_reporting_apis_batch_is_read_too(client, caplog):
    batch = [
        {
            "type": "csp-violation",
            "url": "http://testserver/",
            "body": {
                "documentURL": "http://testserver/",
                "effectiveDirective": "style-src-attr",
                "blockedURL": "inline",
                "sample": "color: red",
                "lineNumber": 3,
            },
        },
        {"type": "deprecation", "body": {"id": "x"}},
    ]
    with caplog.at_level(logging.WARNING, logger="hosting.csp_reports"):
        response = post_report(client, json.dumps(batch), "application/reports+json")
    assert response.status_code == 204
    (record,) = logged(caplog)
    assert record.csp_report["effective-directive"] == "style-src-attr"
    assert record.csp_report["script-sample"] == "color: red"


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[" * 5000 + b"]" * 5000,
        b'{"csp-report": "x"}',
        b"{}",
        b"[]",
        b'{"csp-report": {"document-uri": "a\\u0000b"}}',
        b'{"csp-report": {}}',
    ],
)
def test_what_is_not_a_report_is_a_readable_400_and_logs_nothing(client, caplog, body):
    with caplog.at_level(logging.WARNING, logger="hosting.csp_reports"):
        response = post_report(client, body)
    assert response.status_code == 400
    assert response.json()["error"] == "parse_error" and response.json()["detail"]
    assert logged(caplog) == []


def test_a_report_larger_than_the_cap_is_refused_unread(client, caplog):
    big = {"csp-report": dict(REPORT["csp-report"], **{"script-sample": "x" * 20_000})}
    with caplog.at_level(logging.WARNING, logger="hosting.csp_reports"):
        response = post_report(client, json.dumps(big))
    assert response.status_code == 413 and "KB" in response.json()["detail"]
    assert logged(caplog) == []


def test_long_fields_are_cut_so_a_report_is_one_short_line(client, caplog):
    long = {"csp-report": dict(REPORT["csp-report"], **{"blocked-uri": "y" * 5000})}
    with caplog.at_level(logging.WARNING, logger="hosting.csp_reports"):
        assert post_report(client, json.dumps(long)).status_code == 204
    assert len(logged(caplog)[0].csp_report["blocked-uri"]) == 300


@override_settings(THROTTLE_RATES={"csp_report.client": "3/d"})
def test_reports_are_throttled_per_client(client, caplog):
    with caplog.at_level(logging.WARNING, logger="hosting.csp_reports"):
        answers = [post_report(client, json.dumps(REPORT)).status_code for _ in range(5)]
    assert answers == [204, 204, 204, 429, 429]
    assert len(logged(caplog)) == 3
    refused = post_report(client, json.dumps(REPORT))
    assert refused.json()["error"] == "throttled" and int(refused["Retry-After"]) >= 1


def test_only_posts_are_taken(client):
    assert client.get("/csp-report").status_code == 405
