"""Reading tournaments: the lookups every entry point makes (the API, the pages, the organiser
console, the live stream), the whole public picture of a tournament (``detail``) and the
board drawn from it. One lookup, one refusal: a tournament nobody may see, a match or an
episode that does not exist is a ``NotFound`` wherever it is asked for (a page turns it into
its 404 with ``or_404``).

Nothing here writes; the writes are ``tournaments.services`` and its neighbours.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _

from hosting.core.errors import Forbidden, NotFound, UserError
from tournaments import adapters, bracket_layout, services, tables
from tournaments.core.permissions import runs
from tournaments.formats import genius
from tournaments.models import (
    Entrant,
    Episode,
    Match,
    MatchGame,
    Round,
    SealedSubmission,
    Stage,
    Tournament,
)
from tournaments.payloads import (
    entrant_payload,
    episode_payload,
    match_payload,
    summary_payload,
)
from tournaments.seasons import services as seasons
from tournaments.seasons import story
from tournaments.seasons import tokens as token_record

P = ParamSpec("P")
T = TypeVar("T")


def or_404(find: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``find``'s answer for a page: its ``NotFound`` is the 404 page, not a JSON error."""
    try:
        return find(*args, **kwargs)
    except NotFound:
        raise Http404 from None


# -- lookups ----------------------------------------------------------------------------------


def visible_tournament(slug: str, user: Any) -> Tournament:
    """Any tournament by its link, unlisted ones included; a draft only to those who run it."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or (
        tournament.status == Tournament.Status.DRAFT and not runs(tournament, user)
    ):
        raise NotFound(_("no tournament %(slug)r") % {"slug": slug})
    return tournament


def entrant(tournament: Tournament, entrant_id: int) -> Entrant:
    """An entrant named by id in a request: one of another tournament is refused."""
    found = tournament.entrants.filter(pk=entrant_id).first()
    if found is None:
        raise UserError(_("no entrant %(id)s in this tournament") % {"id": entrant_id})
    return found


def entry_of(tournament: Tournament, user: Any) -> Entrant | None:
    """The signed-in ``user``'s own entry, if they have one."""
    return tournament.entrants.filter(user=user).first()


def my_entrant(tournament: Tournament, user: Any) -> Entrant:
    """The entry of the user acting through the API: none is a 403."""
    found = entry_of(tournament, user)
    if found is None:
        raise Forbidden(_("you have no entry in this tournament"))
    return found


def match(tournament: Tournament, code: str) -> Match:
    """A match by its code, in the latest stage that has one."""
    found = (
        Match.objects.filter(stage__tournament=tournament, code=code)
        .order_by("-stage__number")
        .first()
    )
    if found is None:
        raise NotFound(_("no match %(code)r in this tournament") % {"code": code})
    return found


def episode(tournament: Tournament, number: int) -> Episode:
    found = tournament.episodes.filter(number=number).first()
    if found is None:
        raise NotFound(_("no episode %(number)s in this tournament") % {"number": number})
    return found


def current_episode(tournament: Tournament) -> Episode | None:
    """A season's latest episode; None before the season starts."""
    return tournament.episodes.order_by("-number").first()


# -- the whole picture ------------------------------------------------------------------------


def detail(slug: str) -> dict[str, Any]:
    """The whole public picture in a fixed number of queries, however many matches."""
    # Creation order is bracket order ("W1.10" sorts before "W1.2" by code).
    matches = Match.objects.order_by("pk").prefetch_related(
        Prefetch("match_games", queryset=MatchGame.objects.order_by("number"))
    )
    tournament = (
        Tournament.objects.select_related("organiser")
        .prefetch_related(
            "entrants",
            Prefetch(
                "stages",
                queryset=Stage.objects.prefetch_related(
                    Prefetch(
                        "rounds",
                        queryset=Round.objects.order_by("bracket", "number").prefetch_related(
                            Prefetch("matches", queryset=matches)
                        ),
                    )
                ),
            ),
            "episodes",
        )
        .get(slug=slug)
    )
    entrants = list(tournament.entrants.all())
    names = {e.pk: e.display_name for e in entrants}
    payload = summary_payload(tournament) | {
        "description": tournament.description,
        "ruleset": tournament.ruleset,
        "time_control": tournament.time_control,
        "format_options": tournament.format_options,
        "tiebreaks": tournament.tiebreaks,
        "tiebreak_regulations": tournament.tiebreak_regulations,
        "best_of": tournament.best_of,
        "play_online": tournament.play_online,
        "players_report": tournament.players_report,
        "seed_window_seconds": tournament.seed_window_seconds,
        "check_in_opens": tournament.check_in_opens,
        "check_in_closes": tournament.check_in_closes,
        "entrants": [entrant_payload(e) for e in entrants],
        "stages": [
            {
                "number": stage.number,
                "format": stage.format,
                "status": stage.status,
                "total_rounds": stage.total_rounds,
                "rounds": [
                    {
                        "bracket": round_.bracket,
                        "number": round_.number,
                        "status": round_.status,
                        "matches": [match_payload(m, round_, names) for m in round_.matches.all()],
                    }
                    for round_ in stage.rounds.all()
                ],
            }
            for stage in tournament.stages.all()
        ],
    }
    if tournament.format == genius.KEY:
        payload["episodes"] = [episode_payload(e) for e in tournament.episodes.all()]
        # The season rules (and so the currency) are checked when the season starts.
        started = bool(tournament.stages.all())
        # Public: private transfers are left out (seen by their two players and the hosts).
        payload["balances"] = seasons.public_balances(tournament) if started else {}
    return payload


# -- the board --------------------------------------------------------------------------------


def board(tournament: Tournament) -> dict[str, Any]:
    """What the board shows, as the API computes it: the latest stage drawn by its format,
    and the standings (or the reason they cannot be computed)."""
    picture = detail(tournament.slug)
    stage = picture["stages"][-1] if picture["stages"] else None
    context: dict[str, Any] = {"detail": picture, "stage": stage, "kind": None}
    if stage is None:
        return context
    if stage["format"] == "round_robin":
        context["kind"] = "crosstable"
        context["crosstables"] = tables.crosstables(stage, picture["entrants"])
    elif stage["format"] == "swiss":
        context["kind"] = "swiss"
        context["swiss_rounds"] = tables.swiss_rounds(stage)
    elif stage["format"] == "genius":
        context["kind"] = "season"
        context["season"] = season_board(tournament, picture)
    else:
        context["kind"] = "bracket"
        context["sections"] = bracket_layout.sections(stage)
    try:
        table = services.standings_table(tournament=tournament)
    except UserError as error:
        context["standings_error"] = error.message
    else:
        context["standings"] = table["standings"]
        context["regulations"] = table["regulations"]
        # Knockouts and seasons rank by how far each entrant went, the others by points.
        context["placed"] = table["ranking"] != "points"
    context["points"] = {row["entrant"]: row["points"] for row in context.get("standings", [])}
    chain = [key for key in tournament.tiebreaks if key != "points"]
    context["chain"] = [] if context.get("placed") else chain
    return context


def season_board(tournament: Tournament, picture: dict[str, Any]) -> dict[str, Any]:
    """The season as the API records it, arranged by episode: each with its MM, EC, DMO,
    Death Matches and who went out; the cast with ToL and garnets; the ledger. Sealed answers
    appear only for episodes whose MM the host has revealed."""
    names = {e["id"]: e["name"] for e in picture["entrants"]}
    episodes = picture.get("episodes", [])
    current = episodes[-1] if episodes else None
    tokens = current["tokens"] if current else {}
    remembered = token_record.history(tournament)
    balances = picture.get("balances", {})
    matches_by_episode: dict[int, list[dict[str, Any]]] = {}
    for stage in picture["stages"]:
        for round_ in stage["rounds"]:
            matches_by_episode.setdefault(round_["number"], []).extend(round_["matches"])
    every_match = [m for matches in matches_by_episode.values() for m in matches]
    final = next((m for m in every_match if m["code"] == "FINAL"), None)
    champion = final["winner"] if final and final["status"] == "finished" else None
    revealed = [e["number"] for e in episodes if e["mm_revealed"]]
    answers: dict[int, list[SealedSubmission]] = {}
    submissions = SealedSubmission.objects.filter(
        episode__tournament=tournament, episode__number__in=revealed
    ).select_related("episode", "entrant")
    for submission in submissions.order_by("submitted_at", "pk"):
        answers.setdefault(submission.episode.number, []).append(submission)
    cast = [
        {
            "id": e["id"],
            "name": e["name"],
            "eliminated_in": e["eliminated_in"],
            "champion": e["id"] == champion,
            "tokens": tokens.get(str(e["id"]), tokens.get(e["id"], 0)),
            # The season's Tokens of Life (ToL) with this player: won or received, given, used.
            "tokens_won": remembered.get(e["id"], {}).get("won", 0)
            + remembered.get(e["id"], {}).get("received", 0),
            "tokens_given": remembered.get(e["id"], {}).get("given", 0),
            "tokens_used": remembered.get(e["id"], {}).get("used", 0),
            "garnets": balances.get(e["id"], balances.get(str(e["id"]), 0)),
        }
        for e in picture["entrants"]
        if e["status"] in adapters.ACTIVE
    ]
    ledger = tournament.ledger.filter(private=False).select_related("entrant", "to")
    ledger = ledger.order_by("pk")
    stories = story.stories(tournament, episodes, names, list(ledger))
    return {
        "cast": cast,
        "ledger": list(ledger),
        "episodes": [
            {
                **episode,
                "winners": [names.get(i, i) for i in episode["winners"]],
                "losers": [names.get(i, i) for i in episode["losers"]],
                "ecs": [names.get(i, i) for i in episode["ecs"]],
                "picks": [
                    (
                        names.get(int(ec), ec),
                        names.get(dmo, dmo)
                        if str(ec) not in episode["dm_third"]
                        else f"{names.get(dmo, dmo)}, {names.get(episode['dm_third'][str(ec)])}",
                    )
                    for ec, dmo in episode["dmos"].items()
                ],
                "death_matches": [
                    # A three-player Death Match names its three (the box shows two sides).
                    {**m, "trio": [names.get(pk, pk) for pk in m["slots"]]}
                    if len(m["slots"]) == 3
                    else m
                    for m in matches_by_episode.get(episode["number"], [])
                ],
                "eliminated": [
                    e["name"]
                    for e in picture["entrants"]
                    if e["eliminated_in"] == episode["number"]
                ],
                "answers": answers.get(episode["number"], []),
                "story": stories.get(episode["number"], []),
            }
            for episode in reversed(episodes)
        ],
    }
