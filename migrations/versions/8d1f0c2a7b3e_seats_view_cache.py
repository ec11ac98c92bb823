"""seats.view_version, seats.view_body: each seat's view stored with every change

Revision ID: 8d1f0c2a7b3e
Revises: 51eacbc156cd
Create Date: 2026-11-23 00:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8d1f0c2a7b3e'
down_revision = '51eacbc156cd'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('view_version', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('view_body', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('view_body')
        batch_op.drop_column('view_version')
