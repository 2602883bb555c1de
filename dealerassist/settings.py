"""Settings.from_env(): DEALERASSIST_*, REDIS_URL, DATABASE_URL."""
