"""The machinery of the live-load benchmarks (``benchmarks/live_load.py``, and
``benchmarks/casual_load.py`` reuses its server, database and client parts): the server under
test and its CPU, the scratch database, the HTTP + SSE clients, the bots, the load phases and
the figures. Each benchmark is a command in ``benchmarks/`` that puts these together."""
