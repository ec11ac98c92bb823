"""/docs for people: every operation with its parameters, request and answer fields, an example
and the problems it can answer with, rendered from the same spec as /openapi.json. No script."""
from __future__ import annotations

import json
import re
from html import escape

from ..core.errors import CATALOGUE
from .doc_sections import section

MAX_EXAMPLE = 1800  # characters of an example shown; the whole one is in /openapi.json


def render(spec: dict) -> str:
    schemas = spec.get("components", {}).get("schemas", {})
    title = escape(f"{spec['info']['title']} {spec['info']['version']}")
    toc, parts = [], []
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            if method == "parameters":
                continue
            anchor = re.sub(r"[^a-z0-9]+", "-", f"{method} {path}".lower()).strip("-")
            toc.append(f'<li><a href="#{anchor}"><code>{method.upper()} {escape(path)}</code></a> '
                       f"{_text(op.get('summary', ''))}</li>")
            parts.append(_operation(anchor, method, path, op, schemas))
    problems = "".join(f'<tr id="problem-{code}"><td><code>{code}</code></td><td>{status}</td>'
                       f"<td>{escape(text)}</td></tr>" for code, (status, text) in sorted(CATALOGUE.items()))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="stylesheet" href="/assets/site.css"></head>'
        '<body><header class="top"><nav aria-label="Site"><a class="brand" href="/">Gin Rummy</a>'
        '<a href="/my-games">My games</a><a href="/player">Player</a><a href="/docs">API</a></nav></header>'
        '<main id="main" class="docs">'
        f"<h1>{title}</h1>"
        '<p>The machine-readable contract: <a href="/openapi.json">/openapi.json</a> or '
        '<a href="/openapi.yaml">/openapi.yaml</a> (also checked in as openapi.yaml). A whole turn with '
        'curl, step by step: <a href="/docs/walkthrough">the walkthrough</a>. Authenticated '
        "operations take <code>Authorization: Bearer &lt;seat token&gt;</code>. Errors are RFC 9457 "
        "problem documents (<code>application/problem+json</code>) with a stable <code>code</code>: "
        '<a href="#problems">the list</a>. The two streams, and a reader of them: '
        '<a href="#streams">Reading the streams</a>.</p>'
        f"{_streams()}"
        f'<h2>Operations</h2><ul class="toc">{"".join(toc)}</ul>{"".join(parts)}'
        '<h2 id="problems">Problem codes</h2><table class="sheet"><tr><th>code</th><th>status</th>'
        f"<th>meaning</th></tr>{problems}</table></main></body></html>")


def _streams() -> str:
    """docs/api.md's "Reading the streams": what the two streams send, and a reader in Python and in
    TypeScript (their code as the page has it, which its tests run and type-check)."""
    out, readers = [], 0
    for kind, text in section("Reading the streams"):
        if kind == "h2":
            out.append(f'<h2 id="streams">{escape(text)}</h2>')
        elif kind == "pre":  # it may scroll sideways: keyboard users can scroll it too
            readers += 1
            out.append(f'<pre class="code" role="region" tabindex="0" aria-label="Code example {readers}">'
                       f"{escape(text)}</pre>")
        else:
            out.append(f"<p>{_text(text)}</p>")
    return "".join(out)


def _operation(anchor: str, method: str, path: str, op: dict, schemas: dict) -> str:
    out = [f'<section class="panel op"><h3 id="{anchor}"><code>{method.upper()} {escape(path)}</code></h3>',
           f"<p>{_text(op.get('summary', ''))} {_text(op.get('description', ''))}</p>"]
    if op.get("security"):
        out.append("<p><b>Needs</b> the seat's bearer token.</p>")
    params = [p for p in op.get("parameters", []) if isinstance(p, dict) and "name" in p]
    if params:
        out.append("<p><b>Parameters</b></p><ul>" + "".join(
            f"<li><code>{escape(p['name'])}</code> ({escape(p['in'])}{', required' if p.get('required') else ''}) "
            f"{_text(p.get('description', '') or p.get('schema', {}).get('description', ''))}</li>"
            for p in params) + "</ul>")
    body = op.get("requestBody", {}).get("content", {}).get("application/json")
    if body:
        out.append("<p><b>Request body</b></p>" + _fields(body.get("schema", {}), schemas))
        out.append(_example(body))
    for status, response in sorted(op.get("responses", {}).items(), key=lambda item: str(item[0])):
        content = response.get("content", {})
        if str(status).startswith("2") or str(status) == "304":
            out.append(f"<p><b>{escape(str(status))}</b> {_text(response.get('description', ''))}</p>")
            media = content.get("application/json")
            if media:
                out.append(_fields(media.get("schema", {}), schemas) + _example(media))
    errors = [(status, response) for status, response in op.get("responses", {}).items()
              if str(status)[0] in "45"]
    if errors:
        out.append("<p><b>Problems</b></p><ul>" + "".join(
            f"<li><b>{escape(str(status))}</b> {_text(response.get('description', ''))}</li>"
            for status, response in sorted(errors, key=lambda item: str(item[0]))) + "</ul>")
    return "".join(out) + "</section>"


def _resolve(schema: dict, schemas: dict) -> dict:
    while "$ref" in schema:
        schema = schemas.get(schema["$ref"].rsplit("/", 1)[-1], {})
    return schema


def _fields(schema: dict, schemas: dict) -> str:
    schema = _resolve(schema, schemas)
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if alternatives:  # a view is a GameView or a TableView: the fields of each, under its name
        return "".join(f"<p><i>{escape(alt.get('$ref', '').rsplit('/', 1)[-1] or 'or')}</i></p>" + _fields(alt, schemas)
                       for alt in alternatives)
    properties = schema.get("properties", {})
    if not properties:
        return ""
    required = set(schema.get("required", []))
    rows = []
    for name, prop in properties.items():
        resolved = _resolve(prop, schemas)
        kind = resolved.get("type", "object")
        if isinstance(kind, list):
            kind = " or ".join(kind)
        if kind == "array":
            item = prop.get("items", {})
            kind = f"list of {item['$ref'].rsplit('/', 1)[-1] if '$ref' in item else item.get('type', 'values')}"
        elif "$ref" in prop:
            kind = prop["$ref"].rsplit("/", 1)[-1]
        choices = f" One of: {', '.join(map(str, resolved['enum']))}." if resolved.get("enum") else ""
        rows.append(f"<tr><td><code>{escape(name)}</code>{' *' if name in required else ''}</td>"
                    f"<td>{escape(str(kind))}</td><td>{_text(prop.get('description', ''))}{escape(choices)}</td></tr>")
    return ('<table class="sheet fields"><tr><th>field</th><th>type</th><th>meaning</th></tr>'
            + "".join(rows) + "</table>" + ("<p class=\"hint\">* required</p>" if required else ""))


def _example(media: dict) -> str:
    example = media.get("example")
    if example is None and media.get("examples"):
        example = next(iter(media["examples"].values())).get("value")
    if example is None:
        return ""
    text = json.dumps(example, indent=1)
    if len(text) > MAX_EXAMPLE:
        text = text[:MAX_EXAMPLE] + "\n..."
    return f"<details><summary>Example</summary><pre>{escape(text)}</pre></details>"


def _text(markdown: str) -> str:
    """Escaped text, with the spec's `code` spans shown as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(markdown or ""))
