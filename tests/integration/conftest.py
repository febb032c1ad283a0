"""Shared fixtures of the integration tests: the stores a ``JudgeApplication`` runs on, and random play.

``store`` is parametrised over the three stores: in-memory (POPO), a SQLite file in ``tmp_path``, and
PostgreSQL. The PostgreSQL tests get a database of their own, created on the ``postgres`` database of the
server at 127.0.0.1:5432 for the session and dropped afterwards, and a fresh schema inside it per test. Where
no server answers there, they are skipped with a message that says so. ``WIXOSS_TEST_POSTGRES_HOST``,
``_PORT``, ``_USER`` and ``_PASSWORD`` point them at another server.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import pytest

from app.application import JudgeApplication
from domain.decks import PRESET_IDS, preset
from domain.legal import legal_actions
from domain.setup import PlayerSetup

PG_HOST = os.environ.get("WIXOSS_TEST_POSTGRES_HOST", "127.0.0.1")
PG_PORT = os.environ.get("WIXOSS_TEST_POSTGRES_PORT", "5432")
PG_USER = os.environ.get("WIXOSS_TEST_POSTGRES_USER", "postgres")
PG_PASSWORD = os.environ.get("WIXOSS_TEST_POSTGRES_PASSWORD", "")

# Keys of the process environment that would otherwise leak into every Application's configuration.
_STORE_KEYS = ("PERSISTENCE_MODULE", "SQLITE_DBNAME", "CREATE_TABLE", "POSTGRES_SCHEMA", "POSTGRES_DBNAME")


def _pg_connect(dbname: str) -> Any:
    import psycopg

    return psycopg.connect(
        host=PG_HOST,
        port=PG_PORT,
        user=PG_USER,
        password=PG_PASSWORD,
        dbname=dbname,
        autocommit=True,
        connect_timeout=3,
    )


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[dict[str, str]]:
    """The environment of a PostgreSQL database made for this test session (dropped at its end)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:  # pragma: no cover - the dev extra installs it
        pytest.skip("PostgreSQL tests skipped: psycopg is not installed (pip install -e '.[dev]')")
    try:
        admin = _pg_connect("postgres")
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        where = f"{PG_HOST}:{PG_PORT} as {PG_USER}"
        pytest.skip(f"PostgreSQL tests skipped: no server answers on {where}: {reason}")
    name = f"wixoss_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin:
        _drop_orphans(admin)
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": name,
            "POSTGRES_HOST": PG_HOST,
            "POSTGRES_PORT": PG_PORT,
            "POSTGRES_USER": PG_USER,
            "POSTGRES_PASSWORD": PG_PASSWORD,
            "POSTGRES_CONNECT_TIMEOUT": "5",
        }
    finally:
        with _pg_connect("postgres") as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _drop_orphans(admin: Any) -> None:
    """Drop the databases of earlier sessions on this machine that were killed before their teardown (their
    process is gone and nobody is connected to them)."""
    if PG_HOST not in ("127.0.0.1", "localhost"):
        return
    rows = admin.execute(
        "SELECT datname FROM pg_database d WHERE datname LIKE 'wixoss_test_%' AND NOT EXISTS "
        "(SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)"
    ).fetchall()
    for (name,) in rows:
        parts = name.split("_")
        if len(parts) != 4 or not parts[2].isdigit():
            continue
        try:
            os.kill(int(parts[2]), 0)
        except ProcessLookupError:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        except PermissionError:  # a live process of another user
            continue


@dataclass
class Store:
    """One store and the applications opened on it (closed at the end of the test)."""

    name: str
    env: dict[str, str]
    shared: bool  # can two Application instances see the same events?
    opened: list[JudgeApplication] = field(default_factory=list)

    def app(self, **overrides: str) -> JudgeApplication:
        app = JudgeApplication({**self.env, **overrides})
        self.opened.append(app)
        return app

    def close(self) -> None:
        for app in self.opened:
            app.close()
        self.opened.clear()


def _new_schema(pg_env: dict[str, str]) -> str:
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with _pg_connect(pg_env["POSTGRES_DBNAME"]) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return schema


@pytest.fixture(autouse=True)
def _no_store_settings_from_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in _STORE_KEYS:
        monkeypatch.delenv(key, raising=False)


def make_store(kind: str, request: pytest.FixtureRequest, tmp_path: Any) -> Store:
    if kind == "popo":
        return Store("popo", {"PERSISTENCE_MODULE": "eventsourcing.popo"}, shared=False)
    if kind == "sqlite":
        return Store(
            "sqlite",
            {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "judge.sqlite")},
            shared=True,
        )
    pg_env = request.getfixturevalue("postgres_database")
    return Store("postgres", {**pg_env, "POSTGRES_SCHEMA": _new_schema(pg_env)}, shared=True)


@pytest.fixture(params=["popo", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Store]:
    s = make_store(request.param, request, tmp_path)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shared_store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Store]:
    """A store that several Application instances (several workers) share."""
    s = make_store(request.param, request, tmp_path)
    try:
        yield s
    finally:
        s.close()


# -- playing --------------------------------------------------------------------------------------


def players(seed: int) -> dict[str, PlayerSetup]:
    return {
        "p1": PlayerSetup("Alice", preset(PRESET_IDS[seed % len(PRESET_IDS)])),
        "p2": PlayerSetup("Bob", preset(PRESET_IDS[(seed // len(PRESET_IDS) + 3) % len(PRESET_IDS)])),
    }


def new_match(app: JudgeApplication, seed: int) -> UUID:
    return app.create_match("diva", seed, players(seed)).id


def play(
    app: JudgeApplication,
    match_id: UUID,
    chooser: random.Random,
    max_actions: int | None = None,
    on_action: Callable[[int], None] | None = None,
) -> int:
    """Random legal actions (each with its expected version) until the game ends or ``max_actions``."""
    taken = 0
    while max_actions is None or taken < max_actions:
        state = app.state_at(match_id)
        if state.status == "finished":
            break
        actions = list(legal_actions(state))
        assert actions, f"no legal answer at event {state.version}: {state.pending}"
        app.act(match_id, chooser.choice(actions), state.version)
        taken += 1
        if on_action is not None:
            on_action(taken)
    return taken
