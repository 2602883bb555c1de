"""The HTTP API: the Flask app factory and one blueprint per resource."""

from dealerassist.api.app import create_app, create_served_app

__all__ = ["create_app", "create_served_app"]
