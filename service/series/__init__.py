"""Tournament and series play (issue 14): a parent record linking the games of a series between
two players, each game made when the one before ends, with standings from the engine's Series.

    models.py   series, series_games
Kept import-light: service.models imports .models from here.
"""
from __future__ import annotations
