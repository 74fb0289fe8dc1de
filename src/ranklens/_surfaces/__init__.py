"""The surfaces: evaluate, compare, report, fusion, agreement, pools, chunks."""

from .._results.per_query import Shown


def _notebook_html(obj: object) -> str | None:
    # the results sit below the renderers: they call this hook, set here, for their HTML
    from .render.notebook import results_html

    return results_html(obj)


Shown.html_writer = _notebook_html
