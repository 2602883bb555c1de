"""Hostile-input and scope sweep: every route of the app x every role x table scope, over
the Flask test client (no server), against a real Redis and a SQLite audit store.

Two tables (T1, T2), each with a finished hand (drained to the store), a hand in play and an
open floor call. Then, per kind: every GET route naming a table, called by each of the 12
tokens (4 roles, every table / T1 only / T2 only); the routes naming no table; each write
route by a token scoped to the other table; malformed bodies, wrong media types, hostile
field values (10**30, -1, floats, NaN strings, 70 KB strings, NUL, lone surrogates,
nesting), missing and unknown fields, odd headers; hostile query values and repeated
parameters; odd path parameters; wrong methods. A finding is: a 5xx (503 listed apart), an
error that is not problem+json, another table's ID in a scoped token's 2xx answer, a 2xx
for a table outside the token's scope, or a refused write that changed a table's version
or the open floor calls. Prints the requests per kind, the answers by status, the findings.

    REDIS_URL=redis://127.0.0.1:6379/<db> .venv/bin/python bench/api_sweep.py

It FLUSHES that Redis database first. Takes ~20 s.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import redis
from api.conftest import TABLE_BODY, Api, token_book

from dealerassist.api import create_app
from dealerassist.bootstrap import build_services
from dealerassist.settings import Settings
from dealerassist.worker import run_worker

URL = os.environ.get("REDIS_URL") or sys.exit("set REDIS_URL (a Redis database to flush)")
redis.Redis.from_url(URL).flushdb()
d = Path(tempfile.mkdtemp())
s = Settings(data_dir=d, redis_url=URL, database_url=f"sqlite:///{d / 'a.sqlite3'}")
svc = build_services(s)
app = create_app({"SETTINGS": s, "SERVICES": svc, "TOKENS": token_book()})
api = Api(app.test_client())
counts: collections.Counter[str] = collections.Counter()
findings: list[tuple[Any, ...]] = []
hist: collections.Counter[tuple[str, int]] = collections.Counter()


def finish(t):
    assert api.create_table(table_id=t).status_code == 201
    for seat in (1, 2, 3):
        assert api.seat(t, seat, f"P{seat}").status_code == 200
    body = api.start(t).get_json()
    while body["hand"]["phase"] != "complete":
        nxt = body["next"]
        kinds = [c["action"] for c in nxt["legal"]]
        r = api.act(t, seat=nxt["seat"], action="post" if "post" in kinds else "fold")
        assert r.status_code == 200, r.get_json()
        body = r.get_json()
    r = api.start(t, button=2)
    assert r.status_code == 200, r.get_json()


for t in ("T1", "T2"):
    finish(t)
    r = api.call(
        "POST", f"/v1/tables/{t}/floor-calls", "dealer", {"rule_id": "BET-01", "note": "n"}
    )
    assert r.status_code == 201, r.get_json()
CALL = {t: None for t in ("T1", "T2")}
for c in api.call("GET", "/v1/floor/calls", "floor").get_json()["calls"]:
    CALL[c["table_id"]] = c["call_id"]
run_worker(URL, s.database_url, burst=True, with_scheduler=False)
r = api.call("POST", "/v1/audit/verifications", "auditor", {"table_id": "T2"})
VJOB = r.headers["Location"].rsplit("/", 1)[1]
print("setup ok", CALL, VJOB)


def state():
    out = []
    for t in ("T1", "T2"):
        out.append(api.call("GET", f"/v1/tables/{t}", "admin").get_json().get("version"))
    out.append(len(api.call("GET", "/v1/floor/calls?limit=200", "admin").get_json()["calls"]))
    return tuple(out)


def check(kind, method, path, who, r, before=None, mutating=False, expect_table=None):
    counts[kind] += 1
    data = r.get_data()
    st = r.status_code
    hist[(kind, st)] += 1
    if st >= 500 and st != 503:
        findings.append((kind, "5xx", method, path[:150], who, st, data[:300]))
    elif st == 503 and not path.startswith("/readyz"):  # no worker runs here: not ready
        findings.append((kind, "503", method, path[:150], who, st, data[:300]))
    if st >= 400 and r.mimetype != "application/problem+json":
        findings.append((kind, "not-problem", method, path[:150], who, st, r.mimetype, data[:200]))
    if st < 400 and who and "@" in who:
        scope = who.split("@")[1]
        other = "T2" if scope == "T1" else "T1"
        txt = data.decode("utf-8", "replace")
        if (
            f'"{other}"' in txt
            or f",{other}," in txt
            or (f"{other}\n" in txt and path.endswith("csv"))
        ):
            findings.append((kind, "LEAK", method, path[:150], who, st, data[:300]))
    if mutating and st >= 400 and before is not None:
        after = state()
        if after != before:
            findings.append(
                (kind, "STATE-CHANGED", method, path[:150], who, st, before, after, data[:200])
            )
    return r


def call(
    kind, method, path, who="admin", body=None, raw=None, ctype="application/json", headers=None
):
    mutating = method in ("POST", "PUT", "DELETE") and "verifications" not in path
    before = state() if mutating else None
    kw = {}
    if raw is not None:
        kw = {
            "data": raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass"),
            "content_type": ctype,
        }
    try:
        r = api.call(method, path, who, body, headers=headers, **kw)
    except Exception as e:
        counts[kind] += 1
        findings.append((kind, "EXC", method, path[:150], who, repr(e)[:300]))
        return None
    return check(kind, method, path, who, r, before, mutating)


ROLES = ["admin", "dealer", "floor", "auditor"]
WHOS = ROLES + [f"{r}@{t}" for r in ROLES for t in ("T1", "T2")]

# ---------- route templates ----------
GETS = [
    "/v1/tables/{t}",
    "/v1/tables/{t}/hands/1",
    "/v1/tables/{t}/hands/2",
    "/v1/audit/events?table_id={t}",
    "/v1/audit/events?table_id={t}&format=csv",
    "/v1/audit/hands/{t}/1",
    "/v1/audit/hands/{t}/1?format=phh",
    "/v1/audit/hands/{t}/1/replay",
    "/v1/audit/hands?table_id={t}",
    "/v1/audit/verify?table_id={t}",
    "/v1/audit/collections?table_id={t}",
    "/v1/audit/collections?table_id={t}&format=csv",
    "/v1/floor/calls?table_id={t}",
    "/v1/floor/calls/{call}",
    "/v1/audit/verifications/{vjob}",
]
UNNAMED = [
    "/v1/audit/events",
    "/v1/audit/events?format=csv",
    "/v1/audit/checkpoints",
    "/v1/audit/alerts",
    "/v1/audit/tables",
    "/v1/audit/hands",
    "/v1/audit/hands?hand_no=1",
    "/v1/audit/verify",
    "/v1/audit/collections",
    "/v1/audit/collections?format=csv",
    "/v1/floor/tables",
    "/v1/floor/calls",
    "/v1/rulings/options?rule_id=BET-01",
    "/v1/profiles/casino-five-card-draw",
    "/readyz",
    "/healthz",
    "/openapi.json",
    # the dealer sign-in's reads (a tablet's and a shift's routes refuse every tokens-file token)
    "/v1/dealers",
    "/v1/tablets",
    "/v1/tablet",
    "/v1/shift",
    "/readyz?node=\u00b2",
    "/readyz?node=" + "9" * 5000,
]
# scope: every role x scope x table on every named route; unnamed: scoped tokens see only theirs
for tmpl in GETS:
    for t in ("T1", "T2"):
        path = tmpl.format(t=t, call=CALL[t], vjob=VJOB)
        if "{vjob}" in tmpl and t == "T1":
            continue  # the job covers T2 only
        for who in WHOS:
            r = call("scope-get", "GET", path, who)
            if r is not None and "@" in who and who.split("@")[1] != t and r.status_code < 400:
                findings.append(
                    (
                        "scope-get",
                        "OUT-OF-SCOPE-200",
                        "GET",
                        path,
                        who,
                        r.status_code,
                        r.get_data()[:200],
                    )
                )
for path in UNNAMED:
    for who in WHOS:
        call("scope-unnamed", "GET", path, who)

WRITES = [
    ("PUT", "/v1/tables/{t}/seats/5", {"player": "E", "stack": 10}),
    ("DELETE", "/v1/tables/{t}/seats/3", None),
    ("POST", "/v1/tables/{t}/seats/3/changes", {"change": "sit_out"}),
    ("POST", "/v1/tables/{t}/hands", {}),
    ("POST", "/v1/tables/{t}/actions", {"seat": 2, "action": "post"}),
    ("POST", "/v1/tables/{t}/rulings", {"decision": "custom", "effects": []}),
    ("POST", "/v1/tables/{t}/floor-calls", {"rule_id": "BET-01", "note": "n"}),
    ("POST", "/v1/audit/verifications", {"table_id": "{t}"}),
    ("POST", "/v1/tables", {**TABLE_BODY, "table_id": "{t}"}),
    ("POST", "/v1/tablets", {"name": "Tablet", "tables": ["{t}"]}),
    ("PUT", "/v1/dealers/E7", {"name": "Eve Ng", "pin": "5150"}),  # house-wide: no scope may
]


def fill(body, t):
    return json.loads(json.dumps(body).replace("{t}", t)) if body is not None else None


for method, tmpl, body in WRITES:
    for who in [w for w in WHOS if "@" in w]:
        scope = who.split("@")[1]
        other = "T2" if scope == "T1" else "T1"
        t = other if tmpl != "/v1/tables" else "T9" if False else other
        r = call("scope-write-other", method, tmpl.format(t=t), who, fill(body, t))
        if r is not None and r.status_code < 400:
            findings.append(
                (
                    "scope-write-other",
                    "OUT-OF-SCOPE-OK",
                    method,
                    tmpl,
                    who,
                    r.status_code,
                    r.get_data()[:200],
                )
            )
# a scoped admin creating a new table outside its scope
for who in ("admin@T1",):
    r = call("scope-write-other", "POST", "/v1/tables", who, {**TABLE_BODY, "table_id": "T7"})
    if r is not None and r.status_code < 400:
        findings.append(
            ("scope-write-other", "OUT-OF-SCOPE-OK", "POST", "/v1/tables T7", who, r.status_code)
        )
# scoped token omitting the table on a body route
for who in ("auditor@T1", "admin@T1"):
    r = call("scope-omit", "POST", "/v1/audit/verifications", who, {})
    if r is not None and r.status_code == 202:
        job = r.headers["Location"]
        rr = call("scope-omit", "GET", job, who)

# ---------- hostile values ----------
HUGE = [
    10**30,
    -1,
    -(10**30),
    1.5,
    0.0,
    1e308,
    "NaN",
    "Infinity",
    "-Infinity",
    "1",
    True,
    None,
    [],
    {},
    "x" * 70000,
    "x" * 5000,
    "\x00",
    "\ud800",
    "T1\n",
    " T1",
    "",
    2**31,
    2**63,
    -(2**63),
]
RAW_BODIES = [
    "",
    "{",
    "[]",
    "null",
    "1",
    '"x"',
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":1e999}',
    '{"a":-1e999}',
    '{"a":' + "1" * 5000 + "}",
    "\ufeff{}",
    "{}garbage",
    '{"a":1,"a":2}',
    "\x00",
    "[" * 30000 + "]" * 30000,
    '{"":' * 12000 + "1" + "}" * 12000,
    '{"a":"\\ud800"}',
    "\xff\xfe",
    '{"a": "\\u0000"}',
]
BODY_ROUTES = [
    ("POST", "/v1/tables", "admin", dict(TABLE_BODY, table_id="T8")),
    ("PUT", "/v1/tables/T1/seats/6", "dealer", {"player": "F", "stack": 10}),
    ("POST", "/v1/tables/T1/seats/1/changes", "dealer", {"change": "sit_out"}),
    ("POST", "/v1/tables/T1/hands", "dealer", {"button": 1}),
    ("POST", "/v1/tables/T1/actions", "dealer", {"seat": 2, "action": "post"}),
    ("POST", "/v1/tables/T1/actions", "dealer", {"seat": 2, "action": "boxed_card", "seats": [1]}),
    ("POST", "/v1/tables/T1/actions", "dealer", {"seat": 2, "action": "bet", "amount": 2}),
    ("POST", "/v1/tables/T1/actions", "dealer", {"seat": 2, "action": "draw", "discards": "2c 3d"}),
    (
        "POST",
        "/v1/tables/T1/rulings",
        "floor",
        {
            "decision": "custom",
            "effects": [{"kind": "adjust_stack", "seat": 1, "amount": 1}],
            "rule_id": "BET-01",
            "note": "n",
        },
    ),
    ("POST", "/v1/tables/T1/floor-calls", "dealer", {"rule_id": "BET-01", "note": "x", "seq": 1}),
    ("POST", "/v1/audit/verifications", "auditor", {"table_id": "T1"}),
]
for method, path, who, body in BODY_ROUTES:
    for raw in RAW_BODIES:
        call("raw-body", method, path, who, raw=raw)
    for ctype in (
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json; charset=latin-1",
        "multipart/form-data",
    ):
        call("content-type", method, path, who, raw=json.dumps(body), ctype=ctype)
    for key in list(body):
        for v in HUGE:
            b = dict(body)
            b[key] = v
            call(
                "field-value",
                method,
                path,
                who,
                body=None,
                raw=json.dumps(b, allow_nan=True, ensure_ascii=True)
                if not (isinstance(v, str) and "\ud800" in v)
                else json.dumps(b),
            )
        b = dict(body)
        del b[key]
        call("field-missing", method, path, who, b)
        b = dict(body)
        b[key] = {"deep": [[[[[{"x": 1}]]]]]}
        call("field-value", method, path, who, b)
    b = dict(body)
    b["unknown_field"] = 1
    call("field-unknown", method, path, who, b)
    # nested effects
    if "effects" in body:
        for v in HUGE:
            for k in ("kind", "seat", "amount"):
                e = dict(body["effects"][0])
                e[k] = v
                call(
                    "field-value",
                    method,
                    path,
                    who,
                    raw=json.dumps({**body, "effects": [e]}, allow_nan=True),
                )
        call("field-value", method, path, who, {**body, "effects": [body["effects"][0]] * 5000})
    if "seats" in body:
        for v in HUGE:
            call(
                "field-value",
                method,
                path,
                who,
                raw=json.dumps({**body, "seats": [v]}, allow_nan=True),
            )
        call("field-value", method, path, who, {**body, "seats": list(range(10000))})
    # headers
    for h in (
        {"If-Match": '"x"'},
        {"If-Match": 'W/"1"'},
        {"If-Match": "9" * 50},
        {"Idempotency-Key": "\x01"},
        {"Idempotency-Key": "k" * 5000},
        {"If-Match": "*"},
        {"Idempotency-Key": ""},
    ):
        call("header", method, path, who, body, headers=h)

# ---------- query parameters ----------
QVALS = [
    "abc",
    "-1",
    "0",
    "1.5",
    "1e3",
    "10" * 20,
    str(10**30),
    "NaN",
    "",
    "%00",
    "%ff",
    "\u00e9",
    "T1%0A",
    "2026-13-45",
    "2026-02-30T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "0000-01-01",
    "0001-01-01T00:00:00+14:00",
    "2026-01-01T00:00:00",
    "2026-01-01",
    "x" * 5000,
    "%ed%a0%80",
]
QROUTES = [
    ("/v1/audit/events", ["table_id", "since", "until", "format"], "auditor"),
    ("/v1/audit/hands", ["table_id", "date", "hand_no", "limit", "offset"], "auditor"),
    ("/v1/audit/hands/T1/1", ["format"], "auditor"),
    ("/v1/audit/verify", ["table_id"], "auditor"),
    (
        "/v1/audit/collections",
        ["table_id", "since", "until", "format", "day_start_hour"],
        "auditor",
    ),
    ("/v1/floor/calls", ["table_id", "limit", "cursor"], "floor"),
    ("/v1/rulings/options", ["rule_id"], "floor"),
    ("/v1/audit/tables", ["x"], "auditor"),
    ("/v1/floor/tables", ["x"], "floor"),
    ("/v1/audit/alerts", ["x"], "auditor"),
    ("/v1/audit/checkpoints", ["x"], "auditor"),
    ("/v1/tables/T1", ["x"], "admin"),
    ("/readyz", ["verbose"], None),
]
for path, params, who in QROUTES:
    for p in params:
        for v in QVALS:
            sep = "&" if "?" in path else "?"
            for w in (who, who + "@T1" if who else None):
                call("query", "GET", f"{path}{sep}{p}={v}", w)
        call("query", "GET", f"{path}{'&' if '?' in path else '?'}{p}=1&{p}=2", who)
    call("query", "GET", f"{path}?bogus=1", who)
for cur in [
    "abc",
    "zzzz",
    "0-0",
    "9" * 100,
    "-1:-1",
    "1:x",
    "1-2-3",
    "\u00e9\u00e9\u00e9",
    "%00%00%00",
    "T2:1",
    "0:T2",
    "xx:T2:1",
]:
    for w in ("floor", "floor@T1"):
        call("query", "GET", f"/v1/floor/calls?cursor={cur}", w)
# a real cursor from T2's page, replayed by a T1 token
pg = api.call("GET", "/v1/floor/calls?limit=1", "floor").get_json()
if pg.get("next"):
    call("query", "GET", f"/v1/floor/calls?limit=1&cursor={pg['next']}", "floor@T1")
    print("cursor sample", pg["next"])

# ---------- path parameters ----------
PVALS = [
    "T1%0A",
    "T1%00",
    "%ed%a0%80",
    "..",
    "%2e%2e",
    "T1%2FT2",
    "x" * 300,
    "T1 ",
    "%20T1",
    "T%C3%A9",
    "t1",
    "T1;T2",
    "T1%3F",
    "-1",
    "T1.",
    "_T1",
]
PROUTES = [
    ("GET", "/v1/tables/{p}", "admin"),
    ("GET", "/v1/tables/{p}/hands/1", "admin"),
    ("PUT", "/v1/tables/{p}/seats/1", "dealer"),
    ("GET", "/v1/audit/hands/{p}/1", "auditor"),
    ("GET", "/v1/audit/hands/{p}/1/replay", "auditor"),
    ("GET", "/v1/floor/calls/{p}", "floor"),
    ("GET", "/v1/audit/verifications/{p}", "auditor"),
    ("GET", "/v1/profiles/{p}", "floor"),
    ("POST", "/v1/tables/{p}/floor-calls", "dealer"),
    ("POST", "/v1/tables/{p}/rulings", "floor"),
]
for method, tmpl, who in PROUTES:
    for p in PVALS:
        for w in (who, who + "@T1"):
            call(
                "path",
                method,
                tmpl.format(p=p),
                w,
                {"player": "A", "stack": 1}
                if method == "PUT"
                else (
                    {"rule_id": "BET-01"}
                    if "floor-calls" in tmpl
                    else ({"decision": "custom", "effects": []} if "rulings" in tmpl else None)
                ),
            )
NUMS = ["-1", "0", "2147483648", str(10**30), "1.5", "abc", "01", "%31", "99"]
for tmpl, who in [
    ("/v1/tables/T1/hands/{n}", "admin"),
    ("/v1/audit/hands/T1/{n}", "auditor"),
    ("/v1/audit/hands/T1/{n}/replay", "auditor"),
]:
    for n in NUMS:
        call("path", "GET", tmpl.format(n=n), who)
for method in ("PUT", "DELETE"):
    for n in NUMS:
        call(
            "path",
            method,
            f"/v1/tables/T1/seats/{n}",
            "dealer",
            {"player": "A", "stack": 1} if method == "PUT" else None,
        )
for n in NUMS:
    call("path", "POST", f"/v1/tables/T1/seats/{n}/changes", "dealer", {"change": "sit_out"})
# wrong methods, unknown routes
for path in [
    "/v1/tables/T1",
    "/v1/audit/alerts",
    "/v1/floor/tables",
    "/v1/nope",
    "/v1/audit/hands/T1/1/replay/x",
]:
    for m in ("PATCH", "DELETE", "POST", "PUT", "GET"):
        call("method", m, path, "admin", {})

print("COUNTS", dict(counts), "total", sum(counts.values()))
seen = set()
for f in findings:
    key = (f[0], f[1], f[2], f[3][:60])
    if key in seen:
        continue
    seen.add(key)
    print(f)
print("findings", len(findings))

print("STATUS", sorted(hist.items()))
