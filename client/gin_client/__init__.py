"""gin_client: the correspondence Gin Rummy service's client, which needs only `requests` and
imports nothing of the service (`pip install ./client`).

    api.py    the HTTP API for Python programs: `from gin_client.api import Api, views`
    cli/      the `gin` command (main.py: its arguments; the modules its commands are made of)
    bots/     the reference bot (reference.py), the account bot (account.py, the `gin-bot` command)
              and its pool of thinking processes (thinking.py), the house bot's levels (levels.py)
              with its table model (model.py) and look-ahead (search.py)
    demo.py   two bots play a whole match (`python -m gin_client.demo`; it starts the service when
              that is installed too, or plays on a running server with --server URL)

The layers run one way: api <- cli <- bots <- demo (pyproject.toml's import-linter contracts).
"""
