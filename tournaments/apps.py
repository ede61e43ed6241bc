from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.signals import game_finished

        game_finished.connect(_on_game_finished, dispatch_uid="tournaments.game_finished")

        from tournaments import live
        from tournaments.webhooks import services as webhooks

        live.connect()
        webhooks.connect()


def _on_game_finished(sender: object, game_id: int, **kwargs: object) -> None:
    from tournaments.seasons.services import main_match_game_finished
    from tournaments.services import game_result_recorded

    if not main_match_game_finished(game_id=game_id):
        game_result_recorded(game_id=game_id)
