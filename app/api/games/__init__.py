"""Live game sessions over HTTP: the routes and everything they declare, one idea a module.

* ``routes``   the endpoints: create, poll (ETag / 304), move, moves since, one move, board,
               events, delete — each parses, calls the store, renders; ``game_router``
               declares them for an app's kinds
* ``schemas``  request bodies and response shapes, joined from the kinds' faces
* ``render``   session values -> the response shapes (type-checked against them)
* ``params``   the header, path and query parameters, each declared once
* ``links``    OpenAPI links between the operations
* ``events``   the Server-Sent Events stream and its declaration
"""
