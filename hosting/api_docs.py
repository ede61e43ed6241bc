"""``/api/docs/``: Swagger UI over the OpenAPI description, from drf-spectacular-sidecar's
static files. The split view serves its start-up script as a file (``?script``), so the page
runs under the site's Content-Security-Policy with no inline script; the page's own styles are
in ``css/api_docs.css``. Swagger UI's stylesheet draws its icons from ``data:`` images, which
this page alone allows."""

from __future__ import annotations

from csp.decorators import csp_update
from drf_spectacular.views import SpectacularSwaggerSplitView


class ApiDocsView(SpectacularSwaggerSplitView):
    template_name = "api/docs.html"


api_docs = csp_update({"img-src": ["data:"]})(ApiDocsView.as_view(url_name="api-schema"))
