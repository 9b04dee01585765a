"""The archive: finished games kept in a database (SQLite embedded, PostgreSQL for many
processes) through SQLAlchemy's asyncio core, its schema made by Alembic's migrations.

``Archive`` (``archive.py``) writes a finished game once however often it is given, and reads
pages of summaries, a game's records and every game of a filter in turn; ``tables.py`` declares
the tables; ``migrate.py`` brings a database to the newest schema (``adjudicator db upgrade``).
Like the live stores it knows no kind: a game comes to it as its summary and its records,
written by the service (``app.api.archive``).
"""
