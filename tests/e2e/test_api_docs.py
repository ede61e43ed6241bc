"""The API docs page renders in a real browser from the app's own origin alone."""

from __future__ import annotations

from urllib.parse import urlsplit


def test_the_api_docs_render_with_only_same_origin_requests(asgi_server, new_context):
    page = new_context().new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{asgi_server}/api/docs/")
    page.get_by_text("Genius Arena API").first.wait_for()
    page.locator(".opblock-tag", has_text="games").first.wait_for()
    origin = urlsplit(asgi_server).netloc
    foreign = [url for url in requested if urlsplit(url).netloc not in (origin, "")]
    assert requested and foreign == []
    assert any(url.endswith("/api/schema/") for url in requested)
