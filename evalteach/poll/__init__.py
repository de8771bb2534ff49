"""The class poll: the whole class's predictions on the instructor's screen, for peer instruction.

On a JupyterHub with the poll (see the README, "Peer instruction on JupyterHub"), every
locked-in :class:`~evalteach.Predict` and every checked question that has an ``id=`` also sends
its answer, in the background, to the Hub-managed service ``evalteach-poll``. The instructor's
kernel shows under each question how many have answered, the distribution of the answers and
the controls of a peer-instruction round (start a live vote, close, second round, reveal).
While a question is run live, a student's answer, feedback and revealed explorer are held back
until the instructor reveals it (:mod:`evalteach.poll.live`); then each student sees them with
the class's answers beside their own.

- :func:`configure_hub`: one call in ``jupyterhub_config.py``.
- ``python -m evalteach.poll``: the service (:mod:`evalteach.poll.service`).
- :func:`attach`: what ``Predict`` and the questions call; None (and no network call) unless
  the Hub told the kernel where the poll is.

Without a Hub, or on one without the service, nothing changes.
"""
from __future__ import annotations

#: The service's name: its address is ``/services/evalteach-poll/`` behind the Hub's proxy.
SERVICE_NAME = "evalteach-poll"
#: Students' scope: send answers, see a question's answers once revealed.
ANSWER_SCOPE = "custom:evalteach-poll:answer"
#: Instructors' scope: see answers, change a question's state, export counts.
INSTRUCT_SCOPE = "custom:evalteach-poll:instruct"
#: The variable, set by the Hub, that tells a kernel where the poll is.
URL_VARIABLE = "EVALTEACH_POLL_URL"

from .hub import configure_hub  # noqa: E402 - after the names it uses

__all__ = ["configure_hub", "attach", "SERVICE_NAME", "ANSWER_SCOPE", "INSTRUCT_SCOPE", "URL_VARIABLE"]


def attach(question, *, options=None, correct=None, changed=None):
    """The class poll's view under one question, or None when this kernel takes no part.

    Parameters
    ----------
    question : str or None
        The question's id; a question without one takes no part.
    options : sequence of str, optional
        The options, for a question answered by picking one; None for a number.
    correct : str or float, optional
        The right option's text or the right number, marked when the instructor asks.
    changed : callable, optional
        Called with the ClassPoll, from a background thread, when the question may have to show
        an answer it holds back, or let the student change their vote.

    Returns
    -------
    evalteach.poll.views.ClassPoll or None
        None, with no network call, unless the Hub set ``EVALTEACH_POLL_URL`` and the kernel
        runs a notebook.
    """
    if question is None:
        return None
    from . import client

    connection = client.connection()
    if connection is None:
        return None
    from .views import ClassPoll

    return ClassPoll(connection, question, options=options, correct=correct, changed=changed)
