"""deploy/nginx-tls.conf (its includes from deploy/nginx/ written in) with a certificate the test
makes: `nginx -t` accepts it, and in front of a real server it answers over TLS 1.2 or 1.3 with
HTTP/2 offered, refuses a TLS 1.2 client that offers only a CBC cipher (nginx's default list would
take it), sends Strict-Transport-Security, and redirects plain HTTP to HTTPS. The nginx is the
distribution's (as test_nginx.py's); without it, or without openssl to make the certificate, these
tests skip, saying so."""
from __future__ import annotations

import re
import shutil
import socket
import ssl
import subprocess
import time

import pytest
import requests

from ..conftest import free_port, start_gunicorn, stop_gunicorn
from .test_nginx import NGINX, deploy_site, main_config

OPENSSL = shutil.which("openssl")
pytestmark = [pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install -y nginx)"),
              pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed: no test certificate")]


def certificate(directory) -> tuple[str, str]:
    """A self-signed ECDSA certificate for 127.0.0.1 and localhost, a day long: (cert, key)."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], check=True, capture_output=True)
    return str(cert), str(key)


def tls_config(tmp_path, upstream: int, https: int, http: int, cert: str, key: str) -> str:
    site = deploy_site("nginx-tls.conf")
    site, tls = re.subn(r"listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;", site)
    site, plain = re.subn(r"listen 80;", f"listen 127.0.0.1:{http};", site)
    site, upstreams = re.subn(r"server 127\.0\.0\.1:8000( [^;]*)?;", rf"server 127.0.0.1:{upstream}\1;", site)
    site, dropped = re.subn(r"\n *server 127\.0\.0\.1:8001[^;]*;[^\n]*", "", site)
    site, certs = re.subn(r"ssl_certificate /\S+;", f"ssl_certificate {cert};", site)
    site, keys = re.subn(r"ssl_certificate_key /\S+;", f"ssl_certificate_key {key};", site)
    site = site.replace("root /var/www/letsencrypt;", f"root {tmp_path};")
    assert (tls, plain, upstreams, dropped, certs, keys) == (1, 1, 1, 1, 1, 1), \
        "deploy/nginx-tls.conf no longer has the lines this test replaces"
    return main_config(tmp_path, site)


def test_nginx_accepts_the_tls_site(tmp_path):
    cert, key = certificate(tmp_path)
    (tmp_path / "nginx.conf").write_text(tls_config(tmp_path, free_port(), free_port(), free_port(), cert, key))
    done = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
                           "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True)
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr


@pytest.fixture
def served_over_tls(tmp_path):
    """(https base, http base, the certificate) of the TLS site in front of one gunicorn."""
    cert, key = certificate(tmp_path)
    server, upstream = start_gunicorn(f"sqlite:///{tmp_path / 'gin.sqlite3'}", workers=1,
                                      log_path=tmp_path / "gunicorn.log", env={"TRUSTED_PROXIES": "1"})
    https, http = free_port(), free_port()
    (tmp_path / "nginx.conf").write_text(tls_config(tmp_path, int(upstream.rsplit(":", 1)[1]), https, http, cert, key))
    proxy = subprocess.Popen([NGINX, "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
                              "-c", str(tmp_path / "nginx.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base = f"https://127.0.0.1:{https}"
        for _ in range(600):
            try:
                if requests.get(base + "/health", verify=cert, timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                assert proxy.poll() is None, proxy.stderr.read().decode(errors="replace")
            time.sleep(0.05)
        yield base, f"http://127.0.0.1:{http}", cert
    finally:
        proxy.terminate()
        proxy.wait(timeout=10)
        stop_gunicorn(server)


def handshake(port: int, cert: str, ciphers: str | None = None) -> ssl.SSLSocket:
    context = ssl.create_default_context(cafile=cert)
    context.set_alpn_protocols(["h2", "http/1.1"])
    if ciphers:
        context.maximum_version = ssl.TLSVersion.TLSv1_2  # (TLS 1.3's ciphers are not chosen this way)
        context.set_ciphers(ciphers)
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    return context.wrap_socket(raw, server_hostname="localhost")


def test_served_over_modern_tls_with_hsts_and_http_redirected(served_over_tls):
    base, plain, cert = served_over_tls
    port = int(base.rsplit(":", 1)[1])
    answer = requests.get(base + "/health", verify=cert, timeout=10)
    assert answer.status_code == 200 and answer.json()["status"] == "ok"
    hsts = answer.headers["Strict-Transport-Security"]
    assert int(re.search(r"max-age=(\d+)", hsts).group(1)) >= 365 * 24 * 3600
    refused = requests.get(base + "/games/none", verify=cert, timeout=10)  # errors carry it too
    assert refused.status_code == 401 and "Strict-Transport-Security" in refused.headers

    with handshake(port, cert) as modern:
        assert modern.version() in ("TLSv1.2", "TLSv1.3") and modern.selected_alpn_protocol() == "h2"
    with handshake(port, cert, "ECDHE-ECDSA-AES128-GCM-SHA256") as aead:
        assert aead.version() == "TLSv1.2" and aead.cipher()[0] == "ECDHE-ECDSA-AES128-GCM-SHA256"
    with pytest.raises(ssl.SSLError):
        handshake(port, cert, "ECDHE-ECDSA-AES128-SHA")  # CBC: nginx's own default list takes it

    moved = requests.get(plain + "/games/abc?x=1", allow_redirects=False, timeout=10)
    assert moved.status_code == 301 and moved.headers["Location"] == "https://127.0.0.1/games/abc?x=1"
