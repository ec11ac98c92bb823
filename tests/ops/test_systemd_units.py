"""deploy/systemd/: a unit for each of the Procfile's processes, running its command; each
restarted when it dies and stopped gracefully (SIGTERM, then a timeout); one web unit per port
with a control socket of its own; every variable the units read set in deploy/gin.env.example; and
`systemd-analyze verify` (skipped without it) finds nothing to say about them, with the paths
pointed at this checkout."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT

UNITS = ROOT / "deploy" / "systemd"
ENV_EXAMPLE = ROOT / "deploy" / "gin.env.example"
BY_PROCESS = {"web": "gin-web@.service", "worker": "gin-worker.service", "mail": "gin-mail.service",
              "bot": "gin-bot.service", "release": "gin-release.service",
              "coach": "gin-coach.service"}
ANALYZE = shutil.which("systemd-analyze")


def procfile() -> dict[str, str]:
    return dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if ": " in line)


def service_section(name: str) -> dict[str, str]:
    """The [Service] section's settings (continued lines joined)."""
    text = re.sub(r"\\\n\s*", "", (UNITS / name).read_text())
    section = text.split("[Service]", 1)[1].split("\n[", 1)[0]
    return dict(line.split("=", 1) for line in section.splitlines() if "=" in line and not line.startswith("#"))


def words(command: str) -> list[str]:
    """A command's words, its variables as ${NAME} whatever their default, paths to the venv dropped."""
    command = re.sub(r"\$\{(\w+):-[^}]*\}\}?", r"${\1}", command).replace("/srv/gin/.venv/bin/", "")
    return [word.strip('"') for word in command.split()]


def test_each_procfile_process_has_a_unit_running_its_command():
    assert set(procfile()) == set(BY_PROCESS)
    for process, command in procfile().items():
        started = words(service_section(BY_PROCESS[process])["ExecStart"])
        wanted = [w for w in words(command) if not w.startswith("0.0.0.0:")]  # the web node binds loopback
        assert [w for w in started if w in wanted] == wanted, (process, started, wanted)


def test_restarted_and_stopped_gracefully():
    for process, name in BY_PROCESS.items():
        service = service_section(name)
        if process == "release":
            assert service["Type"] == "oneshot"  # run once per release, never restarted
            continue
        assert service["Restart"] == "always" and service["KillSignal"] == "SIGTERM", name
        assert int(service["TimeoutStopSec"]) >= 30, name
    web = service_section("gin-web@.service")
    assert "--bind 127.0.0.1:%i" in web["ExecStart"] and "--control-socket /run/gin/web-%i.ctl" in web["ExecStart"]
    assert web["Type"] == "notify"  # gunicorn says when it listens


def test_every_variable_the_units_read_is_in_the_example_environment():
    example = {line.split("=", 1)[0] for line in ENV_EXAMPLE.read_text().splitlines()
               if re.match(r"^[A-Z_]+=", line)}
    read = {name for path in UNITS.glob("*.service") for name in re.findall(r"\$\{(\w+)\}", path.read_text())}
    assert read and read <= example, read - example


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed: the units are not verified")
def test_systemd_analyze_verifies_the_units(tmp_path):
    venv_bin = Path(sys.executable).parent
    for path in [*UNITS.glob("*.service"), *UNITS.glob("*.target")]:
        text = path.read_text().replace("/srv/gin/.venv/bin/", f"{venv_bin}/")
        text = text.replace("WorkingDirectory=/srv/gin", f"WorkingDirectory={ROOT}")
        text = text.replace("/etc/gin/gin.env", str(ENV_EXAMPLE))
        text = re.sub(r"^(User|Group)=gin$", r"\1=root", text, flags=re.MULTILINE)  # (no user gin here)
        (tmp_path / path.name).write_text(text)
    names = ["gin-web@8000.service", *(p.name for p in UNITS.glob("*.service") if "@" not in p.name), "gin.target"]
    done = subprocess.run([ANALYZE, "verify", "--man=no", *(f"./{name}" for name in names)], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stdout + done.stderr
