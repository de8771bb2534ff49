"""Small real data sets for the lessons, all bundled with scikit-learn (no download).

scikit-learn is imported lazily: it adds about a second to import time.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import _validate

DATASETS = ("breast_cancer", "wine", "iris", "digits")


@dataclass(frozen=True, repr=False)
class Dataset:
    """Features ``X`` (n, d), labels ``y`` (n,), and what they mean."""

    name: str
    X: np.ndarray
    y: np.ndarray
    class_names: tuple
    description: str

    def __repr__(self):
        counts = ", ".join(f"{c}: {k}" for c, k in zip(self.class_names, np.bincount(self.y)))
        return f"Dataset({self.name!r}, n={len(self.y)}, d={self.X.shape[1]}, classes {{{counts}}})"


@lru_cache(maxsize=None)
def _load(name):
    from sklearn import datasets

    loader = {"breast_cancer": datasets.load_breast_cancer, "wine": datasets.load_wine,
              "iris": datasets.load_iris, "digits": datasets.load_digits}[name]
    bunch = loader()
    X = np.asarray(bunch.data, dtype=float)
    y = np.asarray(bunch.target, dtype=int)
    X.setflags(write=False)
    y.setflags(write=False)
    return X, y, tuple(str(c) for c in bunch.target_names)


def load_dataset(name="breast_cancer", binary=False):
    """Load a bundled UCI data set.

    Parameters
    ----------
    name : {"breast_cancer", "wine", "iris", "digits"}
        Breast cancer (569 tumours, 30 features; malignant 212 / benign 357),
        wine (178, 13, three cultivars), iris (150, 4, three species), digits
        (1797 8x8 images, ten digits).
    binary : bool, default False
        Make a two-class problem: class 0 against the rest (breast cancer is
        already two-class: 0 is malignant).

    Returns
    -------
    Dataset

    Examples
    --------
    >>> load_dataset("breast_cancer")
    Dataset('breast_cancer', n=569, d=30, classes {malignant: 212, benign: 357})
    """
    _validate.choice("name", name, DATASETS)
    X, y, class_names = _load(name)
    description = f"{name.replace('_', ' ')} (UCI, bundled with scikit-learn)"
    if binary and len(class_names) > 2:
        y = (y != 0).astype(int)
        class_names = (class_names[0], f"not {class_names[0]}")
    return Dataset(name, X, y, class_names, description)


def random_dataset(n=100, n_features=5, seed=0):
    """Pure noise: features and balanced labels drawn independently.

    No learner can beat 50% error here, which makes it the test bed for the
    resampling counterexamples (leave-one-out with a majority-class learner,
    the .632 bootstrap with a memoriser).
    """
    n = _validate.integer("n", n, low=2)
    n_features = _validate.integer("n_features", n_features, low=1)
    rng = np.random.default_rng(_validate.integer("seed", seed, low=0))
    X = rng.normal(size=(n, n_features))
    y = rng.permutation(np.arange(n) % 2)
    return Dataset("random", X, y, ("0", "1"), "random noise, balanced classes")
