"""Game records: their canonical form, hash chain and signatures (``canonical``, ``signing``)."""
