"""rematch_seats: a rematch at a table waits for every other seat's acceptance

Revision ID: f3a9c2d71e55
Revises: b7e3d91c4a20
Create Date: 2026-11-24 20:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3a9c2d71e55'
down_revision = 'b7e3d91c4a20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('rematch_seats',
    sa.Column('challenge_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['challenge_id'], ['challenges.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('challenge_id', 'seat')
    )
    with op.batch_alter_table('rematch_seats', schema=None) as batch_op:
        batch_op.create_index('ix_rematch_seats_player_id', ['player_id'], unique=False)


def downgrade():
    with op.batch_alter_table('rematch_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_rematch_seats_player_id')
    op.drop_table('rematch_seats')
