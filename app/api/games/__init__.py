"""Live game sessions over HTTP: the routes and everything they declare, one idea a module.

* ``routes``   the endpoints: create, poll (ETag / 304), move, join, the lobby, moves since,
               one move, legal moves, board, events, spectators, rematch, delete — each
               parses, calls the store, renders; ``game_router`` declares them for an app's
               kinds
* ``actions``  a player's actions besides moving (resign, draw, abort, takeback, give time)
* ``access``   what a route asks of a request first: the store, a token checked, a read
               allowed, a store outage told apart by whether the change may have applied
* ``names``    the names of a game's cells, kept by game id
* ``schemas``  request bodies and response shapes, joined from the kinds' faces
* ``params``   the header, path and query parameters, each declared once
* ``links``    OpenAPI links between the operations
* ``events``   the Server-Sent Events stream and its declaration
* ``examples`` the routes' example answers, made by playing
* ``streams``  each game's and client's event streams, bounded
"""
