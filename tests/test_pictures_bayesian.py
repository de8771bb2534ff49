"""Pictures of the Bayesian comparisons: the three filled areas under the posterior are p_left,
p_rope and p_right; the signed-rank test's draws sit where their probabilities put them on the
simplex, each in the colour of its most probable region, and the legend gives the shares."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

import evalteach as et
from picture_checks import area, by_gid, legend_texts, one, x_span

D = [0.02, 0.01, 0.03, 0.00, 0.02]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.03])
@pytest.mark.parametrize("d", [D, [0.02, -0.01, 0.05, -0.03, 0.01, 0.0, 0.02, 0.04, -0.02, 0.03]])
def test_the_filled_areas_under_the_posterior_are_the_three_probabilities(rope, d):
    r = et.bayesian_correlated_t_test(d, test_train_ratio=0.25, rope=rope)
    ax = r.plot()
    for name, p in (("left", r.p_left), ("rope", r.p_rope), ("right", r.p_right)):
        filled = by_gid(ax, name)
        assert area(filled) == pytest.approx(p, abs=2e-4)
        assert bool(filled) == (name != "rope" or rope > 0)
    assert x_span(one(ax, "interval")) == pytest.approx((r.low, r.high))
    assert one(ax, "estimate").get_xdata()[0] == r.mean_difference
    assert sorted(line.get_xdata()[0] for line in by_gid(ax, "rope-edge")) == ([-rope, rope] if rope else [])
    band = one(ax, "interval").get_ydata()[0]        # the rope's edges stop below the interval's band
    assert all(max(line.get_ydata()) < band for line in by_gid(ax, "rope-edge"))


def test_a_posterior_without_spread_is_a_point_mass():
    r = et.bayesian_correlated_t_test([0.01] * 5, test_train_ratio=0.25, rope=0.02)
    ax = r.plot()
    assert r.scale == 0 and one(ax, "null").get_xdata()[0] == 0.01 and by_gid(ax, "rope") == []


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_each_draw_sits_on_the_simplex_in_the_colour_of_its_most_probable_region(rope):
    r = et.bayesian_signed_rank_test([0.02, 0.01, 0.03, -0.01, 0.02, 0.04, -0.005], rope=rope, n_samples=5000)
    ax = r.plot()
    shown = r.samples[:3000]
    corners = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])  # left, rope, right
    for index, name in enumerate(("left", "rope", "right")):
        mine = np.argmax(shown, axis=1) == index
        points = one(ax, name).get_offsets()
        np.testing.assert_allclose(points, shown[mine] @ corners)
    texts = legend_texts(ax)
    for p in (r.p_left, r.p_rope, r.p_right):
        assert any(text.endswith(f"most probable: {et._format.pct(p)}") for text in texts)
    assert sum(len(one(ax, name).get_offsets()) for name in ("left", "rope", "right")) == 3000
