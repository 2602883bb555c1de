"""Dealer soak: whole hands played like real dealers over HTTP on every shipped profile.

The script is the dealer (and the floor): for each profile it opens one table in count mode
and one in card mode, seats players, and plays ``--hands`` hands on each, one thread per
table. It shuffles a physical deck with a seeded ``random.Random``, deals it card by card,
burns and reshuffles (count mode: as the service's dealing instructions say; card mode: by
the house rules, then checks the instructions that come back), enters the cards in card
mode, and shows the real hands. Between hands players change seats, sit out and return,
bust and rebuy or leave, newcomers sit down; optional kills are named on start_hand. The
dealer exposes a card (IRREG-03) or deals one too many (IRREG-06) now and then. Mistakes are
interleaved: illegal amounts, out-of-turn seats, draws over the limit, four cards "with an
ace" while keeping none (card mode), cards already in play, stale ``If-Match``, replayed
``Idempotency-Key`` (same body and another body) and malformed bodies; some refusals are
called to the floor, who upholds them or lets an out-of-turn action bind (``accept_entry``),
and the floor also voids actions, declares misdeals and adjusts stacks now and then.

Checked as it goes: no 5xx; every 409 names a rule ID and leaves the table unchanged
(``If-None-Match`` of the version before answers 304); a 412 names the current version;
an idempotent replay answers the first answer again without a new version; chips are
conserved per table (stacks + carried pot = buy-ins + chips added + floor adjustments -
chips taken away by leaving players - the house's rake, jackpot drops and time charges);
the physical stub and burn pile match the service's
counts. At the end: ``/v1/audit/verify?table_id=`` of every table, once the worker has stored
it, is ok with exactly the events (the highest ``seq`` of the table) and finished hands the
script counted, and a sample of each table's hands exported as PHH replays under the table's
profile (``dealerassist.replay``) where the variant is F2L3D or N2L1D.

    .venv/bin/python bench/soak.py [--hands 50] [--seed 1] [--profiles a,b] [--modes count,card]
                                   [--url http://127.0.0.1:8000 --tokens tokens.toml]

Without ``--url`` it starts ``dealerassist serve`` (embedded Redis, SQLite, audit worker) in a
temporary data dir (``--keep DIR`` keeps it, with the PHH files), its per-token refusal limit
lifted (the soak's one dealer token makes mistakes at machine speed on every table; a server
given with ``--url`` needs ``DEALERASSIST_REFUSALS_PER_WINDOW`` as high). Exit status 1 on any
invariant failure; failures are summarised by kind, then printed with their request and
answer.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from api import free_port, stop  # bench/api.py: the same helpers as the API benchmark

from dealerassist.api.auth import read_plain_tokens
from dealerassist.profiles import get_profile
from dealerassist.replay import replay_file

REPO = Path(__file__).resolve().parents[1]
PROFILES_DIR = REPO / "config" / "house_rules"
RANKS = "23456789TJQKA"
SUITS = "cdhs"
BUY_IN = 400
PHH_VARIANTS = {"deuce_to_seven_triple_draw", "deuce_to_seven_single_draw"}


def house_take(state: dict[str, Any]) -> int:
    """The chips a finished hand left the table by the house rules: RAKE-01..03 the rake and
    the jackpot drop out of its pots, RAKE-05 a time charge collected from its seats."""
    result = state.get("result") or {}
    hand = state.get("hand") or {}
    taken = (result.get("rake") or 0) + (result.get("jackpot_drop") or 0)
    return int(taken) + int(hand.get("time_collected") or 0)


# -- HTTP -----------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any
    raw: bytes


@dataclass
class Stats:
    """What every table measured (merged under a lock)."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)  # by entry kind
    refused: Counter[str] = field(default_factory=Counter)  # by rule ID
    mistakes: Counter[str] = field(default_factory=Counter)
    rulings: Counter[str] = field(default_factory=Counter)
    hands: Counter[str] = field(default_factory=Counter)  # by profile/mode
    findings: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Http:
    """A keep-alive connection that times every request and remembers the last one."""

    def __init__(self, base: str, token: str, stats: Stats) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self.token = token
        self.stats = stats
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.last = ""

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        content_type: str = "application/json",
    ) -> Answer:
        sent = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        data = raw if raw is not None else (None if body is None else orjson.dumps(body))
        if data is not None:
            sent["Content-Type"] = content_type
        started = time.perf_counter()
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=data, headers=sent)
                response = self.connection.getresponse()
                payload = response.read()
                break
            except (http.client.HTTPException, ConnectionError, OSError):
                self.connection.close()
                if attempt:
                    raise
        self.latencies.append(time.perf_counter() - started)
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        answer_headers = {key.lower(): value for key, value in response.getheaders()}
        parsed: Any = None
        if payload and "json" in answer_headers.get("content-type", ""):
            parsed = orjson.loads(payload)
        self.statuses[response.status] += 1
        shown = data.decode(errors="replace") if data else ""
        self.last = (
            f"{method} {path} {json.dumps({k: v for k, v in sent.items() if k != 'Authorization'})}"
            f" {shown}\n  -> {response.status} {payload[:1500].decode(errors='replace')}"
        )
        return Answer(response.status, answer_headers, parsed, payload)


# -- the physical cards ---------------------------------------------------------------------


def deck_of(size: int) -> list[str]:
    ranks = {52: RANKS, 36: "6789TJQKA", 32: "789TJQKA"}[size]
    return [rank + suit for rank in ranks for suit in SUITS]


class Cards:
    """The dealer's hands on the cards: stub (top = end of the list), hands, discard piles by
    draw round, burns, muck. Burns and reshuffles follow the profile's draw rules."""

    def __init__(self, rng: random.Random, size: int, seats: list[int], draw: dict[str, Any]):
        self.rng = rng
        self.stub = deck_of(size)
        rng.shuffle(self.stub)
        self.draw = draw
        self.hands: dict[int, list[str]] = {seat: [] for seat in seats}
        self.piles: dict[int, list[list[str]]] = {seat: [] for seat in seats}
        self.burns: list[str] = []
        self.muck: list[str] = []
        self.round = 0
        self.burned = False
        self.last_receiver: int | None = None
        self.come_back: set[int] = set()
        self.declared: set[int] = set()
        self.folded: set[int] = set()
        self.spare_burn = False  # IRREG-06: the extra card stands for the first draw's burn
        for _ in range(5):  # one card at a time, left of the button first
            for seat in seats:
                self.hands[seat].append(self.stub.pop())

    def new_round(self, draw_round: int) -> None:
        self.round, self.burned, self.declared = draw_round, False, set()
        self.last_receiver = None
        for piles in self.piles.values():
            while len(piles) < draw_round:
                piles.append([])

    def fold(self, seat: int) -> None:
        self.folded.add(seat)
        self.muck.extend(self.hands[seat])
        self.hands[seat] = []

    def discard(self, seat: int, cards: list[str]) -> None:
        self.declared.add(seat)
        for card in cards:
            self.hands[seat].remove(card)
        self.piles[seat][self.round - 1].extend(cards)

    # DRAW-05/06 as the profile states them (docs/rules.md), independent of the engine
    def reserve(self, seat: int) -> int:
        rule = self.draw["bottom_card"]
        if rule == "normal_card":
            return 0
        if rule == "only_if_it_completes_all_draws":
            later = [
                s for s in self.hands if s not in self.folded and s != seat
                and s not in self.declared
            ]  # fmt: skip
            return 1 if later else 0
        return 1

    def in_pool(self, owner: int, pile_round: int, drawer: int, owed: set[int]) -> bool:
        pool = self.draw["reshuffle_pool"]
        if pool == "all_discards":
            return True
        if owner == drawer or owner in owed:  # never one's own, nor a seat still owed cards
            return False
        if pool == "previous_rounds_muck_burns":  # earlier draws (in the first: those served)
            first = self.round == 1 and bool(self.draw.get("reshuffle_first_draw_served"))
            return pile_round < self.round or first
        # the discards of those who drew earlier: a seat still to draw keeps its own out
        later = owner not in self.declared and owner not in self.folded
        return not (later and self.draw.get("reshuffle_keeps_out_later_drawers"))

    def muck_in_pool(self) -> bool:
        return bool(self.draw["reshuffle_pool"] != "earlier_discards_bottom_burns")

    def pool(self, drawer: int, owed: set[int]) -> dict[str, Any]:
        discards = {
            seat: sum(len(p) for r, p in enumerate(piles, 1) if self.in_pool(seat, r, drawer, owed))
            for seat, piles in self.piles.items()
        }
        return {
            "stub": len(self.stub),
            "burns": len(self.burns),
            "muck": len(self.muck) if self.muck_in_pool() else 0,
            "discards": {str(s): n for s, n in discards.items() if n},
        }

    def pool_size(self, drawer: int, owed: set[int]) -> int:
        shape = self.pool(drawer, owed)
        return int(shape["burns"] + shape["muck"] + sum(shape["discards"].values()))

    def reshuffle(self, drawer: int, owed: set[int]) -> dict[str, Any]:
        shape = self.pool(drawer, owed)
        new = self.stub + self.burns
        self.burns = []
        if self.muck_in_pool():
            new += self.muck
            self.muck = []
        for seat, piles in self.piles.items():
            for index, pile in enumerate(piles, 1):
                if self.in_pool(seat, index, drawer, owed):
                    new += pile
                    piles[index - 1] = []
        self.rng.shuffle(new)
        self.stub = new
        return shape

    def burn(self) -> None:
        self.burns.append(self.stub.pop())
        self.burned = True

    def give(self, seat: int, count: int) -> list[str]:
        cards = [self.stub.pop() for _ in range(count)]
        self.hands[seat].extend(cards)
        if count:
            self.last_receiver = seat
        return cards

    def serve(
        self, seat: int, count: int, owed: set[int]
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Card mode: deal ``count`` cards to ``seat`` as the house rules say; the cards and
        the dealing script (code, seat, count) the dealer followed."""
        steps: list[tuple[Any, ...]] = []
        if seat in self.come_back and self.last_receiver == seat:
            self.burned = False  # a fifth card right after its own four: burn first
        if count and self.draw["burn_before"] and not self.burned and self.spare_burn:
            self.burned, self.spare_burn = True, False
        if count and self.draw["burn_before"] and not self.burned:
            short = len(self.stub) - self.reserve(seat) < 2
            if (short and self.pool_size(seat, owed) > 0) or not self.stub:
                steps.append(("stop", seat, len(self.stub)))
                steps.append(("reshuffle", seat, self.reshuffle(seat, owed)))
            self.burn()
            steps.append(("burn", None, 1))
        available = max(0, len(self.stub) - self.reserve(seat))
        first = min(count, available)
        cards = self.give(seat, first)
        if first:
            steps.append(("deal", seat, first))
        if count - first:
            steps.append(("stop", seat, len(self.stub)))
            steps.append(("reshuffle", seat, self.reshuffle(seat, owed)))
            cards += self.give(seat, count - first)
            steps.append(("deal", seat, count - first))
        return cards, steps

    def in_play(self, seat: int) -> list[str]:
        return [card for other, held in self.hands.items() if other != seat for card in held]


# -- one table ------------------------------------------------------------------------------


class Failure(Exception):
    pass


class TableSoak:
    """One table: seats, hands, mistakes, floor calls; every invariant checked on the way."""

    def __init__(
        self, soak: Soak, profile: dict[str, Any], mode: str, seed: int, hands: int
    ) -> None:
        self.soak, self.profile, self.mode = soak, profile, mode
        self.pid = profile["profile_id"]
        self.rng = random.Random(f"{seed}:{self.pid}:{mode}")
        short = "".join(word[0] for word in self.pid.replace("-", " ").split())
        self.table_id = f"S{seed}-{short}-{mode}-{uuid.uuid4().hex[:4]}"
        self.hands_wanted = hands
        stats = soak.stats
        self.dealer = Http(soak.base, soak.tokens["dealer"], stats)
        self.floor = Http(soak.base, soak.tokens["floor"], stats)
        self.admin = Http(soak.base, soak.tokens["admin"], stats)
        self.local = Stats()
        self.state: dict[str, Any] = {}
        self.expected_chips = 0
        self.seqs: set[int] = set()
        self.max_seq = 0
        self.cards: Cards | None = None
        self.card_hand_no: int | None = None
        self.hands_done = 0
        self.finished_hands: list[int] = []  # hand numbers with a result (incl. misdeals)
        self.ruled_hands: set[int] = set()
        self.player_no = itertools.count(1)
        self.key_no = itertools.count(1)
        self.last_accepted: tuple[Http, str, str, Any, str, Answer] | None = None
        self.max_seats = min(6, int(profile["table"]["max_players"]))
        self.deck_known = True
        self.last_refused = ""
        self.last_kind = ""

    # -- plumbing --

    def fail(self, why: str, client: Http | None = None) -> None:
        text = f"[{self.table_id}] {why}"
        if client is not None:
            text += "\n  " + client.last
        self.local.failures.append(text)
        raise Failure(text)

    def finding(self, kind: str, detail: str) -> None:
        self.local.findings[kind] += 1
        if self.local.findings[kind] <= 3:
            print(f"finding {kind} [{self.table_id}]: {detail}", flush=True)

    def note_event(self, answer: Answer, client: Http) -> None:
        event = (answer.body or {}).get("event") if isinstance(answer.body, dict) else None
        if event is None and isinstance(answer.body, dict) and "audit_seq" in answer.body:
            event = {"seq": answer.body["audit_seq"]}
        if event is None:
            self.fail("a change answered without its audit event", client)
        seq = int(event["seq"])
        if seq in self.seqs:
            self.fail(f"audit seq {seq} given twice", client)
        self.seqs.add(seq)
        self.max_seq = max(self.max_seq, seq)

    def check_status(self, answer: Answer, client: Http) -> None:
        if answer.status >= 500:
            self.fail(f"{answer.status} from the service", client)

    def version(self) -> int:
        return int(self.state["version"])

    def etag(self) -> str:
        return f'"v{self.version()}"'

    def unchanged(self, client: Http) -> None:
        """The table is still at the version we hold (If-None-Match answers 304)."""
        answer = self.dealer.call(
            "GET", f"/v1/tables/{self.table_id}", headers={"If-None-Match": self.etag()}
        )
        self.check_status(answer, self.dealer)
        if answer.status != 304:
            self.fail(f"a refused entry changed the table (GET answered {answer.status})", client)

    def reload(self) -> None:
        answer = self.dealer.call("GET", f"/v1/tables/{self.table_id}")
        if answer.status != 200:
            self.fail("GET table failed", self.dealer)
        self.state = answer.body

    def change(
        self,
        client: Http,
        method: str,
        path: str,
        body: Any,
        kind: str,
        expect_ok: bool = False,
        if_match: bool = True,
    ) -> Answer:
        """One table change with If-Match and a fresh Idempotency-Key; a 409 is checked
        (rule ID, table unchanged) and counted; a 200 becomes the table we hold."""
        key = f"{self.table_id}-{next(self.key_no)}"
        headers = {"Idempotency-Key": key}
        if if_match and self.state:
            headers["If-Match"] = self.etag()
        answer = client.call(method, f"/v1/tables/{self.table_id}{path}", body, headers)
        self.check_status(answer, client)
        if answer.status in (200, 201) and isinstance(answer.body, dict):
            self.note_event(answer, client)
            if "version" in answer.body and "seats" in answer.body:
                if self.state and answer.body["version"] != self.version() + 1:
                    self.fail("an accepted change did not add exactly one version", client)
                self.state = answer.body
                self.last_accepted = (
                    client,
                    method,
                    f"/v1/tables/{self.table_id}{path}",
                    body,
                    key,
                    answer,
                )
            self.local.accepted[kind] += 1
            return answer
        if answer.status == 409:
            self.last_refused = client.last
            self.refusal(answer, client)
            if expect_ok:
                self.fail(f"{kind} refused", client)
            return answer
        self.fail(f"{kind}: unexpected {answer.status}", client)
        return answer

    def refusal(self, answer: Answer, client: Http) -> None:
        body = answer.body or {}
        rule = body.get("rule_id")
        if not rule:
            self.fail("a 409 without a rule ID", client)
        self.local.refused[rule] += 1
        if body.get("event"):
            self.note_event(answer, client)
        if body.get("version") not in (None, self.version()):
            self.fail("a refusal names another version than the table's", client)
        self.unchanged(client)

    # -- setup and seats --

    def create(self) -> None:
        game = self.profile["game"]
        structure = game["structure"]
        stakes: dict[str, int]
        if game["forced_bets"] == "antes":
            stakes = {"ante": 2, "small_bet": 10, "big_bet": 20}
        elif structure == "fixed_limit":
            stakes = {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20}
        else:
            stakes = {"small_blind": 5, "big_blind": 10}
        body = {
            "table_id": self.table_id, "variant": game["variant"], "structure": structure,
            "stakes": stakes, "profile": self.pid, "max_seats": self.max_seats, "mode": self.mode,
        }  # fmt: skip
        answer = self.admin.call("POST", "/v1/tables", body)
        if answer.status != 201:
            self.fail("create table", self.admin)
        self.note_event(answer, self.admin)
        self.state = answer.body
        for seat in range(1, self.rng.randint(3, self.max_seats) + 1):
            self.sit(seat)

    def sit(self, seat: int) -> None:
        stack = self.rng.choice([BUY_IN, BUY_IN // 2, BUY_IN * 2, 120])
        body = {"player": f"P{next(self.player_no)}", "stack": stack}
        answer = self.change(self.dealer, "PUT", f"/seats/{seat}", body, "seat")
        if answer.status == 200:
            self.expected_chips += stack

    def seat(self, number: int) -> dict[str, Any]:
        return next(s for s in self.state["seats"] if s["seat"] == number)

    def seat_change(self, seat: int, body: dict[str, Any]) -> Answer:
        answer = self.change(self.dealer, "POST", f"/seats/{seat}/changes", body, body["change"])
        if answer.status == 200 and body["change"] == "add_chips":
            self.expected_chips += body["chips"]
        return answer

    def leave(self, seat: int) -> None:
        stack = self.seat(seat)["stack"]
        answer = self.change(self.dealer, "DELETE", f"/seats/{seat}", None, "leave")
        if answer.status == 200:
            self.expected_chips -= stack

    def between_hands(self) -> None:
        rng = self.rng
        seats = self.state["seats"]
        for s in seats:
            if s["status"] != "empty" and s["stack"] == 0:  # busted: rebuy or leave
                if rng.random() < 0.6:
                    self.seat_change(s["seat"], {"change": "add_chips", "chips": BUY_IN})
                else:
                    self.leave(s["seat"])
        for s in list(self.state["seats"]):
            number, status = s["seat"], s["status"]
            roll = rng.random()
            if status == "sitting_out" and roll < 0.4:
                self.seat_change(number, {"change": "return", "wait": rng.random() < 0.4})
            elif status == "active" and roll < 0.04:
                self.seat_change(number, {"change": "sit_out"})
            elif status == "active" and roll < 0.06:
                empty = [e["seat"] for e in self.state["seats"] if e["status"] == "empty"]
                if empty:
                    self.seat_change(number, {"change": "change_seat", "to": rng.choice(empty)})
            elif status == "active" and roll < 0.08 and s["stack"] < BUY_IN:
                self.seat_change(number, {"change": "add_chips", "chips": rng.randint(1, 200)})
            elif status != "empty" and roll < 0.10:
                self.leave(number)
        empty = [e["seat"] for e in self.state["seats"] if e["status"] == "empty"]
        if empty and rng.random() < 0.15:
            self.sit(rng.choice(empty))
        if rng.random() < 0.02:
            self.floor_adjust()
        playing = [s for s in self.state["seats"] if s["status"] == "active" and s["stack"] > 0]
        tried: set[tuple[str, int]] = set()
        for _ in range(8):  # keep a game going; each seat and remedy is tried once
            playing = [s for s in self.state["seats"] if s["status"] == "active" and s["stack"] > 0]
            if len(playing) >= 3:
                break
            remedies = [("return", e["seat"]) for e in self.state["seats"]
                        if e["status"] == "sitting_out"]  # fmt: skip
            remedies += [("sit", e["seat"]) for e in self.state["seats"] if e["status"] == "empty"]
            remedies += [("add_chips", e["seat"]) for e in self.state["seats"]
                         if e["status"] != "empty" and e["stack"] == 0]  # fmt: skip
            remedy = next((r for r in remedies if r not in tried), None)
            if remedy is None:
                break
            tried.add(remedy)
            kind, number = remedy
            if kind == "return":
                self.seat_change(number, {"change": "return", "wait": False})
            elif kind == "sit":
                self.sit(number)
            else:
                self.seat_change(number, {"change": "add_chips", "chips": BUY_IN})

    def conserve(self, where: str) -> None:
        """Stacks and the carried pot hold every chip bought in, added or adjusted, less what
        leaving players took and what the house took out of finished pots (``house_take``)."""
        stacks = sum(s["stack"] for s in self.state["seats"])
        total = stacks + int(self.state.get("carried_pot") or 0)
        if total != self.expected_chips:
            self.fail(
                f"chips not conserved {where}: stacks {stacks} + carried pot "
                f"{self.state.get('carried_pot')} = {total}, expected {self.expected_chips}"
            )

    # -- the floor --

    def options(self, rule: str | None) -> list[dict[str, Any]]:
        query = f"?rule_id={rule}" if rule else ""
        answer = self.floor.call("GET", f"/v1/rulings/options{query}")
        self.check_status(answer, self.floor)
        if answer.status != 200:
            self.fail("ruling options", self.floor)
        return list(answer.body["options"])

    def rule(self, body: dict[str, Any], kind: str) -> Answer:
        answer = self.change(self.floor, "POST", "/rulings", body, "ruling")
        if answer.status == 200:
            # an out-of-turn entry the floor lets bind (accept_entry) is a betting action: no
            # IRREG-03/06 deal irregularity after a ruling (they are the deal's, IRREG-06)
            self.last_kind = "ruling"
            self.local.rulings[kind] += 1
            hand = self.state.get("hand")
            if hand:
                self.ruled_hands.add(int(hand["hand_no"]))
            if kind != "misdeal":
                self.after_accepted({})
        else:
            self.local.rulings[f"{kind} refused {(answer.body or {}).get('rule_id')}"] += 1
        return answer

    def call_floor(self, entry: dict[str, Any], rule: str) -> None:
        """The dealer calls the floor about a refused entry; the floor upholds the refusal
        (the standard ruling every rule offers)."""
        answer = self.dealer.call(
            "POST", f"/v1/tables/{self.table_id}/floor-calls", {"entry": entry}
        )
        self.check_status(answer, self.dealer)
        if answer.status != 201:
            self.fail("floor call", self.dealer)
        self.note_event(answer, self.dealer)
        self.unchanged(self.dealer)
        choices = {option["decision"] for option in self.options(rule)}
        call_id = answer.body["call_id"]
        binds = rule in ("OPEN-01", "BET-08") and entry["action"] in ("check", "call", "fold")
        if binds and "accept_entry" in choices and self.rng.random() < 0.5:
            effect = {"effect": "accept_entry", "entry": entry, "waive": rule}
            body = {"decision": "accept_entry", "rule_id": rule, "call_id": call_id,
                    "note": "soak: the player acted out of turn; the action binds",
                    "effects": [effect]}  # fmt: skip
            accepted = self.rule(body, "accept_entry").status == 200
            if accepted and entry["action"] == "fold":
                self.physical().fold(entry["seat"])
            return
        decision = "uphold" if "uphold" in choices else "custom"
        body = {"decision": decision, "rule_id": rule, "call_id": call_id,
                "note": "soak: the refusal stands"}  # fmt: skip
        if decision == "custom":
            body["effects"] = []
        self.rule(body, decision)

    def floor_void(self) -> Answer:
        body = {"decision": "custom", "rule_id": None, "note": "soak: misentry, void it",
                "effects": [{"effect": "void_last", "count": 1}]}  # fmt: skip
        return self.rule(body, "void_last")

    def floor_misdeal(self, fouled: bool = False) -> None:
        """IRREG-01 misdeal (refused past the house deadline, IRREG-02); ``fouled``: the
        deck is fouled (DECK-01), which voids the hand at any time."""
        rule = "DECK-01" if fouled else "IRREG-01"
        options = self.options(rule)
        misdeal = next((o for o in options if o["effects"] == ["misdeal"]), None)
        if misdeal is None:
            self.fail(f"{rule} offers no misdeal: {options}")
        body = {"decision": misdeal["decision"], "rule_id": rule,
                "note": "soak: two cards exposed", "effects": [{"effect": "misdeal"}]}  # fmt: skip
        answer = self.rule(body, "misdeal")
        if answer.status == 200:
            self.cards = None
            self.after_accepted({})

    def floor_adjust(self) -> None:
        seated = [s for s in self.state["seats"] if s["status"] != "empty"]
        if not seated:
            return
        target = self.rng.choice(seated)
        amount = self.rng.choice([-1, 1]) * self.rng.randint(1, 25)
        amount = max(amount, -target["stack"]) or 1
        body = {"decision": "custom", "rule_id": None, "note": "soak: chip count corrected",
                "effects": [{"effect": "adjust_stack", "seat": target["seat"],
                             "amount": amount}]}  # fmt: skip
        self.expected_chips += amount  # before the ruling: its answer's chips are checked
        if self.rule(body, "adjust_stack").status != 200:
            self.expected_chips -= amount

    def floor_mid_hand(self, hand: dict[str, Any]) -> None:
        """During a betting round the floor kills a live hand (IRREG-13: its chips stay in
        the pot) while three or more are live, or corrects a dealt seat's chips (GAME-06:
        chips added wait beside the stack until the hand ends)."""
        self.last_kind = "ruling"  # the deal is over: no IRREG-03 exposed card after it
        live = [p for p in hand["players"] if not p["folded"]]
        if len(live) >= 3 and self.rng.random() < 0.5:
            seat = self.rng.choice(live)["seat"]
            dead = next(o for o in self.options("IRREG-13") if o["effects"] == ["kill_hand"])
            body = {"decision": dead["decision"], "rule_id": "IRREG-13",
                    "note": "soak: the hand touched the muck",
                    "effects": [{"effect": "kill_hand", "seat": seat}]}  # fmt: skip
            if self.rule(body, "kill_hand").status == 200:
                self.physical().fold(seat)
            return
        player = self.rng.choice(hand["players"])
        amount = self.rng.choice([-1, 1]) * self.rng.randint(1, 25)
        if amount < 0 and -amount > player["stack"]:
            amount = -amount
        body = {"decision": "custom", "rule_id": None, "note": "soak: chips miscounted",
                "effects": [{"effect": "adjust_stack", "seat": player["seat"],
                             "amount": amount}]}  # fmt: skip
        self.expected_chips += amount
        if self.rule(body, "adjust_stack in the hand").status != 200:
            self.expected_chips -= amount

    def floor_award(self, hand: dict[str, Any]) -> None:
        """At the showdown the floor holds the pot (SHOW-11), then releases it and awards it
        (SHOW-07): to one live seat, or, when that seat may not win every pot (it is all in
        for less), each pot to the first seat eligible for it, as the refusal lists them."""
        hold = {"decision": "hold", "rule_id": "SHOW-11", "note": "soak: surveillance looks",
                "effects": [{"effect": "hold_pot"}]}  # fmt: skip
        if self.rule(hold, "hold_pot").status != 200:
            return
        seat = self.rng.choice([p for p in hand["players"] if not p["folded"]])["seat"]
        award: dict[str, Any] = {"effect": "award", "seats": [seat]}
        body = {"decision": "custom", "rule_id": None, "note": "soak: surveillance: award",
                "effects": [{"effect": "release_pot"}, award]}  # fmt: skip
        answer = self.rule(body, "award")
        if answer.status == 409 and answer.body.get("rule_id") == "SHOW-07":
            award.pop("seats")
            award["pots"] = [[pot["eligible"][0]] for pot in answer.body.get("allowed") or ()]
            answer = self.rule(body, "award pot by pot")
        if answer.status != 200:
            self.fail(f"the floor could not award the held pot: {answer.body}")

    # -- mistakes --

    def mistake(self, legal: list[dict[str, Any]], seat: int) -> None:
        """One wrong entry (or a protocol mistake); the table must not change."""
        hand = self.state["hand"]
        names = {option["action"]: option for option in legal}
        others = [
            p["seat"] for p in hand["players"]
            if p["seat"] != seat and not p["folded"] and not p["all_in"]
        ]  # fmt: skip
        choices = ["stale", "malformed", "replay"]
        if others:
            choices.append("out_of_turn")
        if "raise" in names or "bet" in names:
            choices.append("amount")
        if "draw" in names and names["draw"]["max"] < 5:
            choices.append("over_draw")
        if self.mode == "card" and self.cards and "deal" in names:
            choices.append("card_in_play")
        if self.mode == "card" and self.cards and names.get("draw", {}).get("max_with_ace_shown"):
            choices.append("ace_not_kept")
        kind = self.rng.choice(choices)
        self.local.mistakes[kind] += 1
        entry: dict[str, Any] | None = None
        if kind == "out_of_turn":
            act = "check" if "check" in names else ("call" if "call" in names else "fold")
            entry = {"seat": self.rng.choice(others), "action": act}
        elif kind == "amount":
            option = names.get("raise") or names["bet"]
            entry = {"seat": seat, "action": option["action"], "amount": option["max"] + 1}
            if self.rng.random() < 0.5 and option["min"] > 1:
                entry["amount"] = option["min"] - 1
        elif kind == "over_draw":
            entry = {"seat": seat, "action": "draw", "count": names["draw"]["max"] + 1}
            if self.mode == "card":
                assert self.cards is not None
                discards = " ".join(self.cards.hands[seat][: entry["count"]])
                entry = {"seat": seat, "action": "draw", "discards": discards}
                if len(self.cards.hands[seat]) < names["draw"]["max"] + 1:
                    return
        elif kind == "card_in_play":
            assert self.cards is not None
            known = {p["seat"] for p in self.state["hand"]["players"] if p["held"] >= 5}
            taken = [c for s in known - {seat} for c in self.cards.hands.get(s, [])]
            if not taken:
                return
            count = names["deal"]["count"]
            wrong = [self.rng.choice(taken), *self.cards.stub[: count - 1]]
            entry = {"seat": seat, "action": "deal", "cards": " ".join(wrong)}
        elif kind == "ace_not_kept":  # DRAW-02: four "with an ace" while keeping no ace
            assert self.cards is not None
            held = self.cards.hands[seat]
            keep = next((card for card in held if card[0] != "A"), None)
            if keep is None or len(held) != 5:
                return
            discards = " ".join(card for card in held if card != keep)
            entry = {"seat": seat, "action": "draw", "discards": discards, "ace_shown": True}
        elif kind == "stale":
            self.stale(seat, names)
            return
        elif kind == "malformed":
            self.malformed(seat)
            return
        else:
            self.replay()
            return
        answer = self.change(self.dealer, "POST", "/actions", entry, "mistake")
        if answer.status == 200:  # a service bug: report it, the floor voids it, play goes on
            self.local.failures.append(
                f"[{self.table_id}] a wrong entry ({kind}) was accepted:\n  {self.dealer.last}"
            )
            self.finding(f"wrong entry accepted: {kind}", str(entry))
            if self.floor_void().status != 200:
                self.fail("the floor could not void the wrongly accepted entry", self.floor)
            return
        if self.rng.random() < 0.3:
            self.call_floor(entry, answer.body["rule_id"])

    def stale(self, seat: int, names: dict[str, Any]) -> None:
        entry = {"seat": seat, "action": "fold"}
        stale = f'"v{self.version() - self.rng.randint(1, 3)}"'
        answer = self.dealer.call(
            "POST", f"/v1/tables/{self.table_id}/actions", entry,
            {"If-Match": stale, "Idempotency-Key": f"{self.table_id}-{next(self.key_no)}"},
        )  # fmt: skip
        self.check_status(answer, self.dealer)
        if answer.status != 412 or (answer.body or {}).get("current_version") != self.version():
            self.fail("a stale If-Match was not a 412 naming the current version", self.dealer)
        self.unchanged(self.dealer)

    def malformed(self, seat: int) -> None:
        path = f"/v1/tables/{self.table_id}/actions"
        cases: list[tuple[bytes, str, int]] = [
            (b'{"seat": 1, "action": "call"', "application/json", 400),
            (orjson.dumps({"seat": str(seat), "action": "call"}), "application/json", 400),
            (orjson.dumps({"seat": seat, "action": "call", "chips": 5}), "application/json", 400),
            (orjson.dumps({"seat": seat, "action": "jump"}), "application/json", 400),
            (orjson.dumps({"seat": seat, "action": "bet", "amount": -5}), "application/json", 400),
            (orjson.dumps({"seat": seat, "action": "call"}), "text/plain", 415),
            (orjson.dumps([seat, "call"]), "application/json", 400),
        ]
        raw, content_type, status = self.rng.choice(cases)
        key = f"{self.table_id}-{next(self.key_no)}"
        headers = {"If-Match": self.etag(), "Idempotency-Key": key}
        answer = self.dealer.call("POST", path, raw=raw, content_type=content_type, headers=headers)
        self.check_status(answer, self.dealer)
        problem = answer.headers.get("content-type", "")
        if answer.status != status or "problem+json" not in problem:
            self.fail(f"malformed body: expected {status} problem+json", self.dealer)
        self.unchanged(self.dealer)

    def replay(self) -> None:
        """The tablet sends its last accepted change again (same key, same body): the first
        answer comes back, nothing is applied; with another body: 422."""
        if self.last_accepted is None:
            return
        client, method, path, body, key, first = self.last_accepted
        answer = client.call(method, path, body, {"Idempotency-Key": key})
        self.check_status(answer, client)
        if answer.status != first.status or answer.headers.get("idempotent-replayed") != "true":
            self.fail("a replayed Idempotency-Key did not answer the first answer", client)
        if (answer.body or {}).get("version") != (first.body or {}).get("version"):
            self.fail("a replay answered another version", client)
        self.unchanged(client)
        other = dict(body or {}, seat=((body or {}).get("seat", 1) % 6) + 1)
        answer = client.call(method, path, other, {"Idempotency-Key": key})
        self.check_status(answer, client)
        if answer.status not in (422, 400, 405):
            self.fail("the same Idempotency-Key with another body was not 422", client)
        self.unchanged(client)

    # -- playing a hand --

    def start_hand(self) -> bool:
        body: dict[str, Any] = {}
        if self.state.get("button") is None:
            active = [s["seat"] for s in self.state["seats"] if s["status"] == "active"]
            body["button"] = active[0]
        if self.profile.get("kill", {}).get("mode") == "optional" and self.rng.random() < 0.1:
            rich = [
                s["seat"] for s in self.state["seats"]
                if s["status"] == "active" and s["stack"] >= 40
            ]  # fmt: skip
            if rich:
                body["kill_seat"] = self.rng.choice(rich)
        answer = self.change(self.dealer, "POST", "/hands", body, "start_hand")
        if answer.status == 409 and "kill_seat" in body:
            del body["kill_seat"]
            answer = self.change(self.dealer, "POST", "/hands", body, "start_hand")
        return answer.status == 200

    def physical(self) -> Cards:
        """The cards of this hand, dealt once the posts are in. A hand folded or killed
        mid-hand (an out-of-turn fold that binds, the floor's IRREG-13) is mucked in this
        hand's cards, made here if need be: in count mode no entry may have made them yet
        (the floor kills a hand before the first bet), and the last hand's cards have no
        hand for a seat dealt in since (it came back, or sat down)."""
        hand = self.state["hand"]
        if self.cards is None or self.card_hand_no != hand["hand_no"]:
            seats = [p["seat"] for p in hand["players"]]
            self.cards = Cards(self.rng, int(hand["deck"]), seats, self.profile["draw"])
            self.card_hand_no = hand["hand_no"]
            self.deck_known = True
        return self.cards

    def play_hand(self) -> None:
        for _ in range(600):
            hand = self.state.get("hand")
            if hand is None or hand["phase"] == "complete" or self.state.get("result"):
                return
            nxt = self.state.get("next")
            if not nxt or not nxt.get("legal"):
                self.fail(f"the hand waits with nothing legal: next={nxt}")
            if nxt["phase"] not in ("posting",) and self.rng.random() < 0.07:
                self.mistake(nxt["legal"], nxt["seat"])
                continue
            if nxt["phase"] not in ("posting", "deal") and self.rng.random() < 0.004:
                self.floor_misdeal()
                continue
            if nxt["phase"].startswith("betting") and self.rng.random() < 0.006:
                self.floor_mid_hand(hand)  # a hand killed or a stack corrected, play goes on
                continue
            if nxt["phase"] == "showdown" and self.rng.random() < 0.05:
                self.floor_award(hand)  # the pot held, then awarded by the floor
                continue
            fresh = nxt["phase"] == "betting_1" and self.last_kind in ("post", "deal")
            if fresh and self.rng.random() < 0.06:
                self.irregular_deal(hand)
                continue
            self.entry(nxt)
        self.fail("a hand did not end in 600 entries")

    def entry(self, nxt: dict[str, Any]) -> None:
        seat, phase = nxt["seat"], nxt["phase"]
        names = {option["action"]: option for option in nxt["legal"]}
        if "post" in names:
            body = {"seat": seat, "action": "post"}
            if "sit_out" in names and self.rng.random() < 0.03:
                body = {"seat": seat, "action": "sit_out"}
            self.act(body)
            return
        cards = self.physical()
        if phase == "deal" or (phase.startswith("draw") and "deal" in names):
            self.deal(seat, names["deal"]["count"], phase)
            return
        if "draw" in names:
            self.declare(seat, names["draw"], phase)
            return
        if "show" in names or "muck" in names:
            held = cards.hands.get(seat, [])
            if "muck" in names and self.rng.random() < 0.5:
                self.act({"seat": seat, "action": "muck"})
            else:
                self.act({"seat": seat, "action": "show", "cards": " ".join(held)})
            return
        self.bet(seat, names)

    def irregular_deal(self, hand: dict[str, Any]) -> None:
        """IRREG-03 (a card exposed by the dealer on the deal: keep or replace as the house
        says) or IRREG-06 (one card too many to a seat: it becomes the first draw's burn),
        entered before the first betting action; sometimes a second exposed card, which is a
        misdeal the floor declares (IRREG-01)."""
        cards = self.physical()
        live = [p["seat"] for p in hand["players"] if not p["folded"]]
        seat = self.rng.choice(live)
        if self.rng.random() < 0.4:  # IRREG-06: the extra card is the next one off the stub
            body: dict[str, Any] = {"seat": seat, "action": "extra_card"}
            extra = cards.stub[-1]
            if self.mode == "card":
                body["cards"] = extra
            if self.act(body).status == 200:
                cards.burns.append(cards.stub.pop())
                cards.spare_burn = True
            return
        card = self.rng.choice(cards.hands[seat])
        body = {"seat": seat, "action": "exposed"}
        body.update({"cards": card} if self.mode == "card" else {"rank": card[0]})
        answer = self.act(body)
        if answer.status != 200:
            return
        codes = [i["code"] for i in answer.body.get("instructions") or [] if i["seat"] == seat]
        not_entered: list[str] = []  # the replacement, not yet entered (the service asks: deal)
        if "replace" in codes:
            cards.hands[seat].remove(card)
            cards.burns.append(card)
            not_entered = cards.give(seat, 1)
            # IRREG-03 exposed_is_first_burn (RRoP lowball 3, WSOP 283): the replaced card in
            # the burn pile stands for the first draw's burn, as IRREG-06's extra card does
            if self.profile.get("irregularities", {}).get("exposed_is_first_burn"):
                cards.spare_burn = True
        if self.rng.random() < 0.15:  # a second exposed card: the floor calls a misdeal
            other = self.rng.choice(live)
            # card mode: one of the cards entered for that seat, which the service checks it
            # against (IRREG-03); a replacement is entered only once the service asks for it
            pending = not_entered if other == seat and self.mode == "card" else []
            entered = [c for c in cards.hands[other] if c not in pending]
            shown = self.rng.choice(entered)
            body = {"seat": other, "action": "exposed"}
            body.update({"cards": shown} if self.mode == "card" else {"rank": shown[0]})
            notices = [n["rule_id"] for n in (self.act(body).body or {}).get("notices") or []]
            if "IRREG-01" not in notices:
                self.finding("no IRREG-01 notice on a second exposed card", str(body))
            if not self.state.get("result"):
                self.floor_misdeal()

    def act(self, body: dict[str, Any]) -> Answer:
        before = self.state.get("hand") or {}
        self.last_kind = body["action"]
        answer = self.change(self.dealer, "POST", "/actions", body, body["action"])
        if answer.status != 200:
            if body["action"] in ("deal", "show") or (
                body["action"] == "draw" and self.mode == "card"
            ):
                self.finding(
                    f"card entry refused {answer.body.get('rule_id')}",
                    f"{body} -> {answer.body.get('detail')}",
                )
            self.recover(body, answer)
            return answer
        if body["action"] == "fold" and self.cards is not None:
            self.cards.fold(body["seat"])
        self.after_accepted(before)
        return answer

    def after_accepted(self, before: dict[str, Any]) -> None:
        """Once per hand, when it has ended (by play or by a ruling): count it, check chips."""
        hand = self.state.get("hand")
        if not hand or not (self.state.get("result") or hand["phase"] == "complete"):
            return
        number = int(hand["hand_no"])
        if number in self.finished_hands:
            return
        self.hands_done += 1
        self.finished_hands.append(number)
        self.expected_chips -= house_take(self.state)
        self.conserve(f"after hand {number}")

    def check_stub(self) -> None:
        """The physical stub and burn pile hold what the service counts."""
        hand = self.state.get("hand")
        if not hand or self.state.get("result") or hand["phase"] == "complete":
            return
        if self.cards is None or not self.deck_known or hand["phase"] == "betting_1":
            return
        if hand["phase"].startswith(("draw", "betting")) and (
            len(self.cards.stub) != hand["stub"] or len(self.cards.burns) != hand["burns"]
        ):
            self.deck_known = False
            self.finding(
                "stub count differs",
                f"physical stub {len(self.cards.stub)} burns {len(self.cards.burns)}, "
                f"service stub {hand['stub']} burns {hand['burns']} in {hand['phase']}",
            )

    def recover(self, body: dict[str, Any], answer: Answer) -> None:
        """A refused entry the dealer believed right: call the floor; a misdeal ends it."""
        rule = answer.body.get("rule_id")
        self.local.failures.append(
            f"[{self.table_id}] refused a dealer entry the script believed legal ({rule}):\n  "
            + self.last_refused
        )
        self.floor_misdeal(fouled=True)
        if self.cards is not None or (self.state.get("hand") or {}).get("phase") != "complete":
            self.fail("could not recover from a refused entry")

    def bet(self, seat: int, names: dict[str, Any]) -> None:
        rng = self.rng
        roll = rng.random()
        body: dict[str, Any]
        if "chop" in names and roll < 0.5:  # SHOW-08: folded to the blinds, and they agree
            body = {"seat": seat, "action": "chop"}
        elif "fold" in names and "check" not in names and roll < 0.18:
            body = {"seat": seat, "action": "fold"}
        elif ("bet" in names or "raise" in names) and roll > 0.75:
            option = names.get("raise") or names["bet"]
            if option["action"] == "bet" and not self.may_open(seat):
                option = {"action": "check"} if "check" in names else {"action": "fold"}
                self.act({"seat": seat, "action": option["action"]})
                return
            low, high = int(option["min"]), int(option["max"])
            amount = high if rng.random() < 0.2 else rng.randint(low, min(high, low * 3))
            body = {"seat": seat, "action": option["action"], "amount": amount}
        elif "check" in names:
            body = {"seat": seat, "action": "check"}
        elif "call" in names:
            body = {"seat": seat, "action": "call"}
        else:
            body = {"seat": seat, "action": "fold"}
        answer = self.act(body)
        betting = body["action"] in ("check", "call", "bet", "raise")
        going = answer.status == 200 and not self.state.get("result")
        if going and betting and rng.random() < 0.01:
            self.floor_void()

    def may_open(self, seat: int) -> bool:
        """Jacks or better to open (home game): players open only with openers."""
        hand = self.state["hand"]
        if self.profile["open"]["requirement"] != "jacks_or_better" or hand["phase"] != "betting_1":
            return True
        if hand.get("opener") is not None or hand["current_bet"]:
            return True
        return has_openers(self.physical().hands[seat])

    def declare(self, seat: int, option: dict[str, Any], phase: str) -> None:
        cards = self.physical()
        draw_round = int(phase.split("_")[1])
        if cards.round != draw_round:
            cards.new_round(draw_round)
        held = list(cards.hands[seat])
        limit = int(option["max"])
        ace = False
        has_ace = any(c[0] == "A" for c in held)
        if option.get("max_with_ace_shown") and has_ace and self.rng.random() < 0.3:
            limit, ace = int(option["max_with_ace_shown"]), True
        count = self.rng.randint(0, min(limit, len(held)))
        if self.rng.random() < 0.3:
            count = 0
        if ace:
            count = limit
            keep = next(c for c in held if c[0] == "A")
            discards = [c for c in held if c != keep][:count]
        else:
            discards = self.rng.sample(held, count)
        body: dict[str, Any] = {"seat": seat, "action": "draw", "count": count}
        if ace:
            body["ace_shown"] = True
        if self.mode == "card":
            body["discards"] = " ".join(discards)
        answer = self.act(body)
        if answer.status != 200:
            return
        cards.discard(seat, discards)
        if self.mode == "count":
            self.follow(answer.body.get("instructions") or [], seat)
            self.check_stub()

    def follow(self, instructions: list[dict[str, Any]], drawer: int) -> None:
        """Count mode: burn, deal and reshuffle exactly as the service says."""
        cards = self.cards
        assert cards is not None
        for item in instructions:
            code, seat, count = item["code"], item["seat"], item["count"]
            if code == "burn" and count:
                cards.burn()
            elif code == "deal" and seat is not None:
                cards.give(seat, count)
                cards.come_back.discard(seat)
            elif code == "come_back":
                cards.come_back.add(seat)
            elif code == "reshuffle":
                mine = cards.reshuffle(seat, {seat, *cards.come_back})
                theirs = {k: v for k, v in item["pool"].items() if k != "kept_out"}
                if mine != theirs:
                    self.finding("reshuffle pool differs", f"script {mine}, service {theirs}")

    def deal(self, seat: int, count: int, phase: str) -> None:
        cards = self.physical()
        if phase == "deal":  # five, or the replacement of an exposed card (IRREG-03)
            dealt = cards.hands[seat][-count:]
            self.act({"seat": seat, "action": "deal", "cards": " ".join(dealt)})
            return
        draw_round = int(phase.split("_")[1])
        if cards.round != draw_round:
            cards.new_round(draw_round)
        owed = {seat, *cards.come_back}
        dealt, steps = cards.serve(seat, count, owed)
        answer = self.act({"seat": seat, "action": "deal", "cards": " ".join(dealt)})
        if answer.status != 200:
            return
        got = [
            (item["code"], item["seat"], _pool(item) or item["count"])
            for item in answer.body.get("instructions") or []
            if item["code"] in ("burn", "deal", "stop", "reshuffle")
            and (item["count"] or item["code"] != "burn")
        ]
        if steps != got[: len(steps)]:
            self.finding("card-mode dealing script differs", f"script {steps}, service {got}")
        if any(code == "come_back" for code, *_ in
               [(i["code"],) for i in answer.body.get("instructions") or []]):  # fmt: skip
            cards.come_back.add(seat)
        elif seat in cards.come_back:
            cards.come_back.discard(seat)
        self.check_stub()

    # -- the whole table --

    def run(self) -> None:
        try:
            self.create()
            while self.hands_done < self.hands_wanted:
                self.between_hands()
                self.conserve("between hands")
                if not self.start_hand():
                    self.fail("could not start a hand", self.dealer)
                self.play_hand()
        except Failure:
            pass
        except Exception as error:  # a script bug: report it with the last request
            self.local.failures.append(
                f"[{self.table_id}] script error {error!r}\n  {self.dealer.last}"
            )
            traceback.print_exc()
        finally:
            self.merge()

    def merge(self) -> None:
        stats = self.soak.stats
        with stats.lock:
            for client in (self.dealer, self.floor, self.admin):
                stats.latencies.extend(client.latencies)
                stats.statuses.update(client.statuses)
            stats.accepted.update(self.local.accepted)
            stats.refused.update(self.local.refused)
            stats.mistakes.update(self.local.mistakes)
            stats.rulings.update(self.local.rulings)
            stats.findings.update(self.local.findings)
            stats.failures.extend(self.local.failures)
            stats.hands[f"{self.pid} {self.mode}"] += self.hands_done


def _pool(instruction: dict[str, Any]) -> dict[str, Any] | None:
    pool = instruction.get("pool")
    return {k: v for k, v in pool.items() if k != "kept_out"} if pool else None


def has_openers(cards: list[str]) -> bool:
    """A pair of jacks or better, or any better hand (two pair, trips, straight, flush...)."""
    counts = Counter(card[0] for card in cards)
    pairs = [rank for rank, n in counts.items() if n >= 2]
    if any(RANKS.index(rank) >= RANKS.index("J") for rank in pairs) or len(pairs) >= 2:
        return True
    if max(counts.values(), default=0) >= 3 or len({card[1] for card in cards}) == 1:
        return True
    ranks = sorted(RANKS.index(rank) for rank in counts)
    wheel = ranks == [0, 1, 2, 3, 12]
    return len(ranks) == 5 and (ranks[-1] - ranks[0] == 4 or wheel)


# -- the run --------------------------------------------------------------------------------


@dataclass
class Soak:
    base: str
    tokens: dict[str, str]
    stats: Stats = field(default_factory=Stats)


def load_profiles(client: Http, wanted: list[str]) -> list[dict[str, Any]]:
    profiles = []
    for name in wanted:
        answer = client.call("GET", f"/v1/profiles/{name}")
        if answer.status != 200:
            raise SystemExit(f"profile {name}: {answer.status} {answer.raw[:300]!r}")
        profiles.append(answer.body)
    return profiles


def _retry_after(answer: Answer) -> float | None:
    """The seconds a 429 or 503 asks the client to wait (``Retry-After``), else None."""
    if answer.status not in (429, 503):
        return None
    value = {k.lower(): v for k, v in answer.headers.items()}.get("retry-after", "")
    return float(value) if value.isdigit() else None


def verify_tables(soak: Soak, tables: list[TableSoak], seconds: float = 180) -> dict[str, Any]:
    """``/v1/audit/verify?table_id=`` for each table, polled until the worker has stored every
    event the table gave (its highest seq); the sum of the answers. One verify of the whole
    store is not asked: at ~100,000 events it outlasts gunicorn's 30 s worker timeout."""
    auditor = Http(soak.base, soak.tokens["auditor"], soak.stats)
    total: dict[str, Any] = {"ok": True, "events": 0, "hands": 0, "problems": [], "slowest": 0.0}
    deadline = time.monotonic() + seconds
    for table in tables:
        while True:
            started = time.perf_counter()
            answer = auditor.call("GET", f"/v1/audit/verify?table_id={table.table_id}")
            total["slowest"] = max(total["slowest"], time.perf_counter() - started)
            one = answer.body or {}
            wait = _retry_after(answer)
            if wait is not None and time.monotonic() + wait < deadline:
                time.sleep(wait)  # the verify limits per token and host: come back when told
                continue
            if answer.status != 200:
                soak.stats.failures.append(f"verify {table.table_id}: {auditor.last}")
                break
            if one.get("events", 0) >= table.max_seq or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        total["ok"] = total["ok"] and bool(one.get("ok"))
        total["events"] += one.get("events", 0)
        total["hands"] += one.get("hands", 0)
        total["problems"] += one.get("problems") or []
    return total


def check_phh(soak: Soak, tables: list[TableSoak], folder: Path) -> tuple[int, int, list[str]]:
    """Export finished hands as PHH (every table, a sample of hands) and replay those of the
    variants `dealerassist replay` reads, under the table's profile (floor-ruled hands too, not
    one cancelled before the deal: ``_cancelled``); (exported, replayed to the
    recorded stacks, problems). Each file is replayed by ``dealerassist.replay.replay_file``
    (what the command runs) in this process, so a crash names its file instead of ending the
    whole batch; one ``dealerassist replay`` run over all files (each under the profile version
    it names) checks the command itself."""
    auditor = Http(soak.base, soak.tokens["auditor"], soak.stats)
    exported, cancelled, problems = 0, 0, []
    written: list[tuple[Path, str]] = []
    for table in tables:
        rng = random.Random(table.table_id)
        numbers = sorted(set(table.finished_hands) - {-1})
        for number in rng.sample(numbers, min(20, len(numbers))):
            answer = auditor.call("GET", f"/v1/audit/hands/{table.table_id}/{number}?format=phh")
            if answer.status != 200:
                problems.append(f"PHH export {table.table_id}/{number}: {auditor.last}")
                continue
            exported += 1
            variant = table.profile["game"]["variant"]
            if variant not in PHH_VARIANTS:
                continue
            if b"_cancelled = true" in answer.raw:  # called off before the deal: no hand
                cancelled += 1
                continue
            path = folder / f"{table.table_id}-{number}.phh"
            path.write_bytes(answer.raw)
            written.append((path, table.pid))
    ok = 0
    kinds: Counter[str] = Counter()
    for path, pid in written:
        try:
            row = replay_file(path, get_profile(pid)).to_dict()
        except Exception as crash:
            row = {"ok": False, "error": f"CRASH {type(crash).__name__}: {crash}"}
        if row["ok"]:
            ok += 1
            continue
        error = str(row.get("error"))
        kinds[f"{'card' if '-card-' in path.name else 'count'} {_kind(error)}"] += 1
        problems.append(f"replay {path.name}: {error} (stacks {row.get('finishing_stacks')}, "
                        f"recorded {row.get('expected')})")  # fmt: skip
    if written:
        command = subprocess.run(
            [sys.executable, "-m", "dealerassist.cli", "replay",  # each under its own version
             *[str(path) for path, _ in written]],
            capture_output=True, text=True, cwd=REPO,
        )  # fmt: skip
        if "Traceback" in command.stderr:
            problems.append("dealerassist replay died: " + command.stderr.strip().splitlines()[-1])
    print(f"PHH: {len(written)} replayed ({cancelled} cancelled hands left out), "
          f"problems by kind: {dict(kinds.most_common())}")  # fmt: skip
    return exported, ok, problems


def _head(failure: str) -> str:
    """A failure's kind: its first line without table IDs, file names and numbers."""
    line = re.sub(r"S\d+-[a-z0-9]+-(count|card)-[0-9a-f]{4}(-\d+\.phh)?", "<table>", failure)
    line = line.split("\n")[0].split(" (stacks")[0]
    line = re.sub(r"command \d+ of \d+ \{.*?\}: ", "", line)
    return re.sub(r"\d+", "N", line)[:110]


def _kind(error: str) -> str:
    for marker in ("CRASH", "ReplayRefused", "InvalidInput", "finishing stacks differ"):
        if error.startswith(marker) or marker in error[:40]:
            rule = error.split(": ")[2].split(" ")[0] if marker == "ReplayRefused" else ""
            return f"{marker} {rule}".strip()
    return error[:40]


def report(soak: Soak, tables: list[TableSoak], seconds: float, verify: dict[str, Any]) -> None:
    stats = soak.stats
    print("\nhands played per profile and mode:")
    for key, count in sorted(stats.hands.items()):
        print(f"  {key:<48} {count}")
    print(f"accepted by kind: {dict(stats.accepted.most_common())}")
    print(f"refused by rule:  {dict(stats.refused.most_common())}")
    print(f"mistakes made:    {dict(stats.mistakes.most_common())}")
    print(f"rulings:          {dict(stats.rulings.most_common())}")
    print(f"statuses:         {dict(sorted(stats.statuses.items()))}")
    ordered = sorted(stats.latencies)
    if ordered:
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000
        print(
            f"requests: {len(ordered)} in {seconds:.1f} s = {len(ordered) / seconds:.0f}/s; "
            f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {ordered[-1] * 1000:.0f} ms"
        )
    print(f"findings:         {dict(stats.findings)}")
    print(f"verify:           ok={verify.get('ok')} events={verify.get('events')} "
          f"hands={verify.get('hands')} problems={len(verify.get('problems') or [])}, "
          f"slowest table {verify.get('slowest', 0):.1f} s")  # fmt: skip


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str, dict[str, str]]:
    """`dealerassist serve` with embedded defaults in ``folder`` (as test_serve.py does)."""
    port = free_port()
    env = {
        key: value for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "DEALERASSIST_TOKENS_FILE")
    }  # fmt: skip
    env["DEALERASSIST_DATA_DIR"] = str(folder)
    # one dealer token refuses at machine speed on every table at once, far past a room's
    # rate: the per-token limit on refusals (its own tests, bench/abuse.py) would answer 429
    env["DEALERASSIST_REFUSALS_PER_WINDOW"] = "1000000"
    log = open(folder / "serve.log", "wb")  # noqa: SIM115 - lives as long as the server
    process = subprocess.Popen(
        [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=REPO,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200 and (folder / "tokens.toml").exists():
                return process, base, read_plain_tokens(folder / "tokens.toml")
        except OSError:
            time.sleep(0.2)
    stop(process)
    raise SystemExit("serve did not start: " + (folder / "serve.log").read_text()[-2000:])


def run(args: argparse.Namespace, base: str, tokens: dict[str, str], folder: Path) -> int:
    soak = Soak(base, tokens)
    probe = Http(base, tokens["admin"], soak.stats)
    names = args.profiles.split(",") if args.profiles else sorted(
        p.stem for p in PROFILES_DIR.glob("*.toml")
    )  # fmt: skip
    profiles = load_profiles(probe, names)
    tables: list[TableSoak] = []
    for seed in args.seeds:
        for profile in profiles:
            for mode in args.modes.split(","):
                tables.append(TableSoak(soak, profile, mode, seed, args.hands))
    started = time.perf_counter()
    threads = [threading.Thread(target=table.run) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    expected_events = sum(table.max_seq for table in tables)
    gaps = [t.table_id for t in tables if len(t.seqs) != t.max_seq]
    for table_id in gaps:
        soak.stats.failures.append(f"[{table_id}] the script saw audit seqs with gaps")
    verify = verify_tables(soak, tables)
    if not verify.get("ok"):
        soak.stats.failures.append(f"verify not ok: {verify.get('problems', [])[:5]}")
    if verify.get("events") != expected_events:
        soak.stats.failures.append(
            f"verify counted {verify.get('events')} events, the tables gave {expected_events}"
        )
    expected_hands = sum(len(t.finished_hands) for t in tables)
    if verify.get("hands") != expected_hands:
        soak.stats.failures.append(
            f"verify counted {verify.get('hands')} finished hands, the tables {expected_hands}"
        )
    print(f"expected: {expected_events} events, {expected_hands} finished hands")
    exported, replayed, problems = check_phh(soak, tables, folder)
    print(f"PHH: {exported} hands exported, {replayed} replayed to their stacks, "
          f"{len(problems)} problems")  # fmt: skip
    for problem in problems[:10]:
        print("  " + problem[:600])
    soak.stats.failures.extend(problems)
    report(soak, tables, seconds, verify)
    if soak.stats.findings:
        soak.stats.failures.append(
            f"findings (printed above as they came): {dict(soak.stats.findings)}"
        )
    heads = Counter(_head(failure) for failure in soak.stats.failures)
    print(f"failures: {len(soak.stats.failures)}")
    for head, count in heads.most_common():
        print(f"  {count:5} x {head}")
    for failure in soak.stats.failures[:12]:
        print("FAIL " + failure[:2500])
    return 1 if soak.stats.failures else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=50, help="per profile and mode")
    parser.add_argument("--seed", type=int, nargs="+", dest="seeds", default=[1])
    parser.add_argument("--profiles", default="", help="comma-separated; default: all shipped")
    parser.add_argument("--modes", default="count,card")
    parser.add_argument("--url", default="", help="a running service (else serve is started)")
    parser.add_argument("--tokens", default="", help="its tokens.toml (one token per role)")
    parser.add_argument("--keep", default="", help="keep the data dir, PHH files, logs here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="da-soak-") as name:
        folder = Path(args.keep or name)
        folder.mkdir(parents=True, exist_ok=True)
        if args.url:
            tokens = read_plain_tokens(Path(args.tokens))
            sys.exit(run(args, args.url, tokens, folder))
        process, base, tokens = serve(folder)
        try:
            status = run(args, base, tokens, folder)
        finally:
            stop(process)
        sys.exit(status)


if __name__ == "__main__":
    main()
