"""Write docs/ops/grafana-dashboard.json, the sample Grafana dashboard of docs/operations.md,
from the panels below (a JSON file of ~600 lines is easier to keep as this list).

    .venv/bin/python tools/make_dashboard.py

Every query names only metrics GET /metrics exports (tests/api/test_metrics.py checks it).
The readings of Redis and the store are made by every API host at its scrape, so the
queries take ``max by (redis)`` of them, not their sum.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "docs" / "ops" / "grafana-dashboard.json"
RATE = "5m"
COUNT = "dealerassist_http_request_duration_seconds_count"
BUCKET = "dealerassist_http_request_duration_seconds_bucket"

# (title, unit, kind, [(query, legend)], width)
PANELS: list[tuple[str, str, str, list[tuple[str, str]], int]] = [
    ("Answers per second by route and status", "reqps", "timeseries",
     [(f"sum by (route, status) (rate({COUNT}[{RATE}]))", "{{route}} {{status}}")], 12),
    ("Latency p50 / p99 by route", "s", "timeseries",
     [(f"histogram_quantile(0.99, sum by (le, route) (rate({BUCKET}[{RATE}])))", "p99 {{route}}"),
      (f"histogram_quantile(0.5, sum by (le, route) (rate({BUCKET}[{RATE}])))", "p50 {{route}}")],
     12),
    ("Share of 5xx answers", "percentunit", "timeseries",
     [(f'sum(rate({COUNT}{{status=~"5.."}}[{RATE}])) / sum(rate({COUNT}[{RATE}]))', "5xx")], 8),
    ("Refusals per minute by rule", "short", "timeseries",
     [(f"topk(10, sum by (rule_id) (rate(dealerassist_refusals_total[{RATE}])) * 60)",
       "{{rule_id}}")], 8),
    ("Open floor calls", "short", "stat", [("max(dealerassist_floor_calls_open)", "open")], 8),
    ("Staged audit events (backlog) per Redis", "short", "timeseries",
     [("max by (redis) (dealerassist_audit_backlog_events)", "redis {{redis}}")], 8),
    ("Age of the oldest staged event per Redis", "s", "timeseries",
     [("max by (redis) (dealerassist_audit_backlog_age_seconds)", "redis {{redis}}")], 8),
    ("Drain lag p99 (oldest event of a round) and events drained", "s", "timeseries",
     [("histogram_quantile(0.99, sum by (le) "
       f"(rate(dealerassist_drain_lag_seconds_bucket[{RATE}])))", "lag p99"),
      (f"sum(rate(dealerassist_drained_events_total[{RATE}]))", "events/s")], 8),
    ("Failed jobs, isolated and forked tables", "short", "timeseries",
     [("max by (redis, queue) (dealerassist_failed_jobs)", "failed {{queue}} ({{redis}})"),
      ("max by (redis) (dealerassist_audit_isolated_tables)", "isolated ({{redis}})"),
      ("max by (redis) (dealerassist_audit_forked_tables)", "forked ({{redis}})")], 12),
    ("Verifications (last hour) and the last result", "short", "timeseries",
     [("sum by (kind, result) (increase(dealerassist_verifications_total[1h]))",
       "{{kind}} {{result}}"),
      ("max(dealerassist_verification_last_failed)", "last failed (1)"),
      ("time() - max(dealerassist_verification_last_timestamp_seconds)",
       "seconds since the last")], 12),
    ("Redis up", "short", "stat",
     [("min by (redis) (dealerassist_redis_up)", "redis {{redis}}")], 6),
    ("Audit store up", "short", "stat", [("min(dealerassist_audit_store_up)", "store")], 6),
    ("Live workers by queue", "short", "stat",
     [("max by (redis, queue) (dealerassist_workers_live)", "{{queue}} ({{redis}})")], 6),
    ("Version", "short", "stat",
     [("max by (version) (dealerassist_build_info)", "{{version}}")], 6),
]  # fmt: skip


def dashboard() -> dict[str, object]:
    panels = []
    x = y = row_height = 0
    for number, (title, unit, kind, queries, width) in enumerate(PANELS, 1):
        height = 4 if kind == "stat" else 8
        if x + width > 24:
            x, y = 0, y + row_height
            row_height = 0
        panels.append(
            {
                "id": number,
                "title": title,
                "type": kind,
                "datasource": {"type": "prometheus", "uid": "${datasource}"},
                "gridPos": {"h": height, "w": width, "x": x, "y": y},
                "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
                "targets": [
                    {"refId": chr(ord("A") + index), "expr": expr, "legendFormat": legend}
                    for index, (expr, legend) in enumerate(queries)
                ],
            }
        )
        x += width
        row_height = max(row_height, height)
    return {
        "title": "dealerassist",
        "uid": "dealerassist",
        "schemaVersion": 39,
        "time": {"from": "now-6h", "to": "now"},
        "refresh": "30s",
        "tags": ["dealerassist"],
        "templating": {
            "list": [
                {
                    "name": "datasource",
                    "label": "Prometheus",
                    "type": "datasource",
                    "query": "prometheus",
                }
            ]
        },
        "panels": panels,
    }


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(dashboard(), indent=2) + "\n")
    print(f"wrote {OUT} ({len(PANELS)} panels)")


if __name__ == "__main__":
    main()
