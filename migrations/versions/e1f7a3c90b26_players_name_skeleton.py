"""players.name_skeleton: the TR39 skeleton of a player's name, unique, so no name passes for
another (issue 26)

Revision ID: e1f7a3c90b26
Revises: c5d2e8f41a93
Create Date: 2026-11-26 07:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e1f7a3c90b26'
down_revision = 'c5d2e8f41a93'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_skeleton', sa.String(length=160), nullable=True))
    # Existing accounts get their skeleton, the oldest first; a later account whose name looks like an
    # older one's keeps its name with no skeleton (null), rather than the upgrade failing.
    from service.players.names import skeleton
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('name', sa.String),
                       sa.column('name_skeleton', sa.String))
    connection, seen = op.get_bind(), set()
    for player_id, name in connection.execute(sa.select(players.c.id, players.c.name).order_by(players.c.id)).all():
        key = skeleton(name)[:160]
        if key not in seen:
            seen.add(key)
            connection.execute(players.update().where(players.c.id == player_id).values(name_skeleton=key))
    # A unique index, not a constraint: SQLite cannot add a constraint without copying the table, and
    # dropping the old `players` with foreign keys on would delete every row that points at it.
    op.create_index('ix_players_name_skeleton', 'players', ['name_skeleton'], unique=True)


def downgrade():
    op.drop_index('ix_players_name_skeleton', table_name='players')
    with op.batch_alter_table('players', schema=None, recreate='never') as batch_op:  # in place, as above
        batch_op.drop_column('name_skeleton')
