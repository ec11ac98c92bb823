"""Service routes that are not about games: the health check and the human-readable docs page."""
from __future__ import annotations

import marshmallow as ma
from flask import Response, request
from flask_smorest import Blueprint
from marshmallow import fields as f
from marshmallow import validate as v
from sqlalchemy.exc import SQLAlchemyError

from ..core import database
from ..core.errors import Problem
from ..core.extensions import api
from ..core.fields import doc
from ..core.web import problems
from ..site.docs_page import render

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
