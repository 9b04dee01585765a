"""Live game sessions over HTTP: the routes and everything they declare, one idea a module.

* ``routes``   the endpoints: create, poll (ETag / 304), move, moves since, one move, board,
               events, delete — each parses, calls the store, renders
* ``schemas``  request bodies and response shapes, each declared once
* ``render``   session values -> the response shapes (type-checked against them)
* ``params``   the header, path and query parameters, each declared once
* ``links``    OpenAPI links between the operations
* ``events``   the Server-Sent Events stream and its declaration
"""

from app.api.games.routes import router

__all__ = ["router"]
