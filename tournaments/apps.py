from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # why: the receivers import the models, which load only once the apps are ready
        from tournaments import receivers

        receivers.connect()
