"""The VerificationQueue port on RQ: verification jobs on a queue of their own.

A verification replays every event in scope through the engine (about 3,000 events/s), so
a whole store takes minutes: far longer than a drain round. It runs on ``VERIFY_QUEUE``,
served by a worker of its own (``worker.run_verify_worker``), never on the ``audit`` queue,
whose single drain job would otherwise wait behind it while events pile up in Redis.

The job is ``dealerassist.worker.verify_audit_log(table_id, tables)``, enqueued by dotted path with
the JSON serializer. Its status and report are RQ's own (``Job.get_status``,
``Job.latest_result``): the report is kept ``RESULT_TTL_SECONDS`` after the job ends, a
failure as long; a job still queued never expires. A job interrupted by its worker's
shutdown fails with ``VerificationInterrupted`` and is put back at the front of the queue
by RQ's retry (``RESUMES`` times), so an accepted verification is not lost to a restart.
IDs are ours (32 hex digits), so a malformed ID is a 404 without a Redis read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from uuid import uuid4

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.results import Result
from rq.serializers import JSONSerializer

from dealerassist.service.ports import Verification, VerificationStatus

VERIFY_QUEUE = "audit-verify"
VERIFY_JOB = "dealerassist.worker.verify_audit_log"
RESULT_TTL_SECONDS = 24 * 3600
# A verification of ten million events takes about an hour at the measured rate.
JOB_TIMEOUT_SECONDS = 6 * 3600
RESUMES = 3
ID_PATTERN = re.compile(r"[0-9a-f]{32}")

_STATUSES = {
    JobStatus.CREATED: VerificationStatus.QUEUED,
    JobStatus.QUEUED: VerificationStatus.QUEUED,
    JobStatus.DEFERRED: VerificationStatus.QUEUED,
    JobStatus.SCHEDULED: VerificationStatus.QUEUED,
    JobStatus.READY_TO_ENQUEUE: VerificationStatus.QUEUED,
    JobStatus.RATE_LIMITED: VerificationStatus.QUEUED,
    JobStatus.STARTED: VerificationStatus.RUNNING,
    JobStatus.FINISHED: VerificationStatus.FINISHED,
    JobStatus.FAILED: VerificationStatus.FAILED,
    JobStatus.STOPPED: VerificationStatus.FAILED,
    JobStatus.CANCELED: VerificationStatus.FAILED,
}


def failure_text(exc_string: str | None) -> str:
    """The last line of a job's traceback: the exception and its message.

    >>> failure_text("Traceback (most recent call last):\\n  ...\\nUnavailable: store down\\n")
    'Unavailable: store down'
    >>> failure_text(None)
    'the verification failed'
    """
    lines = [line for line in (exc_string or "").splitlines() if line.strip()]
    return lines[-1].strip() if lines else "the verification failed"


class RQVerificationQueue:
    """Enqueues verification jobs and reads their status and report back from RQ."""

    def __init__(self, connection: redis.Redis, queue_name: str = VERIFY_QUEUE) -> None:
        self.connection = connection
        self.queue = Queue(queue_name, connection=connection, serializer=JSONSerializer)

    def enqueue(self, table_id: str | None, tables: Sequence[str] | None = None) -> Verification:
        kwargs: dict[str, Any] = {"table_id": table_id}
        if tables is not None:  # a table-scoped token's tables (absent: as before)
            kwargs["tables"] = list(tables)
        scope = table_id or (f"tables {', '.join(tables)}" if tables is not None else None)
        job = self.queue.enqueue_call(
            VERIFY_JOB,
            kwargs=kwargs,
            job_id=uuid4().hex,
            timeout=JOB_TIMEOUT_SECONDS,
            result_ttl=RESULT_TTL_SECONDS,
            failure_ttl=RESULT_TTL_SECONDS,
            description=f"verify the audit log ({scope or 'every table'})",
            retry=Retry(max=RESUMES, enqueue_at_front=True),
        )
        return self._view(job, JobStatus.QUEUED)

    def get(self, verification_id: str) -> Verification | None:
        if not ID_PATTERN.fullmatch(verification_id):
            return None
        try:
            job = Job.fetch(verification_id, self.connection, serializer=JSONSerializer)
            status = job.get_status(refresh=False)
        except NoSuchJobError:
            return None
        if job.origin != self.queue.name or job.func_name != VERIFY_JOB:
            return None  # another queue's job (a drain) is no verification
        return self._view(job, status)

    def _view(self, job: Job, status: JobStatus | None) -> Verification:
        state = _STATUSES.get(status, VerificationStatus.QUEUED) if status else None
        result: dict[str, Any] | None = None
        error: str | None = None
        if state is VerificationStatus.FINISHED:
            result = job.return_value()
        elif status is JobStatus.FAILED:
            latest = job.latest_result()
            failed = latest is not None and latest.type == Result.Type.FAILED
            error = failure_text(latest.exc_string if latest is not None and failed else None)
        elif status is not None and state is VerificationStatus.FAILED:
            error = f"the verification job was {status.value}"
        table_id = job.kwargs.get("table_id")
        tables = job.kwargs.get("tables")
        return Verification(
            id=job.id,
            status=state or VerificationStatus.QUEUED,
            table_id=table_id if isinstance(table_id, str) else None,
            result=result,
            error=error,
            enqueued_at=job.enqueued_at,
            ended_at=job.ended_at,
            tables=tuple(str(t) for t in tables) if isinstance(tables, list) else None,
        )
