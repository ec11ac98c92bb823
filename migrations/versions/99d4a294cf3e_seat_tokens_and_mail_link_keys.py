"""seat_tokens, seat_links: further bearer tokens of a seat, and the mail link keys that make them

Revision ID: 99d4a294cf3e
Revises: e4a7c2b91f05
Create Date: 2026-11-24 13:39:30.454337

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '99d4a294cf3e'
down_revision = 'e4a7c2b91f05'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'seat_links',
        sa.Column('key_hash', sa.String(length=64), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seat_links_game_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('key_hash', name=op.f('pk_seat_links')))
    op.create_index('ix_seat_links_game_id', 'seat_links', ['game_id'], unique=False)
    op.create_table(
        'seat_tokens',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('label', sa.String(length=40), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seat_tokens_game_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_seat_tokens')),
        sa.UniqueConstraint('token_hash', name=op.f('uq_seat_tokens_token_hash')))
    op.create_index('ix_seat_tokens_game_id_seat', 'seat_tokens', ['game_id', 'seat'], unique=False)


def downgrade():
    op.drop_index('ix_seat_tokens_game_id_seat', table_name='seat_tokens')
    op.drop_table('seat_tokens')
    op.drop_index('ix_seat_links_game_id', table_name='seat_links')
    op.drop_table('seat_links')
