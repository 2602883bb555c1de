"""The log lines' two formats, and gunicorn's configuration that writes its own the same way."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import sys

from dealerassist.telemetry import logs


def record(**extra: object) -> logging.LogRecord:
    made = logging.LogRecord(
        "dealerassist.worker", logging.ERROR, __file__, 1, "isolated %r", ("T7",), None
    )
    for name, value in extra.items():
        setattr(made, name, value)
    return made


def test_a_json_line_has_the_fields_that_apply_and_only_those() -> None:
    """time, level, logger and message always; table and job from the record; nothing for
    what does not apply (no ``seat: null``); a traceback as one string."""
    line = json.loads(logs.JsonFormatter().format(record(table="T7", job_id="j1")))
    assert line["level"] == "ERROR" and line["logger"] == "dealerassist.worker"
    assert line["message"] == "isolated 'T7'" and line["table"] == "T7" and line["job_id"] == "j1"
    assert "seat" not in line and "request_id" not in line
    try:
        raise ValueError("poison")
    except ValueError:
        failed = record()
        failed.exc_info = sys.exc_info()
    line = json.loads(logs.JsonFormatter().format(failed))
    assert "ValueError: poison" in line["exception"] and "\n" not in logs.JsonFormatter().format(
        failed
    )


def test_a_text_line_names_the_fields_after_the_message() -> None:
    text = logs.TextFormatter().format(record(table="T7", seat=3))
    assert text.endswith("ERROR dealerassist.worker: isolated 'T7' [table=T7 seat=3]")


def test_a_context_provider_fills_what_the_record_does_not_say() -> None:
    """The provider's request ID and table, the record's own table over the provider's; a
    provider that fails costs the line nothing."""

    def provider() -> dict[str, object]:
        return {"request_id": "r-1", "table": "T1"}

    def broken() -> dict[str, object]:
        raise RuntimeError("no context")

    saved = list(logs.CONTEXT_PROVIDERS)
    try:
        logs.add_context_provider(provider)
        logs.add_context_provider(broken)
        logs.add_context_provider(provider)  # once only
        assert logs.CONTEXT_PROVIDERS.count(provider) == 1
        line = json.loads(logs.JsonFormatter().format(record(table="T7")))
        assert line["request_id"] == "r-1" and line["table"] == "T7"
    finally:
        logs.CONTEXT_PROVIDERS[:] = saved


def test_gunicorns_lines_go_through_the_same_format() -> None:
    """The logconfig_dict serve gives gunicorn puts gunicorn.error on the root's handler,
    in JSON; its access log stays off."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        logging.config.dictConfig(logs.gunicorn_log_config("json"))
        handler = root.handlers[-1]
        assert isinstance(handler, logs.StderrHandler)
        assert isinstance(handler.formatter, logs.JsonFormatter)
        stream = io.StringIO()
        handler.stream = stream  # ignored: it writes to whatever sys.stderr is
        assert handler.stream is not stream
        assert logging.getLogger("gunicorn.error").propagate is True
        assert logging.getLogger("gunicorn.access").propagate is False
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
