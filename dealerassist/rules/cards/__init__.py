"""Cards and what they are worth: decks and card entries, hand rankings, the joker.

``cards`` (decks and parsing), ``rankings`` (hand values on every scale) with its lookup
tables ``_ranking_tables``, and ``joker`` (the bug). Pure functions of cards; they know no
table or hand.
"""
