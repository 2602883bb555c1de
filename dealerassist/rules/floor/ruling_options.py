"""The floor's standard ruling options per catalog rule (the **F** rules and their neighbours).

``options_for(rule_id)`` answers ``GET /v1/rulings/options``: each option is a decision
code, a label for the console (a message of ``model/messages/options.py``, so the API says
it in the floor manager's language) and the effects it usually takes. ``custom`` and
``discretionary`` (IRREG-15) are always offered; a rule without its own list (a validation
rule whose refusal was called to the floor) gets ``uphold`` and ``accept_entry``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealerassist.rules.model.messages import options as say
from dealerassist.rules.model.said import Message, Said, params_json


@dataclass(frozen=True, slots=True)
class Option:
    """One standard ruling: its decision code, the console label and the usual effects."""

    decision: str
    said: Said  # the label, as a message
    effects: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The label in English."""
        return self.said.english()

    def to_dict(self) -> dict[str, Any]:
        """The API's option: ``label`` (English), ``label_id`` and, when the label has any,
        its ``params``; the API renders ``label`` in the request's language from them.

        >>> MISDEAL.to_dict()["label_id"]
        'option.misdeal'
        """
        out: dict[str, Any] = {
            "decision": self.decision,
            "label": self.label,
            "label_id": self.said.message.id,
        }
        if self.said.params:
            out["params"] = params_json(self.said.params)
        out["effects"] = list(self.effects)
        return out


def _o(decision: str, label: Message | Said, *effects: str) -> Option:
    return Option(decision, label() if isinstance(label, Message) else label, effects)


MISDEAL = _o("misdeal", say.MISDEAL, "misdeal")
PLAY_ON = _o("play_on", say.PLAY_ON)
DEAD_HAND = _o("dead_hand", say.DEAD_HAND, "kill_hand")

ALWAYS = (
    _o("custom", say.CUSTOM, "any"),
    _o("discretionary", say.DISCRETIONARY, "any"),
)
GENERIC = (
    _o("uphold", say.UPHOLD),
    _o("accept_entry", say.ACCEPT_ENTRY, "accept_entry"),
    _o("void_last", say.VOID_LAST, "void_last"),
)

OPTIONS: dict[str, tuple[Option, ...]] = {
    "DEAL-02": (
        _o("kill_absent", say.DEAL02_KILL_ABSENT, "kill_hand"),
        _o("misdeal", say.DEAL02_MISDEAL, "misdeal"),
        PLAY_ON,
    ),
    "DECK-01": (
        _o("void_refund", say.DECK01_VOID_REFUND, "misdeal"),
        _o("stands", say.DECK01_STANDS),
    ),
    "DECK-05": (
        _o("replace", say.DECK05_REPLACE),
        DEAD_HAND,
        _o("misdeal", say.DECK05_MISDEAL, "misdeal"),
        _o("blank", say.DECK05_BLANK),
    ),
    "DECK-06": (
        _o("replace", say.DECK06_REPLACE),
        _o("misdeal", say.DECK06_MISDEAL, "misdeal"),
    ),
    "BLIND-03": (
        _o("correct_next_hand", say.BLIND03_CORRECT_NEXT_HAND, "move_button"),
        _o("stands", say.BLIND03_STANDS, "move_button"),
    ),
    "BLIND-10": (
        _o("dead_hand", say.BLIND10_DEAD_HAND, "kill_hand"),
        _o("plays_post_next", say.BLIND10_PLAYS_POST_NEXT),
    ),
    "BLIND-15": (
        _o("penalty", say.BLIND15_PENALTY, "adjust_stack"),
        _o("warning", say.BLIND15_WARNING),
    ),
    "OPEN-04": (
        _o("declared_open", say.OPEN04_DECLARED_OPEN, "kill_hand"),
        _o("not_declared", say.OPEN04_NOT_DECLARED, "void_last", "adjust_stack"),
    ),
    "OPEN-05": (
        _o("retrieve_allowed", say.OPEN05_RETRIEVE_ALLOWED),
        _o("not_proven", say.OPEN05_NOT_PROVEN, "kill_hand", "award"),
    ),
    "OPEN-06": (
        _o("pot_plays", say.OPEN06_POT_PLAYS),
        _o("opener_dead", say.OPEN06_OPENER_DEAD, "kill_hand"),
    ),
    "OPEN-07": (
        _o("pot_lost", say.OPEN07_POT_LOST, "kill_hand", "award"),
        _o("split_proven", say.OPEN07_SPLIT_PROVEN),
    ),
    "OPEN-08": (
        _o("false_open_all_in", say.OPEN08_FALSE_OPEN_ALL_IN, "kill_hand"),
        _o("plays_for_antes", say.OPEN08_PLAYS_FOR_ANTES),
        _o("lift_wait", say.OPEN08_LIFT_WAIT, "clear_false_opener"),
    ),
    "OPEN-10": (_o("no_refund", say.OPEN10_NO_REFUND),),
    "BET-07": (
        _o("void_post_draw", say.BET07_VOID_POST_DRAW, "adjust_stack", "award"),
        _o("forfeit_pot", say.BET07_FORFEIT_POT, "kill_hand", "award"),
        _o("return_violator", say.BET07_RETURN_VIOLATOR, "adjust_stack"),
        _o("no_penalty", say.BET07_NO_PENALTY),
    ),
    "BET-08": (
        _o("action_stands", say.BET08_ACTION_STANDS, "accept_entry"),
        _o("take_back", say.BET08_TAKE_BACK, "void_last"),
        _o("fold_binding", say.BET08_FOLD_BINDING, "kill_hand"),
        _o("back_up", say.BET08_BACK_UP),
    ),
    "BET-09": (
        _o("call_only", say.BET09_CALL_ONLY),
        _o("full_raise", say.BET09_FULL_RAISE, "accept_entry"),
        _o("correct_amount", say.BET09_CORRECT_AMOUNT, "void_last", "adjust_stack"),
    ),
    "DRAW-07": (
        _o("request_stands", say.DRAW07_REQUEST_STANDS),
        _o("change_allowed", say.DRAW07_CHANGE_ALLOWED, "accept_entry"),
    ),
    "DRAW-08": (
        _o("rap_is_pat", say.DRAW08_RAP_IS_PAT),
        _o("raised_pot_exception", say.DRAW08_RAISED_POT_EXCEPTION, "reopen_betting"),
    ),
    "DRAW-10": (
        _o("give_card", say.DRAW10_GIVE_CARD),
        _o("draw_to_five", say.DRAW10_DRAW_TO_FIVE),
        _o("misdeal", say.DRAW10_MISDEAL, "misdeal"),
        _o("dead_hand", say.DRAW10_DEAD_HAND, "kill_hand"),
    ),
    "IRREG-01": (MISDEAL, _o("play_on", say.IRREG01_PLAY_ON)),
    "IRREG-02": (
        _o("play_on", say.IRREG02_PLAY_ON),
        _o("fouled_deck", say.IRREG02_FOULED_DECK, "misdeal"),
    ),
    "IRREG-03": (
        _o("keep", say.IRREG03_KEEP),
        _o("replace", say.IRREG03_REPLACE),
        _o("misdeal", say.IRREG03_MISDEAL, "misdeal"),
    ),
    "IRREG-04": (
        _o("replace_last", say.IRREG04_REPLACE_LAST),
        _o("take_exposed", say.IRREG04_TAKE_EXPOSED, "take_exposed"),
        MISDEAL,
        DEAD_HAND,
        _o("award", say.IRREG04_AWARD, "award"),
    ),
    "IRREG-05": (
        _o("exposed", say.IRREG05_EXPOSED),
        _o("plays", say.IRREG05_PLAYS),
        _o("dead_hand", say.IRREG05_DEAD_HAND, "kill_hand"),
    ),
    "IRREG-06": (
        _o("burn", say.IRREG06_BURN),
        _o("misdeal", say.IRREG06_MISDEAL, "misdeal"),
    ),
    "IRREG-07": (
        _o("remove_excess", say.IRREG07_REMOVE_EXCESS),
        _o("fouled", say.IRREG07_FOULED, "kill_hand"),
    ),
    "IRREG-08": (
        _o("replace_end", say.IRREG08_REPLACE_END),
        _o("complete_from_stub", say.IRREG08_COMPLETE_FROM_STUB),
        _o("fouled", say.IRREG08_FOULED, "kill_hand"),
    ),
    "IRREG-09": (
        _o("serve_skipped", say.IRREG09_SERVE_SKIPPED),
        _o("move_cards", say.IRREG09_MOVE_CARDS, "accept_entry"),
        _o("leave_cards", say.IRREG09_LEAVE_CARDS),
        _o("floor_discretion", say.IRREG09_FLOOR_DISCRETION),
    ),
    "IRREG-10": (
        _o("live_short", say.IRREG10_LIVE_SHORT),
        _o("give_card", say.IRREG10_GIVE_CARD),
        _o("draw_to_five", say.IRREG10_DRAW_TO_FIVE),
        DEAD_HAND,
        MISDEAL,
    ),
    "IRREG-11": (
        _o("reconstruct", say.IRREG11_RECONSTRUCT),
        _o("reshuffle_stub", say.IRREG11_RESHUFFLE_STUB),
        _o("shuffle_with_muck", say.IRREG11_SHUFFLE_WITH_MUCK),
    ),
    "IRREG-12": (
        _o("correct_next_hand", say.IRREG12_CORRECT_NEXT_HAND, "move_button"),
        _o("error_stands", say.IRREG12_ERROR_STANDS),
        _o("misdeal_and_correct", say.IRREG12_MISDEAL_AND_CORRECT, "misdeal", "move_button"),
    ),
    "IRREG-13": (
        _o("no_redress", say.IRREG13_NO_REDRESS, "kill_hand"),
        _o("live_identifiable", say.IRREG13_LIVE_IDENTIFIABLE),
        _o("thrown_dead", say.IRREG13_THROWN_DEAD, "kill_hand"),
    ),
    "IRREG-14": (
        _o("late_adjustment", say.IRREG14_LATE_ADJUSTMENT, "adjust_stack"),
        _o("house_error", say.IRREG14_HOUSE_ERROR, "adjust_stack"),
        _o("too_late", say.IRREG14_TOO_LATE),
    ),
    "IRREG-15": (),
    "SHOW-03": (
        _o("not_tabled", say.SHOW03_NOT_TABLED, "kill_hand"),
        _o("award_tabled", say.SHOW03_AWARD_TABLED, "award"),
    ),
    "SHOW-04": (
        _o("cards_speak", say.SHOW04_CARDS_SPEAK),
        _o("miscall_kills", say.SHOW04_MISCALL_KILLS, "kill_hand", "award"),
        _o("share_remaining", say.SHOW04_SHARE_REMAINING, "award"),
    ),
    "SHOW-11": (
        _o(
            "correct_before_push",
            say.SHOW11_CORRECT_BEFORE_PUSH,
            "void_last",
            "award",
            "adjust_stack",
        ),
        _o("hold", say.SHOW11_HOLD, "hold_pot"),
        _o("release", say.SHOW11_RELEASE, "release_pot"),
    ),
    "KILL-05": (_o("post_kill", say.KILL05_POST_KILL),),
    "KILL-07": (
        _o("make_up_or_lose", say.KILL07_MAKE_UP_OR_LOSE, "adjust_stack"),
        _o("take_back", say.KILL07_TAKE_BACK, "void_last"),
    ),
}


def options_for(rule_id: str | None) -> list[Option]:
    """The standard options for ``rule_id`` plus ``custom`` and ``discretionary``.

    >>> [o.decision for o in options_for("IRREG-01")]
    ['misdeal', 'play_on', 'custom', 'discretionary']
    >>> [o.decision for o in options_for(None)]
    ['custom', 'discretionary']
    """
    if rule_id is None:
        return list(ALWAYS)
    return [*OPTIONS.get(rule_id, GENERIC), *ALWAYS]


def decisions_for(rule_id: str | None) -> list[str]:
    """The decision codes a ruling on ``rule_id`` may name."""
    return [option.decision for option in options_for(rule_id)]
