"""push_subscriptions: browsers subscribed to Web Push for a seat or a player, and contacts.push_mode,
whether a seat's subscriptions are told (issue 39)

Revision ID: b7d2e4f6a813
Revises: 6e46c8739cfb
Create Date: 2026-12-10 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d2e4f6a813'
down_revision = '6e46c8739cfb'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'push_subscriptions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=True),
        sa.Column('seat', sa.Integer(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('endpoint', sa.String(length=1000), nullable=False),
        sa.Column('p256dh', sa.String(length=100), nullable=False),
        sa.Column('auth', sa.String(length=40), nullable=False),
        sa.Column('vapid_key', sa.String(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint('(game_id IS NULL) <> (player_id IS NULL)', name=op.f('ck_push_subscriptions_owner')),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_push_subscriptions_game_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_push_subscriptions')),
    )
    with op.batch_alter_table('push_subscriptions', schema=None) as batch_op:
        batch_op.create_index('ux_push_subscriptions_seat', ['game_id', 'seat', 'endpoint'], unique=True)
        batch_op.create_index('ux_push_subscriptions_player', ['player_id', 'endpoint'], unique=True)
        batch_op.create_index('ix_push_subscriptions_endpoint', ['endpoint'], unique=False)
    # recreate="never": a plain ALTER TABLE ADD COLUMN with a default (the code before it never reads it).
    with op.batch_alter_table('contacts', schema=None, recreate='never') as batch_op:
        batch_op.add_column(sa.Column('push_mode', sa.String(length=8), nullable=False, server_default='turn'))


def downgrade():
    with op.batch_alter_table('contacts', schema=None) as batch_op:
        batch_op.drop_column('push_mode')
    with op.batch_alter_table('push_subscriptions', schema=None) as batch_op:
        batch_op.drop_index('ix_push_subscriptions_endpoint')
        batch_op.drop_index('ux_push_subscriptions_player')
        batch_op.drop_index('ux_push_subscriptions_seat')
    op.drop_table('push_subscriptions')
