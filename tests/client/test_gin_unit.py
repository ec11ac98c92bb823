"""The client's pure parts: card notation, the meld search, the token file, the polling loop."""
import io
import json
import os
import stat
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gin_client.api import Api, wait_for_change
from gin_client.cli.cards import UsageError, arrange, normalize_card
from gin_client.cli.common import EXIT_USAGE, parse_option
from gin_client.cli.display import Style, format_deadline, symbols_supported
from gin_client.cli.main import COMMANDS, build_parser, main
from gin_client.cli.seats import gin_action
from gin_client.cli.store import Store, config_path


@pytest.mark.parametrize("text, card", [("7h", "7H"), ("TD", "TD"), ("10d", "TD"), (" as ", "AS"), ("kc", "KC")])
def test_cards_are_normalised_to_the_api_notation(text, card):
    assert normalize_card(text) == card


@pytest.mark.parametrize("text", ["", "1H", "11C", "7X", "ZZ", "10", "AHH"])
def test_bad_card_text_is_a_usage_error_naming_it(text):
    with pytest.raises(UsageError, match="not a card"):
        normalize_card(text)


def test_arrange_finds_the_lowest_deadwood_not_a_greedy_one():
    # Greedy "sets first" takes 7C 7D 7H and strands 5C 6C 8C 9C; the best uses two runs + deadwood.
    melds, dead, points = arrange(["5C", "6C", "7C", "8C", "9C", "7D", "7H", "KS", "QS", "JS"])
    assert points == 14 and sorted(dead) == ["7D", "7H"]
    assert sorted(map(tuple, melds)) == [("5C", "6C", "7C", "8C", "9C"), ("JS", "QS", "KS")]


def test_meld_search_matches_the_engine_on_random_hands():
    import random
    from service.rules import best_arrangement, parse_cards
    rng = random.Random(11)
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    for _ in range(500):
        hand = rng.sample(deck, rng.choice([10, 11]))
        assert arrange(hand)[2] == best_arrangement(parse_cards(hand)).deadwood_points


def test_gin_action_picks_big_gin_or_the_zero_deadwood_knock():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "4S", "KH", "5S"]
    legal = [{"type": "discard", "card": c} for c in hand] + [{"type": "knock", "discard": c} for c in ("KH", "5S")]
    assert gin_action({"hand": hand, "legal_actions": legal}) == {"type": "knock", "discard": "KH"}
    assert gin_action({"hand": hand, "legal_actions": legal + [{"type": "big_gin"}]}) == {"type": "big_gin"}
    no_gin = [a for a in legal if a.get("discard") != "KH"]
    assert gin_action({"hand": hand, "legal_actions": no_gin}) is None


def test_symbols_only_where_the_terminal_can_show_them():
    assert symbols_supported(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert not symbols_supported(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert Style(True).card("TD") == "T♦" and Style(False).card("TD") == "TD"


def test_token_file_is_owner_only_even_with_a_lax_umask(tmp_path):
    path = tmp_path / "conf" / "gin-rummy" / "games.json"
    old = os.umask(0)
    try:
        store = Store(str(path))
        store.games["abc"] = {"token": "secret", "server": "http://127.0.0.1:1", "seat": 0}
        store.save()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert json.loads(path.read_text())["games"]["abc"]["token"] == "secret"
    assert [p.name for p in path.parent.iterdir()] == ["games.json"]  # no temp file left behind


def test_config_path_from_flag_env_and_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("GIN_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_path() == str(tmp_path / "gin-rummy" / "games.json")
    monkeypatch.setenv("GIN_CONFIG", "/x/y.json")
    assert config_path() == "/x/y.json"
    assert config_path("/flag.json") == "/flag.json"


def test_games_by_id_prefix_or_the_only_one(tmp_path):
    store = Store(str(tmp_path / "g.json"))
    with pytest.raises(UsageError, match="no games"):
        store.find(None)
    store.games["abcdef"] = {"token": "t1"}
    assert store.find(None)[0] == "abcdef"
    store.games["abxyz"] = {"token": "t2"}
    with pytest.raises(UsageError, match="2 games"):
        store.find(None)
    with pytest.raises(UsageError, match="matches 2"):
        store.find("ab")
    with pytest.raises(UsageError, match="no game"):
        store.find("zz")
    assert store.find("abc")[0] == "abcdef" and store.find("abxyz")[1]["token"] == "t2"


@pytest.mark.parametrize("text, pair", [("target=150", ("target", 150)), ("oklahoma=true", ("oklahoma", True)),
                                        ("shutout=plus_100", ("shutout", "plus_100"))])
def test_rule_options_parse_to_json_values(text, pair):
    assert parse_option(text) == pair


def test_every_command_has_help_with_an_example(capsys):
    for name, *_ in COMMANDS:
        with pytest.raises(SystemExit) as exit_info:
            main([name, "--help"])
        assert exit_info.value.code == 0
        out = capsys.readouterr().out
        assert "example:" in out and f"gin {name}" in out and "exit status" in out


class _IgnoresWait(BaseHTTPRequestHandler):
    """A real HTTP server that knows conditional GETs but not long-polling: 304 at once until
    the `changes_after`-th request."""
    requests: list = []
    changes_after = 4

    def do_GET(self):
        type(self).requests.append((self.path, self.headers.get("If-None-Match")))
        if len(self.requests) < self.changes_after:
            self.send_response(304)
            self.send_header("ETag", '"1"')
            self.end_headers()
            return
        body = json.dumps({"version": 2, "to_move": 0}).encode()
        self.send_response(200)
        self.send_header("ETag", '"2"')
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_polling_backs_off_when_the_server_ignores_wait():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _IgnoresWait)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        pauses = []
        api = Api(f"http://127.0.0.1:{server.server_port}", "tok")
        view, etag = wait_for_change(api, "g1", '"1"', wait=30, sleep=pauses.append)
    finally:
        server.shutdown()
        server.server_close()
    assert view == {"version": 2, "to_move": 0} and etag == '"2"'
    assert pauses == [1.0, 2.0, 4.0]  # one pause after each quick 304, doubling
    assert all(path == "/games/g1?wait=30" and tag == '"1"' for path, tag in _IgnoresWait.requests)


def test_deadlines_read_as_time_left():
    from datetime import datetime, timezone
    now = datetime(2026, 11, 22, 6, 0, tzinfo=timezone.utc)
    assert format_deadline("2026-11-25T06:05:24.36+00:00", now) == "25 Nov 06:05 UTC, in 3d 0h"
    assert format_deadline("2026-11-22T08:30:00Z", now) == "22 Nov 08:30 UTC, in 2h 30m"
    assert format_deadline("2026-11-21T08:30:00+00:00", now).endswith("overdue")
    assert format_deadline(None) == "-"


def test_an_id_that_begins_with_a_dash_is_taken_after_double_dash(capsys):
    # Older games may have such ids; argparse reads them as options unless they follow `--`.
    args = build_parser().parse_args(["join", "--name", "Bob", "--", "-eaAuOo6_Lk2wBKLOfWO3g", "CODE"])
    assert (args.game_id, args.invite_code, args.name) == ("-eaAuOo6_Lk2wBKLOfWO3g", "CODE", "Bob")
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["join", "-eaAuOo6_Lk2wBKLOfWO3g", "CODE"])
    assert exit_info.value.code == EXIT_USAGE
    assert "goes after `--`" in capsys.readouterr().err
