"""``adjudicator-bot``: a program on the bot author's machine — an engine that speaks Gomocup's
brain protocol (gomoku, renju, k in a row) or the NBoard protocol (Othello) — plays through the
service as a player: it seeks games or accepts challenges, plays the games of its player
(tournaments' too), and says in one line per game what happened.

Its rooms, from the engine up: ``engine`` (the engine's process, started again when it dies),
``gomocup`` and ``nboard`` (each protocol's adapter: what the engine is told and what its
answers mean), ``positions`` (the service's states and move records as each protocol's
positions and clocks), ``game`` (one game followed and played to its end), ``lobby`` (the
player's event stream, seeks and challenges) and ``cli`` (the command line).
"""
