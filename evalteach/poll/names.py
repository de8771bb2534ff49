"""The names a Hub admin, the service and a kernel agree on (scopes, service, environment).

They live apart from the package's ``__init__`` so that its modules can import them without
importing the package back (no import circles: ``tests/test_import_graph.py``).
"""

#: The service's name: its address is ``/services/evalteach-poll/`` behind the Hub's proxy.
SERVICE_NAME = "evalteach-poll"
#: Students' scope: send answers, see a question's answers once revealed.
ANSWER_SCOPE = "custom:evalteach-poll:answer"
#: Instructors' scope: see answers, change a question's state, export counts.
INSTRUCT_SCOPE = "custom:evalteach-poll:instruct"
#: The variable, set by the Hub, that tells a kernel where the poll is.
URL_VARIABLE = "EVALTEACH_POLL_URL"
