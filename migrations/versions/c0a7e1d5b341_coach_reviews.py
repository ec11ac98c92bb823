"""reviews, hints_asked and hint_consents: a finished match's review, queued, leased and stored (issue 41)

Revision ID: c0a7e1d5b341
Revises: c9e1a4d7f302
Create Date: 2026-11-29 12:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0a7e1d5b341'
down_revision = 'c9e1a4d7f302'
branch_labels = None
depends_on = None


def upgrade():
    # A new table only: an older release runs on the migrated schema unchanged.
    op.create_table(
        'reviews',
        sa.Column('game_id', sa.String(length=32), sa.ForeignKey('games.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('seed', sa.String(length=64), nullable=False),
        sa.Column('done', sa.Integer(), nullable=False),
        sa.Column('total', sa.Integer(), nullable=True),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('worker', sa.String(length=64), nullable=True),
        sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('queued_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('cpu_seconds', sa.Float(), nullable=True),
        sa.Column('figures', sa.JSON(), nullable=True),
    )
    op.create_index('ix_reviews_status_queued_at', 'reviews', ['status', 'queued_at'])
    op.create_table(
        'hints_asked',
        sa.Column('game_id', sa.String(length=32), sa.ForeignKey('games.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('seat', sa.Integer(), primary_key=True),
        sa.Column('count', sa.Integer(), nullable=False),
    )
    op.create_table(
        'hint_consents',
        sa.Column('game_id', sa.String(length=32), sa.ForeignKey('games.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('seat', sa.Integer(), primary_key=True),
    )


def downgrade():
    op.drop_table('hint_consents')
    op.drop_table('hints_asked')
    op.drop_index('ix_reviews_status_queued_at', table_name='reviews')
    op.drop_table('reviews')
