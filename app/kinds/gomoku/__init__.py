"""Gomoku and renju sessions: five in a row under the rule a game was created with.

The rules are ``app/rules/gomoku.py``'s, the stateless endpoints' own engine: ``freestyle``
(five or more), ``standard`` (exactly five), ``renju`` (15 × 15; Black exactly five and never on
a forbidden point, White five or more; a player may pass, two passes in a row draw) and
``caro`` (six or more, or exactly five not blocked at both ends). Player 1 plays Black and moves
first. A move is adjudicated by reading at most five cells each way from it (renju's forbidden
check reads the windows of the points it asks about, and asks again only one stone later), so
it costs the same on a 15 × 15 board as on a board of a million a side.

An opening is either stones placed before play (the game's first move records) or swap2: player 1
places three stones (Black, White, Black); player 2 chooses a colour, or to place two more
(White, Black) and let player 1 choose one. Until the colours are fixed the state says whose
step it is (``opening``: ``step`` and ``to_act``) and the seats have no colour (``colors``); a
choice is a move of the game (``Swap2Choice``, posted on the choice route), so its receipts,
events and record are a move's. Stones alternate Black and White whoever places them; the
player holding the colour to move moves.

A refused move changes nothing: ``Gomoku.play`` checks the cell, the turn, the step and the rule
before it places anything. Black's forbidden move is refused (409 ``forbidden_move``, with the
shapes that make it so), or, in a game created with ``"foul": "lose"``, accepted and lost
(``reason`` ``foul``).

The moves are a flat ``array`` of (row, col, player, colour) — a pass's row and col are
``PASS``, a choice's row ``CHOICE`` — as tic-tac-toe keeps its moves: 16 bytes a move and
nothing for Python's cycle collector to walk. A position a store rebuilt from ``encode``'s text
holds the stones, the counters and the last move only (its move list holds the others).

The kind is ``kind.py``'s ``KIND``; its rooms: the engine (``position.py``), swap2's opening
(``swap2.py``), a move's array row and text (``moves.py``), the creation body (``creation.py``),
what its answers show (``answers.py``) and the refusals its rules add (``refusals.py``).
"""

from app.kinds.gomoku.kind import KIND

__all__ = ["KIND"]
