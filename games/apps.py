from django.apps import AppConfig
from django.conf import settings

from games import engines


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        engines.ENGINE_MODULES.update(settings.EXTRA_ENGINES)
