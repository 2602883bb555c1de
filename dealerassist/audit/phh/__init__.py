"""PHH hand histories (phh.readthedocs.io): our exports out, recorded hands in.

``writer`` (a hand record, ``audit.hands``, as PHH text) and ``reader`` (PHH text as a
``HandHistory`` and the engine commands that replay it).
"""
