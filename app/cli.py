"""The ``adjudicator`` command: serve the app with uvicorn on the configured host and port,
over the bounded HTTP/1.1 protocol of ``app.server``."""

from __future__ import annotations

import uvicorn

from app.server import BOUNDED_PROTOCOL
from app.settings import Settings


def main() -> None:
    settings = Settings()
    uvicorn.run(
        "app.main:app",
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        workers=settings.workers,
        timeout_graceful_shutdown=int(max(1, settings.shutdown_grace_seconds)),
        http=BOUNDED_PROTOCOL,
        ws="none",  # no WebSocket routes: an Upgrade request is answered as plain HTTP
        timeout_keep_alive=settings.keep_alive_seconds,  # type: ignore[arg-type]
        proxy_headers=False,
        server_header=False,  # no `server: uvicorn`: nothing to fingerprint
    )


if __name__ == "__main__":
    main()
