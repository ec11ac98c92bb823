"""mail_addresses, mail_confirmations: mail goes only to addresses their owners confirmed

Revision ID: e4a7c2b91f05
Revises: 8d1f0c2a7b3e
Create Date: 2026-11-24 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e4a7c2b91f05'
down_revision = '8d1f0c2a7b3e'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('mail_addresses',
    sa.Column('address', sa.String(length=254), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('stopped_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('address')
    )
    op.create_table('mail_confirmations',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('address', sa.String(length=254), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=True),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('client', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('token_hash')
    )
    with op.batch_alter_table('mail_confirmations', schema=None) as batch_op:
        batch_op.create_index('ix_mail_confirmations_address_created_at', ['address', 'created_at'], unique=False)
        batch_op.create_index('ix_mail_confirmations_client_created_at', ['client', 'created_at'], unique=False)
        batch_op.create_index('ix_mail_confirmations_game_id', ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('mail_confirmations', schema=None) as batch_op:
        batch_op.drop_index('ix_mail_confirmations_game_id')
        batch_op.drop_index('ix_mail_confirmations_client_created_at')
        batch_op.drop_index('ix_mail_confirmations_address_created_at')
    op.drop_table('mail_confirmations')
    op.drop_table('mail_addresses')
