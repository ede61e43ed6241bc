from celery import shared_task
from django.core.management import call_command

from hosting.core import scheduling


@shared_task(name="hosting.ping")
def ping() -> str:
    """Answers ``pong``: proves a worker consumes from the broker (health checks, tests)."""
    return "pong"


@shared_task(name="hosting.clear_expired_sessions", ignore_result=True)
def clear_expired_sessions() -> None:
    """Delete expired sessions: every guest who takes a seat gets one, and nothing else would
    ever remove them (run by beat every hour)."""
    call_command("clearsessions")


@shared_task(name="hosting.drain_due", ignore_result=True)
def drain_due(until: float | None = None) -> int:
    """Run the batched tasks due by the end of this task's slot (computer players' moves): one
    task per slot of due times instead of one per move (``hosting.core.scheduling.drain``)."""
    return scheduling.drain(until=until)
