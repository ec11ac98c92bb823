"""schema_revisions: every revision the database's schema includes, so that code a release behind
can tell a database migrated past it (ready: expand-then-contract) from one behind or diverged (issue 37)

Revision ID: b2e4f6a8c0d1
Revises: a8c4e6f2d917
Create Date: 2026-11-29 08:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b2e4f6a8c0d1'
down_revision = 'a8c4e6f2d917'
branch_labels = None
depends_on = None


def upgrade():
    # Filled after every step by migrations/env.py (service.core.database.record_revisions),
    # this one's included.
    op.create_table('schema_revisions',
                    sa.Column('revision', sa.String(length=32), nullable=False),
                    sa.PrimaryKeyConstraint('revision'))


def downgrade():
    op.drop_table('schema_revisions')
