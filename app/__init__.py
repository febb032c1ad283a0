"""The Flask application factory: ``create_app(test_config=None)`` builds everything; nothing is built
at import time.

Configuration (``test_config`` wins over the environment):
- ``JUDGE_TOKEN``: the judge's bearer token. Without one, a development token is made, kept in the instance
  folder (so that every worker and every restart shares it) and printed once at start-up.
- ``TOKEN_SECRET``: the key player tokens are derived with; by default derived from the judge token.
- The store, with the ``eventsourcing`` library's own variables (``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``,
  ``POSTGRES_*``, ``CREATE_TABLE`` ...), passed through to the Application; without them, a SQLite file
  ``wixoss-judge.sqlite`` in the instance folder, made readable by its owner only (0600; the instance folder
  0700 when the service creates it, and never readable by others). On a server store (PostgreSQL) the
  application is made on first use, so that a worker starts, and serves the catalogue, while the store is
  unreachable.
- The limits (body size, quotas; see ``app.limits``): ``MAX_BODY_BYTES``, ``DECK_VALIDATE_MAX_BYTES``,
  ``MATCHES_PER_HOUR``, ``MATCHES_IN_ALL``, ``DECK_VALIDATE_RATE_LIMIT``, ``RULINGS_RATE_LIMIT``,
  ``RATELIMIT_ENABLED``, ``RATELIMIT_STORAGE_URI``.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

STORE_PREFIXES = (
    "PERSISTENCE_MODULE",
    "SQLITE_",
    "POSTGRES_",
    "CREATE_TABLE",
    "AGGREGATE_CACHE_",
    "COMPRESSOR_",
    "CIPHER_",
    "IS_SNAPSHOTTING_ENABLED",
    "WIXOSS_JUDGE_",
)
DEFAULT_DB = "wixoss-judge.sqlite"
DEV_TOKEN_FILE = "judge-token"


def store_env(config: Mapping[str, Any], environ: Mapping[str, str], instance_path: str) -> dict[str, str]:
    """The Application's environment: the store settings given in the config or the process environment, or
    the default SQLite file in the instance folder."""
    env = {k: str(v) for k, v in environ.items() if k.startswith(STORE_PREFIXES)}
    env.update({k: str(v) for k, v in config.items() if k.startswith(STORE_PREFIXES)})
    if "PERSISTENCE_MODULE" not in env and "WIXOSS_JUDGE_PERSISTENCE_MODULE" not in env:
        private_folder(instance_path)
        env["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
        env["SQLITE_DBNAME"] = str(Path(instance_path) / DEFAULT_DB)
        private_file(Path(env["SQLITE_DBNAME"]))
    return env


def private_folder(path: str) -> Path:
    """The instance folder: made 0700 when missing; an existing one loses any access by others."""
    folder = Path(path)
    if not folder.is_dir():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)
    else:
        mode = folder.stat().st_mode & 0o777
        if mode & 0o007:
            folder.chmod(mode & ~0o007)
    return folder


def private_file(path: Path) -> None:
    """The SQLite file (and its -wal and -shm files, which SQLite creates with the database file's mode):
    created empty with mode 0600 before the store opens it, or brought back to 0600."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        os.close(fd)
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.exists() and file.stat().st_mode & 0o077:
            file.chmod(0o600)


def development_token(instance_path: str) -> str:
    """A judge token for development, made once and kept in the instance folder."""
    folder = private_folder(instance_path)
    path = folder / DEV_TOKEN_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC, 0o600)
    token = secrets.token_urlsafe(24)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return token


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from app.api import register_blueprints
    from app.application import JudgeApplication
    from app.encoding import OrjsonProvider
    from app.limits import BodyLimitedRequest, apply_defaults, install_limits, settings_from
    from app.problems import register_error_handler
    from app.store import LazyApplication
    from app.tokens import Tokens, derive_secret

    app = Flask(__name__, instance_relative_config=True)
    app.request_class = BodyLimitedRequest
    app.json = OrjsonProvider(app)
    for key in ("JUDGE_TOKEN", "TOKEN_SECRET"):
        if os.environ.get(key):
            app.config[key] = os.environ[key]
    app.config.update(settings_from(os.environ))
    if test_config:
        app.config.update(test_config)
    apply_defaults(app)

    judge_token = app.config.get("JUDGE_TOKEN")
    if not judge_token:
        judge_token = app.config["JUDGE_TOKEN"] = development_token(app.instance_path)
        print(
            f"WIXOSS Judge: no JUDGE_TOKEN set; development judge token: {judge_token}",
            file=sys.stderr,
            flush=True,
        )
    secret = app.config.get("TOKEN_SECRET")
    secret_bytes = secret.encode() if isinstance(secret, str) and secret else derive_secret(judge_token)

    app.extensions["judge_tokens"] = Tokens(judge_token, secret_bytes)
    env = store_env(app.config, os.environ, app.instance_path)
    app.extensions["judge"] = LazyApplication(lambda: JudgeApplication(env=env))
    app.config["STORE_MODULE"] = module = (
        env.get("PERSISTENCE_MODULE") or env.get("WIXOSS_JUDGE_PERSISTENCE_MODULE") or ""
    )
    if "postgres" not in module:  # an embedded store (SQLite file, memory) is made now: it needs no server
        app.extensions["judge"].get()
    register_error_handler(app)
    register_blueprints(app)
    install_limits(app)
    if _yes(app.config.get("FREEZE_HEAP", os.environ.get("FREEZE_HEAP")), default=not app.testing):
        freeze_heap()
    return app


def _yes(value: Any, default: bool) -> bool:
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() not in ("n", "no", "0", "false", "off")


def freeze_heap() -> None:
    """Load the card catalogue and the ability data now, then leave everything alive at start-up out of the
    garbage collector's full passes (``gc.freeze``). The catalogue alone is tens of thousands of objects
    that live as long as the process: without this, each full collection walks them all again (a 90 ms pause
    in a request, measured with 3,000 events kept in memory), and the first request pays for loading them.
    On by default; ``FREEZE_HEAP=n`` turns it off (and it is off under ``TESTING``)."""
    import gc

    from domain.abilities.catalogue import abilities_of
    from domain.facts import catalogue

    catalogue()
    abilities_of("")
    gc.collect()
    gc.freeze()
