"""EvaluateOptions: one value, checked when made; keywords and a value never silently
override each other."""

from __future__ import annotations

import doctest

import pytest

import ranklens
from ranklens import ParameterError
from ranklens._pipeline import options as options_module
from ranklens._pipeline.options import EvaluateOptions, options_of

QRELS = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"d": 1}}
RUN = {"q1": {"b": 1.0, "a": 1.0, "c": 0.5}, "q2": {"x": 2.0, "d": 1.0}}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"ties": "random"}, "the 'ties' option must be one of docid, input, average, "
                         "pessimistic, optimistic, worst, best or None; got 'random'"),
    ({"depth": -1}, "the 'depth' option must be an integer >= 0 or None; got -1"),
    ({"depth": True}, "the 'depth' option must be an integer >= 0 or None; got True"),
    ({"rel": 1.5}, "the 'rel' option must be an integer >= 0; got 1.5"),
    ({"judged_only": 1}, "the 'judged_only' option must be True or False; got 1"),
    ({"collection_size": -3}, "the 'collection_size' option must be an integer >= 0; got -3"),
    ({"missing": "drop"}, "the 'missing' option must be one of zero, skip, error or None; "
                          "got 'drop'"),
    ({"convention": 3}, "the 'convention' option must be a convention's name"),
])
def test_a_bad_value_names_option_constraint_and_value(kwargs: dict, message: str) -> None:
    with pytest.raises(ParameterError) as info:
        EvaluateOptions(**kwargs)
    assert str(info.value).startswith(message)


def test_an_unknown_convention_names_the_known_ones() -> None:
    with pytest.raises(ParameterError, match=r"unknown convention 'spark'.*trec, sklearn"):
        EvaluateOptions(convention="spark")


def test_a_value_and_keywords_give_the_same_results() -> None:
    opts = EvaluateOptions(ties="average", depth=2, missing="zero")
    by_value = ranklens.evaluate(QRELS, RUN, ["nDCG@3", "AP"], options=opts)
    by_keywords = ranklens.evaluate(QRELS, RUN, ["nDCG@3", "AP"], ties="average", depth=2,
                                    missing="zero")
    assert dict(by_value) == dict(by_keywords)
    assert by_value.conventions == by_keywords.conventions


def test_keywords_add_to_a_value_and_a_conflict_is_an_error() -> None:
    opts = EvaluateOptions(depth=2)
    assert options_of(opts, ties="average") == EvaluateOptions(depth=2, ties="average")
    assert options_of(opts, depth=2) == opts  # the same value twice is no conflict
    with pytest.raises(ParameterError, match="the 'depth' option is given twice: 2 in "
                                             "options and 5 as a keyword"):
        ranklens.evaluate(QRELS, RUN, ["AP"], options=opts, depth=5)


def test_an_unknown_option_is_named() -> None:
    with pytest.raises(ParameterError, match="unknown option 'dpeth'; the evaluation "
                                             "options are rel, missing"):
        options_of(None, dpeth=3)
    with pytest.raises(ParameterError, match="the 'options' argument must be an "
                                             "EvaluateOptions; got a dict"):
        ranklens.evaluate(QRELS, RUN, ["AP"], options={"depth": 3})  # type: ignore[arg-type]


def test_every_surface_takes_the_value() -> None:
    opts = EvaluateOptions(depth=1, missing="zero")
    want = ranklens.evaluate(QRELS, RUN, ["P@1"], depth=1, missing="zero")["P@1"]
    assert ranklens.evaluate_arrays([[1, 0], [0, 1]], ["P@1"], options=opts)["P@1"] == 0.5
    two = {"x": RUN, "y": RUN}
    cmp = ranklens.compare(QRELS, two, ["P@1"], options=opts, test="sign")
    assert cmp.means["P@1"]["x"] == want
    html = ranklens.report(QRELS, two, ["P@1"], options=opts, max_k=3)
    assert "P@1" in html


def test_compare_refuses_evaluation_options_for_evaluated_results() -> None:
    results = ranklens.evaluate(QRELS, {"x": RUN, "y": RUN}, ["P@1"], missing="zero")
    with pytest.raises(ParameterError, match=r"evaluation options \(depth\) apply when runs "
                                             "are evaluated"):
        ranklens.compare(None, results, depth=3)


def test_docstring_examples() -> None:
    import ranklens._base.c_numbers as c_numbers
    import ranklens._base.validate as validate

    for module in (options_module, validate, c_numbers):
        failures, tried = doctest.testmod(module)
        assert tried and not failures, module.__name__


def test_evaluate_documents_every_option_from_its_declaration() -> None:
    import dataclasses
    import pydoc

    from ranklens._pipeline.options import OPTIONS_DOC, declared, parameters_doc
    from ranklens._surfaces import evaluate as evaluate_module

    text = pydoc.render_doc(ranklens.evaluate, renderer=pydoc.plaintext)
    assert OPTIONS_DOC.strip() not in text
    doc = ranklens.evaluate.__doc__ or ""
    assert parameters_doc() in doc
    for f in dataclasses.fields(EvaluateOptions):
        assert f"\n    {f.name} : " in doc, f.name
        # each option's help, as the command line shows it, opens its entry
        assert " ".join(declared()[f.name].help.split()[:6]) in " ".join(text.split()), f.name
    assert "    rel : int, default 1\n" in doc and "    depth : int, optional\n" in doc
    failures, tried = doctest.testmod(evaluate_module)
    assert tried and not failures


def test_a_docstring_without_the_options_line_is_refused() -> None:
    from ranklens._pipeline.options import with_options_doc

    def f() -> None:
        """No options here."""

    with pytest.raises(ValueError, match="no options line"):
        with_options_doc(f)
