"""Database plumbing: the embedded PostgreSQL used when ``DATABASE_URL`` is unset."""
