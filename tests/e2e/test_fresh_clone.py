"""The README's serve command works in a fresh clone on a machine that has never seen the project.

The test clones the repository's committed tree into a temporary folder and runs ``make serve`` there, which
creates the virtual environment, installs the package and starts the service on the embedded default store;
then it asks the running service for a rule of its catalogue. (The README's other command, ``make test``, is
what CI runs in a fresh clone: ``.ci/run`` calls exactly it.)
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#")[0].strip() for line in block.strip().splitlines() if line.strip()]


def test_the_readme_gives_exactly_the_two_commands_and_ci_runs_the_test_one() -> None:
    assert readme_commands() == ["make serve", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def wait_for_rule(proc: subprocess.Popen[bytes], port: int) -> dict[str, Any] | None:
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/rba.1", timeout=2) as r:
                return dict(json.loads(r.read()))
        except OSError:
            time.sleep(1)
    return None


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("make") is None, reason="needs git and make")
def test_make_serve_in_a_fresh_clone(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing to clone")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("VIRTUAL_ENV", "PERSISTENCE", "SQLITE", "PYTHONPATH"))
    }
    env["JUDGE_TOKEN"] = "fresh-clone-test"
    with (tmp_path / "serve.log").open("w") as log:
        proc = subprocess.Popen(
            ["make", "serve", f"SERVE_ARGS=--port {port}"],
            cwd=clone,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            body = wait_for_rule(proc, port)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
    printed = (tmp_path / "serve.log").read_text()
    assert body is not None, f"the service did not answer; make serve printed:\n{printed[-3000:]}"
    assert body["id"] == "rba.1"
    assert list((clone / "instance").glob("*.sqlite")), (
        "the default store is a SQLite file in the instance folder"
    )
