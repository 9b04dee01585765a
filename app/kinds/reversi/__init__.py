"""Reversi / Othello sessions: the service holds the board, a move is legal only if it brackets.

The rules are ``app/rules/reversi.py``'s (the stateless endpoints' own engine). Player 1 is
Black (``B``) and player 2 White (``W``). After a move the opponent moves if it can; if it cannot,
the mover moves again and the move is recorded with ``passed``; if neither can, the game is over
and the one with more stones wins (``no_moves``), or it is a draw.

A move record carries its ``flips`` (sorted by (row, col)) and ``passed`` as its facts, and the
score right after it (``Move.state_facts``), from which its answer is rebuilt later (an
idempotent replay, an event stream's history). A board has at most 32 × 32 cells, so a game has
at most 1,020 moves. Records are kept as their text (``ReversiKind.encode_move``), one string a
move: nothing for Python's cycle collector to walk, as tic-tac-toe keeps a flat array (with an
object graph per move, thousands of games made every full collection show in the p99). The
text is written when the records are first read, not when the move is played: a session reads
its last move right after playing it (for its state), so its moves are written one at a time,
and that last one is answered as played rather than decoded; an audit, which replays a whole
game and reads only its end, never writes them.

The kind is ``kind.py``'s ``KIND``; its rooms: how Othello players write squares and a game's
moves (``moves.py``) and the stateless questions asked of a posted board (``questions.py``:
check-move, legal-moves, apply-move), which its face declares.
"""

from app.kinds.reversi.kind import KIND

__all__ = ["KIND"]
