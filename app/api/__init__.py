"""The HTTP edge: routers and their schemas. Parse, call the rules, render — nothing more."""
