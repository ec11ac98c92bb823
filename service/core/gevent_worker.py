"""The service's gunicorn worker (service/core/server.py names it): gevent's, with a read timeout
on every connection (READ_TIMEOUT seconds), problem documents for requests gunicorn refuses itself,
waiting requests answered at once when it stops, and answers written in one piece.

Apart from server.py, which as gunicorn's settings module sets PROMETHEUS_MULTIPROC_DIR when it is
imported: importing this module changes nothing in the importing process.
"""
from __future__ import annotations

import json
import os

from gunicorn import util
from gunicorn.http import wsgi
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers.ggevent import GeventWorker

READ_TIMEOUT = float(os.environ.get("READ_TIMEOUT", "30"))


class OneWriteResponse(wsgi.Response):
    """gunicorn's response, whose head goes out with a body that comes in one piece (every API
    answer: Flask gives it a Content-Length) in one sendall, not two: on loopback each costs a
    system call and a wake-up of the client. Anything else (streams, files, HEAD, 304) takes
    gunicorn's own path."""

    def write(self, arg):
        if self.headers_sent or self.chunked or self.sent or getattr(self, "_omits_body", False) \
                or not isinstance(arg, bytes) or self.response_length != len(arg):
            return super().write(arg)
        tosend = self.default_headers()  # as gunicorn's send_headers writes them
        tosend.extend(["%s: %s\r\n" % (k, v) for k, v in self.headers])
        self.headers_sent, self.sent = True, len(arg)
        util.write(self.sock, util.to_bytestring("%s\r\n" % "".join(tosend), "latin-1") + arg)


class Worker(GeventWorker):
    """gunicorn's gevent worker, with a read timeout on every connection, problem documents for
    requests gunicorn refuses itself, waiting requests answered at once when it stops, and
    answers written in one piece (OneWriteResponse)."""

    def init_process(self):
        wsgi.Response = OneWriteResponse  # the class wsgi.create makes, in this worker process
        super().init_process()

    def handle(self, listener, client, addr):
        client.settimeout(READ_TIMEOUT)
        super(GeventWorker, self).handle(listener, client, addr)  # skip setblocking(1): keep the timeout

    def handle_exit(self, sig, frame):
        super().handle_exit(sig, frame)
        self._wake_waiters()

    def handle_quit(self, sig, frame):
        super().handle_quit(sig, frame)
        self._wake_waiters()

    def _wake_waiters(self):
        import gevent

        from .wakeup import close_all
        gevent.spawn(close_all)  # out of the signal handler; long-polls answer, streams end

    def handle_error(self, req, client, addr, exc):
        if isinstance(exc, LimitRequestHeaders):
            status, code, detail = 431, "header-too-large", "a request header, or all of them, is too large"
        elif isinstance(exc, LimitRequestLine):
            status, code, detail = 414, "uri-too-long", "the request line is too long"
        else:
            return super().handle_error(req, client, addr, exc)
        self.log.warning("refused a request from %s: %s", (addr or ("",))[0], exc)
        body = json.dumps({"type": f"/docs#problem-{code}", "title": _PHRASES[status], "status": status,
                           "detail": detail, "code": code}).encode()
        head = (f"HTTP/1.1 {status} {_PHRASES[status]}\r\nConnection: close\r\n"
                f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
        try:
            client.sendall(head.encode("latin-1") + body)
        except OSError:
            pass


_PHRASES = {414: "URI Too Long", 431: "Request Header Fields Too Large"}
