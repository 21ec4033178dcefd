"""Numbered migrations, applied in order by :meth:`bot.store.db.Database.migrate`:
``NNNN_name.sql`` (SQL statements) or ``NNNN_name.py`` (a module with
``async def migrate(conn: Connection) -> None``). See :class:`bot.store.db.Migration`."""
