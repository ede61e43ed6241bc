"""One cluster for the whole fault suite (``cluster.Cluster``), on the test database: the
tests make games through the same services, and read what the processes wrote."""

from __future__ import annotations

import json
import logging
import os
import shutil
from urllib.parse import quote

import pytest

from tests.faults.cluster import ROOT, Cluster

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"
FIGURES = ROOT / "var" / "faults.json"


# Every request of the clients would be an INFO line of httpx's.
logging.getLogger("httpx").setLevel(logging.WARNING)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/faults/" in str(item.fspath):
            item.add_marker(pytest.mark.faults)


# Package scope: the processes stop once tests/faults is done, so that no worker or beat of
# theirs acts on the games of the tests that follow (they share the test database).
@pytest.fixture(scope="package")
def cluster(django_db_setup, django_db_blocker, tmp_path_factory):
    from django.db import connection

    with django_db_blocker.unblock():
        db = connection.settings_dict
        if connection.vendor != "postgresql":
            pytest.skip("the fault suite runs on PostgreSQL (set DATABASE_URL)")
    if shutil.which("redis-server") is None:
        if REQUIRED:
            pytest.fail("REQUIRE_SERVICES=1 but redis-server is not installed")
        pytest.skip("the fault suite starts its own redis-server, which is not installed")
    login = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    url = f"postgres://{login}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    running = Cluster(database_url=url, scratch=tmp_path_factory.mktemp("faults"))
    try:
        running.start_all()
        yield running
    finally:
        running.stop_all()
        # The processes kept sessions on the test database; it is dropped at the end.
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture(scope="package")
def figures():
    """What each scenario measured, written to var/faults.json (docs/operations.md cites it)."""
    measured: dict[str, dict] = {}
    yield measured
    if measured:
        FIGURES.parent.mkdir(exist_ok=True)
        FIGURES.write_text(json.dumps(measured, indent=2, sort_keys=True) + "\n")


@pytest.fixture
def whole(cluster):
    """Each scenario starts and ends with every process up and healthy."""
    for name, proc in list(cluster.procs.items()):
        if proc.poll() is not None:
            cluster.start(name)
    cluster.wait_healthy()
    yield cluster
    for name, proc in list(cluster.procs.items()):
        if proc.poll() is not None:
            cluster.start(name)
    cluster.wait_healthy()
