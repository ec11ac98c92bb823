"""A reader of a Server-Sent Events response in a thread, for the live stream tests: events
({"id", "event", "data"}) and comment lines in queues; None in the events queue when it ends."""
from __future__ import annotations

import json
import queue
import socket
import threading

import requests


class EventStream:
    def __init__(self, url: str, headers: dict, last_event_id: int | None = None, session=requests):
        headers = {**headers, "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.response = session.get(url, headers=headers, stream=True, timeout=(5, 60))
        self.events, self.comments = queue.Queue(), queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fields = {}
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line == "":
                    if "data" in fields:
                        self.events.put({"id": int(fields["id"]), "event": fields["event"],
                                         "data": json.loads(fields["data"])})
                    fields = {}
                elif line.startswith(":"):
                    self.comments.put(line)
                else:
                    name, _, value = line.partition(": ")
                    fields[name] = value
        except (requests.RequestException, AttributeError):  # closed by the test
            pass
        self.events.put(None)  # the stream ended

    def close(self):
        """Close the connection at once, as a browser closing the tab does: shut the socket down
        first, since closing it while the reader thread is in recv() sends nothing until recv returns."""
        connection = self.response.raw.connection
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:  # the server closed it already
                pass
        self.response.close()
