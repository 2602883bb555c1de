"""Composition root: picks the concrete adapters (the only place that does)."""
