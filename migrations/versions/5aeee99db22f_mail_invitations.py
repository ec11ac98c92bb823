"""mail_invitations: games started and joined by mail (invitation limits, join+/start+ secrets)

Revision ID: 5aeee99db22f
Revises: 99d4a294cf3e
Create Date: 2026-11-24 14:19:01.940288

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5aeee99db22f'
down_revision = '99d4a294cf3e'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('mail_invitations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=True),
    sa.Column('sender', sa.String(length=254), nullable=True),
    sa.Column('client', sa.String(length=64), nullable=True),
    sa.Column('invitee', sa.String(length=254), nullable=False),
    sa.Column('inviter_name', sa.String(length=40), nullable=True),
    sa.Column('rules', sa.Text(), nullable=True),
    sa.Column('start_hash', sa.String(length=64), nullable=True),
    sa.Column('join_hash', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_mail_invitations_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mail_invitations')),
    sa.UniqueConstraint('join_hash', name=op.f('uq_mail_invitations_join_hash')),
    sa.UniqueConstraint('start_hash', name=op.f('uq_mail_invitations_start_hash'))
    )
    with op.batch_alter_table('mail_invitations', schema=None) as batch_op:
        batch_op.create_index('ix_mail_invitations_client_created_at', ['client', 'created_at'], unique=False)
        batch_op.create_index('ix_mail_invitations_game_id', ['game_id'], unique=False)
        batch_op.create_index('ix_mail_invitations_sender_created_at', ['sender', 'created_at'], unique=False)



def downgrade():
    with op.batch_alter_table('mail_invitations', schema=None) as batch_op:
        batch_op.drop_index('ix_mail_invitations_sender_created_at')
        batch_op.drop_index('ix_mail_invitations_game_id')
        batch_op.drop_index('ix_mail_invitations_client_created_at')

    op.drop_table('mail_invitations')
