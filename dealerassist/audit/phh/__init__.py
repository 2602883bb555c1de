"""PHH hand histories (phh.readthedocs.io): our exports out, recorded hands in.

``model`` (``HandHistory``: one hand, typed, in PHH's terms), ``codec`` (``loads`` and
``dumps``: the model and its text both ways), ``toml`` (the TOML of PHH files), ``numbering``
(PHH's players and our seats both ways), ``writer`` (a hand record, ``audit.hands``, as a
model and as text) and ``reader`` (a model as the engine commands that replay it).
"""
