"""The ``dealerassist`` command: serve, worker, replay, export, verify, profiles."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from dealerassist import __version__


def _cmd_serve(args: argparse.Namespace) -> int:
    from gunicorn.app.base import BaseApplication

    from dealerassist.api import create_app

    class _App(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)

        def load(self) -> object:
            return create_app()

    print(f"dealerassist {__version__} serving on http://{args.host}:{args.port}", flush=True)
    _App().run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealerassist", description=__doc__)
    parser.add_argument("--version", action="version", version=f"dealerassist {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API and tablet pages")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2)
    serve.set_defaults(func=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
