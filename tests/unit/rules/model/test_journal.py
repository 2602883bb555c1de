"""The journal's lines: a dealer's action written straight is the general encoder's text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerassist.json_codec import ascii_compact
from dealerassist.rules.model import journal
from dealerassist.rules.model.actions import Act, ActionKind, command_to_dict

AT = datetime(2026, 12, 2, 20, 15, 30, 123456, tzinfo=UTC)


def _general(act: Act, at: datetime) -> str:
    return ascii_compact({"at": at.isoformat(), "command": command_to_dict(act)})


_CARDS = st.none() | st.tuples() | st.lists(st.text(max_size=3), max_size=5).map(tuple)
_NUMBERS = st.none() | st.integers(-(2**70), 2**70)
_ACTS = st.builds(
    Act,
    seat=st.integers(-3, 12),
    action=st.sampled_from(list(ActionKind)),
    amount=_NUMBERS,
    count=_NUMBERS,
    ace_shown=st.booleans(),
    cards=_CARDS,
    discards=_CARDS,
    option=st.none() | st.sampled_from(["split", "wait", "kéép"]),
    rank=st.none() | st.sampled_from(["7", "A"]),
)
_TIMES = st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=-5))]))


@settings(max_examples=400)
@given(act=_ACTS, at=_TIMES)
def test_an_action_line_is_the_general_encoders_text(act: Act, at: datetime) -> None:
    assert journal.entry(act, at) == _general(act, at)


def test_an_action_line_written_straight_and_the_ones_that_are_not() -> None:
    deal = Act(3, ActionKind.DEAL, cards=("As", "Kd", "??"))
    assert journal._act_line(deal, AT.isoformat()) == _general(deal, AT)
    assert journal.entry(deal, AT) == _general(deal, AT)
    for odd in (
        Act(3, ActionKind.DRAW, count=2, option="split"),  # an option: the general way
        Act(3, ActionKind.DEAL, cards=('A"s',)),  # a card to escape
        Act(3, ActionKind.DEAL, cards=("Zoë",)),  # not ASCII
        Act(3, ActionKind.BET, amount=True),  # a bool where an int goes
        Act(3, 'ca"ll'),  # type: ignore[arg-type]  # not an action kind
    ):
        assert journal._act_line(odd, AT.isoformat()) is None
        assert journal.entry(odd, AT) == _general(odd, AT)
