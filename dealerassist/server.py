"""``dealerassist serve``: gunicorn (gthread workers) over the app, with what a single box
needs.

Without ``REDIS_URL`` it starts the embedded Redis under the data directory before forking
the web workers, and two workers as child processes: the audit worker (the drain) and the
verification worker (verification jobs, on their own queue so they never delay the
drain); a ``Supervisor`` thread starts any of the three again when it stops. Without
``DEALERASSIST_TOKENS_FILE`` it writes one token per role to ``<data dir>/tokens.toml``
(once) and prints them. gunicorn's control socket is ``<data dir>/gunicorn.ctl``.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import redis
from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter

from dealerassist import __version__, request_limits
from dealerassist.adapters.embedded_redis import (
    EmbeddedRedis,
    answers,
    socket_path_for,
    start_embedded_redis,
)
from dealerassist.adapters.redis_cluster import cluster_client, is_cluster_url, node_names
from dealerassist.adapters.redis_connect import redacted, redis_client
from dealerassist.adapters.redis_migration import migrate
from dealerassist.adapters.redis_tables import DURABLE, persistence
from dealerassist.api import create_served_app
from dealerassist.api.auth import generate_tokens_file, read_plain_tokens
from dealerassist.api.http import SERVICES_EXTENSION
from dealerassist.errors import DealerAssistError
from dealerassist.settings import Settings
from dealerassist.telemetry import logs
from dealerassist.telemetry.metrics import mark_dead, prepare_multiprocess_dir
from dealerassist.worker import run_verify_worker, run_worker

TOKENS_FILE_NAME = "tokens.toml"
WORKER_STOP_SECONDS = 10


# A slow client (a tablet on a bad link, or one trickling its headers on purpose) holds
# whatever reads its request: with sync workers a whole process, so four of them stopped
# the API. gthread gives it one thread of a pool instead; the pool is sized so that dozens
# of slow connections leave threads for the tablets (docs/notes/ops.md has the figures).
WORKER_CLASS = "gthread"
THREADS = 128
CONTROL_SOCKET_NAME = "gunicorn.ctl"


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """Where to listen, how many web workers to fork, and how each serves connections."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2
    worker_class: str = WORKER_CLASS
    threads: int = THREADS


class StoppingArbiter(Arbiter):  # type: ignore[misc]
    """gunicorn's arbiter that sets ``stopping`` when a signal that stops it arrives."""

    def __init__(self, app: Any, stopping: threading.Event) -> None:
        self.stopping = stopping
        super().__init__(app)

    def signal(self, sig: int, frame: Any) -> None:
        if sig in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
            self.stopping.set()
        super().signal(sig, frame)


def forget_inherited_children(server: Any, worker: Any) -> None:
    """gunicorn's post_fork hook: a forked web worker inherits multiprocessing's record of the
    master's children (the audit and verification workers) and, at exit, would try to join
    them ('can only join a child process', a traceback per web worker at every stop). They
    are the master's, not its own: the worker forgets them."""
    children = vars(multiprocessing.process).get("_children")
    if isinstance(children, set):
        children.clear()


def build_services_early(worker: Any) -> None:
    """gunicorn's post_worker_init hook: build the worker's services (profiles, clients, the
    store's engine) before it takes a request, so its first tablet does not wait for them
    (up to a second on a loaded box). If a backend is down they are built on first use, as
    before, and that request answers 503."""
    registry = worker.wsgi.extensions.get(SERVICES_EXTENSION)
    if registry is None:
        return
    try:
        registry.get()
    except Exception as error:  # any failure is the first request's to report
        worker.log.warning("services not built at start (%s); building on first use", error)


def forget_dead_worker(server: Any, worker: Any) -> None:
    """gunicorn's child_exit hook: a web worker ended (stopped, killed, timed out): its live
    gauges leave the metrics, its counts stay in the sums."""
    mark_dead(worker.pid)


class GunicornApp(BaseApplication):  # type: ignore[misc]
    """Gunicorn configured in code; each worker builds its own app after the fork."""

    def __init__(
        self, settings: Settings, options: ServeOptions, stopping: threading.Event | None = None
    ) -> None:
        self.settings = settings
        self.options = options
        self.stopping = stopping or threading.Event()
        super().__init__()

    def run(self) -> None:
        """gunicorn's arbiter, telling serve's supervisor at once when a signal stops it (a
        Ctrl-C also reaches the workers, whose exit must not look like a crash)."""
        StoppingArbiter(self, self.stopping).run()

    def load_config(self) -> None:
        self.cfg.set("bind", f"{self.options.host}:{self.options.port}")
        self.cfg.set("workers", self.options.workers)
        self.cfg.set("worker_class", self.options.worker_class)
        self.cfg.set("threads", self.options.threads)
        self.cfg.set("accesslog", None)
        # gunicorn's control socket defaults to one per user (~/.gunicorn/gunicorn.ctl): a
        # second serve took it over from the first; each data directory gets its own
        self.cfg.set("control_socket", str(control_socket_path(self.settings.data_dir)))
        self.cfg.set("post_fork", forget_inherited_children)
        self.cfg.set("post_worker_init", build_services_early)
        self.cfg.set("child_exit", forget_dead_worker)
        # gunicorn's own lines in the app's format, on the same handler (telemetry.logs)
        log_config = logs.gunicorn_log_config(self.settings.log_format, self.settings.log_level)
        self.cfg.set("logconfig_dict", log_config)
        request_limits.configure(self.cfg)  # 414/431 from the app, as problem+json

    def load(self) -> Any:
        return create_served_app({"SETTINGS": self.settings})


def control_socket_path(data_dir: Path) -> Path:
    """gunicorn's control socket (``gunicornc -s PATH``): in the data directory, or, where
    that path is too long for a Unix socket, in the temporary directory under a name of it.

    >>> control_socket_path(Path("/srv/da"))
    PosixPath('/srv/da/gunicorn.ctl')
    """
    return socket_path_for(data_dir, CONTROL_SOCKET_NAME)


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
    (SIGTERM, ``Supervisor.stop``). A spawned child keeps an ignored SIGINT through ``exec``, and
    Python leaves an ignored SIGINT alone at start-up."""
    if threading.current_thread() is not threading.main_thread():
        process.start()  # only the main thread may change signal handlers
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        process.start()
    finally:
        signal.signal(signal.SIGINT, previous)


def serve(options: ServeOptions, settings: Settings | None = None) -> int:
    """Run until gunicorn stops; the embedded Redis and both workers stop with it. Meanwhile
    a ``Supervisor`` thread restarts whichever of them stops."""
    settings = ensure_tokens(settings or Settings.from_env())
    logs.configure(settings.log_format, settings.log_level)
    if settings.metrics:  # before any process that counts starts: all of them inherit it
        directory = prepare_multiprocess_dir(settings.data_dir)
        print(f"metrics of every process in {directory} (GET /metrics)", flush=True)
    master_pid = os.getpid()
    supervisor = Supervisor()
    try:
        if settings.redis_url is None:
            embedded = EmbeddedRedisChild(settings.data_dir)
            supervisor.add(embedded)
            settings = settings.replace(redis_url=embedded.url)
            moved = migrate_embedded(embedded.url)
            if moved:
                print(moved, flush=True)
            print(
                f"embedded Redis at {embedded.url} (pid {embedded.pid}; append-only, fsync always)",
                flush=True,
            )
            audit = supervisor.add(WorkerChild("audit worker", start_audit_worker, settings))
            print(f"audit worker (pid {audit.pid}) -> {settings.database_url}", flush=True)
            verify = supervisor.add(
                WorkerChild("verification worker", start_verify_worker, settings)
            )
            print(f"verification worker (pid {verify.pid})", flush=True)
        else:
            for line in redis_persistence_lines(settings.redis_url):
                print(line, flush=True)
        url = f"http://{options.host}:{options.port}"
        print(f"dealerassist {__version__} serving on {url}", flush=True)
        supervisor.start()
        GunicornApp(settings, options, supervisor.stopping).run()
    except SystemExit as stop:
        if os.getpid() != master_pid:
            raise
        return stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        # gunicorn's forked web workers leave through here too: only the master cleans up
        if os.getpid() == master_pid:
            supervisor.stop()
    return 0


# A child that stops is started again after the next of these waits (then the last, again
# and again); one that ran this long before it stopped starts from the first wait again.
RESTART_BACKOFF_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)
STEADY_SECONDS = 60.0
SUPERVISE_SECONDS = 0.5
# The embedded Redis counts as down after this many probes in a row go unanswered (hung).
REDIS_MISSED_PROBES = 6


class Child:
    """Something serve starts and keeps running: ``start`` it, tell if it is ``down``,
    ``stop`` it for good."""

    name = "child"

    def start(self) -> None:
        raise NotImplementedError

    def down(self) -> str | None:
        """Why it is not running, or None while it runs."""
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    @property
    def pid(self) -> int | None:
        raise NotImplementedError


class WorkerChild(Child):
    """The audit or the verification worker: a spawned process. Whether it lives is read
    from its sentinel, not from ``is_alive``: gunicorn's arbiter reaps every child of the
    master (``waitpid(-1)``), so ``is_alive`` would say a dead worker still runs."""

    def __init__(
        self,
        name: str,
        starter: Callable[[Settings], multiprocessing.process.BaseProcess],
        settings: Settings,
    ) -> None:
        self.name = name
        self.starter = starter
        self.settings = settings
        self.process: multiprocessing.process.BaseProcess | None = None
        self.start()

    def start(self) -> None:
        if self.process is not None:
            mark_dead(self.process.pid)  # the one before: its live gauges go
        self.process = self.starter(self.settings)

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def down(self) -> str | None:
        if self.process is None:
            return "not started"
        if not multiprocessing.connection.wait([self.process.sentinel], 0):
            return None
        code = self.process.exitcode  # None once gunicorn's arbiter reaped it first
        if code is None:
            return "exited"
        return f"killed by signal {-code}" if code < 0 else f"exited with code {code}"

    def stop(self) -> None:
        if self.process is not None and self.down() is None:
            self.process.terminate()

    def await_stop(self) -> None:
        if self.process is not None and self.down() is None:
            self.process.join(WORKER_STOP_SECONDS)
            if self.down() is None:
                self.process.kill()
                self.process.join(WORKER_STOP_SECONDS)


class EmbeddedRedisChild(Child):
    """The embedded Redis: down when its process ended or it stopped answering pings."""

    name = "embedded Redis"

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.embedded: EmbeddedRedis = start_embedded_redis(data_dir)
        self.url = self.embedded.url
        self.missed = 0

    def start(self) -> None:
        self.embedded = start_embedded_redis(self.data_dir)
        self.missed = 0

    @property
    def pid(self) -> int | None:
        process = self.embedded.process
        return None if process is None else process.pid

    def down(self) -> str | None:
        process = self.embedded.process
        if process is not None and process.poll() is not None:
            return "exited"
        self.missed = 0 if answers(self.embedded.socket_path) else self.missed + 1
        if self.missed >= REDIS_MISSED_PROBES:
            if process is not None:
                process.kill()
                process.wait()
            return "stopped answering"
        return None

    def stop(self) -> None:
        self.embedded.stop()


@dataclass
class _Watch:
    child: Child
    started: float
    failures: int = 0
    restart_at: float | None = None


class Supervisor(threading.Thread):
    """A thread of serve's master (gunicorn's forked web workers do not inherit threads)
    that restarts a child that stops, after ``RESTART_BACKOFF_SECONDS``, until ``stopping``
    is set (serve's own stop: a signal to the master, or gunicorn's end)."""

    def __init__(self) -> None:
        super().__init__(name="dealerassist-supervisor", daemon=True)
        self.watches: list[_Watch] = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def add(self, child: ChildT) -> ChildT:
        self.watches.append(_Watch(child, time.monotonic()))
        return child

    def run(self) -> None:
        while not self.stopping.wait(SUPERVISE_SECONDS):
            with self.lock:
                for watch in self.watches:
                    if self.stopping.is_set():
                        return
                    self._look_after(watch)

    def _look_after(self, watch: _Watch) -> None:
        now = time.monotonic()
        if watch.restart_at is None:
            why = watch.child.down()
            if why is None:
                return
            if now - watch.started >= STEADY_SECONDS:
                watch.failures = 0
            delay = RESTART_BACKOFF_SECONDS[min(watch.failures, len(RESTART_BACKOFF_SECONDS) - 1)]
            watch.failures += 1
            watch.restart_at = now + delay
            print(
                f"{watch.child.name} (pid {watch.child.pid}) {why}; restarting in {delay:g} s",
                flush=True,
            )
            return
        if now < watch.restart_at:
            return
        try:
            watch.child.start()
        except DealerAssistError as error:
            print(f"{watch.child.name} did not start: {error}", flush=True)
            watch.restart_at = None  # counted as a failure at the next look
            return
        watch.started, watch.restart_at = time.monotonic(), None
        print(f"{watch.child.name} restarted (pid {watch.child.pid})", flush=True)

    def stop(self) -> None:
        """Stop supervising, then the workers (both warm shutdowns at once), then Redis."""
        self.stopping.set()
        if self.is_alive():
            self.join()
        with self.lock:
            workers = [w.child for w in self.watches if isinstance(w.child, WorkerChild)]
            for worker in workers:
                worker.stop()
            for worker in workers:
                worker.await_stop()
            for watch in self.watches:
                if not isinstance(watch.child, WorkerChild):
                    watch.child.stop()


ChildT = TypeVar("ChildT", bound=Child)


def migrate_embedded(url: str) -> str | None:
    """Rename the embedded Redis's keys of an earlier version to this version's names
    (``adapters.redis_migration``, in place: nothing else runs yet); a line saying so."""
    client = redis.Redis.from_url(url)
    try:
        report = migrate([client], client, in_place=True)
    finally:
        client.close()
    if not report.moved and report.ok:
        return None
    return f"embedded Redis: keys of {len(report.tables)} tables renamed: {report.to_dict()}"


def redis_persistence_lines(url: str) -> list[str]:
    """``redis_persistence_line`` of the Redis, or of each primary of a cluster."""
    if not is_cluster_url(url):
        return [redis_persistence_line(url)]
    try:
        client = cluster_client(url, socket_timeout=2)
        names = node_names(client)
        client.close()
    except redis.RedisError as error:
        return [f"Redis Cluster does not answer yet ({error}); /readyz will say when it does"]
    return [redis_persistence_line(f"redis://{name}/0") for name in names]


def redis_persistence_line(url: str) -> str:
    """A line on what a restart of the operator's Redis keeps; a warning unless it fsyncs
    every write (``appendonly yes``, ``appendfsync always``), as the embedded one does."""
    client = redis_client(url, socket_timeout=2)
    shown = redacted(url)
    try:
        kept = persistence(client)
    except redis.RedisError as error:
        return f"Redis at {shown} does not answer yet ({error}); /readyz will say when it does"
    finally:
        client.close()
    if kept == DURABLE:
        return f"Redis at {shown}: persistence {kept}"
    return (
        f"WARNING: Redis at {shown} has persistence '{kept}': a restart of it may lose accepted "
        "entries and audit events not yet stored; set appendonly yes and appendfsync always"
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(serve(ServeOptions()))
