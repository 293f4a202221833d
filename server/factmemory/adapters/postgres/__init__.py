"""PostgreSQL: the store, the database source and the migrations."""
