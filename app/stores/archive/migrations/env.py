"""Alembic's environment: migrations run on the connection ``app.stores.archive.migrate`` gives
(the archive's own, in its transaction); there is no offline mode."""

from alembic import context

from app.stores.archive.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the archive's migrations with `adjudicator db upgrade`")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
