"""What an operator watches: the Prometheus metrics of each process (``metrics``) and the
structured log lines (``logs``). Imports no Flask, Redis or RQ: the API and the workers
feed it."""
