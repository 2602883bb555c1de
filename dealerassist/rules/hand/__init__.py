"""One hand, from the deal to the award: its phase machine and the rules it calls in turn.

``flow`` is the hand's phase machine (deal, betting, draw, …, showdown, complete). The other
modules are its hooks, one per stage or concept, each checking and applying what the dealer
enters in that stage: ``dealing``, ``betting``, ``kills`` (kill pots and their limits),
``openers`` (jackpots), ``chop`` (the blinds chop), ``drawing`` with ``fifth_cards`` and
``stub`` (the draw, the five-card split, burns and reshuffles), ``pots``, ``rake``,
``showdown`` and ``hand_names``; ``instructions`` words what the dealer is told to do.
"""
