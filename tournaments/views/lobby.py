"""What the home page and the profile share: who is asking (an account, else this browser's
guest, never made here), a player's next tournament matches, and the three games' ways in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from games.players import engine_name
from hosting.core.identity import GUEST_SESSION_KEY, guest_from_token
from tournaments.models import Match


@dataclass(frozen=True)
class GameOffer:
    key: str
    name: str
    line: Any
    quick_match: bool


# The games on offer, each in one line, in the order the home page shows them.
OFFERS = (
    (
        "color_clash",
        gettext_lazy("Shed your hand by matching colour or number; 2 to 6 players."),
        True,
    ),
    (
        "drafting_trios",
        gettext_lazy("Draft cards in secret and build trios before your rival; 2 players."),
        False,
    ),
    (
        "dropmix",
        gettext_lazy(
            "Drop cards into the mix and score to the target, alone or in teams; 2 to 4 players."
        ),
        False,
    ),
)


def offers() -> list[GameOffer]:
    return [GameOffer(key, engine_name(key), line, quick) for key, line, quick in OFFERS]


def guest_id_of(request: HttpRequest) -> str:
    """This browser's guest id if it has one (a read never makes one)."""
    token = request.session.get(GUEST_SESSION_KEY)
    guest = guest_from_token(token) if token else None
    return guest.id if guest is not None else ""


def next_matches(user: Any) -> list[dict[str, Any]]:
    """The player's tournament matches ready or being played, with their opponent and game."""
    matches = (
        Match.objects.filter(status__in=(Match.Status.READY, Match.Status.LIVE))
        .filter(Q(home__user=user) | Q(away__user=user))
        .select_related("home", "away", "stage__tournament")
        .prefetch_related("match_games")
        .order_by("pk")[:10]
    )
    rows = []
    for match in matches:
        mine_home = match.home is not None and match.home.user_id == user.pk
        opponent = match.away if mine_home else match.home
        games = [link.game_id for link in match.match_games.all()]
        rows.append(
            {
                "match": match,
                "tournament": match.stage.tournament,
                "game_name": engine_name(match.stage.tournament.game),
                "opponent": opponent.display_name if opponent else None,
                "game_id": games[-1] if games and match.status == Match.Status.LIVE else None,
            }
        )
    return rows
