"""The project's Jupyter configuration (jupyter-config/), which `make lab`, Binder and the
JupyterLite site use."""
import json

from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

from conftest import ROOT

PAGE_CONFIG = ROOT / "jupyter-config/labconfig/page_config.json"


def test_widget_messages_do_not_flip_the_kernel_indicator():
    """The page ignores the busy/idle status that answers a widget message (``comm_msg``), and
    only that: every type the server leaves untracked stays untracked. A newer jupyter_server
    that adds a type makes this fail, and the file gets the new type."""
    untracked = json.loads(PAGE_CONFIG.read_text())["untracked_message_types"]
    assert untracked == [*MappingKernelManager().untracked_message_types, "comm_msg"]

