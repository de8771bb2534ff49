"""The classifiers the lessons use: ordinary scikit-learn estimators, by short name."""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from . import _validate

LEARNERS = {
    "1nn": "1-nearest neighbour (memorises its training set)",
    "knn": "5-nearest neighbours (scaled features)",
    "tree": "decision tree (unpruned)",
    "stump": "decision stump (depth 1)",
    "naive_bayes": "Gaussian naive Bayes",
    "logistic": "logistic regression (scaled features)",
    "majority": "always predicts the majority class of its training set",
}

#: The learners' names as the pictures print them ("naive Bayes", not ``naive_bayes``).
LEARNER_LABELS = {"1nn": "1-NN", "knn": "5-NN", "tree": "decision tree", "stump": "decision stump",
                  "naive_bayes": "naive Bayes", "logistic": "logistic regression", "majority": "majority class"}


def make_learner(name="1nn", seed=0):
    """An unfitted scikit-learn classifier.

    Parameters
    ----------
    name : str
        One of ``LEARNERS``: ``"1nn"``, ``"knn"``, ``"tree"``, ``"stump"``,
        ``"naive_bayes"``, ``"logistic"``, ``"majority"``.
    seed : int
        ``random_state`` for learners that use one.

    Examples
    --------
    >>> make_learner("stump")
    DecisionTreeClassifier(max_depth=1, random_state=0)
    """
    _validate.choice("name", name, tuple(LEARNERS))
    seed = _validate.integer("seed", seed, low=0)
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    if name == "1nn":
        return KNeighborsClassifier(n_neighbors=1)
    if name == "knn":
        return make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5))
    if name == "tree":
        return DecisionTreeClassifier(random_state=seed)
    if name == "stump":
        return DecisionTreeClassifier(max_depth=1, random_state=seed)
    if name == "naive_bayes":
        return GaussianNB()
    if name == "logistic":
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    return DummyClassifier(strategy="most_frequent")


@lru_cache(maxsize=1)
def _thread_controller():
    # created once (inspecting the loaded libraries takes milliseconds), after the
    # learners' modules have loaded their native thread pools
    make_learner("logistic")
    from threadpoolctl import ThreadpoolController  # a dependency of scikit-learn

    return ThreadpoolController()


def one_thread():
    """A context in which numpy's BLAS and scikit-learn's OpenMP use one thread: on small
    problems on a busy machine, worker threads cost several times what they save."""
    return _thread_controller().limit(limits=1)


@contextmanager
def fitting():
    """Fit small learners fast: one thread, and scikit-learn's input validation off (the
    bundled data sets are finite and well formed). On these problems worker threads and
    checks cost more than the fit itself: logistic regression on breast cancer ran about
    25x faster on a busy 2-core machine."""
    import sklearn

    try:
        checks_off = sklearn.config_context(assume_finite=True, skip_parameter_validation=True)
    except TypeError:  # scikit-learn < 1.3 has no skip_parameter_validation
        checks_off = sklearn.config_context(assume_finite=True)
    with one_thread(), checks_off:
        yield
