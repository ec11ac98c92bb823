"""Helpers for the hardening tests: the long-run switch, database snapshots, quick games."""
from __future__ import annotations

import json
import os

LONG = os.environ.get("GIN_LONG_TESTS") == "1"  # the long variants: more examples, more games


def scaled(short: int, long: int) -> int:
    return long if LONG else short


def snapshot(app) -> dict[str, list]:
    """Every row of every table, in a stable order: equal snapshots mean nothing was changed."""
    from service.core.extensions import db
    with app.app_context():
        tables = {}
        for table in db.metadata.sorted_tables:
            rows = db.session.execute(table.select()).mappings().all()
            tables[table.name] = sorted(json.dumps(dict(row), sort_keys=True, default=str) for row in rows)
        db.session.rollback()
        return tables


def assert_problem(response, status: int, code: str) -> dict:
    """An RFC 9457 answer with this status and stable code, and no stack trace."""
    assert response.status_code == status, (response.status_code, response.data[:500])
    assert response.mimetype == "application/problem+json", response.mimetype
    problem = response.get_json()
    assert problem["status"] == status and problem["code"] == code, problem
    assert problem["type"] == f"/docs#problem-{code}" and problem["title"] and problem["detail"]
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and 'File "' not in body
    return problem
