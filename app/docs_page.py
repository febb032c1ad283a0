"""A readable HTML page rendered from the OpenAPI document: every path and method, its parameters, request
body and responses, then every schema with its properties. No scripts and nothing fetched from elsewhere,
so it works offline."""

from __future__ import annotations

from html import escape
from typing import Any

CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 2rem;color:#1d1d1f}
h1{margin-bottom:.2rem} h2{border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2.5rem}
.op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.6rem 1rem}
.method{display:inline-block;min-width:4.2rem;font-weight:700;color:#fff;border-radius:4px;text-align:center;
padding:0 .4rem;margin-right:.5rem} .get{background:#2f7d32} .post{background:#1565c0}
.put{background:#ef6c00}
.delete{background:#c62828} .path{font-family:ui-monospace,monospace;font-weight:600}
table{border-collapse:collapse;margin:.4rem 0;width:100%} th,td{border:1px solid #e2e2e2;padding:.25rem .5rem;
text-align:left;vertical-align:top} th{background:#f6f6f6} code{font-family:ui-monospace,monospace;
background:#f3f3f3;padding:0 .2rem;border-radius:3px} .muted{color:#666} nav a{margin-right:.8rem}
"""


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def type_html(prop: dict[str, Any]) -> str:
    """A property's type, with links to the schemas it names."""
    if "$ref" in prop:
        name = _ref_name(prop["$ref"])
        return f'<a href="#schema-{escape(name)}">{escape(name)}</a>'
    if "oneOf" in prop:
        text = " | ".join(type_html(p) for p in prop["oneOf"])
    elif prop.get("type") == "array":
        text = "array of " + type_html(prop.get("items", {}))
    elif (
        prop.get("type") == "object"
        and isinstance(prop.get("additionalProperties"), dict)
        and prop["additionalProperties"]
    ):
        text = "map of " + type_html(prop["additionalProperties"])
    elif "type" in prop:
        text = escape(str(prop["type"]))
        if "format" in prop:
            text += f" ({escape(str(prop['format']))})"
    else:
        text = "any"
    if "enum" in prop:
        text += ": " + ", ".join(f"<code>{escape(str(v))}</code>" for v in prop["enum"])
    if prop.get("nullable"):
        text += " or null"
    return text


def _constraints(prop: dict[str, Any]) -> str:
    parts = []
    for key in ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "default"):
        if key in prop:
            parts.append(f"{key} {escape(str(prop[key]))}")
    return "; ".join(parts)


def _parameters(op: dict[str, Any], path_params: list[dict[str, Any]]) -> str:
    params = [*path_params, *op.get("parameters", [])]
    if not params:
        return ""
    rows = "".join(
        f"<tr><td><code>{escape(p['name'])}</code></td><td>{escape(p['in'])}</td>"
        f"<td>{'yes' if p.get('required') else 'no'}</td><td>{type_html(p.get('schema', {}))}</td>"
        f"<td>{escape(p.get('description', ''))} "
        f"<span class=muted>{_constraints(p.get('schema', {}))}</span></td></tr>"
        for p in params
    )
    return (
        "<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>type</th>"
        f"<th>description</th></tr>{rows}</table>"
    )


def _content(content: dict[str, Any]) -> str:
    return "; ".join(
        f"<code>{escape(ct)}</code> {type_html(c.get('schema', {}))}" for ct, c in content.items()
    )


def _operation(path: str, method: str, op: dict[str, Any], path_params: list[dict[str, Any]]) -> str:
    anchor = escape(op.get("operationId", f"{method}-{path}"))
    auth = "judge only" if op.get("security") == [{"bearer": []}] else "token optional"
    out = [
        f'<div class=op id="op-{anchor}"><div><span class="method {method}">{method.upper()}</span>'
        f"<span class=path>{escape(path)}</span> — {escape(op.get('summary', ''))} "
        f"<span class=muted>({auth})</span></div>"
    ]
    if op.get("description"):
        out.append(f"<p>{escape(op['description'])}</p>")
    out.append(_parameters(op, path_params))
    body = op.get("requestBody")
    if body:
        out.append(f"<h4>Request body</h4><p>{_content(body.get('content', {}))}</p>")
    rows = "".join(
        f"<tr><td>{escape(status)}</td><td>{escape(r.get('description', ''))}</td>"
        f"<td>{_content(r.get('content', {}))}</td></tr>"
        for status, r in op.get("responses", {}).items()
    )
    out.append(
        f"<h4>Responses</h4><table><tr><th>status</th><th>meaning</th><th>body</th></tr>{rows}</table></div>"
    )
    return "".join(out)


def _schema(name: str, schema: dict[str, Any]) -> str:
    out = [f'<div class=op id="schema-{escape(name)}"><h3>{escape(name)}</h3>']
    if schema.get("description"):
        out.append(f"<p>{escape(schema['description'])}</p>")
    if "oneOf" in schema:
        out.append(f"<p>One of: {type_html(schema)}</p>")
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    if props:
        rows = "".join(
            f"<tr><td><code>{escape(pname)}</code></td><td>{type_html(p)}</td>"
            f"<td>{'yes' if pname in required else 'no'}</td>"
            f"<td>{escape(p.get('description', ''))} <span class=muted>{_constraints(p)}</span></td></tr>"
            for pname, p in props.items()
        )
        out.append(
            f"<table><tr><th>field</th><th>type</th><th>required</th><th>description</th></tr>{rows}</table>"
        )
    extra = schema.get("additionalProperties")
    if extra is False:
        out.append("<p class=muted>No other fields are accepted.</p>")
    elif extra is True:
        out.append("<p class=muted>Other fields may appear.</p>")
    out.append("</div>")
    return "".join(out)


def render_docs(spec: dict[str, Any]) -> str:
    info = spec.get("info", {})
    paras = "".join(f"<p>{escape(p)}</p>" for p in info.get("description", "").split("\n\n"))
    by_tag: dict[str, list[str]] = {}
    toc: list[str] = []
    shared = spec.get("components", {}).get("parameters", {})  # parameters named by $ref
    for path, item in spec.get("paths", {}).items():
        path_params = item.get("parameters", [])
        for method, op in item.items():
            if method == "parameters":
                continue
            params = [
                shared.get(_ref_name(p["$ref"]), p) if "$ref" in p else p for p in op.get("parameters", [])
            ]
            op = {**op, "parameters": params}
            tag = (op.get("tags") or ["other"])[0]
            by_tag.setdefault(tag, []).append(_operation(path, method, op, path_params))
            toc.append(
                f'<li><a href="#op-{escape(op.get("operationId", ""))}">{method.upper()} {escape(path)}</a> '
                f"— {escape(op.get('summary', ''))}</li>"
            )
    sections = "".join(
        f'<h2 id="tag-{escape(tag)}">{escape(tag)}</h2>{"".join(ops)}' for tag, ops in by_tag.items()
    )
    schemas = spec.get("components", {}).get("schemas", {})
    problem_rows = "".join(
        f"<tr><td><code>{escape(t)}</code></td><td>{escape(title)}</td></tr>"
        for t, title in spec.get("x-problem-types", {}).items()
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{escape(info.get('title', 'API'))} API</title><style>{CSS}</style></head><body>"
        f"<h1>{escape(info.get('title', 'API'))} "
        f"<span class=muted>{escape(info.get('version', ''))}</span></h1>"
        f"{paras}<p>The machine-readable document: <a href=/openapi.yaml>/openapi.yaml</a>.</p>"
        "<nav><a href=#endpoints>Endpoints</a><a href=#problems>Problem types</a>"
        "<a href=#schemas>Schemas</a></nav>"
        f"<h2 id=endpoints>Endpoints</h2><ul>{''.join(toc)}</ul>{sections}"
        f"<h2 id=problems>Problem types</h2><table><tr><th>type</th><th>title</th></tr>{problem_rows}</table>"
        f"<h2 id=schemas>Schemas</h2>{''.join(_schema(n, s) for n, s in schemas.items())}"
        "</body></html>"
    )
