"""``configure_hub`` on a JupyterHub configuration: what it adds, what it keeps of the admin's
own settings (also unset options, which read as traitlets LazyConfigValues), and what JupyterHub
makes of the result (its own traits validate it)."""
import asyncio
from concurrent.futures import ThreadPoolExecutor
import sys

import pytest
from traitlets.config import Config

pytest.importorskip("jupyterhub")
from jupyterhub.app import JupyterHub  # noqa: E402
from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner  # noqa: E402

from evalteach.poll import ANSWER_SCOPE, INSTRUCT_SCOPE, URL_VARIABLE, configure_hub, hub  # noqa: E402

POLL_URL = "http://127.0.0.1:8000/services/evalteach-poll/"


def configured(c=None, instructors=("ada",), students=None, **kwargs):
    c = Config() if c is None else c
    configure_hub(c, list(instructors), students, **kwargs)
    return c


def role(app, name):
    (found,) = [r for r in app.load_roles if r["name"] == name]
    return found


def test_a_fresh_config_gets_the_service_scopes_roles_groups_and_kernel_environment():
    c = configured(instructors=["ada", "bo"], students=["cy", "di"], db="/srv/poll.sqlite")
    app = JupyterHub(config=c)
    (service,) = app.services
    assert service == {"name": "evalteach-poll", "url": "http://127.0.0.1:10101", "display": False,
                       "command": [sys.executable, "-m", "evalteach.poll"],
                       "environment": {"EVALTEACH_POLL_DB": "/srv/poll.sqlite"}}
    assert set(app.custom_scopes) == {ANSWER_SCOPE, INSTRUCT_SCOPE}
    assert app.load_groups == {"evalteach-instructors": {"users": ["ada", "bo"]},
                               "evalteach-students": {"users": ["cy", "di"]}}
    assert role(app, "evalteach-poll-instructor")["scopes"] == [INSTRUCT_SCOPE]
    assert role(app, "evalteach-poll-instructor")["groups"] == ["evalteach-instructors"]
    assert role(app, "evalteach-poll-student") == {
        "name": "evalteach-poll-student", "description": "Answers the evalteach class poll",
        "scopes": [ANSWER_SCOPE], "groups": ["evalteach-students"]}
    assert not app.extra_user_scopes  # students are named: not every user answers
    spawner = LocalProcessSpawner(config=c)
    assert spawner.environment == {URL_VARIABLE: POLL_URL}
    assert spawner.server_token_scopes == ["users:activity!user", "access:servers!server",
                                           ANSWER_SCOPE, INSTRUCT_SCOPE]


def test_every_user_answers_through_extra_user_scopes_on_jupyterhub_6():
    app = JupyterHub(config=configured())
    assert app.extra_user_scopes == {ANSWER_SCOPE}
    assert [r["name"] for r in app.load_roles] == ["evalteach-poll-instructor"]
    assert "evalteach-students" not in app.load_groups


def test_every_user_answers_through_the_user_role_on_jupyterhub_5(monkeypatch):
    monkeypatch.setattr(hub, "_jupyterhub_major", lambda: 5)
    app = JupyterHub(config=configured())
    assert role(app, "user")["scopes"] == ["self", ANSWER_SCOPE]
    assert not app.extra_user_scopes


def test_an_overridden_user_role_is_extended_on_either_version():
    c = Config()
    c.JupyterHub.load_roles = [{"name": "user", "scopes": ["self", "access:services"]}]
    app = JupyterHub(config=configured(c))
    assert role(app, "user")["scopes"] == ["self", "access:services", ANSWER_SCOPE]
    assert not app.extra_user_scopes  # JupyterHub 6 would ignore them beside an overridden role


def test_the_admins_own_settings_are_kept():
    c = Config()
    c.JupyterHub.services = [{"name": "idle-culler", "command": ["cull"]}]
    c.JupyterHub.load_roles = [{"name": "culler", "scopes": ["admin:servers"], "services": ["idle-culler"]}]
    c.JupyterHub.load_groups = {"evalteach-instructors": ["ada", "eve"], "tutors": {"users": ["tu"]}}
    c.JupyterHub.custom_scopes = {"custom:mine:read": {"description": "mine"}}
    c.JupyterHub.extra_user_scopes = {"access:services"}
    c.Spawner.environment = {"LANG": "C.UTF-8"}
    c.Spawner.server_token_scopes = ["users:activity!user", "read:users:name"]
    app = JupyterHub(config=configured(c, instructors=["ada", "fay"]))
    assert [s["name"] for s in app.services] == ["idle-culler", "evalteach-poll"]
    assert [r["name"] for r in app.load_roles] == ["culler", "evalteach-poll-instructor"]
    assert app.load_groups == {"evalteach-instructors": ["ada", "eve", "fay"], "tutors": {"users": ["tu"]}}
    assert set(app.custom_scopes) == {"custom:mine:read", ANSWER_SCOPE, INSTRUCT_SCOPE}
    assert app.extra_user_scopes == {"access:services", ANSWER_SCOPE}
    spawner = LocalProcessSpawner(config=c)
    assert spawner.environment == {"LANG": "C.UTF-8", URL_VARIABLE: POLL_URL}
    assert spawner.server_token_scopes == ["users:activity!user", "read:users:name", ANSWER_SCOPE, INSTRUCT_SCOPE]


def test_lazy_values_of_unset_options_are_kept():
    """``c.JupyterHub.services.append(...)`` on an unset option makes a LazyConfigValue."""
    c = Config()
    c.JupyterHub.services.append({"name": "idle-culler", "command": ["cull"]})
    c.JupyterHub.load_groups.update({"tutors": {"users": ["tu"]}})
    c.Spawner.environment.update({"LANG": "C.UTF-8"})
    app = JupyterHub(config=configured(c))
    assert [s["name"] for s in app.services] == ["idle-culler", "evalteach-poll"]
    assert set(app.load_groups) == {"tutors", "evalteach-instructors"}
    assert LocalProcessSpawner(config=c).environment == {"LANG": "C.UTF-8", URL_VARIABLE: POLL_URL}


def test_a_spawner_subclass_setting_of_its_own_is_extended_too():
    """A subclass's own option would hide ``c.Spawner``'s (Zero to JupyterHub sets
    ``c.KubeSpawner.environment``)."""
    c = Config()
    c.SimpleLocalProcessSpawner.environment = {"A": "1"}
    c.SimpleLocalProcessSpawner.home_dir_template = "/tmp/{username}"
    configured(c)
    assert SimpleLocalProcessSpawner(config=c).environment == {"A": "1", URL_VARIABLE: POLL_URL}
    assert "server_token_scopes" not in c.SimpleLocalProcessSpawner  # it set none of its own


def run_apart(coroutine):
    """Run ``coroutine`` to its end in a thread of its own: the browser tests keep Playwright's
    event loop running in the worker's main thread, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=30)


def test_callable_token_scopes_are_wrapped():
    def sync_scopes(spawner):
        return ["users:activity!user", f"read:users!user={spawner}"]

    async def async_scopes(spawner):
        return ["users:activity!user"]

    for chosen, expected in [(sync_scopes, ["users:activity!user", "read:users!user=me"]),
                             (async_scopes, ["users:activity!user"]), (lambda s: None, list(hub.SERVER_SCOPES))]:
        c = Config()
        c.Spawner.server_token_scopes = chosen
        wrapped = configured(c).Spawner.server_token_scopes
        assert run_apart(wrapped("me")) == expected + [ANSWER_SCOPE, INSTRUCT_SCOPE]


def test_configuring_twice_adds_nothing_twice():
    c = configured(configured(instructors=["ada"], students=["cy"]), instructors=["ada"], students=["cy"])
    app = JupyterHub(config=c)
    assert len(app.services) == 1 and len(app.load_roles) == 2
    assert app.load_groups["evalteach-instructors"] == {"users": ["ada"]}
    assert LocalProcessSpawner(config=c).server_token_scopes.count(ANSWER_SCOPE) == 1


@pytest.mark.parametrize("settings, expected", [
    ({}, "http://127.0.0.1:8000/"),
    ({"ip": "0.0.0.0", "port": 8443, "base_url": "/jhub"}, "http://127.0.0.1:8443/jhub/"),
    ({"ip": "10.1.2.3"}, "http://10.1.2.3:8000/"),
    ({"ip": "::"}, "http://[::1]:8000/"),
    ({"bind_url": "https://:443/hub-prefix/"}, "https://127.0.0.1:443/hub-prefix/"),
])
def test_kernels_reach_the_poll_through_the_hubs_own_address(settings, expected):
    c = Config()
    for name, value in settings.items():
        setattr(c.JupyterHub, name, value)
    assert configured(c).Spawner.environment[URL_VARIABLE] == expected + "services/evalteach-poll/"


def test_a_given_hub_url_wins():
    c = configured(hub_url="http://proxy-public/", service_url="http://hub:10101")
    assert c.Spawner.environment[URL_VARIABLE] == "http://proxy-public/services/evalteach-poll/"
    assert c.JupyterHub.services[0]["url"] == "http://hub:10101"


@pytest.mark.parametrize("instructors, students, error, words", [
    ("ada", None, TypeError, "instructors must be a list of user names, got 'ada'"),
    (["ada", ""], None, ValueError, "instructors must hold non-empty user names"),
    (["ada"], "cy", TypeError, "students must be a list of user names"),
    (["ada"], [None], ValueError, "students must hold non-empty user names, got None"),
])
def test_bad_names_are_refused(instructors, students, error, words):
    with pytest.raises(error, match=words):
        configure_hub(Config(), instructors, students)
