#!/usr/bin/env bash
# The Sentinel failover soak: the suite's kill -9 failover plus the old primary restarted as a
# primary (Sentinel converts it after about 8 s) and a planned SENTINEL FAILOVER; each prints
# the outage the tablets saw. Run from the repository root: bash bench/sentinel_failover.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DEALERASSIST_SOAK=1 exec .venv/bin/pytest -q -s -p no:cacheprovider \
  tests/integration/test_sentinel_failover.py "$@"
