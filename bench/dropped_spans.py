"""Spans made as the service makes them, then dropped: what tracing costs
without a collector's. :mod:`bench.tracing` traces the service with it and
:mod:`bench.floor` the round alone, so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult


class DroppingExporter(SpanExporter):
    """Takes every batch of spans and drops it."""

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return SpanExportResult.SUCCESS


def traced_provider() -> TracerProvider:
    """The SDK's provider as the service builds it, its batches dropped."""
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(DroppingExporter()))
    return provider
