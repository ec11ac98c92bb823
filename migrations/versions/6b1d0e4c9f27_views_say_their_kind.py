"""views say their kind: every stored view (seats.view_body, a retried move's answer, a your_turn
event's view) gets the `kind` every new view has, "game" or "table" (issue 25)

A GET answers the stored view as it is, so one stored before `kind` existed would answer without
it until the game next changed. Data only: no column changes.

Revision ID: 6b1d0e4c9f27
Revises: a8c41d2e9b70
Create Date: 2026-11-26 06:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6b1d0e4c9f27'
down_revision = 'a8c41d2e9b70'
branch_labels = None
depends_on = None

_SEATS_OF_GAME = "(SELECT count(*) FROM seats AS others WHERE others.game_id = seats.game_id)"


def _with_kind(view: dict) -> dict:
    """A table's view is the one with `format` (its schema requires it; a two-seat view has none)."""
    return {"kind": "table" if "format" in view else "game", **view}


def upgrade():
    # The stored text is served as it is: put the key first, as new views have it, leaving the rest.
    op.execute(f"""UPDATE seats SET view_body = '{{"kind":"' ||
                   CASE WHEN {_SEATS_OF_GAME} > 2 THEN 'table' ELSE 'game' END || '",' || substr(view_body, 2)
                   WHERE view_body LIKE '{{%' AND view_body NOT LIKE '{{"kind":%'""")
    connection = op.get_bind()
    events = sa.table("player_events", sa.column("id", sa.Integer), sa.column("type", sa.String),
                      sa.column("payload", sa.JSON))
    for row in connection.execute(sa.select(events.c.id, events.c.payload).where(events.c.type == "your_turn")).all():
        view = (row.payload or {}).get("view")
        if isinstance(view, dict) and "kind" not in view:
            connection.execute(events.update().where(events.c.id == row.id)
                               .values(payload={**row.payload, "view": _with_kind(view)}))
    answers = sa.table("idempotency_records", sa.column("id", sa.Integer), sa.column("response", sa.JSON))
    for row in connection.execute(sa.select(answers.c.id, answers.c.response)).all():
        if isinstance(row.response, dict) and "version" in row.response and "kind" not in row.response:
            connection.execute(answers.update().where(answers.c.id == row.id)
                               .values(response=_with_kind(row.response)))


def downgrade():
    pass  # an older service ignores the key it does not know
