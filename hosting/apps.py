from django.apps import AppConfig


class HostingConfig(AppConfig):
    name = "hosting"
    verbose_name = "Hosting"

    def ready(self) -> None:
        # The API description's view annotations register themselves on import.
        from hosting import schema  # noqa: F401
