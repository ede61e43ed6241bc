"""Games for the browser tests, made through the same services the API calls."""

from __future__ import annotations

from typing import Any

from games import services
from hosting.core.roles import ORGANISER, grant


def organiser(django_user_model, username: str = "host"):
    user = django_user_model.objects.create_user(username, password="pw-organiser-123")
    grant(user, ORGANISER)
    return user


def create_game(creator, engine: str, seats: list[dict[str, Any]], **options: Any) -> Any:
    specs = [services.SeatSpec(**seat) for seat in seats]
    return services.game_create(engine_key=engine, seats=specs, created_by=creator, **options)


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def wait_for_version(page, above: int, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('#game').dataset.version) > v",
        arg=above,
        timeout=timeout,
    )
