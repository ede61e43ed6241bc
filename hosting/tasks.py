from celery import shared_task
from django.core.management import call_command


@shared_task(name="hosting.ping")
def ping() -> str:
    """Answers ``pong``: proves a worker consumes from the broker (health checks, tests)."""
    return "pong"


@shared_task(name="hosting.clear_expired_sessions", ignore_result=True)
def clear_expired_sessions() -> None:
    """Delete expired sessions: every guest who takes a seat gets one, and nothing else would
    ever remove them (run by beat every hour)."""
    call_command("clearsessions")
