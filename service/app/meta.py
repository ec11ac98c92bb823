"""Service routes that are not about games: liveness (/health), readiness (/ready) and the
human-readable docs page."""
from __future__ import annotations

import marshmallow as ma
from flask import Response, request
from flask_smorest import Blueprint
from marshmallow import fields as f
from marshmallow import validate as v
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.routing import Rule

from ..core import database
from ..core.errors import CATALOGUE, PROBLEM_MEDIA_TYPE, Problem, status_phrase
from ..core.extensions import api, db
from ..core.fields import doc
from ..core.web import problems
from ..site.docs_page import render
from . import readiness

meta = Blueprint("service", __name__, description="Health and documentation")


class HealthSchema(ma.Schema):
    status = f.String(required=True, validate=v.OneOf(("ok",)), **doc("ok when the database answers", example="ok"))
    database = f.String(required=True, **doc("The database dialect answering", example="sqlite"))


@meta.route("/health", methods=["GET"])
@meta.doc(operationId="getHealth")
@meta.response(200, HealthSchema)
@problems(meta, "database-unavailable", "database-not-migrated", limited=False)
def health():
    """Whether the database answers (503 problem if not)."""
    try:
        return {"status": "ok", "database": database.ping()}
    except SQLAlchemyError as exc:
        raise Problem("database-unavailable", f"the database does not answer ({type(exc).__name__})") from None


class ReadySchema(ma.Schema):
    status = f.String(required=True, validate=v.OneOf(("ready",)), **doc("ready: send this process traffic",
                                                                        example="ready"))
    database = f.String(required=True, **doc("The database dialect answering", example="postgresql"))


@meta.route("/ready", methods=["GET"])
@meta.doc(operationId="getReady")
@meta.response(200, ReadySchema)
@problems(meta, "not-ready", limited=False)
def ready():
    """Whether to send this process traffic: the database answers, its schema is at the code's
    migration head and the wake-up listener is listening; else 503 `not-ready`, whose `failing`
    names each check that failed (database, schema, wakeup) with what is wrong."""
    wrong = readiness.failing()
    if wrong:
        raise Problem("not-ready", "not ready: " + "; ".join(wrong.values()), failing=wrong,
                      headers={"Retry-After": "5"})
    return {"status": "ready", "database": db.engine.dialect.name}


# Both named: text/yaml is what code generators that know no application/yaml read as text.
YAML_MEDIA_TYPES = ("application/yaml", "text/yaml")


@meta.route("/openapi.yaml", methods=["GET"])
@meta.doc(operationId="getOpenapiYaml", responses={200: {
    "description": "The contract in YAML: the same document as /openapi.json. application/yaml "
                   "(RFC 9512), or text/yaml when the request's Accept prefers it",
    "content": {media: {} for media in YAML_MEDIA_TYPES}}})  # no schema: parsed, it is this document
def openapi_yaml():
    """The contract as YAML, as checked in at the top of the repository (openapi.yaml)."""
    media = request.accept_mimetypes.best_match(YAML_MEDIA_TYPES, default=YAML_MEDIA_TYPES[0])
    return Response(api.spec.to_yaml(), mimetype=media)


@meta.route("/docs", methods=["GET"])
@meta.doc(operationId="getDocs", responses={200: {"description": "An HTML page listing every operation and problem code",
                           "content": {"text/html": {"schema": {"type": "string"}}}}})
def docs():
    """This page: every operation and problem code, from the same spec as /openapi.json."""
    return Response(render_docs(api.spec.to_dict()), mimetype="text/html")


def render_docs(spec: dict) -> str:
    """A self-contained page (no scripts, no CDN) listing the spec's operations: site/docs_page.py."""
    return render(spec)


def document_metrics(spec) -> None:
    """GET /metrics is served by service/core/metrics.py at METRICS_PATH, not by this blueprint (a
    blueprint's paths are fixed): its operation, at the default path, is written into the spec here."""
    code = "metrics-forbidden"
    status, summary = CATALOGUE[code]
    problem = {"type": f"/docs#problem-{code}", "title": status_phrase(status), "status": status,
               "detail": summary, "code": code}
    spec.path(rule=Rule("/metrics"), operations={"get": {
        "operationId": "getMetrics", "tags": ["service"],
        "summary": "Prometheus metrics, summed over every worker process (METRICS_PATH moves it).",
        "description": "Answered only to a loopback client or to `Authorization: Bearer` METRICS_TOKEN; "
                       "METRICS_ENABLED=false turns it off (404). The metrics are listed in docs/operations.md.",
        "responses": {
            "200": {"description": "The Prometheus text exposition format, version 0.0.4",
                    "content": {"text/plain": {"schema": {"type": "string"}}}},
            str(status): {"description": f"`{code}`: {summary}", "content": {PROBLEM_MEDIA_TYPE: {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "examples": {code: {"summary": summary, "value": problem}}}}},
            "default": {"$ref": "#/components/responses/DEFAULT_ERROR"}}}})
