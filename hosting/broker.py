"""The Redis broker transport, with a fix for how Celery 5.7 handles a lost connection.

After a connection loss the consumer first ``collect()``s the broken connection, which detaches
its channels from their transport, then ``close()``s it again. Two things then reach a
detached channel, and each one killed the worker (reproduced by tests/faults, killing Redis
under workers that hold ETA tasks and run others):

- closing the default channel a second time gives the unacknowledged messages back:
  ``AttributeError: 'NoneType' object has no attribute 'hostname'`` in ``restore_unacked``;
- a task that was running meanwhile finishes after the reconnect and acknowledges its message
  on the old channel: ``'NoneType' object has no attribute 'client'`` in ``ack``.

On a detached channel both are skipped, which loses nothing: the messages stay in the broker's
unacked set and Redis hands them out again after the visibility timeout (every task here is
safe to run twice), and every deadline they carried is re-armed from the database by the beat
sweep.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis, virtual

log = logging.getLogger(__name__)


class QoS(redis.QoS):
    def _detached(self) -> bool:
        transport = self.channel.connection
        return transport is None or transport.client is None

    def ack(self, delivery_tag: Any) -> None:
        if self._detached():
            log.warning("broker connection was replaced: a message is acknowledged only here")
            virtual.QoS.ack(self, delivery_tag)
            return
        super().ack(delivery_tag)

    def reject(self, delivery_tag: Any, requeue: bool = False) -> None:
        if self._detached():
            log.warning("broker connection was replaced: a message is rejected only here")
            virtual.QoS.ack(self, delivery_tag)
            return
        super().reject(delivery_tag, requeue=requeue)

    def restore_unacked(self, client: Any = None) -> None:
        if client is None and self._detached():
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
