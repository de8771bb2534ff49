"""One call in ``jupyterhub_config.py`` that adds the class poll to a JupyterHub (5 or 6).

What it sets, for admins who configure by hand or with Helm, is written out in the README
("Peer instruction on JupyterHub"). Options an admin already set are extended, not replaced:
in ``jupyterhub_config.py`` an option nobody set reads as a traitlets ``LazyConfigValue``
(which cannot be iterated), so every option is read through :func:`_read` first.
"""
from __future__ import annotations

import inspect
import sys
from urllib.parse import urlparse

from traitlets.config import LazyConfigValue

from . import ANSWER_SCOPE, INSTRUCT_SCOPE, SERVICE_NAME, URL_VARIABLE

__all__ = ["configure_hub", "INSTRUCTORS_GROUP", "STUDENTS_GROUP"]

INSTRUCTORS_GROUP = "evalteach-instructors"
STUDENTS_GROUP = "evalteach-students"
#: What a single-user server's token holds by default (JupyterHub's ``server`` role).
SERVER_SCOPES = ("users:activity!user", "access:servers!server")
POLL_SCOPES = (ANSWER_SCOPE, INSTRUCT_SCOPE)


def configure_hub(c, instructors, students=None, *, service_url="http://127.0.0.1:10101",
                  hub_url=None, db=None):
    """Add the class-poll service, its scopes, roles and groups to a JupyterHub configuration.

    Call it at the end of ``jupyterhub_config.py``, after your own settings (it extends them).

    Parameters
    ----------
    c : traitlets.config.Config
        The configuration object of ``jupyterhub_config.py``.
    instructors : list of str
        User names of the instructors (group ``evalteach-instructors``): they see the class's
        answers, open, close and reveal questions, and export the counts. Users can also be
        added to the group later, in the Hub's admin page.
    students : list of str, optional
        User names of the students (group ``evalteach-students``), who send answers and see a
        question's distribution once it is revealed. None (the default): every user of the Hub.
    service_url : str, default "http://127.0.0.1:10101"
        Where the service listens and the Hub's proxy reaches it.
    hub_url : str, optional
        Where kernels reach the Hub's proxy; the poll is at ``{hub_url}services/evalteach-poll/``.
        By default the Hub's own address from ``c.JupyterHub`` (``bind_url``, ``ip``, ``port``,
        ``base_url``), with 127.0.0.1 for "all interfaces": right when the servers run on the
        Hub's machine (the local-process spawners); give it for containers or Kubernetes.
    db : str, optional
        The service's SQLite file (``EVALTEACH_POLL_DB``); by default ``evalteach-poll.sqlite``
        in the folder the Hub runs in.

    Examples
    --------
    In ``jupyterhub_config.py``:

    >>> from evalteach.poll import configure_hub            # doctest: +SKIP
    >>> configure_hub(c, instructors=["ada"], students=None)  # doctest: +SKIP
    """
    instructors = _names("instructors", instructors)
    students = None if students is None else _names("students", students)
    hub = c.JupyterHub
    service = {"name": SERVICE_NAME, "url": service_url, "display": False,
               "command": [sys.executable, "-m", "evalteach.poll"]}
    if db is not None:
        service["environment"] = {"EVALTEACH_POLL_DB": str(db)}
    hub.services = [s for s in _read(hub, "services", []) if s.get("name") != SERVICE_NAME] + [service]

    hub.custom_scopes = {**_read(hub, "custom_scopes", {}),
                         ANSWER_SCOPE: {"description": "Send answers to the evalteach class poll and "
                                                       "see a question's answers once revealed."},
                         INSTRUCT_SCOPE: {"description": "See the evalteach class poll's answers; open, "
                                                         "close and reveal questions; export counts."}}

    groups = {INSTRUCTORS_GROUP: instructors}
    roles = [{"name": "evalteach-poll-instructor", "description": "Runs the evalteach class poll",
              "scopes": [INSTRUCT_SCOPE], "groups": [INSTRUCTORS_GROUP]}]
    if students is not None:
        groups[STUDENTS_GROUP] = students
        roles.append({"name": "evalteach-poll-student", "description": "Answers the evalteach class poll",
                      "scopes": [ANSWER_SCOPE], "groups": [STUDENTS_GROUP]})
    hub.load_groups = _with_members(_read(hub, "load_groups", {}), groups)
    names = {r["name"] for r in roles}
    hub.load_roles = [r for r in _read(hub, "load_roles", []) if r.get("name") not in names] + roles
    if students is None:
        _every_user_answers(hub)

    for section in _spawner_sections(c, "server_token_scopes"):
        section.server_token_scopes = _with_poll_scopes(_read(section, "server_token_scopes", None))
    url = (hub_url or _hub_url(hub)).rstrip("/") + f"/services/{SERVICE_NAME}/"
    for section in _spawner_sections(c, "environment"):
        section.environment = {**_read(section, "environment", {}), URL_VARIABLE: url}


def _names(field, names):
    if isinstance(names, (str, bytes)) or not hasattr(names, "__iter__"):
        raise TypeError(f"{field} must be a list of user names, got {names!r}")
    names = list(names)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"{field} must hold non-empty user names, got {name!r} in {names!r}")
    return names


def _read(section, name, empty):
    """The option's value; ``empty`` if unset; a ``LazyConfigValue`` (an ``.append`` or
    ``.update`` on an unset option) applied to ``empty``."""
    if name not in section:
        return empty
    value = section[name]
    return value.get_value(empty) if isinstance(value, LazyConfigValue) else value


def _with_members(groups, members):
    """``load_groups`` with each group's users added (both forms: a list, or {"users": [...]})."""
    groups = dict(groups)
    for name, users in members.items():
        group = groups.get(name, {"users": []})
        if isinstance(group, dict):
            old = list(group.get("users", []))
            groups[name] = {**group, "users": old + [u for u in users if u not in old]}
        else:
            groups[name] = list(group) + [u for u in users if u not in group]
    return groups


def _every_user_answers(hub):
    """Give the answer scope to every user: extend an overridden ``user`` role if the config has
    one, else use ``extra_user_scopes`` (JupyterHub 6) or override the ``user`` role (5)."""
    roles = _read(hub, "load_roles", [])
    user_role = next((r for r in roles if r.get("name") == "user"), None)
    if user_role is None and _jupyterhub_major() >= 6:
        hub.extra_user_scopes = set(_read(hub, "extra_user_scopes", set())) | {ANSWER_SCOPE}
        return
    if user_role is None:
        roles = [*roles, {"name": "user", "scopes": ["self"]}]
        user_role = roles[-1]
    scopes = list(user_role.get("scopes", ["self"]))
    user_role["scopes"] = scopes + [ANSWER_SCOPE] * (ANSWER_SCOPE not in scopes)
    hub.load_roles = roles


def _jupyterhub_major():
    import jupyterhub

    return int(jupyterhub.__version__.split(".")[0])


def _spawner_sections(c, option):
    """``c.Spawner``, and every other ``*Spawner`` section that sets ``option`` itself (a
    subclass's setting would hide ``c.Spawner``'s)."""
    sections = [c.Spawner]
    sections += [c[name] for name in list(c) if name.endswith("Spawner") and name != "Spawner"
                 and option in c[name]]
    return sections


def _with_poll_scopes(requested):
    """``server_token_scopes`` that also ask for the poll's scopes (the Hub grants a server's
    token only those its user holds). A callable is wrapped; unset means the ``server`` role."""
    if callable(requested):
        async def scopes(spawner):
            chosen = requested(spawner)
            if inspect.isawaitable(chosen):
                chosen = await chosen
            return _with_poll_scopes(chosen)
        return scopes
    requested = list(requested or SERVER_SCOPES)
    return requested + [s for s in POLL_SCOPES if s not in requested]


def _hub_url(hub):
    """The Hub's public address as its own machine reaches it, from ``c.JupyterHub``."""
    parsed = urlparse(_read(hub, "bind_url", "http://:8000"))
    scheme, host, port, base = parsed.scheme or "http", parsed.hostname or "", parsed.port, parsed.path
    host = _read(hub, "ip", host)
    port = _read(hub, "port", port) or 8000
    base = _read(hub, "base_url", base) or "/"
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    if ":" in host:
        host = f"[{host}]"
    path = f"/{base.strip('/')}/" if base.strip("/") else "/"
    return f"{scheme}://{host}:{port}{path}"
