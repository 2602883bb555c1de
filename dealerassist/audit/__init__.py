"""The audit log's pure core: no framework, no I/O (import-linter checks it).

``chain`` (canonical JSON and the SHA-256 links), ``envelope`` (an event's fields, sealed),
``verify`` and ``replay`` (every hash and link checked, every hand replayed through the engine),
``export`` (JSONL and CSV), ``hands`` (each finished hand's record), ``phh`` (PHH hand histories
out and in).
"""
