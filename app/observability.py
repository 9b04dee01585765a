"""Request ids and Prometheus metrics (applied to every request by ``app/front.py``), and the
format of the app's log lines.

* ``X-Request-ID``: taken from the request when it is one by its declaration
  (``api/params.REQUEST_ID``: 1–128 visible ASCII characters), else generated
  (``<process prefix>-<counter>``); echoed on the response and attached to every log record of
  the request (``%(request_id)s``).
* Metrics, per process, in the app's own registry (``/metrics``, Prometheus text format):
  requests by route template, method and status; latency histogram by route; moves
  adjudicated; refusals by problem ``code``; games ended by ``reason`` and live games (both
  read from the store at scrape time: it knows when it ends a game, a flag fall included).
* Two safe defaults on every answer (``SAFE_DEFAULTS``): no content sniffing, no Referer.
* Log lines (``configure_logging``): text or one JSON object a line, each with the request id;
  the access log without query values.
"""

from __future__ import annotations

import contextvars
import itertools
import json
import logging
import secrets
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from itertools import accumulate

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from app.api.params import request_id_or_none
from app.settings import Settings

# No ``*_created`` series: they double the output with timestamps that read like counts.
disable_created_metrics()  # type: ignore[no-untyped-call]

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
# Generated ids: a random prefix per process and a counter — unique across processes and
# restarts, and far cheaper than uuid4 per request.
# ``next(NEW_IDS)``: the next one (each made by ``str.format`` in C, no Python call).
NEW_IDS = map((secrets.token_hex(6) + "-{:x}").format, itertools.count(1))


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every log record as ``request_id``."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class EndingsCollector(Collector):
    """``adjudicator_games_ended_total{reason}``: the games this process ended, as its store
    counts them."""

    def __init__(self, endings: Mapping[str, int]) -> None:
        self.endings = endings

    def collect(self) -> Iterator[CounterMetricFamily]:
        family = CounterMetricFamily(
            "adjudicator_games_ended", "Games ended by this process, by reason.", labels=["reason"]
        )
        for reason, count in sorted(self.endings.items()):
            family.add_metric([reason], count)
        yield family


class Metrics:
    """The service's metrics, in a registry of its own (one per app).

    Requests are counted by ``answered`` (``AnsweredCollector``), as the front layer notes
    them (``app/front.py``).
    """

    def __init__(self, endings: Mapping[str, int] | None = None) -> None:
        self.registry = CollectorRegistry()
        self.answered = AnsweredCollector()
        self.registry.register(self.answered)
        self.moves = Counter(
            "adjudicator_moves_adjudicated", "Session moves accepted.", registry=self.registry
        )
        self.refusals = Counter(
            "adjudicator_refusals", "Error answers, by problem code.", ["code"],
            registry=self.registry,
        )  # fmt: skip
        self.live_games = Gauge(
            "adjudicator_live_games", "Games in the store (this process's view).",
            registry=self.registry,
        )  # fmt: skip
        self.archived_games = Gauge(
            "adjudicator_archive_games", "Finished games in the archive (when last counted).",
            registry=self.registry,
        )  # fmt: skip
        self.archive_waiting = Gauge(
            "adjudicator_archive_waiting_games",
            "Finished games waiting in the live store to be archived (counted up to 10,000).",
            registry=self.registry,
        )  # fmt: skip
        self.archive_lag = Gauge(
            "adjudicator_archive_lag_seconds",
            "How long the finished game that has waited longest to be archived has waited.",
            registry=self.registry,
        )  # fmt: skip
        self.archive_written = Gauge(
            "adjudicator_archive_written_games",
            "Finished games this process wrote into the archive since it started.",
            registry=self.registry,
        )  # fmt: skip
        self.registry.register(EndingsCollector(endings if endings is not None else {}))


# The latency histogram's buckets (seconds), and where its last, ``+Inf``, is.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
_INF = len(LATENCY_BUCKETS)
_BOUNDS = (*map(floatToGoString, LATENCY_BUCKETS), "+Inf")  # as the exposition writes them


# Answers noted and not yet counted (``AnsweredCollector``) at most: then they are counted.
ANSWERS_PENDING = 1024


class AnsweredCollector(Collector):
    """``adjudicator_requests_total{route,method,status}`` and the histogram
    ``adjudicator_request_duration_seconds{route}``. A request's answer is noted as one tuple
    appended to ``pending`` — (route, method, status, seconds), the route as the router chose
    it (its template is its ``path``) or None — and counted into plain dicts and lists by
    ``count``: when a scrape collects them, and once ``ANSWERS_PENDING`` wait (~0.3 ms of the
    event loop for 1,024). The event loop's thread alone notes and counts. prometheus-client's
    own ``Counter`` and ``Histogram`` take a lock a count and walk the buckets in Python: a few
    µs a request; counted one at a time here, ~1.4 µs (measured in-process on legal-moves), as a
    batch a fraction of that."""

    def __init__(self) -> None:
        self.pending: list[tuple[object, str, int, float]] = []
        self._counts: dict[tuple[str, str, int], int] = {}
        # By route: how many fell in each bucket (not cumulative; the last: +Inf), and their sum.
        self._latencies: dict[str, tuple[list[int], list[float]]] = {}

    def count(self) -> None:
        """Count the answers noted since the last count."""
        noted = self.pending.copy()
        self.pending.clear()  # the same list: the front layer appends to it
        counts, latencies = self._counts, self._latencies
        for route, method, status, seconds in noted:
            template = getattr(route, "path", None) or "unmatched"
            key = (template, method, status)
            counts[key] = counts.get(key, 0) + 1
            latency = latencies.get(template)
            if latency is None:
                latency = latencies[template] = ([0] * (_INF + 1), [0.0])
            latency[0][bisect_left(LATENCY_BUCKETS, seconds)] += 1
            latency[1][0] += seconds

    def collect(self) -> Iterator[CounterMetricFamily | HistogramMetricFamily]:
        self.count()
        requests = CounterMetricFamily(
            "adjudicator_requests", "HTTP requests answered.", labels=["route", "method", "status"]
        )
        for (route, method, status), count in list(self._counts.items()):
            requests.add_metric([route, method, str(status)], count)
        yield requests
        latency = HistogramMetricFamily(
            "adjudicator_request_duration_seconds", "Time to answer a request.", labels=["route"]
        )
        for route, (counts, total) in list(self._latencies.items()):
            latency.add_metric(
                [route], list(zip(_BOUNDS, accumulate(counts), strict=True)), total[0]
            )
        yield latency


# On every answer, at no cost but the bytes: no content sniffing (a JSON answer is never run as
# script or styled as HTML), and no Referer from our pages to anywhere.
SAFE_DEFAULTS = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))


# The response field that echoes a request's id (and the request field a client may set it in).
REQUEST_ID_FIELD = b"x-request-id"


def request_id_for(incoming: bytes | None) -> str:
    """A request's id: the client's ``X-Request-ID`` (``incoming``, its first) when it is one
    by its declaration, else a new one."""
    if incoming is not None:
        found = request_id_or_none(incoming.decode("latin-1"))
        if found is not None:
            return found
    return next(NEW_IDS)


class JsonLogFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry)


class QueryValuesRedacted(logging.Filter):
    """Access log lines keep a query's parameter names and drop their values: the API takes no
    secret in a query string, but a client may put one there (a token), and logs travel far."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) > 2 and isinstance(args[2], str):
            path, mark, query = args[2].partition("?")
            if mark:
                names = "&".join(part.partition("=")[0] + "=…" for part in query.split("&"))
                record.args = (*args[:2], f"{path}?{names}", *args[3:])
        return True


def configure_logging(settings: Settings) -> None:
    """The app's own log lines carry the request id; text or JSON (ADJUDICATOR_LOG_FORMAT).
    The server's access log (uvicorn's) shows no query values."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, QueryValuesRedacted) for f in access.filters):
        access.addFilter(QueryValuesRedacted())
    logger = logging.getLogger("app")
    if any(getattr(h, "_adjudicator", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler()
    handler._adjudicator = True  # type: ignore[attr-defined]
    handler.addFilter(RequestIdFilter())
    if settings.log_format == "json":
        handler.setFormatter(JsonLogFormatter())
    else:
        handler.setFormatter(
            logging.Formatter("%(levelname)s %(name)s [%(request_id)s] %(message)s")
        )
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
