"""Live game sessions: the Game aggregate, its rule errors, and the GameStore port."""
