"""service/core/gevent_worker.py's OneWriteResponse: an answer with a body in one piece goes out in one
sendall, byte for byte what gunicorn's own response writes in two; streams keep gunicorn's path."""
from __future__ import annotations

from types import SimpleNamespace

from gunicorn.config import Config
from gunicorn.http import wsgi

from service.core.gevent_worker import OneWriteResponse


class Socket:
    def __init__(self):
        self.sent: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sent.append(bytes(data))


def answer(response_class, body_parts: list[bytes], length: bool = True, method: str = "GET"):
    sock = Socket()
    request = SimpleNamespace(version=(1, 1), method=method, should_close=lambda: False, headers=[])
    response = response_class(request, sock, Config())
    headers = [("Content-Type", "application/json"), ("ETag", '"7"')]
    if length:
        headers.append(("Content-Length", str(sum(map(len, body_parts)))))
    response.start_response("200 OK", headers)
    for part in body_parts:
        response.write(part)
    response.close()
    return sock.sent


def without_date(wire: bytes) -> bytes:
    return b"\r\n".join(line for line in wire.split(b"\r\n") if not line.startswith(b"Date: "))


def test_a_whole_body_goes_out_with_its_head_in_one_sendall():
    body = b'{"game_id":"abc","version":7}\n'
    ours, theirs = answer(OneWriteResponse, [body]), answer(wsgi.Response, [body])
    assert len(ours) == 1 and len(theirs) == 2
    assert ours[0].endswith(b"\r\n\r\n" + body)
    assert without_date(ours[0]) == without_date(b"".join(theirs))


def test_a_body_in_parts_or_without_a_length_takes_gunicorns_path():
    parts = [b"data: 1\n\n", b"data: 2\n\n"]
    for length in (True, False):  # in parts with a length; a stream (chunked)
        ours, theirs = answer(OneWriteResponse, parts, length), answer(wsgi.Response, parts, length)
        assert len(ours) == len(theirs) > 1
        assert without_date(b"".join(ours)) == without_date(b"".join(theirs))


def test_a_head_request_sends_the_head_only():
    ours = answer(OneWriteResponse, [b"{}"], method="HEAD")
    assert len(ours) == 1 and ours[0].endswith(b"\r\n\r\n")
