"""Live game sessions of every kind: the generic session, the kinds, and the game stores."""
