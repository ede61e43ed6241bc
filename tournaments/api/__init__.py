"""The tournaments HTTP API (``/api/tournaments/`` and ``/api/audit/``): parse, call one
service, render. Errors: hosting.core.errors.

Reads are public (spectators need no account) but never show anything private: entrants
appear by display name and seed, sealed answers only to their author until the reveal. The
entrant acting is always the one belonging to ``request.user``.

One module per part (``tournaments``, ``entrants``, ``matches``, ``audit``, ``seasons``), each
view with its OpenAPI description; the lookups are ``tournaments.selectors``, the bodies
``tournaments.payloads``, the input serializers ``inputs`` (the organiser console takes them
too) and the shared answers' descriptions ``outputs``.
"""
