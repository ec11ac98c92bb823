"""seat_rematches: a rematch between seats that are not both players' (issue 24)

Revision ID: a8c41d2e9b70
Revises: f3a9c2d71e55
Create Date: 2026-11-26 04:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a8c41d2e9b70'
down_revision = 'f3a9c2d71e55'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('seat_rematches',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('rematch_id', sa.String(length=32), nullable=False),
    sa.Column('offered_by', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['rematch_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id')
    )


def downgrade():
    op.drop_table('seat_rematches')
