"""Import rules of ONNX's text operators (convention: interpreter.py): StringConcat, StringSplit,
StringNormalizer, RegexFullMatch and TfIdfVectorizer. Strings are a host dtype in arraystack (NumPy's
object or str arrays), so the rules on strings run eagerly, on NumPy, as the string Cast does; a model
that uses them runs without jit. TfIdfVectorizer of integer tokens is comparisons and sums, so it also
runs under jit. RegexFullMatch compiles its pattern with Python's `re`, whose syntax covers RE2's.
"""

from __future__ import annotations

import itertools
import re

import numpy

string_rules: dict = {}


def _strings(node, x, what="input"):
    """x as a NumPy array of Python strings (object dtype), or ModelError when it holds no strings."""
    array = numpy.asarray(x)
    if array.dtype.kind not in "OUT":
        raise node.error(f"its {what} must hold strings, got {array.dtype}")
    return array.astype(object)


def _string_concat(xp, node, x, y):
    a, b = numpy.broadcast_arrays(
        _strings(node, x, "first input"), _strings(node, y, "second input")
    )
    out = numpy.empty(a.shape, object)
    out.reshape(-1)[:] = [str(p) + str(q) for p, q in zip(a.reshape(-1), b.reshape(-1))]
    return out


def _string_split(xp, node, x):
    strings = _strings(node, x)
    delimiter = node.attr("delimiter") or None  # "" or unset: runs of whitespace
    maxsplit = node.attr("maxsplit")
    parts = [s.split(delimiter, -1 if maxsplit is None else maxsplit) for s in strings.reshape(-1)]
    counts = numpy.array([len(p) for p in parts], numpy.int64).reshape(strings.shape)
    width = max((len(p) for p in parts), default=0)
    out = numpy.full((len(parts), width), "", object)
    for row, p in zip(out, parts):
        row[: len(p)] = p
    return out.reshape((*strings.shape, width)), counts


def _string_normalizer(xp, node, x):
    strings = _strings(node, x)
    if strings.ndim not in (1, 2) or (strings.ndim == 2 and strings.shape[0] != 1):
        raise node.error(f"takes a [C] or [1, C] tensor, got shape {strings.shape}")
    action = node.attr("case_change_action", "NONE")
    if action not in ("NONE", "LOWER", "UPPER"):
        raise node.error(f"case_change_action {action!r} is not one of NONE, LOWER, UPPER")
    sensitive = node.attr("is_case_sensitive", 0)
    stops = set(node.attr("stopwords", []) or [])
    if not sensitive:
        stops = {w.lower() for w in stops}
    kept = [s for s in strings.reshape(-1) if (s if sensitive else s.lower()) not in stops]
    if action == "LOWER":
        kept = [s.lower() for s in kept]
    elif action == "UPPER":
        kept = [s.upper() for s in kept]
    out = numpy.array(kept or [""], object)
    return out if strings.ndim == 1 else out.reshape(1, -1)


def _regex_full_match(xp, node, x):
    strings = _strings(node, x)
    pattern = node.attr("pattern")
    try:
        regex = re.compile(pattern)
    except (re.error, TypeError) as e:
        raise node.error(f"pattern {pattern!r} does not compile: {e}") from None
    matched = [regex.fullmatch(s) is not None for s in strings.reshape(-1)]
    return numpy.array(matched, bool).reshape(strings.shape)


def _pool_ngrams(node, size_lo, size_hi):
    """[(n, grams (count, n), output indexes (count,))] of the pool's n-grams with n in [lo, hi]: the
    pool lists the 1-grams, then the 2-grams, ... from the offsets in ngram_counts; each n-gram's id
    (in pool order, over every size) picks its output column from ngram_indexes."""
    pool = node.attr("pool_int64s")
    pool = numpy.asarray(pool if pool is not None else node.attr("pool_strings", []))
    if pool.dtype.kind in "US":
        pool = pool.astype(object)
    starts = list(node.attr("ngram_counts", [])) + [len(pool)]
    indexes = numpy.asarray(node.attr("ngram_indexes", []), numpy.int64)
    out, first = [], 0
    for n, (lo, hi) in enumerate(itertools.pairwise(starts), start=1):
        count = (hi - lo) // n
        if size_lo <= n <= size_hi and count:
            grams = pool[lo : lo + count * n].reshape(count, n)
            out.append((n, grams, indexes[first : first + count]))
        first += count
    return out


def _tf_idf_vectorizer(xp, node, x):
    mode = node.attr("mode")
    if mode not in ("TF", "IDF", "TFIDF"):
        raise node.error(f"mode {mode!r} is not one of TF, IDF, TFIDF")
    lo, hi = node.attr("min_gram_length"), node.attr("max_gram_length")
    skips = node.attr("max_skip_count", 0)
    size = int(max(node.attr("ngram_indexes", [-1]))) + 1
    strings = numpy.dtype(x.dtype).kind in "OUST"
    if strings:  # a host dtype: NumPy, eagerly
        xp, x = numpy, _strings(node, x)
    if numpy.ndim(x) not in (1, 2):
        raise node.error(f"takes a [C] or [B, C] tensor, got shape {numpy.shape(x)}")
    rows = x if numpy.ndim(x) == 2 else x[None]
    width = numpy.shape(rows)[1]
    counts = xp.zeros((numpy.shape(rows)[0], size), numpy.float32)
    for n, grams, columns in _pool_ngrams(node, lo, hi):
        spread = numpy.zeros((len(grams), size), numpy.float32)
        spread[numpy.arange(len(grams)), columns] = 1  # each n-gram's count to its column
        for skip in range(1 if n == 1 else skips + 1):  # unigrams are counted once
            step = skip + 1
            length = width - (n - 1) * step
            if length <= 0:
                continue
            windows = xp.stack([rows[:, k * step : k * step + length] for k in range(n)], axis=-1)
            pool = grams if strings else xp.asarray(grams.astype(numpy.dtype(x.dtype)))
            hit = xp.all(windows[:, :, None, :] == pool[None, None], axis=-1)  # (B, L, grams)
            found = xp.sum(hit, axis=1).astype(numpy.float32)
            counts = counts + xp.matmul(found, xp.asarray(spread))
    weights = node.attr("weights")
    weights = (
        None if weights is None or len(weights) == 0 else numpy.asarray(weights, numpy.float32)
    )
    if mode == "IDF":
        present = (counts > 0).astype(numpy.float32)
        counts = present * weights if weights is not None else present
    elif mode == "TFIDF" and weights is not None:
        counts = counts * weights
    return counts if numpy.ndim(x) == 2 else counts[0]


string_rules.update(
    {
        "StringConcat": _string_concat,
        "StringSplit": _string_split,
        "StringNormalizer": _string_normalizer,
        "RegexFullMatch": _regex_full_match,
        "TfIdfVectorizer": _tf_idf_vectorizer,
    }
)

__all__ = ["string_rules"]
