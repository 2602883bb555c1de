"""Log lines for an operator's log pipeline: one JSON object a line, on standard error.

Each line has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger`` and
``message``, then what applies of ``request_id``, ``table``, ``seat``, ``token`` (the
token's name, never its secret), ``job_id``, the access fields (``method``, ``route``,
``status``, ``duration_ms``), and ``exception`` (the traceback, in one string). Those come
from the record (``log.warning(..., extra={"table": table_id})``) or from the context
providers: the API registers one that reads the current request, the workers one that
reads the running RQ job.

``DEALERASSIST_LOG_FORMAT``: ``json``, ``text`` (one plain line, for a developer's
terminal), or ``auto`` (the default: text on a terminal, JSON otherwise: a container, a
service manager, a file). ``DEALERASSIST_LOG_LEVEL``: ``INFO`` by default.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TextIO

import orjson

from dealerassist.errors import InvalidInput

FORMAT_ENV = "DEALERASSIST_LOG_FORMAT"
LEVEL_ENV = "DEALERASSIST_LOG_LEVEL"
# Fields taken from a record's ``extra`` or from a context provider, in this order.
FIELDS = (
    "request_id",
    "table",
    "seat",
    "token",
    "job_id",
    "method",
    "route",
    "path",
    "status",
    "duration_ms",
)
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# Each returns the fields of the context the record was made in (empty outside it).
ContextProvider = Callable[[], Mapping[str, Any]]
CONTEXT_PROVIDERS: list[ContextProvider] = []


class LogFormat(StrEnum):
    """How the log lines are written."""

    AUTO = "auto"
    JSON = "json"
    TEXT = "text"


class AccessLog(StrEnum):
    """Which answers of the API get an access line (``DEALERASSIST_ACCESS_LOG``)."""

    ERRORS = "errors"  # 4xx and 5xx: refusals, bad tokens, backends down
    ALL = "all"  # every answer (a tablet polls every 1.5 s: a line each)
    OFF = "off"

    def logs(self, status: int) -> bool:
        """Whether an answer of ``status`` gets a line.

        >>> AccessLog.ERRORS.logs(409), AccessLog.ERRORS.logs(304), AccessLog.ALL.logs(200)
        (True, False, True)
        """
        return self is AccessLog.ALL or (self is AccessLog.ERRORS and status >= 400)


def add_context_provider(provider: ContextProvider) -> None:
    """Have every line carry what ``provider`` returns (once, however often it is added)."""
    if provider not in CONTEXT_PROVIDERS:
        CONTEXT_PROVIDERS.append(provider)


def context_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The record's own fields (``extra``) over those of the context it was made in."""
    found: dict[str, Any] = {}
    for provider in CONTEXT_PROVIDERS:
        try:
            found.update(provider())
        except Exception:  # a log line never fails for its context
            continue
    for name in FIELDS:
        value = getattr(record, name, None)
        if value is not None:
            found[name] = value
    return {name: found[name] for name in FIELDS if found.get(name) is not None}


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **context_fields(record),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(line, default=str).decode()


class TextFormatter(logging.Formatter):
    """A plain line, the context's fields after the message (``[table=T1 seat=2]``)."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = context_fields(record)
        if not fields:
            return text
        shown = " ".join(f"{name}={value}" for name, value in fields.items())
        head, newline, rest = text.partition("\n")
        return f"{head} [{shown}]{newline}{rest}"


class StderrHandler(logging.StreamHandler[TextIO]):
    """A handler on whatever ``sys.stderr`` is when it writes (a test's capture replaces it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


def resolve(value: str | LogFormat, stream: TextIO | None = None) -> LogFormat:
    """``auto`` made definite: text on a terminal, JSON otherwise.

    >>> import io
    >>> resolve("text"), resolve("auto", io.StringIO())
    (<LogFormat.TEXT: 'text'>, <LogFormat.JSON: 'json'>)
    """
    chosen = LogFormat(value)
    if chosen is not LogFormat.AUTO:
        return chosen
    target = sys.stderr if stream is None else stream
    return LogFormat.TEXT if target.isatty() else LogFormat.JSON


def formatter(value: str | LogFormat) -> logging.Formatter:
    """The formatter of a format."""
    return JsonFormatter() if resolve(value) is LogFormat.JSON else TextFormatter()


def format_from_env(env: Mapping[str, str] | None = None) -> LogFormat:
    """``DEALERASSIST_LOG_FORMAT`` (InvalidInput names the choices)."""
    env = os.environ if env is None else env
    text = env.get(FORMAT_ENV) or LogFormat.AUTO
    try:
        return LogFormat(text.lower())
    except ValueError:
        choices = ", ".join(LogFormat)
        raise InvalidInput(f"{FORMAT_ENV} must be one of {choices}, not {text!r}") from None


def level_from_env(env: Mapping[str, str] | None = None) -> str:
    """``DEALERASSIST_LOG_LEVEL`` (a level name: DEBUG, INFO, WARNING, ERROR)."""
    env = os.environ if env is None else env
    text = (env.get(LEVEL_ENV) or "INFO").upper()
    if text not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise InvalidInput(f"{LEVEL_ENV} must be DEBUG, INFO, WARNING or ERROR, not {text!r}")
    return text


_HANDLER_NAME = "dealerassist"


def configure(log_format: str | LogFormat, level: str = "INFO") -> logging.Handler:
    """Send the root logger's lines to standard error in ``log_format`` (replacing what an
    earlier call set up, leaving any other handler alone)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if handler.get_name() == _HANDLER_NAME:
            root.removeHandler(handler)
    handler = StderrHandler()
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(formatter(log_format))
    root.addHandler(handler)
    root.setLevel(level)
    return handler


def configure_from_env(env: Mapping[str, str] | None = None) -> logging.Handler:
    """``configure`` as ``DEALERASSIST_LOG_FORMAT`` and ``DEALERASSIST_LOG_LEVEL`` say."""
    return configure(format_from_env(env), level_from_env(env))


def gunicorn_log_config(log_format: str | LogFormat, level: str = "INFO") -> dict[str, Any]:
    """gunicorn's ``logconfig_dict``: its own lines (``gunicorn.error``) in the same format,
    on the same root handler as the app's."""
    chosen = resolve(log_format)
    formatter_class = JsonFormatter if chosen is LogFormat.JSON else TextFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"dealerassist": {"()": f"{__name__}.{formatter_class.__name__}"}},
        "handlers": {"stderr": {"()": f"{__name__}.StderrHandler", "formatter": "dealerassist"}},
        "root": {"level": level, "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": [], "propagate": True},
            "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
        },
    }
