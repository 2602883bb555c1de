"""Reading Prometheus's text format in the tests (prometheus_client's own parser)."""

from __future__ import annotations

from collections.abc import Mapping

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    """Every sample of an exposition: (name, labels) -> value."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found: Samples, name: str, labels: Mapping[str, str] | None = None) -> float:
    """One sample's value (0 when absent: a counter not counted yet)."""
    return found.get((name, frozenset((labels or {}).items())), 0.0)


def names(text: str) -> set[str]:
    """The metric family names and sample names of an exposition."""
    found: set[str] = set()
    for family in text_string_to_metric_families(text):
        found.add(family.name)
        found.update(sample.name for sample in family.samples)
    return found
