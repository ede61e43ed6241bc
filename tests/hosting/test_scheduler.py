import threading
import time

from hosting.core.scheduling import Scheduler


def test_jobs_run_in_due_order_and_a_failing_job_stops_nothing():
    scheduler = Scheduler()
    ran: list[str] = []
    done = threading.Event()

    def record(name: str) -> None:
        ran.append(name)
        if name == "last":
            done.set()

    def explode() -> None:
        raise RuntimeError("boom")

    start = time.time()
    scheduler.call_at(start + 0.2, record, name="last")
    scheduler.call_at(start + 0.05, explode)
    scheduler.call_at(start + 0.1, record, name="first")
    scheduler.start()
    assert done.wait(3)
    assert ran == ["first", "last"]
    assert time.time() - start >= 0.2
