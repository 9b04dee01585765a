"""The ``adjudicator`` command: serve the app with uvicorn on the configured host and port."""

from __future__ import annotations

import uvicorn

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
        proxy_headers=False,
        server_header=False,  # no `server: uvicorn`: nothing to fingerprint
    )


if __name__ == "__main__":
    main()
