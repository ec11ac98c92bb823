"""players: names every address can hold, and looser look-alike keys (issue 38): a name holding `/` or
`\\`, or only dots, is renamed (its characters replaced by `-`, the id added when that is taken), and
every name_skeleton is computed again with players/names.py's looser skeleton, the oldest account
first (a later one whose name now looks like an older one's keeps its name, its skeleton null).

Data only: the code of the release before reads and writes these columns as they were.

Revision ID: f3a9c1d27e54
Revises: c0a7e1d5b341
Create Date: 2026-11-29 12:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3a9c1d27e54'
down_revision = 'c0a7e1d5b341'
branch_labels = None
depends_on = None

PLAYERS = sa.table('players', sa.column('id', sa.Integer), sa.column('name', sa.String),
                   sa.column('name_key', sa.String), sa.column('name_skeleton', sa.String))


def _routable(name: str, player_id: int, keys: set) -> str:
    fixed = name.replace('/', '-').replace('\\', '-')
    if not fixed.strip('.'):
        fixed = 'player'
    if fixed.casefold() in keys:
        fixed = f"{fixed[:30]}-{player_id}"
    return fixed[:40]


def upgrade():
    from service.players.names import skeleton
    connection = op.get_bind()
    rows = connection.execute(sa.select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.name_key)
                              .order_by(PLAYERS.c.id)).all()
    keys = {key for _, _, key in rows}
    named = {}
    for player_id, name, key in rows:
        if '/' in name or '\\' in name or not name.strip('.'):
            new = _routable(name, player_id, keys)
            keys.discard(key)
            keys.add(new.casefold())
            connection.execute(PLAYERS.update().where(PLAYERS.c.id == player_id)
                               .values(name=new, name_key=new.casefold()))
            name = new
        named[player_id] = name
    # Skeletons again, in two steps so that the unique index never sees two rows with one key.
    connection.execute(PLAYERS.update().values(name_skeleton=None))
    seen = set()
    for player_id, name in named.items():
        key = skeleton(name)[:160]
        if key not in seen:
            seen.add(key)
            connection.execute(PLAYERS.update().where(PLAYERS.c.id == player_id).values(name_skeleton=key))


def downgrade():
    pass  # the renamed keep their names; the looser skeletons stay (the older code compares with them alike)
