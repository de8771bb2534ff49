"""A result's picture in a real kernel: matplotlib's inline backend shows the figure through
ResultFigure, as a PNG at twice its on-screen pixels with its size and the verdict as metadata, and
nbconvert's classic HTML writes that verdict as the image's alt text. Computing results loads no
matplotlib."""
import base64
import struct
import subprocess
import sys

import nbformat
import pytest
from nbclient import NotebookClient
from nbconvert import HTMLExporter

CODE = """\
import evalteach as et
r = et.mcnemar_test([[40, 10], [3, 47]])
ax = r.plot()
"""


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CODE),
                                         nbformat.v4.new_code_cell("print(r.verdict)")])
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path_factory.mktemp("nb"))}}).execute()
    return nb


def _picture(nb):
    shown = [o for o in nb.cells[0].outputs if o.output_type == "display_data" and "image/png" in o.data]
    assert len(shown) == 1, nb.cells[0].outputs
    return shown[0]


def test_the_inline_backend_shows_a_2x_png_with_its_size_and_the_verdict(executed):
    out = _picture(executed)
    verdict = executed.cells[1].outputs[0].text.strip()
    png = base64.b64decode(out.data["image/png"])
    width, height = struct.unpack(">II", png[16:24])
    meta = out.metadata["image/png"]
    assert (width, height) == (2 * meta["width"], 2 * meta["height"])
    assert verdict.startswith(meta["alt"]) and meta["alt"].startswith("A and B do not differ significantly at the 5% level (p = 0.0961")
    assert out.data["text/plain"] == meta["alt"]


def test_classic_html_export_carries_the_verdict_as_alt_text(executed):
    html, _ = HTMLExporter(template_name="classic").from_notebook_node(executed)
    alt = _picture(executed).metadata["image/png"]["alt"]
    assert f'alt="{alt}"'.replace("'", "&#39;") in html or f'alt="{alt}"' in html


def test_computing_results_loads_no_matplotlib():
    code = ("import sys, evalteach as et\n"
            "et.proportion_interval(12, 40); et.paired_t_test([1, 2, 3]); et.friedman_test([[1, 2], [2, 1], [1, 3]])\n"
            "et.reliability_diagram([0, 1], [0.2, 0.7]); et.roc_curve([0, 1, 1], [0.1, 0.4, 0.8]).convex_hull()\n"
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
