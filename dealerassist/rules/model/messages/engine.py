"""What the engine's dispatch says (``rules/engine.py``): a hand to start or finish (GAME-01),
an entry outside its phase, the deck and the antes of a deal (GAME-05, OPEN-03), the draw's
timer (DRAW-11), a refused chop (SHOW-08) and the legal actions in words."""

from dealerassist.rules.model.messages import betting
from dealerassist.rules.model.said import Message, Param

HAND_IN_PROGRESS = Message(
    "engine.hand_in_progress", "Hand {hand_no} is still in progress; finish it first."
)
NO_HAND_IN_PROGRESS = Message(
    "engine.no_hand_in_progress", "No hand is in progress; start a hand first."
)
NOT_THIS_PHASE = Message(
    "engine.not_this_phase", "'{action}' does not belong to the {phase} phase."
)
# OPEN-03: the English always said "deals ... were" (a house limit of one is rare); its plural
# is the same words, so the other languages can say one deal as one
NO_ANTES_THIS_DEAL = Message(
    "engine.no_antes_this_deal",
    "No antes this deal: {deals} deals in a row were passed out, the house limit; the "
    "{carried} in the pot plays as it is",
    plural="No antes this deal: {deals} deals in a row were passed out, the house limit; the "
    "{carried} in the pot plays as it is",
    plural_by="deals",
)
DECK_FOR_THIS_HAND = Message(
    "engine.deck_for_this_hand", "Deal this hand with the {deck}-card deck ({players} players)"
)
PAT_AFTER_TIME = Message(
    "engine.pat_after_time", "Seat {seat} is pat: after the draw it may only check, call or fold"
)
DRAW_DECLARED = Message(
    "engine.draw_declared",
    "Seat {seat} has declared its draw: the timer is over for it, and the dealer enters its "
    "cards with deal.",
)
DRAW_TIME_LEFT = Message(
    "engine.draw_time_left", "Seat {seat}'s draw time has not run out; enter its draw."
)
# SHOW-08: "No chop: {why}{split}{instead}." (the last two are "" when they do not apply)
NO_CHOP = Message("engine.no_chop", "No chop: {why}{split}{instead}.")
NO_SPLIT_BY_AGREEMENT = Message(
    "engine.no_split_by_agreement", ". Players may not agree to split a pot (SHOW-08)"
)
CHOP_INSTEAD = Message("engine.chop_instead", "; seat {seat} may {options}")

# The legal actions in words: "call 5, raise to 20 or fold"; each action as the betting
# refusals say it ("call 5": ``bet.may_amount``), the last after "or".
OPTIONS_OR = Message("engine.options_or", "{others} or {last}")
# an action (ActionKind) and a phase (Phase) by their stored values, written as they are
# (not imported: the model's modules may import these messages; a test checks both lists);
# the betting verbs are the betting rounds' own (``bet.action.*``)
ACTIONS: dict[str, Message] = {
    **betting.ACTIONS,
    **{
        name: Message(f"engine.action.{name}", name)
        for name in (
            *("post", "sit_out", "draw", "time", "show", "muck", "deal", "exposed"),
            *("extra_card", "chop", "boxed_card"),
        )
    },
}
PHASES: dict[str, Message] = {
    name: Message(f"engine.phase.{name}", name)
    for name in (
        *("posting", "deal", "betting_1", "draw_1", "betting_2", "draw_2", "betting_3"),
        *("draw_3", "betting_4", "showdown", "complete"),
    )
}


def action(name: str) -> Param:
    """An action's name in words; one no ActionKind has stays as it is."""
    message = ACTIONS.get(name)
    return message() if message is not None else name


def phase(name: str) -> Param:
    """A phase's name in words (as the engine writes it: ``betting_1``)."""
    message = PHASES.get(name)
    return message() if message is not None else name
