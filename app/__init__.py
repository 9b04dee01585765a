"""Move adjudication service: Reversi/Othello, n × n tic-tac-toe, gomoku and renju over HTTP."""
