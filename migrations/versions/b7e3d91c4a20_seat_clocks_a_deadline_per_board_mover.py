"""seat_clocks: at a table, every seat to move has its own deadline (issue 14)

Revision ID: b7e3d91c4a20
Revises: 54fce5543cf6
Create Date: 2026-11-24 20:15:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7e3d91c4a20'
down_revision = '54fce5543cf6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('seat_clocks',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('turn_started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('reminder_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('reminded', sa.Boolean(), nullable=False),
    sa.Column('expiry_noticed', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'seat')
    )
    with op.batch_alter_table('seat_clocks', schema=None) as batch_op:
        batch_op.create_index('ix_seat_clocks_deadline_at', ['deadline_at'], unique=False)
        batch_op.create_index('ix_seat_clocks_reminder_at', ['reminder_at'], unique=False)


def downgrade():
    with op.batch_alter_table('seat_clocks', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_clocks_reminder_at')
        batch_op.drop_index('ix_seat_clocks_deadline_at')
    op.drop_table('seat_clocks')
