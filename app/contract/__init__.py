"""What the service and its clients share, free of the server: the problems it answers with,
the shapes of its answers, the fields its bodies are made of. Nothing here imports FastAPI or
Starlette (``app.client`` is built on this package alone)."""
