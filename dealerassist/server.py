"""``dealerassist serve``: gunicorn (sync workers) over the app, with what a single box needs.

Without ``REDIS_URL`` it starts the embedded Redis under the data directory before forking
the web workers, and two workers as child processes: the audit worker (the drain) and the
verification worker (verification jobs, on their own queue so they never delay the
drain); without
``DEALERASSIST_TOKENS_FILE`` it writes one token per role to ``<data dir>/tokens.toml``
(once) and prints them.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from dataclasses import dataclass
from typing import Any

import redis
from gunicorn.app.base import BaseApplication

from dealerassist import __version__, request_limits
from dealerassist.adapters.embedded_redis import EmbeddedRedis, start_embedded_redis
from dealerassist.adapters.redis_partitions import redis_urls
from dealerassist.adapters.redis_tables import DURABLE, persistence
from dealerassist.api import create_served_app
from dealerassist.api.auth import generate_tokens_file, read_plain_tokens
from dealerassist.settings import Settings
from dealerassist.worker import run_verify_worker, run_worker

TOKENS_FILE_NAME = "tokens.toml"
WORKER_STOP_SECONDS = 10


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """Where to listen and how many web workers to fork."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2


def forget_inherited_children(server: Any, worker: Any) -> None:
    """gunicorn's post_fork hook: a forked web worker inherits multiprocessing's record of the
    master's children (the audit and verification workers) and, at exit, would try to join
    them ('can only join a child process', a traceback per web worker at every stop). They
    are the master's, not its own: the worker forgets them."""
    children = vars(multiprocessing.process).get("_children")
    if isinstance(children, set):
        children.clear()


class GunicornApp(BaseApplication):  # type: ignore[misc]
    """Gunicorn configured in code; each worker builds its own app after the fork."""

    def __init__(self, settings: Settings, options: ServeOptions) -> None:
        self.settings = settings
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        self.cfg.set("bind", f"{self.options.host}:{self.options.port}")
        self.cfg.set("workers", self.options.workers)
        self.cfg.set("worker_class", "sync")
        self.cfg.set("accesslog", None)
        self.cfg.set("post_fork", forget_inherited_children)
        request_limits.configure(self.cfg)  # 414/431 from the app, as problem+json

    def load(self) -> Any:
        return create_served_app({"SETTINGS": self.settings})


def ensure_tokens(settings: Settings) -> Settings:
    """Use the configured tokens file, or create (once) and print one token per role."""
    if settings.tokens_file is not None:
        return settings
    path = settings.data_dir / TOKENS_FILE_NAME
    if not path.exists():
        generate_tokens_file(path)
    print(f"tokens ({path}):", flush=True)
    for name, token in read_plain_tokens(path).items():
        print(f"  {name:<8} {token}", flush=True)
    return settings.replace(tokens_file=path)


def start_audit_worker(settings: Settings) -> multiprocessing.process.BaseProcess:
    """The audit worker as a child process (spawned, so it shares nothing with gunicorn)."""
    assert settings.redis_url is not None
    context = multiprocessing.get_context("spawn")
    process = context.Process(
        target=run_worker,
        args=(settings.redis_url, settings.database_url),
        name="dealerassist-audit-worker",
        daemon=False,
    )
    _start_deaf_to_ctrl_c(process)
    return process


def start_verify_worker(settings: Settings) -> multiprocessing.process.BaseProcess:
    """The verification worker as a child process (spawned, like the audit worker)."""
    assert settings.redis_url is not None
    context = multiprocessing.get_context("spawn")
    process = context.Process(
        target=run_verify_worker,
        args=(settings.redis_url, settings.database_url, settings.profiles_dir),
        name="dealerassist-verify-worker",
        daemon=False,
    )
    _start_deaf_to_ctrl_c(process)
    return process


def _start_deaf_to_ctrl_c(process: multiprocessing.process.BaseProcess) -> None:
    """Start a worker child that ignores SIGINT until RQ installs its own handlers (its warm
    shutdown): a Ctrl-C reaches the terminal's whole process group, and one that came while
    the child was still importing or starting RQ (before those handlers) raised
    ``KeyboardInterrupt`` there and printed a traceback. serve stops its children itself
    (SIGTERM, ``stop_process``). A spawned child keeps an ignored SIGINT through ``exec``, and
    Python leaves an ignored SIGINT alone at start-up."""
    if threading.current_thread() is not threading.main_thread():
        process.start()  # only the main thread may change signal handlers
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        process.start()
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_process(process: multiprocessing.process.BaseProcess) -> None:
    """Ask a child to stop, then insist."""
    if not process.is_alive():
        return
    process.terminate()
    _await_stop(process)


def _await_stop(process: multiprocessing.process.BaseProcess) -> None:
    """Wait for a child asked to stop (one SIGTERM: RQ's warm shutdown), then insist."""
    process.join(WORKER_STOP_SECONDS)
    if process.is_alive():
        process.kill()
        process.join()


def serve(options: ServeOptions, settings: Settings | None = None) -> int:
    """Run until gunicorn stops; the embedded Redis and both workers stop with it."""
    settings = ensure_tokens(settings or Settings.from_env())
    master_pid = os.getpid()
    embedded: EmbeddedRedis | None = None
    workers: list[multiprocessing.process.BaseProcess] = []
    try:
        if settings.redis_url is None:
            embedded = start_embedded_redis(settings.data_dir)
            settings = settings.replace(redis_url=embedded.url)
            print(f"embedded Redis at {embedded.url} (append-only, fsync always)", flush=True)
            workers.append(start_audit_worker(settings))
            print(f"audit worker (pid {workers[0].pid}) -> {settings.database_url}", flush=True)
            workers.append(start_verify_worker(settings))
            print(f"verification worker (pid {workers[1].pid})", flush=True)
        else:
            for url in redis_urls(settings.redis_url):
                print(redis_persistence_line(url), flush=True)
        url = f"http://{options.host}:{options.port}"
        print(f"dealerassist {__version__} serving on {url}", flush=True)
        GunicornApp(settings, options).run()
    except SystemExit as stop:
        if os.getpid() != master_pid:
            raise
        return stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        # gunicorn's forked web workers leave through here too: only the master cleans up
        if os.getpid() == master_pid:
            _clean_up(workers, embedded)
    return 0


def redis_persistence_line(url: str) -> str:
    """A line on what a restart of the operator's Redis keeps; a warning unless it fsyncs
    every write (``appendonly yes``, ``appendfsync always``), as the embedded one does."""
    client = redis.Redis.from_url(url, socket_timeout=2)
    try:
        kept = persistence(client)
    except redis.RedisError as error:
        return f"Redis at {url} does not answer yet ({error}); /readyz will say when it does"
    finally:
        client.close()
    if kept == DURABLE:
        return f"Redis at {url}: persistence {kept}"
    return (
        f"WARNING: Redis at {url} has persistence '{kept}': a restart of it may lose accepted "
        "entries and audit events not yet stored; set appendonly yes and appendfsync always"
    )


def _clean_up(
    workers: list[multiprocessing.process.BaseProcess], embedded: EmbeddedRedis | None
) -> None:
    for worker in workers:
        if worker.is_alive():
            worker.terminate()  # both warm shutdowns begin at once (a second would be cold)
    for worker in workers:
        _await_stop(worker)
    if embedded is not None:
        embedded.stop()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(serve(ServeOptions()))
