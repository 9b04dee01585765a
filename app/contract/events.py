"""A game's event stream as server and clients both count it: how often a quiet stream speaks,
how long a browser waits before it reconnects, and how long a client may wait for a line.

Declared once here, for the service (``app.api.games.events``, its ``event_keep_alive_seconds``
setting defaulting to ``KEEP_ALIVE_SECONDS``) and for every client: the OpenAPI document carries
the keep-alive numbers (``x-sse-keep-alive-seconds``, ``x-sse-keep-alives-missed`` on the
stream's media type), which the Python client is generated from (clients/python/generate.py),
and the page's ``EventSource`` takes ``RECONNECT_MS`` from the stream's ``retry:`` field.
"""

from __future__ import annotations

# A quiet stream (no change of its game) sends a keep-alive comment at least this often.
KEEP_ALIVE_SECONDS = 15.0
# The stream's ``retry:`` field: how long an EventSource waits before it reconnects (ms).
RECONNECT_MS = 3000
# How many keep-alive intervals a client waits for a line before it takes the stream for dead:
# one lost keep-alive is no reason to reconnect.
KEEP_ALIVES_MISSED = 3
