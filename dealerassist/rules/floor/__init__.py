"""The floor: dealer irregularities and the floor's rulings that correct a hand.

Irregularities the dealer reports: ``exposed`` (a card exposed on the deal), ``exposed_draw``
(on the draw), ``extra_card``, ``boxed_card``. Rulings: ``rulings`` (their effects),
``ruling_options`` (each rule's standard rulings as data) and ``waivers`` (what
``accept_entry`` may lift). They rebuild or amend a hand through ``hand`` and ``table``.
"""
