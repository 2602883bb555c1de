"""The use cases between the HTTP edge and the engine, and the ports they need.

``tables`` (open a table, seat, start a hand, act: read, run the engine, seal, commit),
``rulings`` and ``floor_calls`` (the floor), ``audit`` (verify, exports, verification jobs)
and ``ports`` (the protocols the adapters implement, and the answers).
"""
