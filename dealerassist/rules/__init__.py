"""The pure rules engine: cards, rankings, house rules, and the table/hand state machine.

Nothing in this package performs I/O, reads a clock or draws random numbers.
"""
