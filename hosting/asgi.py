"""ASGI entry point: live updates are Server-Sent Events, which need an async server."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")
application = get_asgi_application()
