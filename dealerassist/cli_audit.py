"""The audit subcommands of ``dealerassist``: worker, verify, export, requeue-failed.

Settings come from the environment like everywhere else: ``REDIS_URL`` (unset: the
embedded Redis of ``DEALERASSIST_DATA_DIR``), ``DATABASE_URL`` (unset: SQLite in the data
directory) and ``DEALERASSIST_PROFILES_DIR``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import redis

from dealerassist.adapters.embedded_redis import start_embedded_redis
from dealerassist.adapters.redis_partitions import partition_url
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.export import from_jsonl_lines, to_csv_lines, to_jsonl_lines
from dealerassist.audit.phh import hand_records, to_phhs_lines
from dealerassist.audit.replay import RulesFor
from dealerassist.audit.verify import verify
from dealerassist.bootstrap import ProfileDirectory
from dealerassist.errors import DealerAssistError
from dealerassist.profiles import default_profiles_dir
from dealerassist.worker import DRAIN_BATCH, requeue_failed, run_worker, urls_from_env


def _phhs_lines(events: Iterable[dict[str, Any]]) -> Iterator[str]:
    return to_phhs_lines(hand_records(events))


FORMATS: dict[str, Callable[[Iterable[dict[str, Any]]], Iterator[str]]] = {
    "jsonl": to_jsonl_lines,
    "csv": to_csv_lines,
    "phh": _phhs_lines,  # every finished hand, as one .phhs file
}
PROGRESS_EVERY = 1000
BAR_WIDTH = 30


def _redis_url(partition: int | None = None) -> str:
    """The Redis this command serves: REDIS_URL's (the ``partition``-th where it lists several,
    ``adapters.redis_partitions``), else the embedded one of the data dir."""
    urls = urls_from_env()
    if urls.redis_url is not None:
        return partition_url(urls.redis_url, partition)
    data_dir = Path(os.environ.get("DEALERASSIST_DATA_DIR") or "var")
    return start_embedded_redis(data_dir).url


def _cmd_worker(args: argparse.Namespace) -> int:
    """Drain staged audit events into the store until stopped (or empty, with --burst)."""
    run_worker(
        _redis_url(args.partition),
        urls_from_env().database_url,
        burst=args.burst,
        queue_name=args.queue,
        with_scheduler=not args.no_scheduler,
        logging_level=args.log_level,
        batch=args.batch,
    )
    return 0


def _cmd_requeue_failed(args: argparse.Namespace) -> int:
    """Put failed drain jobs back on the queue (after the store is back)."""
    count = requeue_failed(redis.Redis.from_url(_redis_url(args.partition)), args.queue)
    print(f"requeued {count} failed audit jobs")
    return 0


def _rules_for(directory: Path | None) -> RulesFor:
    """Each recorded profile version: the current file or its archived copy."""
    folder = directory if directory is not None else default_profiles_dir()
    return ProfileDirectory.load(folder).version


def _cmd_verify(args: argparse.Namespace) -> int:
    """Verify the audit log (the store, or a JSONL export); print the answer; exit 1 if not ok."""
    rules_for = _rules_for(args.profiles_dir)
    if args.file is not None:
        with open(args.file, encoding="utf-8") as lines:
            answer = verify(from_jsonl_lines(lines), rules_for, replay=not args.no_replay)
    else:
        store = SqlAuditStore(urls_from_env().database_url)
        store.ping()
        events = store.iter_events(table_id=args.table)
        answer = verify(events, rules_for, replay=not args.no_replay)
    print(json.dumps(answer, indent=2))
    return 0 if answer["ok"] else 1


def _timestamp(text: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _cmd_export(args: argparse.Namespace) -> int:
    """Stream the audit log to a file as JSONL, CSV or PHH (a progress bar on a terminal)."""
    store = SqlAuditStore(urls_from_env().database_url)
    store.ping()
    events = _Counted(store.iter_events(table_id=args.table, since=args.since, until=args.until))
    lines = FORMATS[args.format](events)
    if args.output == "-":
        sys.stdout.writelines(lines)
        return 0
    progress = _Progress(sys.stdout, store.count_events()) if sys.stdout.isatty() else None
    with open(args.output, "w", encoding="utf-8", newline="") as output:
        for line in lines:
            output.write(line)
            if progress is not None:
                progress.show(events.count)
    if progress is not None:
        progress.done(events.count)
    print(f"exported {events.count} events to {args.output}", file=sys.stderr)
    return 0


class _Counted:
    """An event stream that counts what has been read from it."""

    def __init__(self, events: Iterator[dict[str, Any]]) -> None:
        self.events, self.count = events, 0

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for event in self.events:
            self.count += 1
            yield event


class _Progress:
    """A one-line progress bar for a terminal, redrawn every ``PROGRESS_EVERY`` events."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream, self.total, self.drawn = stream, max(total, 1), -PROGRESS_EVERY

    def show(self, count: int) -> None:
        if count - self.drawn >= PROGRESS_EVERY:
            self._draw(count)

    def done(self, count: int) -> None:
        self._draw(count)
        self.stream.write("\n")

    def _draw(self, count: int) -> None:
        self.drawn = count
        filled = min(BAR_WIDTH, BAR_WIDTH * count // self.total)
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        self.stream.write(f"\r[{bar}] {count}/{self.total}")
        self.stream.flush()


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (DealerAssistError, OSError, redis.RedisError) as error:
            print(f"dealerassist {args.command}: {error}", file=sys.stderr)
            return 2

    return run


def _add_partition_option(command: Any) -> None:
    command.add_argument(
        "--partition",
        type=int,
        default=None,
        metavar="N",
        help="where REDIS_URL lists several Redis (tables partitioned by ID): serve the N-th "
        "(from 1); run one worker for each",
    )


def add_audit_commands(sub: Any) -> None:
    """Register worker, verify, export and requeue-failed on the CLI's subparsers."""
    worker = sub.add_parser("worker", help="drain staged audit events into the audit store")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--queue", default="audit", help="RQ queue name")
    worker.add_argument("--batch", type=int, default=DRAIN_BATCH, help="events per commit")
    worker.add_argument("--no-scheduler", action="store_true", help="do not run retries' timer")
    worker.add_argument("--log-level", default="INFO")
    _add_partition_option(worker)
    worker.set_defaults(func=_guarded(_cmd_worker))
    verify_cmd = sub.add_parser("verify", help="verify hashes, links and replay of the audit log")
    verify_cmd.add_argument("--table", default=None, help="one table only")
    verify_cmd.add_argument("--file", type=Path, default=None, help="a JSONL export instead")
    verify_cmd.add_argument("--no-replay", action="store_true", help="hash chain checks only")
    verify_cmd.add_argument("--profiles-dir", type=Path, default=None)
    verify_cmd.set_defaults(func=_guarded(_cmd_verify))
    export = sub.add_parser("export", help="export the audit log as JSONL, CSV or PHH hands")
    export.add_argument("--format", choices=sorted(FORMATS), default="jsonl")
    export.add_argument("-o", "--output", required=True, help="file to write ('-': stdout)")
    export.add_argument("--table", default=None)
    export.add_argument("--since", type=_timestamp, default=None, help="ISO 8601, inclusive")
    export.add_argument("--until", type=_timestamp, default=None, help="ISO 8601, exclusive")
    export.set_defaults(func=_guarded(_cmd_export))
    requeue = sub.add_parser("requeue-failed", help="requeue failed audit drain jobs")
    requeue.add_argument("--queue", default="audit")
    _add_partition_option(requeue)
    requeue.set_defaults(func=_guarded(_cmd_requeue_failed))
