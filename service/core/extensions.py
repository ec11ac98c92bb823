"""The Flask extensions, unbound: create_app binds them to an app."""
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData

from . import lean_parser  # noqa: F401  (the arguments parser of every blueprint)
from .errors import ProblemApi

# Named constraints, so that migrations can alter them on every database (SQLite batch mode too).
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# expire_on_commit off: a route still reads the game it just saved (its version for the ETag)
# after the commit, and reloading it would open a second transaction, a locking one on SQLite.
db = SQLAlchemy(metadata=MetaData(naming_convention=NAMING), session_options={"expire_on_commit": False})
migrate = Migrate()
api = ProblemApi()
