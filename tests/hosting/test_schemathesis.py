"""Schemathesis against the live service's own ``/api/schema/``: every operation, with bodies,
queries and path parameters generated from the schema (valid ones and invalid ones), answers
no 5xx, only documented status codes and content types, and bodies that match the schema;
then sequences of calls along the links Schemathesis infers between operations (stateful).

Each operation is tried at random path parameters and at the seeded rows' own (a tournament,
a game, a match, a webhook, a token, a dispute), as an anonymous client, as one of the cup's
players and as its organiser (personal tokens), with every check Schemathesis has that judges
one answer (``CHECKS``: no 5xx, documented statuses, headers and content types, bodies on the
schema, invalid data refused, valid data accepted). Examples are bounded (``EXAMPLES`` each
way, a dozen sequences of six calls) to keep CI short; ``benchmarks/schemathesis_probe.py``
runs every check and phase with many more against a live server of its own (docs/api.md,
"Schemathesis").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    missing_required_header,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from hosting.core import tokens
from tests.games.hosting_helpers import register_tiny
from tests.tournaments.builders import started
from tournaments.disputes import services as disputes
from tournaments.webhooks import services as webhooks

EXAMPLES = 4
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    missing_required_header,
    unsupported_method,
]
# Not ``positive_data_acceptance``: a body the document allows may still break a rule it cannot
# state (a registered engine, dates in order, an entrant of this tournament), a documented 400.
# benchmarks/schemathesis_probe.py runs it too and counts those refusals apart.


def _seed() -> tuple[dict[str, str], dict[str, Any]]:
    """A running cup with a hosted game, a webhook, a dispute and a spare token; the headers
    of each identity and the rows' path parameters."""
    register_tiny()
    tournament, _stage, players = started("single_elimination", 2, online=True)
    organiser = tournament.organiser
    made = tokens.token_create(user=organiser, name="schemathesis")
    spare = tokens.token_create(user=organiser, name="to revoke")  # not the one it acts with
    player = tokens.token_create(user=players[0].user, name="schemathesis")
    hook = webhooks.endpoint_create(
        tournament=tournament, by=organiser, url="http://127.0.0.1:9/", events=["match.ready"]
    )
    match = tournament.stages.get().matches.get(code="W1.1")
    game = match.match_games.get().game_id
    dispute = disputes.dispute_file(match=match, by=players[0].user, reason="schemathesis")
    headers = {
        "anonymous": {},
        "player": {"Authorization": f"Bearer {player.secret}"},
        "organiser": {"Authorization": f"Bearer {made.secret}"},
    }
    known = {
        "slug": tournament.slug,
        "code": match.code,
        "game_id": game,
        "number": 1,
        "hook_id": hook.pk,
        "token_id": spare.token.pk,
        "dispute_id": dispute.pk,
    }
    return headers, known


@pytest.mark.parametrize("identity", ["anonymous", "player", "organiser"])
def test_the_live_api_keeps_to_its_schema(
    identity, asgi_server, postgres_only, settings_throttles_off
):
    every_headers, known = _seed()
    headers = every_headers[identity]
    schema = _schema(asgi_server)
    failures: list[str] = []
    statuses: Counter[int] = Counter()
    # Deletions last, so that the rows the other operations use still exist; revoking a
    # token (perhaps the one it acts with: random ids are small numbers too) the very last.
    operations = sorted(
        (result.ok() for result in schema.get_all_operations()),
        key=lambda op: (op.method.upper() == "DELETE", "token_id" in op.path, op.label),
    )
    assert len(operations) > 30
    for operation in operations:
        names = {parameter.name for parameter in operation.path_parameters}
        at_rows = {name: value for name, value in known.items() if name in names}
        # Without path parameters: valid and invalid input. With them: valid input anywhere
        # (mostly rows that do not exist), and valid and invalid input at the seeded rows.
        tries = [({}, GenerationMode.POSITIVE)]
        tries += [(at_rows, mode) for mode in GenerationMode] if at_rows else []
        tries += [] if names else [({}, GenerationMode.NEGATIVE)]
        for path_parameters, mode in tries:
            # The token as a fixed header: otherwise a security scheme's header is generated.
            strategy = operation.as_strategy(
                generation_mode=mode,
                path_parameters=path_parameters or None,
                headers=headers or None,
            )
            run = _examples(strategy, asgi_server, CHECKS, statuses)
            try:
                run()
            except Unsatisfiable:
                continue  # nothing in the operation can be made invalid (no body, no query)
            # Every operation is tried and every failure shown (Schemathesis raises groups).
            except (Exception, BaseExceptionGroup) as failure:
                failures.append(f"{operation.label} ({mode.value}): {str(failure)[:3000]}")
    assert not failures, "\n\n".join(failures)
    # It reached the rows, not only refusals: successes, and refusals of each kind.
    print(
        f"schemathesis as {identity}: {sum(statuses.values())} requests, "
        f"by status {sorted(statuses.items())}"
    )
    assert sum(statuses.values()) > 200
    assert {200, 400, 403, 404} <= set(statuses)


def _schema(base_url: str) -> Any:
    """The live document; no NUL character in generated text: the API refuses one at the
    edge, as its conventions say (``parse_error``), whatever the field."""
    schema = schemathesis.openapi.from_url(f"{base_url}/api/schema/")
    schema.config.generation.update(allow_x00=False)
    return schema


def _examples(strategy: Any, base_url: str, checks: list, statuses: Counter[int]) -> Any:
    """The bounded test of one strategy: each generated case sent and judged by ``checks``."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case: schemathesis.Case) -> None:
        response = case.call_and_validate(base_url=base_url, checks=checks, timeout=10)
        statuses[response.status_code] += 1

    return run


@pytest.fixture
def settings_throttles_off(settings):
    """The fuzz sends hundreds of requests from one address in a minute: rate limits would
    answer most of them 429 (documented, but then nothing else would be tested)."""
    settings.THROTTLE_RATES = {key: "off" for key in settings.THROTTLE_RATES}


def test_stateful_links_between_operations_keep_to_the_schema(
    asgi_server, postgres_only, settings_throttles_off
):
    """The links Schemathesis infers between operations (a created row's id into the calls
    that read, change or delete it), walked in short random sequences."""
    every_headers, _known = _seed()
    schema = _schema(asgi_server)
    headers = every_headers["organiser"]
    calls: Counter[int] = Counter()

    class Workflow(schema.as_state_machine()):
        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"base_url": asgi_server, "headers": headers, "timeout": 10}

        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            calls[response.status_code] += 1
            case.validate_response(response, checks=CHECKS)

    Workflow.run(
        settings=settings(
            max_examples=12,
            stateful_step_count=6,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    print(f"stateful: {sum(calls.values())} requests, by status {sorted(calls.items())}")
    assert schema.statistic.transitions.total > 50  # inferred from the schema's paths and bodies
    assert sum(calls.values()) > 50 and 200 in calls
