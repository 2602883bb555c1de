"""The engine's values: commands, the table state and its codec, house rules, games, rule IDs.

Everything else in ``rules`` reads and writes these; they import nothing else of ``rules``.
``actions`` (the dealer's commands), ``ruling_commands`` (the floor's), ``state`` (the frozen
table, hand and seat state and its JSON), ``journal`` (the current hand's accepted commands),
``house_rules`` (a profile's options), ``variants`` (the games as data), ``violations`` (rule
IDs, ``RuleViolation``, ``Notice``) and ``rule_titles`` (the rule book's words for each ID).
"""
