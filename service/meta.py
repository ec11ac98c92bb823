"""Service routes that are not about games: the health check and the human-readable docs page."""
from __future__ import annotations

import re
from html import escape

from flask import Response
from flask_smorest import Blueprint
from sqlalchemy.exc import SQLAlchemyError

from . import database
from .errors import CATALOGUE, Problem
from .extensions import api
from .schemas import HealthSchema
from .web import problems

meta = Blueprint("service", __name__, description="Health and documentation")


@meta.route("/health", methods=["GET"])
@meta.response(200, HealthSchema)
@problems(meta, "database-unavailable", "database-not-migrated")
def health():
    """Whether the database answers (503 problem if not)."""
    try:
        return {"status": "ok", "database": database.ping()}
    except SQLAlchemyError as exc:
        raise Problem("database-unavailable", f"the database does not answer ({type(exc).__name__})") from None


@meta.route("/openapi.yaml", methods=["GET"])
@meta.doc(responses={200: {"description": "The contract in YAML: the same document as /openapi.json",
                           "content": {"application/yaml": {"schema": {"type": "object"}}}}})
def openapi_yaml():
    """The contract as YAML, as checked in at the top of the repository (openapi.yaml)."""
    return Response(api.spec.to_yaml(), mimetype="application/yaml")


@meta.route("/docs", methods=["GET"])
@meta.doc(responses={200: {"description": "An HTML page listing every operation and problem code",
                           "content": {"text/html": {"schema": {"type": "string"}}}}})
def docs():
    """This page: every operation and problem code, from the same spec as /openapi.json."""
    return Response(render_docs(api.spec.to_dict()), mimetype="text/html")


def render_docs(spec: dict) -> str:
    """A self-contained page (no scripts, no CDN) listing the spec's operations."""
    parts = [f"<h1>{escape(spec['info']['title'])} {escape(spec['info']['version'])}</h1>",
             '<p>The machine-readable contract: <a href="/openapi.json">/openapi.json</a> '
             'or <a href="/openapi.yaml">/openapi.yaml</a> (also checked in as openapi.yaml). '
             "Authenticated operations take "
             "<code>Authorization: Bearer &lt;seat token&gt;</code>. Errors are RFC 9457 problem "
             "documents (<code>application/problem+json</code>) with a stable <code>code</code>.</p>",
             "<h2>Operations</h2>"]
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            if method == "parameters":
                continue
            anchor = re.sub(r"[^a-z0-9]+", "-", f"{method} {path}".lower()).strip("-")
            parts.append(f'<h3 id="{anchor}"><code>{method.upper()} {escape(path)}</code></h3>'
                         f"<p>{_text(op.get('summary', ''))} {_text(op.get('description', ''))}</p>")
            params = [p for p in op.get("parameters", []) if isinstance(p, dict) and "name" in p]
            if params:
                parts.append("<p>Parameters: " + ", ".join(
                    f"<code>{escape(p['name'])}</code> ({escape(p['in'])})" for p in params) + "</p>")
            responses = sorted(op.get("responses", {}).items(), key=lambda item: str(item[0]))
            parts.append("<ul>" + "".join(
                f"<li><b>{escape(str(status))}</b> "
                f"{_text(resp.get('description', 'any error: a problem document'))}</li>"
                for status, resp in responses) + "</ul>")
    parts.append("<h2>Problem codes</h2><table><tr><th>code</th><th>status</th><th>meaning</th></tr>")
    parts += [f'<tr id="problem-{code}"><td><code>{code}</code></td><td>{status}</td><td>{escape(text)}</td></tr>'
              for code, (status, text) in sorted(CATALOGUE.items())]
    parts.append("</table>")
    style = "body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}code{background:#eee}"
    return (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>{escape(spec['info']['title'])}"
            f"</title><style>{style}</style></head><body>{''.join(parts)}</body></html>")


def _text(markdown: str) -> str:
    """Escaped text, with the spec's `code` spans shown as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(markdown))
