"""The audit subcommands of ``dealerassist``: worker, verify, export, requeue-failed.

Settings come from the environment like everywhere else: ``REDIS_URL`` (unset: the
embedded Redis of ``DEALERASSIST_DATA_DIR``), ``DATABASE_URL`` (unset: SQLite in the data
directory) and ``DEALERASSIST_PROFILES_DIR``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import redis

from dealerassist.adapters.audit_integrity import AuditIntegrityReport
from dealerassist.adapters.checkpointing import (
    KEY_FILE_ENV,
    PUBLIC_KEYS_ENV,
    public_keys,
    write_key_file,
)
from dealerassist.adapters.embedded_redis import start_embedded_redis
from dealerassist.adapters.redis_cluster import ClusterAuditQueue, cluster_client, is_cluster_url
from dealerassist.adapters.redis_connect import redis_client, split_redis_urls
from dealerassist.adapters.redis_migration import migrate
from dealerassist.adapters.redis_tables import REDIS_ERRORS
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.checkpoints import (
    Anchor,
    CheckpointReport,
    anchors_from,
    report_from_state,
    report_to_state,
    verify_checkpoints,
)
from dealerassist.audit.export import (
    checkpoint_lines,
    from_jsonl_lines,
    to_csv_lines,
    to_jsonl_lines,
)
from dealerassist.audit.hands import hand_records
from dealerassist.audit.phh.writer import to_phhs_lines
from dealerassist.audit.replay import RulesFor
from dealerassist.audit.verify import verify
from dealerassist.bootstrap import ProfileDirectory
from dealerassist.errors import DealerAssistError, InvalidInput
from dealerassist.profiles import default_profiles_dir
from dealerassist.worker import (
    DRAIN_BATCH,
    requeue_failed,
    run_cluster_worker,
    run_worker,
    urls_from_env,
)


def _phhs_lines(events: Iterable[dict[str, Any]]) -> Iterator[str]:
    """Every finished hand, read with the profile version each names (``_rules_for``)."""
    return to_phhs_lines(hand_records(events), _rules_for(None))


FORMATS: dict[str, Callable[[Iterable[dict[str, Any]]], Iterator[str]]] = {
    "jsonl": to_jsonl_lines,
    "csv": to_csv_lines,
    "phh": _phhs_lines,  # every finished hand, as one .phhs file
}
PROGRESS_EVERY = 1000
BAR_WIDTH = 30


def _redis_url() -> str:
    """The Redis this command serves: REDIS_URL, else the embedded one of the data dir."""
    urls = urls_from_env()
    if urls.redis_url is not None:
        several = len(split_redis_urls(urls.redis_url)) > 1
        if several and not is_cluster_url(urls.redis_url):
            raise InvalidInput(
                "REDIS_URL lists several Redis: the modulo partitions of earlier versions are "
                "gone; move their tables onto a Redis Cluster with `dealerassist migrate-redis "
                "--from <the old list>` (docs: Operating it, Redis Cluster)"
            )
        return urls.redis_url
    data_dir = Path(os.environ.get("DEALERASSIST_DATA_DIR") or "var")
    return start_embedded_redis(data_dir).url


def jobs_url() -> str:
    """The ordinary Redis of the job queues: RQ_REDIS_URL with a cluster, else the Redis."""
    url = _redis_url()
    if not is_cluster_url(url):
        return url
    jobs = os.environ.get("RQ_REDIS_URL")
    if not jobs:
        raise InvalidInput("REDIS_URL names a Redis Cluster: set RQ_REDIS_URL (an ordinary Redis)")
    return jobs


def table_queue() -> RQAuditQueue:
    """The audit queue of REDIS_URL's tables (a cluster's, or the one Redis's)."""
    url = _redis_url()
    if is_cluster_url(url):
        return ClusterAuditQueue(cluster_client(url), redis_client(jobs_url()))
    return RQAuditQueue(redis_client(url))


def _cmd_worker(args: argparse.Namespace) -> int:
    """Drain staged audit events into the store until stopped (or empty, with --burst)."""
    url = _redis_url()
    if is_cluster_url(url):
        run_cluster_worker(
            url,
            jobs_url(),
            urls_from_env().database_url,
            burst=args.burst,
            logging_level=args.log_level,
            batch=args.batch,
            queue_name=args.queue,
        )
        return 0
    run_worker(
        url,
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
    count = requeue_failed(redis_client(jobs_url()), args.queue)
    print(f"requeued {count} failed audit jobs")
    return 0


def _cmd_migrate_redis(args: argparse.Namespace) -> int:
    """Move tables' keys to this version's names (``adapters.redis_migration``): in place on
    REDIS_URL's Redis, or, with --from, copied from those Redis onto REDIS_URL's (a cluster
    too) and read back; print the report; exit 1 unless every key moved and verified."""
    target_url = _redis_url()
    cluster = is_cluster_url(target_url)
    target: Any = cluster_client(target_url) if cluster else redis_client(target_url)
    if args.sources is None:
        if cluster:
            raise InvalidInput("a cluster has no keys of earlier versions: give --from")
        report = migrate([target], target, in_place=True)
    else:
        urls = [url.strip() for url in args.sources.split(",") if url.strip()]
        if target_url in urls:
            raise InvalidInput("--from names REDIS_URL itself: leave --from out to rename in place")
        sources = [redis.Redis.from_url(url) for url in urls]
        shared = redis_client(jobs_url()) if cluster else None
        report = migrate(sources, target, shared=shared)
    print(json.dumps(report.to_dict(), indent=2))
    return 0 if report.ok else 1


def _rules_for(directory: Path | None) -> RulesFor:
    """Each recorded profile version: the current file or its archived copy."""
    folder = directory if directory is not None else default_profiles_dir()
    return ProfileDirectory.load(folder).version


def _cmd_verify(args: argparse.Namespace) -> int:
    """Verify the audit log (the store, or a JSONL export); print the answer; exit 1 if not ok.

    With public keys (``--public-key``, ``DEALERASSIST_CHECKPOINT_PUBLIC_KEYS``) also against
    the latest signed checkpoint (the store's, the export's, or ``--checkpoints``); with
    ``--live``, against Redis's live heads; with ``--since-state``, only what came after the
    checkpoint an earlier verify saved with ``--save-state``.
    """
    rules_for = _rules_for(args.profiles_dir)
    keys = public_keys(args.public_key)
    start = _load_state(args.since_state) if args.since_state is not None else None
    store: SqlAuditStore | None = None
    exported: list[dict[str, Any]] = []
    events: Iterable[dict[str, Any]] = ()
    if args.file is not None:
        if keys:  # a first pass for the checkpoints the export ends with
            with open(args.file, encoding="utf-8") as lines:
                for _ in from_jsonl_lines(lines, exported):
                    pass
        events = _file_events(args.file)
    else:
        store = _open_store()
        store.ping()
    anchors: list[Anchor] = []
    anchored: dict[str, Any] = {}
    report: CheckpointReport | None = None
    if keys:
        records = _checkpoint_source(args, store, exported, start)
        report = verify_checkpoints(records, keys, start)
        anchors += [a for a in anchors_from(report) if args.table in (None, a.table_id)]
        anchored["checkpoints"] = report.to_dict()
    if args.live and store is not None:
        live = AuditIntegrityReport(store, _live_queues()).live_anchors(args.table)
        anchors += live
        anchored["live_tables"] = len(live)
    resume = {table: head for table, (head, _) in start.heads.items()} if start else None
    starts = {table: head.seq for table, head in (resume or {}).items()}
    if store is not None:
        events = (
            store.iter_events_from(starts, args.table)
            if resume
            else store.iter_events(table_id=args.table)
        )
    elif resume:  # an export: each table from its resumed head on
        events = (e for e in events if int(e["seq"]) >= starts.get(str(e["table_id"]), 1))
    answer = verify(
        events,
        rules_for,
        replay=not args.no_replay,
        anchors=anchors if anchored else None,
        resume=resume,
    )
    if report is not None:
        answer["problems"] += [{"table_id": None, "seq": None, "why": w} for w in report.problems]
        answer["ok"] = not answer["problems"]
    if anchored:
        answer["anchored"] = anchored
    if start is not None:
        answer["resumed_from_checkpoint"] = start.last_n
    if args.save_state is not None and answer["ok"] and report is not None:
        args.save_state.write_text(json.dumps(report_to_state(report), indent=1) + "\n")
    print(json.dumps(answer, indent=2))
    return 0 if answer["ok"] else 1


def _file_events(path: Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as lines:
        yield from from_jsonl_lines(lines)


def _load_state(path: Path) -> CheckpointReport:
    try:
        return report_from_state(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InvalidInput(f"verify state {path}: {error}") from None


def _checkpoint_source(
    args: argparse.Namespace,
    store: SqlAuditStore | None,
    exported: list[dict[str, Any]],
    start: CheckpointReport | None,
) -> Iterator[dict[str, Any]]:
    """The checkpoints to verify against: ``--checkpoints`` (a kept copy, the worker's log,
    an export), else those of the export being verified, else the store's."""
    after = start.last_n if start is not None else 0
    if args.checkpoints is not None:
        with open(args.checkpoints, encoding="utf-8") as lines:
            found: list[dict[str, Any]] = []
            for line in lines:
                if line.strip():
                    record = json.loads(line)
                    found.append(record.get("checkpoint", record))
        return (record for record in found if int(record["n"]) > after)
    if store is None:
        return (record for record in exported if int(record["n"]) > after)
    return store.iter_checkpoints(after)


def _live_queues() -> list[RQAuditQueue]:
    return [table_queue()]


def _cmd_checkpoint_key(args: argparse.Namespace) -> int:
    """Write a new checkpoint signing key (and its .pub); print the public key."""
    public_hex = write_key_file(args.out)
    print(public_hex)
    print(
        f"wrote {args.out} (keep it off the database host's backups) and {args.out}.pub; "
        f"the worker signs with {KEY_FILE_ENV}={args.out}, verify checks with "
        f"{PUBLIC_KEYS_ENV}={public_hex}",
        file=sys.stderr,
    )
    return 0


def _cmd_resolve_fork(args: argparse.Namespace) -> int:
    """Record that a forked table was dealt with (its quarantine stays) and lift its
    suspension in Redis, so it takes commits again."""
    store = _open_store()
    store.resolve_fork(args.table, args.note)
    for queue in _live_queues():
        queue.clear_forked(args.table)
    print(f"fork of table {args.table!r} resolved: {args.note}")
    return 0


def _cmd_catch_up(args: argparse.Namespace) -> int:
    """Store the events of JSONL exports that the store lacks (after a restore): the same
    idempotent, fork-checked insert as the drain; print what was stored."""
    store = _open_store()
    store.ping()
    stored = read = quarantined = 0
    forks: list[dict[str, Any]] = []
    batch: list[dict[str, Any]] = []
    for path in args.sources:
        with open(path, encoding="utf-8") as lines:
            for event in from_jsonl_lines(lines):
                batch.append(event)
                if len(batch) >= DRAIN_BATCH:
                    stored, quarantined = _catch_up_batch(store, batch, stored, quarantined, forks)
                    read, batch = read + len(batch), []
    if batch:
        stored, quarantined = _catch_up_batch(store, batch, stored, quarantined, forks)
        read += len(batch)
    print(json.dumps({"read": read, "stored": stored, "quarantined": quarantined, "forks": forks}))
    return 0 if not forks else 1


def _catch_up_batch(
    store: SqlAuditStore,
    batch: list[dict[str, Any]],
    stored: int,
    quarantined: int,
    forks: list[dict[str, Any]],
) -> tuple[int, int]:
    batch.sort(key=lambda event: (str(event["table_id"]), int(event["seq"])))
    appended = store.append_checked(batch)
    forks += [fork.to_dict() for fork in appended.forks]
    return stored + appended.stored, quarantined + appended.quarantined


def _timestamp(text: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _cmd_export(args: argparse.Namespace) -> int:
    """Stream the audit log to a file as JSONL, CSV or PHH (a progress bar on a terminal)."""
    store = _open_store()
    store.ping()
    events = _Counted(store.iter_events(table_id=args.table, since=args.since, until=args.until))
    lines = FORMATS[args.format](events)
    if args.format == "jsonl":  # an export carries the checkpoints that verify it
        lines = itertools.chain(lines, checkpoint_lines(store.iter_checkpoints()))
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


_opened: list[SqlAuditStore] = []
# What a command reports as its error (exit 2) rather than a traceback.
COMMAND_ERRORS: tuple[type[BaseException], ...] = (DealerAssistError, OSError, *REDIS_ERRORS)


def _open_store() -> SqlAuditStore:
    """The store DATABASE_URL names (closed when the command ends)."""
    store = SqlAuditStore(urls_from_env().database_url)
    _opened.append(store)
    return store


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except COMMAND_ERRORS as error:
            print(f"dealerassist {args.command}: {error}", file=sys.stderr)
            return 2
        finally:
            while _opened:
                _opened.pop().dispose()

    return run


def add_audit_commands(sub: Any) -> None:
    """Register worker, verify, export and requeue-failed on the CLI's subparsers."""
    worker = sub.add_parser("worker", help="drain staged audit events into the audit store")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--queue", default="audit", help="RQ queue name")
    worker.add_argument("--batch", type=int, default=DRAIN_BATCH, help="events per commit")
    worker.add_argument("--no-scheduler", action="store_true", help="do not run retries' timer")
    worker.add_argument("--log-level", default="INFO")
    worker.set_defaults(func=_guarded(_cmd_worker))
    verify_cmd = sub.add_parser("verify", help="verify hashes, links and replay of the audit log")
    verify_cmd.add_argument("--table", default=None, help="one table only")
    verify_cmd.add_argument("--file", type=Path, default=None, help="a JSONL export instead")
    verify_cmd.add_argument("--no-replay", action="store_true", help="hash chain checks only")
    verify_cmd.add_argument("--profiles-dir", type=Path, default=None)
    verify_cmd.add_argument(
        "--public-key",
        action="append",
        default=[],
        metavar="HEX|@FILE",
        help="a checkpoint public key (repeat for a rotation; also "
        f"{PUBLIC_KEYS_ENV}): verify against the latest signed checkpoint",
    )
    verify_cmd.add_argument(
        "--checkpoints", type=Path, default=None, help="checkpoints from this JSONL file"
    )
    verify_cmd.add_argument(
        "--live", action="store_true", help="also against Redis's live head of each table"
    )
    verify_cmd.add_argument(
        "--since-state", type=Path, default=None, help="incremental: from this saved state"
    )
    verify_cmd.add_argument(
        "--save-state", type=Path, default=None, help="after an ok verify, save where it got"
    )
    verify_cmd.set_defaults(func=_guarded(_cmd_verify))
    key = sub.add_parser("checkpoint-key", help="write a new checkpoint signing key")
    key.add_argument("--out", type=Path, required=True, help="the private key file (PEM)")
    key.set_defaults(func=_guarded(_cmd_checkpoint_key))
    catch_up = sub.add_parser(
        "catch-up", help="store the events of JSONL exports the store lacks (after a restore)"
    )
    catch_up.add_argument("sources", nargs="+", type=Path, help="JSONL exports")
    catch_up.set_defaults(func=_guarded(_cmd_catch_up))
    resolve = sub.add_parser(
        "resolve-fork", help="record that a forked table was dealt with; lift its suspension"
    )
    resolve.add_argument("table", help="the table ID")
    resolve.add_argument("--note", required=True, help="what was done (kept with the record)")
    resolve.set_defaults(func=_guarded(_cmd_resolve_fork))
    export = sub.add_parser("export", help="export the audit log as JSONL, CSV or PHH hands")
    export.add_argument("--format", choices=sorted(FORMATS), default="jsonl")
    export.add_argument("-o", "--output", required=True, help="file to write ('-': stdout)")
    export.add_argument("--table", default=None)
    export.add_argument("--since", type=_timestamp, default=None, help="ISO 8601, inclusive")
    export.add_argument("--until", type=_timestamp, default=None, help="ISO 8601, exclusive")
    export.set_defaults(func=_guarded(_cmd_export))
    migrate_cmd = sub.add_parser(
        "migrate-redis",
        help="move tables' Redis keys to this version's names (in place, or --from other Redis "
        "onto REDIS_URL's, e.g. the partitions of earlier versions onto a cluster)",
    )
    migrate_cmd.add_argument(
        "--from",
        dest="sources",
        default=None,
        metavar="URL[,URL…]",
        help="copy from these Redis (the old comma-separated REDIS_URL) instead of renaming",
    )
    migrate_cmd.set_defaults(func=_guarded(_cmd_migrate_redis))
    requeue = sub.add_parser("requeue-failed", help="requeue failed audit drain jobs")
    requeue.add_argument("--queue", default="audit")
    requeue.set_defaults(func=_guarded(_cmd_requeue_failed))
