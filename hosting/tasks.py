from celery import shared_task


@shared_task(name="hosting.ping")
def ping() -> str:
    """Answers ``pong``: proves a worker consumes from the broker (health checks, tests)."""
    return "pong"
