"""Move adjudication service: Reversi/Othello and n × n tic-tac-toe refereed over HTTP."""
