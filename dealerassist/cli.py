"""The ``dealerassist`` command: serve, worker, replay, export, verify, profiles."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dealerassist import __version__
from dealerassist.cli_audit import add_audit_commands


def _cmd_serve(args: argparse.Namespace) -> int:
    """Run the API under gunicorn (embedded Redis and an audit worker unless REDIS_URL is set)."""
    from dealerassist.server import ServeOptions, serve

    chosen = {"worker_class": args.worker_class, "threads": args.threads}
    options = ServeOptions(
        host=args.host,
        port=args.port,
        workers=args.workers,
        **{name: value for name, value in chosen.items() if value is not None},
    )
    return serve(options)


def _cmd_profiles(args: argparse.Namespace) -> int:
    """List and validate every house-rule profile; exit 1 with the errors if one is bad."""
    from dealerassist.errors import ProfileError
    from dealerassist.profiles import archive_profiles, default_profiles_dir, load_profiles, summary

    try:
        directory = args.dir if args.dir is not None else default_profiles_dir()
        profiles = load_profiles(directory)
        archived = archive_profiles(directory) if args.archive else []
    except ProfileError as error:
        print(f"invalid house-rule profiles:\n{error}", file=sys.stderr)
        return 1
    for path in archived:
        print(f"archived {path}")
    width = max([26, *(len(profile_id) for profile_id in profiles)])  # the ids in one column
    for profile_id, rules in profiles.items():
        print(f"{profile_id:<{width}} {rules.sha256[:12]}  {rules.name}")
        print(f"{'':<{width}} {summary(rules)}")
    print(f"{len(profiles)} profiles valid in {directory}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    """Replay PHH files through the engine, one JSON line per hand; exit 0 only if all match."""
    import json

    from dealerassist.errors import NotFound, ProfileError
    from dealerassist.replay import replay_paths

    hands = failed = 0
    try:
        for result in replay_paths(args.paths, args.profile):
            print(json.dumps(result), flush=True)
            hands += 1
            failed += not result["ok"]
    except (NotFound, ProfileError) as error:
        print(f"replay: {error}", file=sys.stderr)
        return 2
    if not hands:
        print("replay: no .phh files found", file=sys.stderr)
    return 0 if hands and not failed else 1


def _add_verify_option(sub: Any) -> None:
    """``dealerassist worker --verify``: the verification worker instead of the drain (run
    one of each: a verification takes minutes and must not hold up the drain)."""
    worker = sub.choices["worker"]
    worker.add_argument(
        "--verify",
        action="store_true",
        help="serve the verification jobs' queue (audit-verify) instead of draining",
    )
    drain = worker.get_default("func")
    worker.set_defaults(func=lambda args: _cmd_verify_worker(args) if args.verify else drain(args))


def _cmd_verify_worker(args: argparse.Namespace) -> int:
    """Run verification jobs until stopped (or until the queue is empty, with --burst)."""
    import redis

    from dealerassist.cli_audit import jobs_url
    from dealerassist.errors import DealerAssistError
    from dealerassist.profiles import default_profiles_dir
    from dealerassist.worker import run_verify_worker, urls_from_env

    urls = urls_from_env()
    if urls.redis_url is None:
        print("dealerassist worker --verify: set REDIS_URL", file=sys.stderr)
        return 2
    try:
        run_verify_worker(
            jobs_url(),  # the jobs' queue: RQ_REDIS_URL beside a cluster
            urls.database_url,
            default_profiles_dir(),
            burst=args.burst,
            logging_level=args.log_level,
        )
    except (DealerAssistError, OSError, redis.RedisError) as error:
        print(f"dealerassist worker --verify: {error}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealerassist", description=__doc__)
    parser.add_argument("--version", action="version", version=f"dealerassist {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API and tablet pages")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2)
    serve.add_argument(
        "--worker-class",
        default=None,
        help="gunicorn worker class (default gthread: a slow client holds a thread, not a worker)",
    )
    serve.add_argument("--threads", type=int, default=None, help="threads per worker (128)")
    serve.set_defaults(func=_cmd_serve)
    profiles = sub.add_parser("profiles", help="list and validate the house-rule profiles")
    profiles.add_argument("--dir", type=Path, default=None, help="profiles directory")
    profiles.add_argument(
        "--archive",
        action="store_true",
        help="also copy each current profile to versions/<id>/<sha256>.toml (after an edit), "
        "so hands recorded under every version still replay",
    )
    profiles.set_defaults(func=_cmd_profiles)
    replay = sub.add_parser("replay", help="replay PHH hand histories through the engine")
    replay.add_argument("paths", nargs="+", metavar="FILE|DIR", help="PHH files or directories")
    replay.add_argument(
        "--profile",
        default=None,
        help="house-rule profile (default: the version each of our exports names, "
        "else replay-permissive)",
    )
    replay.set_defaults(func=_cmd_replay)
    add_audit_commands(sub)
    _add_verify_option(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # the reader went away (`dealerassist replay … | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 1


if __name__ == "__main__":
    sys.exit(main())
