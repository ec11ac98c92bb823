"""A rating history as an SVG line chart, drawn on the server (no script, no library): a polyline
through the rating after each rated match, a dot per match with its own tooltip, and the axes with
the lowest and highest rating and the first and last match's number."""
from __future__ import annotations

from markupsafe import Markup, escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 76, 16, 16, 40  # room for the labels


def _scale(values: list[float]) -> tuple[float, float]:
    """The rating axis: the values' range, widened a little, and never flat."""
    low, high = min(values), max(values)
    pad = max((high - low) * 0.1, 10.0)
    return low - pad, high + pad


def rating_chart(points: list[tuple[float, str]], title: str = "Rating after each rated match") -> Markup:
    """`points`: (the rating after a match, its description), oldest first; empty: no chart."""
    if not points:
        return Markup("")
    values = [value for value, _ in points]
    low, high = _scale(values)
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (span_x / 2 if len(points) == 1 else span_x * i / (len(points) - 1))

    def y(value: float) -> float:
        return TOP + span_y * (high - value) / (high - low)

    coords = [(round(x(i), 1), round(y(value), 1)) for i, value in enumerate(values)]
    line = " ".join(f"{cx},{cy}" for cx, cy in coords)
    dots = "".join(f'<circle cx="{cx}" cy="{cy}" r="3.5"><title>{escape(text)}</title></circle>'
                   for (cx, cy), (_, text) in zip(coords, points))
    base, top = HEIGHT - BOTTOM, TOP
    summary = (f"{len(points)} rated matches, from {values[0]:.0f} to {values[-1]:.0f} "
               f"(lowest {min(values):.0f}, highest {max(values):.0f})")
    return Markup(
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="rating-chart-title rating-chart-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="rating-chart-title">{escape(title)}</title><desc id="rating-chart-desc">{summary}</desc>'
        f'<g class="axes"><line x1="{LEFT}" y1="{top}" x2="{LEFT}" y2="{base}"/>'
        f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/></g>'
        f'<g class="labels" aria-hidden="true">'
        f'<text x="{LEFT - 6}" y="{round(y(max(values)), 1)}" text-anchor="end" dominant-baseline="middle">'
        f'{max(values):.0f}</text>'
        f'<text x="{LEFT - 6}" y="{round(y(min(values)), 1)}" text-anchor="end" dominant-baseline="middle">'
        f'{min(values):.0f}</text>'
        f'<text x="{coords[0][0]}" y="{base + 26}" text-anchor="middle">1</text>'
        + (f'<text x="{coords[-1][0]}" y="{base + 26}" text-anchor="middle">{len(points)}</text>'
           if len(points) > 1 else "")
        + f'</g><polyline class="rating-line" points="{line}"/><g class="rating-points">{dots}</g></svg>')
