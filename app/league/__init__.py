"""The league's pure algorithms: Glicko-2 ratings, round robins by the Berger tables, Swiss
rounds by the Dutch system, standings with their tie-breaks, and the FIDE TRF-16 report. No I/O
and nothing else of the house: the edge and the archive hand these plain data and keep what they
answer."""
