"""The Redis broker transport, with one fix for how Celery 5.7 handles a lost connection.

After a connection loss the consumer first ``collect()``s the broken connection, which detaches
its transport, then ``close()``s it again; closing its default channel a second time tries to
give the unacknowledged messages back through a transport that no longer has a connection,
and the worker dies with ``AttributeError: 'NoneType' object has no attribute 'hostname'`` in
``restore_unacked`` (reproduced: kill Redis under a worker that holds ETA tasks, see
tests/faults). Skipping the give-back then loses nothing: Redis is unreachable at that moment
anyway, the messages stay in the broker's unacked set and are redelivered after the visibility
timeout, and every deadline they carried is re-armed from the database by the beat sweep.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

log = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client: Any = None) -> None:
        transport = self.channel.connection
        if client is None and (transport is None or transport.client is None):
            log.warning(
                "broker connection already closed: %d unacknowledged message(s) stay in Redis "
                "until the visibility timeout",
                len(self._delivered),
            )
            self._delivered.clear()
            return
        super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
