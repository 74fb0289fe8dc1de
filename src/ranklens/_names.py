"""Parse measure names: canonical (``nDCG(gain=exp2)@10``), trec_eval and ranx spellings.

One registry drives all three: canonical names and parameter declarations come from
:data:`REGISTRY`; trec_eval names from each definition's ``trec``/``trec_cut``; other
spellings from its ``aliases`` and ``variants`` (names meaning the measure with fixed
parameters).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ._errors import MeasureError
from ._measures import REGISTRY, Measure
from ._measures._registry import known_names, suggest
from ._measures._trec_table import NICKNAMES, ORDER
from ._measures.trec_params import parse_trec_params

__all__ = ["all_names", "expand_trec_lists", "parse_measure", "parse_measures", "suggest"]

_CANONICAL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*(?:\((.*)\))?\s*(?:@\s*([^@\s]+))?\s*$")
_RANX_REL = re.compile(r"^(.*?)-l(\d+)$")
_TREC_LIST = re.compile(r"^([A-Za-z_]\w*?)[._](\d*\.?\d+(?:,\d*\.?\d+)+)$")

def _lower_index() -> dict[str, tuple[str, dict[str, Any]]]:
    index: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, defn in REGISTRY.items():
        index.setdefault(name.lower(), (name, {}))
        for alias in defn.aliases:
            index.setdefault(alias.lower(), (name, {}))
    for name, defn in REGISTRY.items():
        for variant, fixed in defn.variants:
            index[variant.lower()] = (name, dict(fixed))
    return index


def _trec_index() -> tuple[dict[str, str], dict[str, str]]:
    plain: dict[str, str] = {}
    cut: dict[str, str] = {}
    for name, defn in REGISTRY.items():
        if defn.trec:
            plain[defn.trec] = name
        if defn.trec_cut:
            cut[defn.trec_cut] = name
    return plain, cut


def _split_params(text: str) -> list[tuple[str, str]]:
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq:
            raise MeasureError(f"expected name=value in parameter list, got {part.strip()!r}")
        out.append((key.strip(), value.strip()))
    return out


def _cutoff(text: str, name: str) -> int | float:
    try:
        value = float(text)
    except ValueError:
        raise MeasureError(f"the cutoff of {name} must be a number, got {text!r}") from None
    return int(value) if value.is_integer() and REGISTRY[name].cutoff == "int" else value


def _build(name: str, fixed: dict[str, Any], params_text: str | None,
           cutoff_text: str | None, written: str) -> Measure:
    defn = REGISTRY[name]
    params: dict[str, Any] = dict(fixed)
    if params_text:
        for key, value in _split_params(params_text):
            try:
                param = defn.param(key)
            except MeasureError as exc:
                raise MeasureError(f"in {written!r}: {exc}") from None
            params[key] = param.parse(value, name)
    cutoff = _cutoff(cutoff_text, name) if cutoff_text is not None else None
    return Measure(name, tuple(params.items()), cutoff)


def _parse_trec(text: str) -> Measure | None:
    plain, cut = _trec_index()
    if text in plain:
        return Measure(plain[text])
    for sep in ("_", "."):
        # trec_eval splits "name.params" at the first dot: iprec_at_recall.0.5
        base, s, rest = text.partition(sep) if sep == "." else text.rpartition(sep)
        if not s:
            continue
        # iprec_at_recall_0.10 / Rprec_mult_0.20: the cutoff itself contains a dot
        if sep == "." and base.endswith(("_0", "_1")):
            continue
        if base in cut and rest and "," not in rest:
            name = cut[base]
            return Measure(name, (), _cutoff(rest, name))
    m = re.match(r"^([A-Za-z_]+?)_(\d*\.?\d+)$", text)
    if m and m.group(1) in cut:
        name = cut[m.group(1)]
        return Measure(name, (), _cutoff(m.group(2), name))
    # utility_2,-1,0,0 / ndcg_1=3,2=9 / 11pt_avg_.25,.5 / rbp_p=0.95: raw trec_eval params
    try:
        return parse_trec_params(text)
    except MeasureError as exc:
        _one_value_per_measure(text, plain, exc)
        raise


def _trec_prefix(text: str, plain: dict[str, str]) -> str | None:
    """The longest trec_eval name ``text`` starts with, followed by ``_`` or ``.``."""
    return next((n for n in sorted(plain, key=len, reverse=True)
                 if text.startswith(n) and text[len(n):len(n) + 1] in ("_", ".")), None)


def _one_per_value(text: str) -> tuple[str, str, list[str]] | None:
    """``(trec name, measure, values)`` when ``text`` is a comma list after the trec_eval
    name of a measure whose registry entry reads such a list as one measure per value
    (``trec_comma="measures"``: ``set_F.1.0,0.5``); else None (``utility_2,-1,0,0`` is one
    measure's parameters)."""
    plain = _trec_index()[0]
    te = _trec_prefix(text, plain)
    if te is None or REGISTRY[plain[te]].trec_comma != "measures":
        return None
    rest = text[len(te) + 1:]
    if not re.match(r"^[^,=]+(?:,[^,=]+)+$", rest):
        return None
    return te, plain[te], rest.split(",")


def _one_value_per_measure(text: str, plain: dict[str, str], exc: MeasureError) -> None:
    """Say that ``set_F.1.0,0.5`` is several measures, which one name cannot parse into."""
    listed = _one_per_value(text)
    if listed is None:
        return
    te, name, values = listed
    param = next(p.name for p in REGISTRY[name].params if p.kind == "float")
    raise MeasureError(
        f"{text!r} names several measures, {te} at each {param} "
        f"({', '.join(f'{te}_{v}' for v in values)}): ranklens.evaluate and "
        f"`ranklens evaluate -m` read it so, and parse_measure reads one measure; write "
        f"{', '.join(f'{te}_{v}' for v in values)} "
        f"or {', '.join(f'{name}({param}={v})' for v in values)}"
    ) from exc


def parse_measure(spec: str | Measure) -> Measure:
    """Parse one measure name into a :class:`Measure`.

    Accepts canonical names (``nDCG@10``, ``AP(rel=2)``, ``nDCG(gain=exp2,discount=jk)@5``),
    trec_eval names (``map``, ``map_cut_10``, ``ndcg_cut.10``, ``P_5``,
    ``iprec_at_recall_0.10``) and ranx names (``map@10``, ``ndcg_burges@10``, ``mrr``,
    ``hit_rate@5``, ``r-precision``, ``precision@10-l2``).

    Examples
    --------
    >>> parse_measure("ndcg_cut_10")
    nDCG@10
    >>> parse_measure("map@100-l2")
    AP(rel=2)@100
    """
    if isinstance(spec, Measure):
        return spec
    if not isinstance(spec, str):
        raise MeasureError(f"a measure must be a name or a Measure, got {type(spec).__name__}")
    try:
        return _parse_one(spec)
    except MeasureError as exc:
        if re.match(r"^\s*P[_.](?![A-Z])", spec):  # the one name with two trec_eval readings
            raise MeasureError(f"{exc}; {_P_READINGS}") from None
        raise


# which reading of P applies: docs/conventions.md, "trec_eval's spellings"
_P_READINGS = ("P_k (P.k, P_5,10) is trec_eval's P family, precision at cutoff k, e.g. P_5 "
               "or P@5; P alone is ranklens's P, trec_eval's set_P (precision of everything "
               "retrieved)")


def _parse_one(spec: str) -> Measure:
    text = spec.strip()
    if not text:
        raise MeasureError("empty measure name")
    try:
        trec = _parse_trec(text)
    except MeasureError:
        # a registered alias that only looks like a trec_eval name (ir_measures' P_IA@10
        # is not P at cutoff "IA@10") is read as the alias
        named = _CANONICAL.match(text)
        if named is None or named.group(1).lower() not in _lower_index():
            raise
        trec = None
    if trec is not None:
        return trec
    rel_level: str | None = None
    rm = _RANX_REL.match(text)
    if rm and "(" not in text:
        text, rel_level = rm.group(1), rm.group(2)
    match = _CANONICAL.match(text)
    if not match:
        raise MeasureError(f"cannot parse measure {spec!r}; expected Name(param=value,...)@k, "
                           f"e.g. nDCG(gain=exp2)@10")
    raw, params_text, cutoff_text = match.groups()
    if raw in REGISTRY:
        name, fixed = raw, dict[str, Any]()
    else:
        found = _lower_index().get(raw.lower())
        if found is None:
            cut = _trec_index()[1].get(raw)
            if cut is not None:
                example = REGISTRY[cut].trec_cutoffs[:1] or (10,)
                k = f"{example[0]:.2f}" if REGISTRY[cut].cutoff == "float" else int(example[0])
                raise MeasureError(f"{spec!r} needs a cutoff, e.g. {raw}_{k} or {cut}@{k}")
            raise MeasureError(f"unknown measure {spec!r}; did you mean {suggest(text)}?")
        name, fixed = found
    if rel_level is not None:
        if not any(p.name == "rel" for p in REGISTRY[name].params):
            raise MeasureError(
                f"{spec!r}: the -l{rel_level} suffix sets a relevance level, which {name} "
                "does not take (graded measures use the grades themselves)"
            )
        fixed = {**fixed, "rel": int(rel_level)}
    return _build(name, fixed, params_text, cutoff_text, spec)


def _trec_cut_name(base: str, cutoff: float) -> str:
    if REGISTRY[_trec_index()[1][base]].cutoff == "float":
        return f"{base}_{cutoff:.2f}"
    return f"{base}_{int(cutoff)}"


def _expand_nickname(nickname: str) -> list[str | Measure]:
    """The names trec_eval prints for ``-m nickname``, in its output order.

    A member that is a measure by itself (``map``, ``set_P``, ``relstring``) stays as it
    is; a cutoff family (``P``, ``recall``, ``success``, ``ndcg_cut``) gives trec_eval's
    default cutoffs, as trec_eval prints them (``P_5`` ... ``P_1000``: in a nickname ``P``
    is trec_eval's P family, never ranklens's ``P``). ``runid`` is a label, not a value.
    """
    plain, cut = _trec_index()
    members = set(NICKNAMES[nickname]) - {"runid"}
    out: list[str | Measure] = []
    unsupported: list[str] = []
    for te in ORDER:
        if te not in members:
            continue
        if te in plain:
            out.append(te)
        elif te in cut and REGISTRY[cut[te]].trec_cutoffs:
            out.extend(_trec_cut_name(te, c) for c in REGISTRY[cut[te]].trec_cutoffs)
        else:
            unsupported.append(te)
    if unsupported:
        raise MeasureError(
            f"trec_eval's nickname {nickname!r} names measures that ranklens.evaluate does "
            f"not compute ({', '.join(unsupported[:3])}"
            f"{', ...' if len(unsupported) > 3 else ''}): they need trec_eval's preference or "
            f"judgment-group qrels; use `ranklens trec_eval -m {nickname}` "
            f"(ranklens.trec_eval) for them"
        )
    return out


def expand_trec_lists(spec: str | Measure) -> list[str | Measure]:
    """The one-measure names a trec_eval ``-m`` list spelling stands for.

    ``P_5,10`` and ``ndcg_cut.5,10`` (a cutoff family with several cutoffs) give one name
    per cutoff (``P_5``, ``P_10``); a comma list after the trec_eval name of a measure whose
    registry entry says so (``trec_comma="measures"``) gives one name per value
    (``set_F.1.0,0.5``: ``set_F_1.0``, ``set_F_0.5``), while for every other measure it is
    that one measure's parameters (``utility_2,-1,0,0``); a bare cutoff family that is no
    measure by itself (``ndcg_cut``, ``map_cut``) gives trec_eval's default cutoffs.
    Anything else is returned as it is. ``P`` alone stays ranklens's ``P`` (precision of everything
    retrieved, trec_eval's ``set_P``): write ``P_5,10,15,20,30,100,200,500,1000`` for
    trec_eval's P family.

    trec_eval's nicknames (``official``, ``set``, ``all_trec``) give the names trec_eval
    prints for them, in its output order; there ``P`` is trec_eval's P family (``P_5`` ...
    ``P_1000``), as in trec_eval. ``prefs``, ``all_prefs`` and ``qrels_jg`` need
    trec_eval's own qrels formats: a :class:`~ranklens.MeasureError` points to
    ``ranklens trec_eval``.

    Examples
    --------
    >>> expand_trec_lists("P_5,10")
    ['P_5', 'P_10']
    >>> expand_trec_lists("set_F.1.0,0.5")
    ['set_F_1.0', 'set_F_0.5']
    >>> expand_trec_lists("utility_2,-1,0,0")
    ['utility_2,-1,0,0']
    >>> expand_trec_lists("map_cut")[:3]
    ['map_cut_5', 'map_cut_10', 'map_cut_15']
    >>> expand_trec_lists("official")[:6]
    ['num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map']
    """
    if not isinstance(spec, str):
        return [spec]
    text = spec.strip()
    if text in NICKNAMES:
        return _expand_nickname(text)
    cut = _trec_index()[1]
    listed = _TREC_LIST.match(text)
    if listed and listed.group(1) in cut:
        base = listed.group(1)
        return [_trec_cut_name(base, float(v)) for v in listed.group(2).split(",")]
    per_value = _one_per_value(text)
    if per_value is not None:  # set_F.1.0,0.5: the registry says one measure per value
        te, _, values = per_value
        return [f"{te}_{v}" for v in values]
    if text in cut and REGISTRY[cut[text]].trec_cutoffs:
        try:
            parse_measure(text)
        except MeasureError:  # no measure by itself: the family at its default cutoffs
            return [_trec_cut_name(text, c) for c in REGISTRY[cut[text]].trec_cutoffs]
    return [spec]


def parse_measures(specs: Iterable[str | Measure]) -> list[Measure]:
    """Parse several names, reporting every bad one at once in a single MeasureError."""
    out: list[Measure] = []
    problems: list[str] = []
    for spec in specs:
        try:
            out.append(parse_measure(spec))
        except MeasureError as exc:
            problems.append(str(exc))
    if problems:
        raise MeasureError("; ".join(problems))
    return out


def all_names() -> list[str]:
    """Every accepted bare name: canonical, aliases, variants and trec_eval names."""
    return known_names()
