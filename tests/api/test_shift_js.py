"""The registered tablet's and the admin page's shift helpers (shift.js, admin_shifts.js),
run by node: the keypad, whether a kept shift is live, a refused sign-in in words, the
tables typed on the admin page and the pairing code as it is read out."""

from __future__ import annotations

from pathlib import Path

from api.test_web import _node_json


def test_the_keypad_types_digits_deletes_and_clears_within_the_fields_length(
    tmp_path: Path,
) -> None:
    """A digit is added, "back" takes the last one off, "clear" empties; a full field takes
    no more digits."""
    got = _node_json(
        tmp_path,
        "shift.js",
        "keyed",
        '[keyed("48", "2"), keyed("482", "back"), keyed("482", "clear"), keyed("1234", "5", 4)]',
    )
    assert got == ["482", "48", "", "1234"]


def test_a_kept_shift_is_live_until_its_end_and_a_refusal_is_in_words(tmp_path: Path) -> None:
    """Live before ``expires_at``, not after nor without a token; wrong_pin and pin_locked
    get the dealer's words (the lockout's minutes from retry_after)."""
    got = _node_json(
        tmp_path,
        "shift.js",
        "liveShift, signInWords, dealerLabel",
        "[liveShift({token: 'das_x', expires_at: '2026-12-02T12:00:00Z'}, "
        "Date.parse('2026-12-02T11:59:59Z')), "
        "liveShift({token: 'das_x', expires_at: '2026-12-02T12:00:00Z'}, "
        "Date.parse('2026-12-02T12:00:01Z')), "
        "liveShift({expires_at: '2099-01-01T00:00:00Z'}), "
        "signInWords({code: 'wrong_pin', detail: 'the employee ID or the PIN is wrong'}).title, "
        "signInWords({code: 'pin_locked', detail: 'Locked.', retry_after: 900}).detail, "
        "dealerLabel({name: 'Dana Ünal', employee_id: 'E100'})]",
    )
    assert got == [
        True,
        False,
        False,
        "Wrong employee ID or PIN",
        "Locked. Try again in 15 min.",
        "Dealer Dana Ünal (E100)",
    ]


def test_the_admin_pages_tables_and_pairing_code(tmp_path: Path) -> None:
    """ "S1, S2 ,S3" is three tables; an 8-character code reads as ABCD-EFGH."""
    got = _node_json(
        tmp_path,
        "admin_shifts.js",
        "tableList, pairingText",
        '[tableList("S1, S2 ,S3"), tableList(""), pairingText("ABCDEFGH")]',
    )
    assert got == [["S1", "S2", "S3"], [], "ABCD-EFGH"]


def test_why_a_shift_ended_in_the_dealer_s_words(tmp_path: Path) -> None:
    """Each shift_ended reason says what happened (the next dealer by name, the other
    tablet); a 401 without the code, or with an unknown reason, says only that it ended."""
    got = _node_json(
        tmp_path,
        "shift.js",
        "endedWords",
        "[endedWords({code: 'shift_ended', reason: 'pushed', by_employee_id: 'E2', "
        "by_name: 'Ben Ortiz'}), "
        "endedWords({code: 'shift_ended', reason: 'signed_in_elsewhere', by_tablet: 'Bank B'}), "
        "endedWords({code: 'shift_ended', reason: 'sign_out'}), "
        "endedWords({code: 'shift_ended', reason: 'tablet_revoked'}), "
        "endedWords({reason: 'pushed'}), endedWords(null), "
        "endedWords({code: 'shift_ended', reason: 'ended_by_floor', by_name: 'floor'})]",
    )
    assert got[0] == "Your shift on this tablet ended: Ben Ortiz (E2) signed in as the next dealer."
    assert got[1] == "Your shift on this tablet ended: you signed in on tablet Bank B."
    assert got[2].startswith("You were signed out on another screen")
    assert got[3].startswith("An admin revoked this tablet's registration")
    assert got[4] == got[5] == "Your shift session has ended or expired. Sign in to go on."
    assert got[6] == "The floor ended your shift on this tablet. Sign in to go on."


def test_the_floor_names_the_dealer_on_duty(tmp_path: Path) -> None:
    """floor.js's dealerText: name and employee ID, an ended session said so, none."""
    got = _node_json(
        tmp_path,
        "floor.js",
        "dealerText",
        "[dealerText({employee_id: 'E1', name: 'Ada Lee', on_shift: true}), "
        "dealerText({employee_id: 'E1', name: null, on_shift: false}), dealerText(null)]",
    )
    assert got == ["Dealer Ada Lee (E1)", "Dealer E1, shift session ended", "No dealer signed in"]
