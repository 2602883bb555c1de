"""The browser pages (``web/``): dealer tablet, floor console and audit page.

Plain clients of ``/v1``: the pages hold no data and no business logic; see ``pages``.
"""
