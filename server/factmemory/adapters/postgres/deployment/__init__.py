"""Where the database is and how it is laid out: its URL or the embedded server, migrations, the read replica,
Citus, health."""
