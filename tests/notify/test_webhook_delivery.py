"""Where a webhook delivery connects: the address checked is the address called (no DNS
rebinding past the private-address check), and the receiver sees the URL's own host, path and
query, with a signature it can verify."""
from __future__ import annotations

import socket
import time

import pytest

from service.notify.webhooks import calls as webhook_calls
from service.notify.webhooks import signatures


def resolver(*answers: str):
    """getaddrinfo answering each call with the next address: a DNS server that changes its
    answer (a fault no loopback test can cause for real), and the calls counted."""
    calls = []

    def getaddrinfo(host, port, *args, **kwargs):
        address = answers[min(len(calls), len(answers) - 1)]
        calls.append(host)
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, 0))]
    return getaddrinfo, calls


def test_the_checked_address_is_the_one_called(monkeypatch):
    getaddrinfo, calls = resolver("93.184.216.34", "127.0.0.1")  # public first, then internal
    monkeypatch.setattr(webhook_calls.socket, "getaddrinfo", getaddrinfo)
    assert webhook_calls.delivery_address("https://hooks.example.org/x", allow_private=False) == "93.184.216.34"
    assert calls == ["hooks.example.org"]  # resolved once: nothing later can swap the address


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "fd00::1"])
def test_a_host_with_a_private_address_is_refused_for_good(monkeypatch, address):
    monkeypatch.setattr(webhook_calls.socket, "getaddrinfo", resolver(address)[0])
    with pytest.raises(webhook_calls.WebhookError) as refused:
        webhook_calls.delivery_address("http://hooks.example.org/x", allow_private=False)
    assert refused.value.permanent and address not in str(refused.value)  # not said to the seat (issue 38)


def test_the_receiver_gets_the_urls_host_path_query_and_a_valid_signature(receiver):
    url = f"http://localhost:{receiver.port}/hook/seat?game=abc"
    secret, body, now = signatures.new_secret(), '{"type":"turn.started"}', int(time.time())
    assert webhook_calls.post(url, secret, "msg_1", body, now, timeout=5, allow_private=True) == 204
    [delivered] = receiver.delivered()
    hosts = [value for name, value in delivered["header_list"] if name.lower() == "host"]
    assert hosts == [f"localhost:{receiver.port}"]  # the URL's host, once: http.client added none of its own
    assert delivered["path"] == "/hook/seat?game=abc"
    assert signatures.verify(secret, delivered["headers"], delivered["body"], now)


@pytest.fixture
def tls_receiver(tmp_path):
    """A real HTTPS receiver on loopback with a certificate for "localhost" only, and that
    certificate as the only trusted authority (openssl makes it)."""
    import http.server
    import shutil
    import ssl
    import subprocess
    import threading
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["content-length"]))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], str(cert)
    server.shutdown()
    server.server_close()


def test_tls_certificates_are_verified_against_the_urls_host_name(tls_receiver, monkeypatch):
    port, cert = tls_receiver
    secret = signatures.new_secret()
    with pytest.raises(webhook_calls.WebhookError, match="CERTIFICATE_VERIFY_FAILED"):  # not trusted yet
        webhook_calls.post(f"https://localhost:{port}/x", secret, "msg_1", "{}", 0, timeout=5, allow_private=True)
    monkeypatch.setattr(webhook_calls, "ca_bundle", lambda: cert)  # trust the receiver's own certificate
    assert webhook_calls.post(f"https://localhost:{port}/x", secret, "msg_1", "{}", 0, timeout=5, allow_private=True) == 204
    with pytest.raises(webhook_calls.WebhookError, match="CERTIFICATE_VERIFY_FAILED"):  # the name does not match
        webhook_calls.post(f"https://127.0.0.1:{port}/x", secret, "msg_1", "{}", 0, timeout=5, allow_private=True)
