"""What the service says to its clients, free of the web framework: the problems it answers
with, the shapes of its answers, the fields its bodies are made of. Nothing here imports FastAPI
or Starlette. Clients read it through the OpenAPI document it becomes (the Python client is
generated from ``openapi/openapi.json``: clients/python/generate.py), never by importing it."""
