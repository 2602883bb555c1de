"""The table between and at the start of hands: seats, the button, blinds and posting.

``table_setup`` (a new table fits its profile), ``seating`` (seat, leave, sit out, return,
change seats, add chips), ``blinds`` (the button, who is dealt in, who owes what),
``moving_button`` and ``posting`` (the posting phase). They start the hand that ``hand`` plays.
"""
