"""The dealer's own correction: take back the entry just made (a wrong tap), before the next.

The correction is a ruling the dealer enters on the engine's existing ``void_last`` effect
(decision ``custom``, the note saying who took back what): the audit log keeps the entry and
adds the correction after it; nothing is deleted. It is offered only while the last thing
journaled in the hand is that action and the hand is still in play, and only at the version
the entry produced (If-Match): once anything else has happened, the floor rules instead
(a floor call; ``void_last`` is among its options).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerassist.errors import Forbidden, InvalidInput, NotFound
from dealerassist.rules.model import journal
from dealerassist.rules.model.messages import correction as say
from dealerassist.rules.model.ruling_commands import Ruling, VoidLast
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.state import Phase
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.service import messages as told
from dealerassist.service.ports import Services
from dealerassist.service.tables import Actor, Answer, Preconditions, execute

CORRECTING_ROLES = frozenset({"dealer", "floor"})
CORRECTION_NOTE = "Dealer's correction: the entry just made is taken back before the next"


def undo_last_entry(
    services: Services, table_id: str, body: Mapping[str, Any], actor: Actor, pre: Preconditions
) -> Answer:
    """Void the hand's last action at the version it produced (``If-Match`` required)."""
    if actor.role not in CORRECTING_ROLES:
        raise Forbidden(told.UNDO_ROLE(role=actor.role))
    if pre.if_match is None:
        raise InvalidInput(told.UNDO_NEEDS_IF_MATCH())
    record = services.tables.load(table_id)
    if record is None:
        raise NotFound(told.NO_TABLE(table=repr(table_id)))
    state = record.state
    hand = state.hand
    if hand is None or hand.phase is Phase.COMPLETE or not state.hand_log:
        raise _refuse(say.HAND_OVER())
    last, _at = journal.read(state.hand_log[-1])
    if last.get("type") != "action":
        raise _refuse(say.NOT_AN_ACTION())
    entry = ", ".join(f"{k} {v}" for k, v in last.items() if k not in ("type",))
    note = f"{CORRECTION_NOTE} ({entry}) by {actor.name}"
    if body.get("note"):
        note = f"{note}: {body['note']}"
    ruling = Ruling(
        decision="custom",
        note=note,
        hand_no=hand.hand_no,
        effects=(VoidLast(count=1),),
    )
    return execute(services, table_id, ruling, actor, pre)


def _refuse(said: Said) -> RuleViolation:
    """IRREG-15: the correction cannot be carried out on the table as it is; the floor can."""
    return RuleViolation(rule_id=RuleId.IRREG_15, said=said)
