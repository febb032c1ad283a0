"""``wixoss-judge``: serve the API, create the store's tables, print the OpenAPI document, simulate matches.

wixoss-judge serve [--host 127.0.0.1] [--port 8000]
wixoss-judge init-db
wixoss-judge openapi [--output openapi.yaml]
wixoss-judge simulate ...        (see wixoss-judge simulate --help)
wixoss-judge coverage [--set WXDi-P01] [--list] [--markdown docs/COVERAGE.md]
wixoss-judge export MATCH > file.jsonl
wixoss-judge import FILE [FILE ...]
wixoss-judge audit FILE [FILE ...]
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SIMULATE_MODULE = "app.simulate"


def _serve(args: argparse.Namespace) -> int:
    from app import create_app

    app = create_app()
    print(
        f"WIXOSS Judge: serving on http://{args.host}:{args.port} (docs at /docs)",
        file=sys.stderr,
        flush=True,
    )
    app.run(host=args.host, port=args.port, threaded=True, debug=False, use_reloader=False)
    return 0


def _store_env() -> dict[str, str]:
    from flask import Flask

    from app import store_env

    instance = Flask("app", instance_relative_config=True).instance_path
    return store_env({}, os.environ, instance)


def _init_db(args: argparse.Namespace) -> int:
    from app.application import JudgeApplication

    env = _store_env()
    env["CREATE_TABLE"] = "y"
    JudgeApplication(env=env).close()
    where = env.get("SQLITE_DBNAME") or env.get("POSTGRES_DBNAME") or env.get("PERSISTENCE_MODULE")
    print(f"WIXOSS Judge: the store is ready ({env.get('PERSISTENCE_MODULE')}: {where})", file=sys.stderr)
    return 0


def generated_openapi() -> str:
    """The OpenAPI document as YAML, generated from the app's schemas (what openapi.yaml must hold)."""
    from app import create_app
    from app.openapi import build_spec, spec_yaml

    app = create_app({"JUDGE_TOKEN": "openapi", "PERSISTENCE_MODULE": "eventsourcing.popo"})
    return spec_yaml(build_spec(app))


def _openapi(args: argparse.Namespace) -> int:
    text = generated_openapi()
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _load_simulate() -> Any | None:
    try:
        return importlib.import_module(SIMULATE_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != SIMULATE_MODULE:
            raise
        return None


def _simulate(args: argparse.Namespace) -> int:
    module = _load_simulate()
    if module is None:
        print(
            f"wixoss-judge simulate: the simulator ({SIMULATE_MODULE}) is not installed in this version",
            file=sys.stderr,
        )
        return 2
    return int(module.run(args))


def _screenshots(args: argparse.Namespace) -> int:
    root = Path(__file__).resolve().parent.parent  # the source tree, where tools/ lives beside app/
    if (root / "tools" / "screenshots.py").is_file() and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        from tools.screenshots import take
    except ImportError as exc:  # an installed package without the source tree's tools, or no playwright
        print(f"screenshots need the source tree and playwright: {exc}", file=sys.stderr)
        return 2
    for path in take(Path(args.folder)):
        print(path)
    return 0


def generated_coverage() -> str:
    """``docs/COVERAGE.md`` as the coverage command writes it."""
    from domain.coverage import coverage, render_markdown

    return render_markdown(coverage())


def _coverage(args: argparse.Namespace) -> int:
    from domain.coverage import coverage, known_sets, render_text

    if args.markdown:
        text = generated_coverage()
        if args.markdown == "-":
            sys.stdout.write(text)
        else:
            with open(args.markdown, "w", encoding="utf-8") as f:
                f.write(text)
        return 0
    wanted = args.set or None
    if wanted:
        unknown = sorted(set(wanted) - set(known_sets()))
        if unknown:
            print(
                f"wixoss-judge coverage: unknown set {', '.join(unknown)}; the sets are: "
                + ", ".join(known_sets()),
                file=sys.stderr,
            )
            return 2
    sys.stdout.write(render_text(coverage(sets=wanted), list_pending=bool(wanted) or args.list))
    return 0


def _export(args: argparse.Namespace) -> int:
    from uuid import UUID

    from app.application import JudgeApplication, MatchNotFound

    app = JudgeApplication(env=_store_env())
    try:
        sys.stdout.write(app.record(UUID(args.match)))
    except (ValueError, MatchNotFound):
        print(f"wixoss-judge export: no match {args.match}", file=sys.stderr)
        return 1
    finally:
        app.close()
    return 0


def _records(args: argparse.Namespace, save: bool) -> int:
    """Replay each record file (into the store with ``save``); one JSON line per file; 1 if any parts ways."""
    import json

    from rich.progress import Progress

    from projections.records import Divergence, replay_record
    from projections.views import state_view

    app = None
    if save:
        from app.application import JudgeApplication

        app = JudgeApplication(env=_store_env())
    failed = 0
    try:
        with Progress(transient=True, disable=len(args.files) < 2 or not sys.stderr.isatty()) as bar:
            task = bar.add_task("records", total=len(args.files))
            for name in args.files:
                out: dict[str, Any] = {"file": name}
                try:
                    with open(name, encoding="utf-8") as f:
                        text = f.read()
                    replay = app.import_record(text) if app is not None else replay_record(text)
                    if app is not None:
                        out["match"] = str(replay.match.id)
                    out.update(replay.report())
                except Divergence as exc:
                    failed += 1
                    view = (lambda s: state_view(s, "judge")) if args.state else None
                    out.update(ok=False, divergence=exc.to_dict(view))
                except (OSError, UnicodeDecodeError) as exc:
                    failed += 1
                    out.update(ok=False, error=str(exc))
                print(json.dumps(out, ensure_ascii=False, indent=None if len(args.files) > 1 else 2))
                bar.advance(task)
    finally:
        if app is not None:
            app.close()
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wixoss-judge", description="WIXOSS Judge: an event-sourced rules judge"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the HTTP API (development server)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.set_defaults(func=_serve)

    init_db = sub.add_parser(
        "init-db", help="create the store's tables once (before starting several workers)"
    )
    init_db.set_defaults(func=_init_db)

    openapi = sub.add_parser("openapi", help="print the OpenAPI document generated from the schemas")
    openapi.add_argument("-o", "--output", help="write it to this file instead of standard output")
    openapi.set_defaults(func=_openapi)

    shots = sub.add_parser(
        "screenshots", help="screenshots of the console into a folder (needs chromium and playwright)"
    )
    shots.add_argument("folder", help="where to write the PNG files")
    shots.set_defaults(func=_screenshots)
    cov = sub.add_parser(
        "coverage",
        help="cards enforced / cards in each set, and the cards not enforced yet with the reason",
        description="Cards enforced / cards in each set (a card printed several times counts once, in the "
        "set of its first printing), grouped; with --set, that set's cards not enforced yet and why.",
    )
    cov.add_argument(
        "--set",
        action="append",
        metavar="SET",
        help="only this set (e.g. WXDi-P01), listing its cards; repeatable",
    )
    cov.add_argument("--list", action="store_true", help="list the cards not enforced yet of every set")
    cov.add_argument(
        "--markdown",
        metavar="PATH",
        help="write the Markdown report (docs/COVERAGE.md) to PATH ('-': stdout)",
    )
    cov.set_defaults(func=_coverage)
    export = sub.add_parser("export", help="print a match's record (JSON Lines; docs/RECORDS.md)")
    export.add_argument("match", help="the match id")
    export.set_defaults(func=_export)

    for name, save, what in (
        ("import", True, "replay record files into new matches in the store"),
        ("audit", False, "replay record files in memory and report what was checked and what could not be"),
    ):
        cmd = sub.add_parser(name, help=what)
        cmd.add_argument("files", nargs="+", metavar="FILE", help="record files (JSON Lines)")
        cmd.add_argument("--state", action="store_true", help="with a divergence, print the state there")
        cmd.set_defaults(func=lambda args, save=save: _records(args, save))

    simulate = sub.add_parser("simulate", help="play matches automatically (see simulate --help)")
    module = _load_simulate()
    if module is not None:
        module.add_arguments(simulate)
    simulate.set_defaults(func=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
