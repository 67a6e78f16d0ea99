"""The nearest name to a mistyped one, by the rule hxctl follows
(clients/hxctl_suggest.c): the fewest single-letter edits (insert,
delete, change, swap of neighbours), at most 1 for words of up to 3
letters, 2 up to 8, else 3."""

__all__ = ["nearest", "did_you_mean"]


def _distance(a, b, limit):
    """Optimal string alignment distance of a and b, or limit + 1 past it."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if (i > 1 and j > 1 and a[i - 1] == b[j - 2]
                    and a[i - 2] == b[j - 1]):
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[len(b)]


def nearest(word, names):
    """The name nearest to ``word`` within the limit, or None."""
    limit = 1 if len(word) <= 3 else 2 if len(word) <= 8 else 3
    best, best_d = None, limit + 1
    for n in names:
        if not n or n == word:
            continue
        d = _distance(word, n, limit)
        if d < best_d:
            best, best_d = n, d
    return best


def did_you_mean(word, names):
    """'; did you mean "NAME"?' with the nearest name, or ''."""
    n = nearest(word, names)
    return '; did you mean "%s"?' % n if n is not None else ""
