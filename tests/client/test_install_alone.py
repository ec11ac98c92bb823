"""The client stands alone: `pip install ./client` into a fresh virtual environment gives the `gin` and
`gin-bot` commands and the demo, with `requests` and nothing of the service, and that copy plays a
whole match on a running server. (pyproject.toml's import-linter contract keeps gin_client from
importing the service; this proves the installed package runs without it.)"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# requests and what it brings: all that `pip install ./client` may add beside the client itself
REQUESTS_AND_ITS_OWN = {"requests", "urllib3", "idna", "certifi", "charset-normalizer"}

INSTALLED = """
import importlib.metadata as metadata, importlib.util, json
import gin_client.api, gin_client.bots.account, gin_client.bots.levels, gin_client.cli.main, gin_client.demo
print(json.dumps({"distributions": sorted(d.metadata["Name"].lower() for d in metadata.distributions()),
                  "requires": metadata.requires("gin-client"), "package": gin_client.__file__,
                  "service": importlib.util.find_spec("service") is not None,
                  "flask": importlib.util.find_spec("flask") is not None}))
"""


def test_pip_install_of_the_client_alone_gives_gin_gin_bot_and_the_demo(tmp_path, gin_server):
    source = tmp_path / "client"  # a copy: pip builds in the source folder, which stays clean this way
    shutil.copytree(ROOT / "client", source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python, scripts = venv / "bin" / "python", venv / "bin"
    # This environment's pip installs into the fresh one (no pip of its own to bootstrap); requests
    # comes from pip's cache, or PyPI.
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                                "--disable-pip-version-check", str(source)],
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "elsewhere"  # run away from the repository and the copy: only the venv counts
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith("GIN_")}
    env.update({"HOME": str(elsewhere), "XDG_CONFIG_HOME": str(elsewhere / "cfg")})

    def run(*command: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run(command, cwd=elsewhere, env=env, capture_output=True, text=True, timeout=timeout)

    found = run(str(python), "-c", INSTALLED)
    assert found.returncode == 0, found.stderr
    found = json.loads(found.stdout)
    assert Path(found["package"]).is_relative_to(venv)
    assert found["requires"] == ["requests<3,>=2.32"]
    assert set(found["distributions"]) == {"gin-client"} | REQUESTS_AND_ITS_OWN
    assert not found["service"] and not found["flask"]

    gin = run(str(scripts / "gin"), "--help")
    assert gin.returncode == 0 and "COMMAND" in gin.stdout and "register" in gin.stdout, gin.stderr
    gin_bot = run(str(scripts / "gin-bot"), "--help")
    assert gin_bot.returncode == 0 and "--token-file" in gin_bot.stdout and "--register" in gin_bot.stdout, \
        gin_bot.stderr
    demo = run(str(python), "-m", "gin_client.demo", "--help")
    assert demo.returncode == 0 and "--server URL" in demo.stdout, demo.stderr

    # Starting a server needs the service: said plainly. A running one is played on from here alone.
    alone = run(str(python), "-m", "gin_client.demo")
    assert alone.returncode == 1 and "--server URL" in alone.stderr and "Traceback" not in alone.stderr
    match = run(str(python), "-m", "gin_client.demo", "--server", gin_server, "--option", "target=25", timeout=300)
    assert match.returncode == 0, match.stderr
    assert "wins the match by" in match.stdout and f"on {gin_server}" in match.stdout

    registered = run(str(scripts / "gin"), "--server", gin_server, "register", "AloneInstall", "--json")
    assert registered.returncode == 0 and json.loads(registered.stdout)["player"]["name"] == "AloneInstall", \
        registered.stderr
