"""What the house's take says (``rules/hand/rake.py``: RAKE-01..05)."""

from dealerassist.rules.model.said import Message

# RAKE-01/03: the drop before the push, "Drop 4 to the rake slot and 1 to the jackpot; push 65
# to seat 1" (``THEN`` joins the drop and each push)
DROP = Message("rake.drop", "Drop {parts}")
TO_RAKE_SLOT = Message("rake.to_rake_slot", "{chips} to the rake slot")
TO_JACKPOT = Message("rake.to_jackpot", "{chips} to the jackpot")
THEN = Message("rake.then", "{before}; {after}")
PUSH = Message("rake.push", "push {chips} to seat {seat}")
PUSH_FROM = Message("rake.push_from", "push {chips} from {pot} to seat {seat}")
MAIN_POT = Message("rake.main_pot", "the main pot")
SIDE_POT = Message("rake.side_pot", "side pot {index}")

# RAKE-01: the table's stakes in the rake's chips
CHIP_UNIT = Message(
    "rake.chip_unit",
    "Profile {profile}: rake.chip_unit {unit} does not divide the stakes ({odd}): create the "
    "table with stakes in chips of {unit}.",
)
STAKE = Message("rake.stake", "{name} {amount}")  # "small_blind 5" (the stakes' field names)

# RAKE-05: time collection
COLLECT_TIME = Message(
    "rake.collect_time",
    "Collect time before the deal: {due} from each of seats {seats} ({total} in all)",
)
