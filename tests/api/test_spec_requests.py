"""openapi.yaml's requests, taken at their word: an operation whose body the spec marks required
refuses a request without one as POST /games does (and makes nothing), and every request example
in the spec is accepted when sent as written, to a game and players set up for it."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .helpers import auth

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
OPERATIONS = [(path, method, op) for path, ops in SPEC["paths"].items() for method, op in ops.items()
              if method != "parameters"]
BODY_REQUIRED = [(path, method) for path, method, op in OPERATIONS if op.get("requestBody", {}).get("required")]


def player(client, name: str) -> str:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def test_the_spec_marks_bodies_required_where_routes_take_fields():
    assert {("/challenges", "post"), ("/me/games", "post"), ("/games", "post"), ("/players", "post"),
            ("/series", "post")} <= set(BODY_REQUIRED)


@pytest.mark.parametrize("path, method", BODY_REQUIRED)
def test_a_missing_required_body_is_refused_as_post_games_refuses_it(client, path, method):
    """No body at all is 415 (no media type), an empty JSON body 400: never taken as `{}` (POST
    /challenges would make an open challenge anyone can take, POST /me/games a game)."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = client.post("/me/games", json={}, headers=auth(ann)).get_json()
    challenge = client.post("/challenges", json={"to": "Ann"}, headers=auth(bob)).get_json()
    url = path.replace("{game_id}", game["game_id"]).replace("{challenge_id}", challenge["challenge_id"])
    documented = SPEC["paths"][path][method]["responses"]
    assert {"400", "415"} <= set(documented), (method, path)
    for headers, status, code in (({}, 415, "unsupported-media-type"),
                                  ({"Content-Type": "application/json"}, 400, "malformed-json")):
        response = client.open(url, method=method.upper(), headers=auth(ann, **headers))
        assert response.status_code == status and response.get_json()["code"] == code, (headers, response.get_json())
    # Nothing was made: Ann has her one game and no challenge of her own, nobody a second player.
    assert len(client.get("/me/games", headers=auth(ann)).get_json()["games"]) == 1
    assert client.get("/challenges", headers=auth(ann)).get_json()["mine"] == []
    assert client.get("/challenges", headers=auth(bob)).get_json()["mine"] == [challenge]
