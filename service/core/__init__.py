"""The core: what every feature builds on, and which knows no feature.

    config.py, settings.py     configuration from the environment; settings with defaults
    extensions.py              the Flask extensions, unbound (database, migrations, the API)
    database.py, driver_sql.py SQLite's and PostgreSQL's set-up; statements as driver SQL
    errors.py                  problem documents, the catalogue of problem codes, error handlers
    web.py, lean_parser.py     HTTP details the routes share: bearer tokens, ETags, JSON bodies
    fields.py, openapi.py      schema fields and validators; what openapi.yaml needs beyond them
    tokens.py, fastjson.py     secrets and their hashes; JSON on the hot paths
    wakeup.py                  waking waiters on every process, on any host
    hangup.py                  noticing at once that a waiting client closed its connection
    limits.py, server.py       rate limits; the gunicorn worker
    metrics.py, logs.py        Prometheus metrics at /metrics; JSON log lines and the request id
    hooks.py                   Registry, the extension points features offer each other
    pool.py                    the connection budget: the pool's size, its waits, 503 on a timeout

It imports the engine (service.rules) and libraries only.
"""
