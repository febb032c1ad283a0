"""The ``wixoss-judge`` console command."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml

from app import cli


def test_openapi_prints_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["openapi"]) == 0
    out = capsys.readouterr().out
    assert yaml.safe_load(out)["info"]["title"] == "WIXOSS Judge"
    assert out == cli.generated_openapi()


def test_openapi_writes_a_file(tmp_path: Path) -> None:
    target = tmp_path / "openapi.yaml"
    assert cli.main(["openapi", "--output", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == cli.generated_openapi()


def test_init_db_creates_the_tables_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "store.sqlite"
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    monkeypatch.setenv("SQLITE_DBNAME", str(db))
    assert cli.main(["init-db"]) == 0
    con = sqlite3.connect(db)
    tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    con.close()
    assert "stored_events" in tables
    assert cli.main(["init-db"]) == 0  # again: harmless


def test_serve_has_host_and_port_options() -> None:
    args = cli.build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    args = cli.build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)


def test_simulate_delegates_to_app_simulate(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse
    import types

    calls: list[argparse.Namespace] = []
    fake = types.ModuleType(cli.SIMULATE_MODULE)
    fake.add_arguments = lambda parser: parser.add_argument("--games", type=int, default=1)  # type: ignore[attr-defined]
    fake.run = lambda args: calls.append(args) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(__import__("sys").modules, cli.SIMULATE_MODULE, fake)
    assert cli.main(["simulate", "--games", "3"]) == 0
    assert calls and calls[0].games == 3


def test_simulate_without_the_simulator_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "SIMULATE_MODULE", "app.no_such_simulator")
    assert cli.main(["simulate"]) == 2
    assert "not installed" in capsys.readouterr().err


def test_a_missing_judge_token_makes_and_prints_a_development_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app import create_app

    monkeypatch.delenv("JUDGE_TOKEN", raising=False)
    monkeypatch.delenv("TOKEN_SECRET", raising=False)
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    monkeypatch.delenv("SQLITE_DBNAME", raising=False)
    monkeypatch.setattr("flask.Flask.auto_find_instance_path", lambda self: str(tmp_path / "instance"))
    app = create_app()
    err = capsys.readouterr().err
    token = app.config["JUDGE_TOKEN"]
    assert f"development judge token: {token}" in err and err.count("judge token") == 1
    assert (tmp_path / "instance" / "wixoss-judge.sqlite").exists()
    r = app.test_client().post(
        "/matches",
        json={
            "format": "diva",
            "seed": 1,
            "players": {"p1": {"name": "A", "deck": "WXDi-D01"}, "p2": {"name": "B", "deck": "WXDi-D02"}},
        },
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 201
    app.extensions["judge"].close()
    again = create_app()  # a second worker or a restart: the same token
    assert again.config["JUDGE_TOKEN"] == token
    assert len(again.test_client().get("/matches").get_json()["matches"]) == 1
    again.extensions["judge"].close()
