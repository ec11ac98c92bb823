"""Mail links follow the port `make run` serves (issue 24, defect 2): with no BASE_URL set, the
links in mails name 127.0.0.1 and PORT, and `make run PORT=N` hands N to the server it starts."""
from __future__ import annotations

import subprocess

from service.access.links import seat_link, seat_page_url
from service.core.settings import setting
from service.games.deadlines import now
from tests.conftest import ROOT


def test_make_run_hands_its_port_to_the_server_it_starts():
    dry = subprocess.run(["make", "-n", "run", "PORT=9123"], cwd=ROOT, capture_output=True, text=True, check=True)
    [line] = [line for line in dry.stdout.splitlines() if "gunicorn" in line]
    assert line.startswith("PORT=9123 ") and "--bind 127.0.0.1:9123" in line, line


def test_without_base_url_the_links_in_mails_name_the_port_served(app, monkeypatch):
    monkeypatch.delenv("BASE_URL", raising=False)
    monkeypatch.setenv("PORT", "9123")
    with app.app_context():
        assert "BASE_URL" not in app.config
        assert setting("BASE_URL") == "http://127.0.0.1:9123"
        assert seat_page_url("g1") == "http://127.0.0.1:9123/play/g1"
        assert seat_link("g1", 0, now()).startswith("http://127.0.0.1:9123/play/g1#link=")
        monkeypatch.delenv("PORT")
        assert seat_page_url("g1") == "http://127.0.0.1:8000/play/g1"  # make run's own default
        monkeypatch.setenv("BASE_URL", "https://gin.example.org/")
        assert seat_page_url("g1") == "https://gin.example.org/play/g1"  # set: it wins
