"""gin's token file: the seat token of each game and the player token of each server, in a JSON file
only its owner can read (~/.config/gin-rummy/games.json, or $GIN_CONFIG)."""
from __future__ import annotations

import json
import os
import tempfile

from .cards import UsageError


def config_path(override: str | None = None) -> str:
    if override:
        return override
    if os.environ.get("GIN_CONFIG"):
        return os.environ["GIN_CONFIG"]
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "gin-rummy", "games.json")


class Store:
    """Per-game seat tokens in a JSON file only its owner can read (0600, folder 0700)."""

    def __init__(self, path: str):
        self.path = path
        self.data = {"games": {}}
        if os.path.exists(path):
            try:
                with open(path, encoding="utf-8") as f:
                    self.data = json.load(f)
            except (OSError, ValueError) as exc:
                raise UsageError(f"cannot read {path}: {exc}") from None
            self.data.setdefault("games", {})

    @property
    def games(self) -> dict[str, dict]:
        return self.data["games"]

    def player(self, server: str) -> dict | None:
        """The player account held for `server`: {"name", "token", "id"}, or None."""
        return self.data.get("players", {}).get(server.rstrip("/"))

    def set_player(self, server: str, account: dict) -> None:
        self.data.setdefault("players", {})[server.rstrip("/")] = account

    def save(self) -> None:
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            os.makedirs(folder, mode=0o700)
            os.chmod(folder, 0o700)  # makedirs' mode is filtered by the umask
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".games-", suffix=".tmp")  # created 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.data, f, indent=2, sort_keys=True)
                f.write("\n")
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def find(self, ref: str | None) -> tuple[str, dict]:
        """A game by id, unique id prefix, or the only known game when `ref` is None."""
        if not self.games:
            raise UsageError("no games yet: create one with `gin new` or join one with `gin join`")
        if ref is None:
            if len(self.games) == 1:
                return next(iter(self.games.items()))
            raise UsageError(f"you have {len(self.games)} games; name one with -g ID (ids: "
                             + ", ".join(sorted(g[:8] for g in self.games)) + ")")
        if ref in self.games:
            return ref, self.games[ref]
        matches = [g for g in self.games if g.startswith(ref)]
        if len(matches) == 1:
            return matches[0], self.games[matches[0]]
        if not matches:
            raise UsageError(f"no game of yours starts with {ref!r} (see `gin list`)")
        raise UsageError(f"{ref!r} matches {len(matches)} games; give more of the id")
