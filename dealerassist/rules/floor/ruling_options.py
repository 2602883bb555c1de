"""The floor's standard ruling options per catalog rule (the **F** rules and their neighbours).

``options_for(rule_id)`` answers ``GET /v1/rulings/options``: each option is a decision
code, a label for the console and the effects it usually takes. ``custom`` and
``discretionary`` (IRREG-15) are always offered; a rule without its own list (a validation
rule whose refusal was called to the floor) gets ``uphold`` and ``accept_entry``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Option:
    """One standard ruling: its decision code, the console label and the usual effects."""

    decision: str
    label: str
    effects: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "label": self.label, "effects": list(self.effects)}


def _o(decision: str, label: str, *effects: str) -> Option:
    return Option(decision, label, effects)


MISDEAL = _o("misdeal", "Misdeal: every chip back, redeal with the same button", "misdeal")
PLAY_ON = _o("play_on", "The hand plays on as dealt")
DEAD_HAND = _o("dead_hand", "The hand is dead; its chips stay in the pot", "kill_hand")

ALWAYS = (
    _o("custom", "Custom ruling: describe it in the note", "any"),
    _o(
        "discretionary", "IRREG-15 discretionary ruling (fairness override; reason required)", "any"
    ),
)
GENERIC = (
    _o("uphold", "The refusal stands: the entry is not recorded"),
    _o("accept_entry", "The entry binds as made (the refused check is waived)", "accept_entry"),
    _o("void_last", "Void the last action(s) and re-enter", "void_last"),
)

OPTIONS: dict[str, tuple[Option, ...]] = {
    "DEAL-02": (
        _o("kill_absent", "Player absent when the deal completed: hand killed, posts stay",
           "kill_hand"),
        _o("misdeal", "Entitled seat dealt out or empty seat dealt, before action: misdeal",
           "misdeal"),
        PLAY_ON,
    ),
    "DECK-01": (
        _o("void_refund", "Fouled deck (duplicate or different back): void, all bets back",
           "misdeal"),
        _o("stands", "Only missing cards: a finished hand stands"),
    ),
    "DECK-05": (
        _o("replace", "Found before the player acted: the stray card is replaced"),
        DEAD_HAND,
        _o("misdeal", "Before substantial action (TDA): misdeal", "misdeal"),
        _o("blank", "After substantial action: the card plays as a blank"),
    ),
    "DECK-06": (
        _o("replace", "One boxed card: a blank, replaced by the next card"),
        _o("misdeal", "Two or more boxed cards among those needed: misdeal", "misdeal"),
    ),
    "BLIND-03": (
        _o("correct_next_hand", "Correct the button for the next hand", "move_button"),
        _o("stands", "Action has happened: the hand plays, fix it next hand", "move_button"),
    ),
    "BLIND-10": (
        _o("dead_hand", "Looked before posting and not acted: the hand is dead", "kill_hand"),
        _o("plays_post_next", "Acted with chips in: the hand plays; post on the next deal"),
    ),
    "BLIND-15": (
        _o("penalty", "Deliberate dodge: penalty (TDA 71), chips adjusted", "adjust_stack"),
        _o("warning", "Warning; the blind stays owed"),
    ),
    "OPEN-04": (
        _o("declared_open", "Pot declared open: false opener dead, his opening bet stays",
           "kill_hand"),
        _o("not_declared", "Nobody declares it open: bets back but the opening bet and antes",
           "void_last", "adjust_stack"),
    ),
    "OPEN-05": (
        _o("retrieve_allowed", "The opener may retrieve the discarded hand to prove openers"),
        _o("not_proven", "Openers not proven: the opener cannot win", "kill_hand", "award"),
    ),
    "OPEN-06": (
        _o("pot_plays", "Raise, two callers or pre-draw action complete: the pot plays"),
        _o("opener_dead", "The opener's hand is dead; the others play for the pot",
           "kill_hand"),
    ),
    "OPEN-07": (
        _o("pot_lost", "Hand plus discards could not hold openers: the pot is lost",
           "kill_hand", "award"),
        _o("split_proven", "The discards prove the openers: the hand stands"),
    ),
    "OPEN-08": (
        _o("false_open_all_in", "All-in false opener loses the antes and sits out", "kill_hand"),
        _o("plays_for_antes", "Plays for the antes he matched"),
        _o("lift_wait", "The open was legal (or marked by mistake): dealt in again",
           "clear_false_opener"),
    ),
    "OPEN-10": (_o("no_refund", "A caller who cannot beat the openers gets no refund"),),
    "BET-07": (
        _o("void_post_draw", "Sevens rule: wins only the pre-draw pot, post-draw action void",
           "adjust_stack", "award"),
        _o("forfeit_pot", "House rule: the checked seven forfeits the pot", "kill_hand",
           "award"),
        _o("return_violator", "The violator's post-check chips are returned", "adjust_stack"),
        _o("no_penalty", "The checker was beaten: no penalty"),
    ),
    "BET-08": (
        _o("action_stands", "Out-of-turn action stands: the action to him did not change",
           "accept_entry"),
        _o("take_back", "The action changed: he may take the chips back and reconsider",
           "void_last"),
        _o("fold_binding", "An out-of-turn fold is binding", "kill_hand"),
        _o("back_up", "Back up to the correct player; the entry is not recorded"),
    ),
    "BET-09": (
        _o("call_only", "String bet or single oversized chip: a call"),
        _o("full_raise", "Half a raise or more: it is made a full raise", "accept_entry"),
        _o("correct_amount", "Wrong amount corrected before the round ends", "void_last",
           "adjust_stack"),
    ),
    "DRAW-07": (
        _o("request_stands", "A card was dealt or a later player acted: the request stands"),
        _o("change_allowed", "Nothing dealt or acted on yet: the change is allowed",
           "accept_entry"),
    ),
    "DRAW-08": (
        _o("rap_is_pat", "A rap in the draw is pat"),
        _o("raised_pot_exception", "Rapped pat unaware of a raise: hand live, betting reopened",
           "reopen_betting"),
    ),
    "DRAW-10": (
        _o("give_card", "Before the first player acted: the short hand gets its card"),
        _o("draw_to_five", "After action: the short hand draws to five"),
        _o("misdeal", "Short non-button hand before any action (RRoP draw high): misdeal",
           "misdeal"),
        _o("dead_hand", "After the draw not five cards: foul, dead", "kill_hand"),
    ),
    "IRREG-01": (MISDEAL, _o("play_on", "Deadline passed or no cause: the hand plays")),
    "IRREG-02": (
        _o("play_on", "After the misdeal deadline: the hand is played out, no refund"),
        _o("fouled_deck", "Fouled deck: void anyway (DECK-01)", "misdeal"),
    ),
    "IRREG-03": (
        _o("keep", "Keep the exposed card (house table by rank)"),
        _o("replace", "Replace it after the deal; the first exposed card is the burn"),
        _o("misdeal", "Two or more cards exposed by the dealer: misdeal", "misdeal"),
    ),
    "IRREG-04": (
        _o("replace_last", "The exposed card is not taken; served last from the stub"),
        _o("take_exposed", "The player takes the exposed card (no replacement can be supplied)",
           "take_exposed"),
        MISDEAL,
        DEAD_HAND,
        _o("award", "The pot is awarded", "award"),
    ),
    "IRREG-05": (
        _o("exposed", "Flashed by the dealer: an exposed card (IRREG-03/04)"),
        _o("plays", "Flashed by the player: the card plays"),
        _o("dead_hand", "Dropped cards: no replacement, the hand is dead", "kill_hand"),
    ),
    "IRREG-06": (
        _o("burn", "One extra card: it goes back as the burn"),
        _o("misdeal", "Two or more extra cards: misdeal", "misdeal"),
    ),
    "IRREG-07": (
        _o("remove_excess", "Excess card identifiable and unseen: removed, treated as exposed"),
        _o("fouled", "Mixed into the hand: foul, chips in the pot stay", "kill_hand"),
    ),
    "IRREG-08": (
        _o("replace_end", "Mucked draw cards: replaced at the end of the draw"),
        _o("complete_from_stub", "Shortfall caught before the betting: completed from the stub"),
        _o("fouled", "Bet with fewer than five after the draw: foul", "kill_hand"),
    ),
    "IRREG-09": (
        _o("serve_skipped", "Serve the skipped player next from the stub"),
        _o("move_cards", "Unseen cards of the out-of-turn drawer go to the skipped player",
           "accept_entry"),
        _o("leave_cards", "Cards seen or mixed: they stay; skipped player served from the stub"),
        _o("floor_discretion", "Post-draw betting has begun: floor discretion"),
    ),
    "IRREG-10": (
        _o("live_short", "Short before the draw: the hand stays live (DRAW-10)"),
        _o("give_card", "Give the missing card before the draw"),
        _o("draw_to_five", "Let him draw to five"),
        DEAD_HAND,
        MISDEAL,
    ),
    "IRREG-11": (
        _o("reconstruct", "Reconstruct the stub's order"),
        _o("reshuffle_stub", "Reshuffle the stub alone"),
        _o("shuffle_with_muck", "Mixed with the muck: shuffle together and cut"),
    ),
    "IRREG-12": (
        _o("correct_next_hand", "Cash: correct the button and blinds next hand", "move_button"),
        _o("error_stands", "After substantial action: the error stands"),
        _o("misdeal_and_correct", "Before action: misdeal and correct the button", "misdeal",
           "move_button"),
    ),
    "IRREG-13": (
        _o("no_redress", "Killed by mistake or fouled beyond identification: no redress",
           "kill_hand"),
        _o("live_identifiable", "An identifiable fouled hand stays live"),
        _o("thrown_dead", "Cards thrown into another hand are dead", "kill_hand"),
    ),
    "IRREG-14": (
        _o("late_adjustment", "After the next hand started: a stack adjustment with a note",
           "adjust_stack"),
        _o("house_error", "House error (WSOP 55): stacks corrected", "adjust_stack"),
        _o("too_late", "Dispute made too late: the result stands"),
    ),
    "IRREG-15": (),
    "SHOW-03": (
        _o("not_tabled", "Not all five cards tabled: the hand cannot win", "kill_hand"),
        _o("award_tabled", "The tabled winner is awarded the pot", "award"),
    ),
    "SHOW-04": (
        _o("cards_speak", "Cards speak: the best hand wins"),
        _o("miscall_kills", "A miscall made another discard: miscaller dead, best remaining wins",
           "kill_hand", "award"),
        _o("share_remaining", "Hands were discarded: the pot is shared by the remaining hands",
           "award"),
    ),
    "SHOW-11": (
        _o("correct_before_push", "Error pointed out before the push: corrected", "void_last",
           "award", "adjust_stack"),
        _o("hold", "Hold the pot while surveillance checks", "hold_pot"),
        _o("release", "Release the pot", "release_pot"),
    ),
    "KILL-05": (_o("post_kill", "The kill is owed: post it before playing"),),
    "KILL-07": (
        _o("make_up_or_lose", "Kill announced and shown: make up the amount or lose it",
           "adjust_stack"),
        _o("take_back", "Kill not announced: take the chips back and reconsider", "void_last"),
    ),
}  # fmt: skip


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
