"""RQ job functions and the audit worker entry."""
